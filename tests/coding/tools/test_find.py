"""find tool: tools.test.ts "find" list and regressions #3302 / #3303, against fd and the fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.tools.find import FindTool, effective_pattern

from .helpers import run, text_of

pytestmark = pytest.mark.anyio


def lines(text: str) -> list[str]:
    return sorted(text.split("\n"))


def make_tree(root: Path) -> None:
    (root / ".git").mkdir()  # a git work tree, so every fd version honours .gitignore
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "a.ts").write_text("")
    (root / "src" / "a.spec.ts").write_text("")
    (root / "src" / "deep" / "b.spec.ts").write_text("")
    (root / ".env.ts").write_text("")
    (root / "ignored.ts").write_text("")
    (root / ".gitignore").write_text("ignored.ts\n")


async def test_hidden_files_and_gitignore(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    result = await run(FindTool(str(tmp_path), backend=find_backend), {"pattern": "*.ts"})
    assert lines(text_of(result)) == [".env.ts", "src/a.spec.ts", "src/a.ts", "src/deep/b.spec.ts"]


async def test_path_glob_gets_double_star_prefix(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    tool = FindTool(str(tmp_path), backend=find_backend)
    result = await run(tool, {"pattern": "src/**/*.spec.ts"})
    assert lines(text_of(result)) == ["src/a.spec.ts", "src/deep/b.spec.ts"]
    assert lines(text_of(await run(tool, {"pattern": "**/deep/*.ts"}))) == ["src/deep/b.spec.ts"]
    assert effective_pattern("src/*.ts") == ("**/src/*.ts", True)
    assert effective_pattern("**/x") == ("**/x", True)
    assert effective_pattern("/abs/*.ts") == ("/abs/*.ts", True)
    assert effective_pattern("*.ts") == ("*.ts", False)


async def test_nested_gitignore(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    (tmp_path / "src" / ".gitignore").write_text("a.ts\n")
    (tmp_path / "src" / "deep" / ".gitignore").write_text("*.spec.ts\n")
    result = await run(FindTool(str(tmp_path), backend=find_backend), {"pattern": "*.ts", "path": "src"})
    assert lines(text_of(result)) == ["a.spec.ts"]


async def test_directories_keep_trailing_slash(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    result = await run(FindTool(str(tmp_path), backend=find_backend), {"pattern": "deep"})
    assert text_of(result) == "src/deep/"


async def test_flag_like_pattern_and_empty(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    (tmp_path / "-rf").write_text("")
    tool = FindTool(str(tmp_path), backend=find_backend)
    assert text_of(await run(tool, {"pattern": "-rf"})) == "-rf"
    assert text_of(await run(tool, {"pattern": "*.nothing"})) == "No files found matching pattern"


async def test_limit_notice(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    result = await run(FindTool(str(tmp_path), backend=find_backend), {"pattern": "*.ts", "limit": 2})
    text = text_of(result)
    assert text.endswith("\n\n[2 results limit reached. Use limit=4 for more, or refine pattern]")
    assert len(text.split("\n\n")[0].split("\n")) == 2
    assert result.details == {"resultLimitReached": 2}


async def test_missing_path_is_an_error(tmp_path: Path, find_backend: str) -> None:
    make_tree(tmp_path)
    with pytest.raises(Exception) as info:
        await run(FindTool(str(tmp_path), backend=find_backend), {"pattern": "*", "path": "missing"})
    message = str(info.value)
    # Python fallback: pi's message; fd: its own stderr is passed through (pi's behaviour)
    assert message == f"Path not found: {tmp_path / 'missing'}" or "missing" in message


async def test_fallback_honours_gitignore_outside_git(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "a.log").write_text("")
    (tmp_path / "a.txt").write_text("")
    result = await run(FindTool(str(tmp_path), backend="python"), {"pattern": "a.*"})
    assert text_of(result) == "a.txt"  # like fd --no-require-git
