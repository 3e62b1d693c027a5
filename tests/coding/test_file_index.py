"""pi_tui.coding.file_index: listing (ignore files, every lister gives the same entries) and ranking."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pi_tui.coding.file_index import FileIndex, FileMatch, list_project


def _tree(root: Path) -> Path:
    for rel in ["src/main.py", "src/util.py", "src/deep/main_test.py", "docs/guide.md", "README.md",
                ".hidden/conf.toml", "my notes.md", "node_modules/pkg/index.js", "logs/a.log", "mainly.txt"]:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rel)
    (root / ".gitignore").write_text("node_modules/\n*.log\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "empty_dir").mkdir()
    return root


def _index(root: Path, backend: str = "python") -> FileIndex:
    index = FileIndex(str(root), backend=backend)
    index.build()
    return index


def test_the_listing_respects_ignore_files_and_skips_git(tmp_path: Path) -> None:
    entries, lister = list_project(str(_tree(tmp_path)), "python")
    assert lister == "python"
    paths = {p for p, _ in entries}
    assert {"src/main.py", "src", "src/deep", ".hidden/conf.toml", "my notes.md", "empty_dir"} <= paths
    assert not any(p.startswith(("node_modules", ".git/", "logs/a")) or p == ".git" for p in paths)


@pytest.mark.parametrize("program", ["fd", "rg"])
def test_external_listers_agree_with_the_walk(tmp_path: Path, program: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding import file_index

    root = _tree(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=root, check=False)  # fd 8.6 honours .gitignore only in git
    found = file_index.find_program("fd", "fdfind") if program == "fd" else file_index.find_program("rg")
    if found is None:
        pytest.skip(f"{program} not installed")
    if program == "rg":
        monkeypatch.setattr(file_index, "find_program", lambda *names: None if "fd" in names else found)
    entries, lister = list_project(str(root), "auto")
    assert lister == program
    walked, _ = list_project(str(root), "python")
    if program == "fd":
        assert set(entries) == set(walked)
    else:  # rg lists files; the directories are those holding a listed file (not empty_dir/, logs/)
        assert {e for e in entries if not e[1]} == {e for e in walked if not e[1]}
        assert {e for e in entries if e[1]} == {e for e in walked if e[1]} - {("empty_dir", True), ("logs", True)}


def test_ranking_follows_pis_score(tmp_path: Path) -> None:
    index = _index(_tree(tmp_path))
    # exact name 100 > name prefix 80 > in name 50 > in path 30; directories +10
    assert [m.path for m in index.query("main.py")][:2] == ["src/main.py", "src/deep/main_test.py"]
    found = [m.path for m in index.query("main")]
    assert found.index("mainly.txt") < found.index("src/deep/main_test.py")  # same tier: shorter path first
    assert index.query("src")[0] == FileMatch("src", True)
    assert "src/deep/main_test.py" in [m.path for m in index.query("deep")]  # in the path only


def test_fuzzy_matches_come_after_substring_matches(tmp_path: Path) -> None:
    index = _index(_tree(tmp_path))
    found = [m.path for m in index.query("gde")]
    assert found[0] == "docs/guide.md"
    assert index.query("qqq") == []


def test_empty_query_lists_the_top_of_the_tree_directories_first(tmp_path: Path) -> None:
    index = _index(_tree(tmp_path))
    top = index.query("", limit=5)
    assert all(m.is_dir for m in top[:3]) and all("/" not in m.path for m in top)


def test_a_directory_in_the_query_scopes_it(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    index = _index(root)
    assert [m.path for m in index.query("src/ma")] == ["src/main.py", "src/deep/main_test.py"]
    outside = tmp_path.parent / (tmp_path.name + "-other")
    outside.mkdir()
    (outside / "far.txt").write_text("x")
    rel = os.path.relpath(outside, root)
    assert [m.path for m in index.query(rel + "/fa")] == [rel + "/far.txt"]
    assert [m.path for m in index.query(str(outside) + "/fa")] == [str(outside) + "/far.txt"]


def test_before_the_first_build_there_is_nothing(tmp_path: Path) -> None:
    index = FileIndex(str(tmp_path))
    assert not index.ready and index.query("a") == [] and index.age() is None


def test_a_rebuild_sees_new_files(tmp_path: Path) -> None:
    index = _index(_tree(tmp_path))
    (tmp_path / "fresh.py").write_text("")
    assert index.query("fresh") == []
    index.build()
    assert index.query("fresh") == [FileMatch("fresh.py", False)]
