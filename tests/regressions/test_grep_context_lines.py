"""``grep`` with ``context``: pi 1.5.0 and 1.5.1 fixes, for both search backends.

* pi 1.5.0: a lone ``\\r`` (old Mac line ends, a progress bar captured in a log) was read as a line break when
  the context lines were fetched, while ripgrep numbers lines by ``\\n`` only, so every context line after it
  was off by one: the "match" line printed was not the matching one.
* pi 1.5.1: context lines were fetched by reading the whole file into memory; they are now read as a stream up
  to the last line needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.tools import grep as grep_module
from pi_tui.coding.tools.grep import GrepTool
from pi_tui.coding.tools.search_backend import find_program

from ..coding.tools.helpers import run, text_of

pytestmark = pytest.mark.anyio

BACKENDS = ["python", pytest.param("auto", id="external")]


def _need_rg(backend: str) -> None:
    if backend == "auto" and find_program("rg") is None:
        pytest.skip("ripgrep is not installed (CI installs it)")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_lone_cr_does_not_shift_context_lines(tmp_path: Path, backend: str) -> None:
    _need_rg(backend)
    (tmp_path / "log.txt").write_bytes(b"progress 10%\rprogress 100%\nbefore\nNEEDLE here\nafter\n")
    result = await run(GrepTool(str(tmp_path), backend=backend),  # type: ignore[arg-type]
                       {"pattern": "NEEDLE", "context": 1})
    lines = text_of(result).split("\n\n")[0].splitlines()
    assert lines == ["log.txt-2- before", "log.txt:3: NEEDLE here", "log.txt-4- after"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_crlf_file_context_lines(tmp_path: Path, backend: str) -> None:
    _need_rg(backend)
    (tmp_path / "w.txt").write_bytes(b"one\r\ntwo\r\nNEEDLE\r\nfour\r\n")
    result = await run(GrepTool(str(tmp_path), backend=backend),  # type: ignore[arg-type]
                       {"pattern": "NEEDLE", "context": 2})
    lines = text_of(result).split("\n\n")[0].splitlines()
    assert lines == ["w.txt-1- one", "w.txt-2- two", "w.txt:3: NEEDLE", "w.txt-4- four"]


async def test_context_is_read_only_up_to_the_last_needed_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.log"
    with path.open("wb") as f:
        f.write(b"NEEDLE at the top\n")
        for i in range(200_000):
            f.write(b"filler line %d\n" % i)
    reads: list[int] = []
    real_open = open

    class Counting:
        def __init__(self, inner: object) -> None:
            self.inner = inner

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.inner.close()  # type: ignore[attr-defined]

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        def read(self, *args: object) -> object:
            data = self.inner.read(*args)  # type: ignore[attr-defined]
            reads.append(len(data))
            return data

        def __iter__(self) -> Counting:
            return self

        def __next__(self) -> bytes:
            line: bytes = next(self.inner)  # type: ignore[call-overload]
            reads.append(len(line))
            return line

    def counting_open(file: object, mode: str = "r", *args: object, **kw: object) -> object:
        handle = real_open(file, mode, *args, **kw)  # type: ignore[call-overload]
        return Counting(handle) if str(file) == str(path) else handle

    _need_rg("auto")  # ripgrep finds the match; only the context lines are read by Python
    monkeypatch.setattr(grep_module, "open", counting_open, raising=False)
    result = await run(GrepTool(str(tmp_path), backend="auto"), {"pattern": "NEEDLE", "context": 2})  # type: ignore[arg-type]
    assert text_of(result).split("\n\n")[0].splitlines() == [
        "big.log:1: NEEDLE at the top", "big.log-2- filler line 0", "big.log-3- filler line 1"]
    assert sum(reads) < 100  # three short lines, not the 3.5 MB file
