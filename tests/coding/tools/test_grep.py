"""grep tool: tools.test.ts "grep" list, run against ripgrep and the Python fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.coding.tools.grep import GrepTool
from pi_tui.coding.tools.search_backend import BACKEND_ENV

from .helpers import run, text_of

pytestmark = pytest.mark.anyio


def make_repo(root: Path) -> None:
    (root / ".git").mkdir()
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("import os\nneedle = 1\nprint(needle)\n")
    (root / "src" / "b.txt").write_text("no match here\n")
    (root / ".hidden.cfg").write_text("needle in hidden\n")
    (root / "build.log").write_text("needle in ignored file\n")
    (root / ".gitignore").write_text("*.log\n")


async def test_matches_with_relative_paths_and_gitignore(tmp_path: Path, grep_backend: str) -> None:
    make_repo(tmp_path)
    result = await run(GrepTool(str(tmp_path), backend=grep_backend), {"pattern": "needle"})
    lines = sorted(text_of(result).split("\n"))
    assert lines == [".hidden.cfg:1: needle in hidden", "src/a.py:2: needle = 1", "src/a.py:3: print(needle)"]
    assert result.details is None


async def test_single_file_uses_base_name(tmp_path: Path, grep_backend: str) -> None:
    make_repo(tmp_path)
    result = await run(GrepTool(str(tmp_path), backend=grep_backend), {"pattern": "needle", "path": "src/a.py"})
    assert text_of(result) == "a.py:2: needle = 1\na.py:3: print(needle)"


async def test_limit_and_context(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / "f.txt").write_text("\n".join(["a", "hit 1", "b", "c", "hit 2", "d", "hit 3"]))
    tool = GrepTool(str(tmp_path), backend=grep_backend)
    result = await run(tool, {"pattern": "hit", "limit": 2, "context": 1})
    assert text_of(result) == (
        "f.txt-1- a\nf.txt:2: hit 1\nf.txt-3- b\n"
        "f.txt-4- c\nf.txt:5: hit 2\nf.txt-6- d\n\n"
        "[2 matches limit reached. Use limit=4 for more, or refine pattern]"
    )
    assert result.details == {"matchLimitReached": 2}


async def test_flag_like_pattern(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / "f.txt").write_text("use --force here\nnothing\n")
    result = await run(GrepTool(str(tmp_path), backend=grep_backend), {"pattern": "--force"})
    assert text_of(result) == "f.txt:1: use --force here"


async def test_no_matches_ignore_case_literal_glob(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / "a.ts").write_text("Foo(1+2)\n")
    (tmp_path / "b.js").write_text("foo(1+2)\n")
    tool = GrepTool(str(tmp_path), backend=grep_backend)
    assert text_of(await run(tool, {"pattern": "zzz"})) == "No matches found"
    assert text_of(await run(tool, {"pattern": "foo", "ignoreCase": True, "glob": "*.ts"})) == "a.ts:1: Foo(1+2)"
    literal = await run(tool, {"pattern": "(1+2)", "literal": True})
    assert sorted(text_of(literal).split("\n")) == ["a.ts:1: Foo(1+2)", "b.js:1: foo(1+2)"]


async def test_long_lines_truncated(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / "f.txt").write_text("needle" + "x" * 600 + "\n")
    result = await run(GrepTool(str(tmp_path), backend=grep_backend), {"pattern": "needle"})
    text = text_of(result)
    assert text.startswith("f.txt:1: needle" + "x" * 494 + "... [truncated]")
    assert text.endswith("\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]")
    assert result.details == {"linesTruncated": True}


async def test_byte_limit_notice(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / "f.txt").write_text("".join(f"needle {i:04d} " + "y" * 400 + "\n" for i in range(200)))
    result = await run(GrepTool(str(tmp_path), backend=grep_backend), {"pattern": "needle", "limit": 500})
    text = text_of(result)
    assert text.endswith("\n\n[50.0KB limit reached]")
    assert len(text.encode()) <= 51200 + 100
    assert result.details["truncation"]["truncatedBy"] == "bytes"


async def test_errors(tmp_path: Path, grep_backend: str) -> None:
    tool = GrepTool(str(tmp_path), backend=grep_backend)
    with pytest.raises(Exception, match=rf"^Path not found: {tmp_path / 'missing'}$"):
        await run(tool, {"pattern": "x", "path": "missing"})
    (tmp_path / "f.txt").write_text("x\n")
    with pytest.raises(Exception, match="regex parse error"):
        await run(tool, {"pattern": "("})
    controller = AbortController()
    controller.abort()
    with pytest.raises(Exception, match="^Operation aborted$"):
        await run(tool, {"pattern": "x"}, controller.signal)


async def test_gitignore_only_inside_git_repo(tmp_path: Path, grep_backend: str) -> None:
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "x.log").write_text("needle\n")
    tool = GrepTool(str(tmp_path), backend=grep_backend)
    assert text_of(await run(tool, {"pattern": "needle"})) == "x.log:1: needle"  # rg needs a git repo
    (tmp_path / ".git").mkdir()
    assert text_of(await run(tool, {"pattern": "needle"})) == "No matches found"


async def test_env_forces_python_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "f.txt").write_text("a\n")
    monkeypatch.setenv(BACKEND_ENV, "python")
    monkeypatch.setenv("PATH", "/nonexistent")  # rg unreachable: only the fallback can answer
    tool = GrepTool(str(tmp_path), backend="auto")
    assert text_of(await run(tool, {"pattern": "a"})) == "f.txt:1: a"
