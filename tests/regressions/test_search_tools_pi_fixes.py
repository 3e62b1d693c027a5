"""find, grep, ls and write: pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md, "Tools"), for both search
backends (the external programs when present, and the Python fallback)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_tui.coding.tools.find import FindTool
from pi_tui.coding.tools.grep import GrepTool
from pi_tui.coding.tools.ls import LsTool
from pi_tui.coding.tools.search_backend import find_program

from ..coding.tools.helpers import run, text_of

pytestmark = pytest.mark.anyio

BACKENDS = ["python", pytest.param("auto", id="external")]


def _tree(root: Path) -> Path:
    """``root/src/src/a.ts`` (a project *inside* a folder called src) and friends."""
    project = root / "src" / "app"
    for rel in ("src/a.ts", "src/sub/b.ts", "lib/c.ts", "d.ts"):
        path = project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel}\n")
    (root / "src" / "outside.ts").write_text("outside\n")
    return project


def _lines(text: str) -> list[str]:
    return sorted(line for line in text.split("\n\n")[0].splitlines() if line)


def _need_external(backend: str) -> None:
    if backend == "auto" and find_program("fd", "fdfind") is None:
        pytest.skip("fd is not installed (CI installs it)")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_find_dot_slash_pattern(tmp_path: Path, backend: str) -> None:
    """pi 1.6.0: ``./src/*.ts`` found nothing; it means src/ at the top of the search path."""
    _need_external(backend)
    project = _tree(tmp_path)
    result = await run(FindTool(str(project), backend=backend), {"pattern": "./src/*.ts"})  # type: ignore[arg-type]
    assert _lines(text_of(result)) == ["src/a.ts"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_find_path_pattern_never_matches_folders_above_the_search_path(tmp_path: Path, backend: str) -> None:
    """pi 1.6.0: with the project in ``.../src/app``, ``src/**/*.ts`` returned every .ts file of the project."""
    _need_external(backend)
    project = _tree(tmp_path)
    result = await run(FindTool(str(project), backend=backend), {"pattern": "src/**/*.ts"})  # type: ignore[arg-type]
    assert _lines(text_of(result)) == ["src/a.ts", "src/sub/b.ts"]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_find_limit_notice_only_when_more_exist(tmp_path: Path, backend: str) -> None:
    """pi 1.5.1: exactly ``limit`` matches reported the limit; ``limit: 0`` returned everything or nothing."""
    _need_external(backend)
    project = _tree(tmp_path)
    tool = FindTool(str(project), backend=backend)  # type: ignore[arg-type]
    exact = text_of(await run(tool, {"pattern": "*.ts", "limit": 4}))
    assert "limit reached" not in exact and len(_lines(exact)) == 4
    fewer = text_of(await run(tool, {"pattern": "*.ts", "limit": 3}))
    assert "[3 results limit reached" in fewer and len(_lines(fewer)) == 3
    zero = text_of(await run(tool, {"pattern": "*.ts", "limit": 0}))
    assert len(_lines(zero)) == 1 and "[1 results limit reached" in zero


async def test_ls_limit_below_one_means_one(tmp_path: Path) -> None:
    """pi 1.5.1: ``limit: 0`` in ls returned an empty listing."""
    _tree(tmp_path)
    text = text_of(await run(LsTool(str(tmp_path / "src" / "app")), {"limit": 0}))
    assert text.startswith("d.ts") and "1 entries limit reached" in text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_grep_glob_is_matched_from_path(tmp_path: Path, backend: str) -> None:
    """pi 1.5.1: with ``path: "app"`` a glob ``src/*.ts`` was matched from the start folder and found nothing."""
    if backend == "auto" and find_program("rg") is None:
        pytest.skip("ripgrep is not installed (CI installs it)")
    project = _tree(tmp_path)
    tool = GrepTool(str(project.parent), backend=backend)  # type: ignore[arg-type]
    result = await run(tool, {"pattern": "ts", "path": "app", "glob": "src/*.ts"})
    assert _lines(text_of(result)) == ["src/a.ts:1: src/a.ts"]


async def test_grep_ignores_ripgrep_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pi 1.4.0: RIPGREP_CONFIG_PATH with ``--fixed-strings`` turned regex searches into literal ones."""
    if find_program("rg") is None:
        pytest.skip("ripgrep is not installed (CI installs it)")
    config = tmp_path / "rgrc"
    config.write_text("--fixed-strings\n")
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(config))
    project = _tree(tmp_path)
    result = await run(GrepTool(str(project)), {"pattern": "^d\\.ts$"})
    assert _lines(text_of(result)) == ["d.ts:1: d.ts"]
    assert os.environ["RIPGREP_CONFIG_PATH"] == str(config)


async def test_edit_accepts_one_edit_object_and_invented_fields(tmp_path: Path) -> None:
    """pi 0.84.2: ``edits`` given as one object failed validation; pi 0.80.4: extra fields a model adds to an
    edit (``replaceAll``) rejected an otherwise valid edit."""
    from pi_tui.ai.types import ToolCall
    from pi_tui.ai.validation import validate_tool_arguments
    from pi_tui.coding.tools.edit import EditTool

    target = tmp_path / "f.txt"
    target.write_text("alpha\nbeta\n")
    tool = EditTool(str(tmp_path))
    for edits in (
        {"oldText": "alpha", "newText": "ALPHA"},
        '{"oldText": "beta", "newText": "BETA"}',
        [{"oldText": "ALPHA", "newText": "a", "replaceAll": False}],
    ):
        # the agent loop's path: prepare_arguments, then schema validation, then execute
        prepared = tool.prepare_arguments({"path": "f.txt", "edits": edits})
        args = validate_tool_arguments(tool, ToolCall(id="c1", name="edit", arguments=prepared))
        await tool.execute("c1", args, None, None)
    assert target.read_text() == "a\nBETA\n"


@pytest.mark.parametrize("value", [0, -5, float("inf"), 10**9, "soon"])
async def test_bash_rejects_timeouts_that_are_not_positive_seconds(tmp_path: Path, value: object) -> None:
    """pi 0.80.4: non-positive or oversized timeouts were clamped into an immediate timeout (pi-tui ran them with
    no timeout at all); both now fail with a clear error before anything runs."""
    from pi_tui.coding.tools.bash import BashTool

    marker = tmp_path / "ran"
    with pytest.raises(Exception, match="Invalid timeout"):
        await run(BashTool(str(tmp_path)), {"command": f"touch {marker}", "timeout": value})
    assert not marker.exists()


async def test_bash_positive_timeout_still_works(tmp_path: Path) -> None:
    from pi_tui.coding.tools.bash import BashTool

    assert "hi" in text_of(await run(BashTool(str(tmp_path)), {"command": "echo hi", "timeout": 0.5 + 10}))
