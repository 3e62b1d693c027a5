"""Nested repositories and worktrees against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 0.79.10 (#5960): ``find`` must respect nested git repository boundaries. With rg/fd that holds; pi-tui's
  own walk (used without rg/fd, by ``find`` and ``grep``) applied a parent repository's ``.gitignore`` inside
  a nested repository, so ``*.log`` ignored by the parent hid the nested repo's logs.
- pi 0.83.0 (#7221): in a linked worktree nested under its main checkout (``repo/.worktrees/feat``) the context
  files were loaded twice (the worktree's ``AGENTS.md`` and the main checkout's copy).
- pi 1.2.0 (#10681): with the worktree's ``AGENTS.md`` a symlink, no context file loaded in pi; pi-tui loaded it
  twice too. Now: one.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from pi_tui.coding.system_prompt import load_context_files
from pi_tui.coding.tools.find import FindTool
from pi_tui.coding.tools.grep import GrepTool


def _git(*args: str, cwd: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull,
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _nested_repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "vendor" / "lib" / "src").mkdir(parents=True)
    _git("init", "-q", ".", cwd=root)
    (root / ".gitignore").write_text("*.log\nbuild/\n", encoding="utf-8")
    (root / "app.log").write_text("parent log\n", encoding="utf-8")
    _git("init", "-q", ".", cwd=root / "vendor" / "lib")
    (root / "vendor" / "lib" / "src" / "trace.log").write_text("needle in the nested repo\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_find_does_not_apply_a_parents_gitignore_inside_a_nested_repository(tmp_path: Path, backend: str) -> None:
    root = _nested_repo(tmp_path)
    tool = FindTool(str(root))
    tool.backend = backend  # type: ignore[assignment]
    result = asyncio.run(tool.execute("c", {"pattern": "*.log"}))
    assert result.content[0].text == "vendor/lib/src/trace.log"  # type: ignore[union-attr]
    inside = asyncio.run(tool.execute("c", {"pattern": "*.log", "path": "vendor/lib"}))
    assert inside.content[0].text == "src/trace.log"  # type: ignore[union-attr]


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_grep_does_not_apply_a_parents_gitignore_inside_a_nested_repository(tmp_path: Path, backend: str) -> None:
    root = _nested_repo(tmp_path)
    tool = GrepTool(str(root))
    tool.backend = backend  # type: ignore[assignment]
    result = asyncio.run(tool.execute("c", {"pattern": "needle"}))
    text = result.content[0].text  # type: ignore[union-attr]
    assert "vendor/lib/src/trace.log" in text and "parent log" not in text


def test_a_search_inside_a_nested_repository_its_parent_ignores_finds_its_files(tmp_path: Path) -> None:
    """#5960 itself: the parent ignores ``vendor/`` (the nested repository); searching inside it still works."""
    root = _nested_repo(tmp_path)
    (root / ".gitignore").write_text("vendor/\n", encoding="utf-8")
    for backend in ("python", "auto"):
        tool = FindTool(str(root))
        tool.backend = backend  # type: ignore[assignment]
        result = asyncio.run(tool.execute("c", {"pattern": "*.log", "path": "vendor/lib"}))
        assert result.content[0].text == "src/trace.log", backend  # type: ignore[union-attr]


def _repo_with_nested_worktree(tmp_path: Path) -> tuple[Path, Path]:
    main = tmp_path / "repo"
    main.mkdir()
    _git("init", "-q", "-b", "main", ".", cwd=main)
    (main / "AGENTS.md").write_text("repo rules\n", encoding="utf-8")
    _git("add", "AGENTS.md", cwd=main)
    _git("commit", "-q", "-m", "init", cwd=main)
    _git("worktree", "add", "-q", "-b", "feat", ".worktrees/feat", cwd=main)
    return main, main / ".worktrees" / "feat"


def test_context_files_load_once_in_a_worktree_nested_in_its_repository(tmp_path: Path) -> None:
    main, worktree = _repo_with_nested_worktree(tmp_path)
    (tmp_path / "AGENTS.md").write_text("above the repository\n", encoding="utf-8")
    (worktree / "pkg").mkdir()
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    files = load_context_files(worktree / "pkg", agent_dir)
    assert [Path(f.path) for f in files] == [tmp_path / "AGENTS.md", worktree / "AGENTS.md"]
    # the main checkout itself is unchanged
    assert [Path(f.path) for f in load_context_files(main, agent_dir)] == [tmp_path / "AGENTS.md", main / "AGENTS.md"]


def test_a_symlinked_context_file_in_a_nested_worktree_loads_once(tmp_path: Path) -> None:
    _, worktree = _repo_with_nested_worktree(tmp_path)
    (worktree / "docs").mkdir()
    (worktree / "docs" / "agents.md").write_text("worktree rules\n", encoding="utf-8")
    (worktree / "AGENTS.md").unlink()
    (worktree / "AGENTS.md").symlink_to(Path("docs") / "agents.md")
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    files = load_context_files(worktree, agent_dir)
    assert [(Path(f.path), f.content) for f in files] == [(worktree / "AGENTS.md", "worktree rules\n")]


def test_a_context_file_reached_twice_through_a_symlink_loads_once(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "AGENTS.md").write_text("project rules\n", encoding="utf-8")
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    (agent_dir / "AGENTS.md").symlink_to(project / "AGENTS.md")
    files = load_context_files(project, agent_dir)
    assert [f.content for f in files] == ["project rules\n"]
