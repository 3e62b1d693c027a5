"""tester2 #11: an extension whose ``activate`` blocks (``time.sleep(40)``) froze start-up for 40 s with no word
naming it and no error afterwards. A plain ``def activate`` (and the import) now run off the event loop: the loop
goes on, the user is told which extension is slow after ~2 s (``on_slow_load``), and one still running after the
handler timeout is one ``activate`` error naming it, with what it registered taken back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions import activation

from .fakes import make_runtime, sources, write_ext

SLOW_BUT_FINE = """
import time
def activate(pi):
    pi.register_command("early", lambda args, ctx: None, "registered before the wait")
    time.sleep({sleep})
    pi.register_command("late", lambda args, ctx: None, "registered after the wait")
"""


async def _load_counting_ticks(runtime: Any, tmp_path: Path) -> tuple[list[Any], int]:
    ticks = 0
    stop = asyncio.Event()

    async def tick() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.ensure_future(tick())
    try:
        errors = await runtime.load(sources(tmp_path, cli_paths=[str(tmp_path / "ext" / "slow_activate.py")]))
    finally:
        stop.set()
        await ticker
    return errors, ticks


def test_a_slow_activate_leaves_the_loop_free_and_names_the_extension(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(activation, "SLOW_NOTICE_S", 0.2)
    write_ext(tmp_path / "ext", "slow_activate.py", SLOW_BUT_FINE.format(sleep=1.0))
    runtime, host = make_runtime(tmp_path, timeout=20)
    said: list[str | None] = []
    runtime.on_slow_load = said.append
    errors, ticks = asyncio.run(_load_counting_ticks(runtime, tmp_path))
    assert errors == [] and host.errors == []
    assert ticks > 20  # the loop ran while activate slept (it ran none before: activate blocked it)
    assert said and said[0] is not None and "Loading extension slow_activate" in said[0] and said[-1] is None
    names = {c.name for c in runtime.commands.all()}
    assert {"early", "late"} <= names  # registered from the worker thread, through the loop


def test_an_activate_that_never_ends_is_one_error_and_is_taken_back(tmp_path: Path) -> None:
    write_ext(tmp_path / "ext", "slow_activate.py", SLOW_BUT_FINE.format(sleep=2.5))
    runtime, host = make_runtime(tmp_path, timeout=0.5)
    errors, _ = asyncio.run(_load_counting_ticks(runtime, tmp_path))
    assert len(errors) == 1 and errors[0].event == "activate" and errors[0].extension == "slow_activate"
    assert "did not finish within 0.5 s" in errors[0].text
    assert host.errors == [errors[0].text]
    time.sleep(2.5)  # the thread wakes and calls pi again: refused, nothing registered
    names = {c.name for c in runtime.commands.all()}
    assert "early" not in names and "late" not in names
    assert runtime.extensions == []


def test_a_blocking_import_is_held_to_the_same_limit(tmp_path: Path) -> None:
    write_ext(tmp_path / "ext", "slow_activate.py", "import time\ntime.sleep(2.5)\ndef activate(pi):\n    pass\n")
    runtime, host = make_runtime(tmp_path, timeout=0.5)
    errors, ticks = asyncio.run(_load_counting_ticks(runtime, tmp_path))
    assert len(errors) == 1 and errors[0].event == "load" and "did not finish within 0.5 s" in errors[0].text
    assert ticks > 10


def test_an_async_activate_still_runs_on_the_loop(tmp_path: Path) -> None:
    write_ext(tmp_path / "ext", "slow_activate.py", """
import asyncio, threading
SEEN = []
async def activate(pi):
    SEEN.append(threading.current_thread() is threading.main_thread())
    await asyncio.sleep(0)
    pi.register_command("async-one", lambda args, ctx: None, "async")
""")
    runtime, host = make_runtime(tmp_path, timeout=5)
    errors, _ = asyncio.run(_load_counting_ticks(runtime, tmp_path))
    assert errors == []
    assert runtime.extensions[0].module.SEEN == [True]
    assert "async-one" in {c.name for c in runtime.commands.all()}
