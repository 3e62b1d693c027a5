"""ls tool: tools.test.ts "ls" (dotfiles, directories, sorting, limits, errors)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_tui.coding.tools.ls import LS_DESCRIPTION, LsTool

from .helpers import run, text_of

pytestmark = pytest.mark.anyio


async def test_dotfiles_dirs_and_case_insensitive_sort(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("")
    (tmp_path / "A.txt").write_text("")
    (tmp_path / ".env").write_text("")
    (tmp_path / "Zdir").mkdir()
    (tmp_path / "cdir").mkdir()
    os.symlink(tmp_path / "nowhere", tmp_path / "broken")  # cannot be stat-ed: skipped
    result = await run(LsTool(str(tmp_path)), {})
    assert text_of(result) == ".env\nA.txt\nb.txt\ncdir/\nZdir/"
    assert result.details is None


async def test_limit_and_empty(tmp_path: Path) -> None:
    for i in range(5):
        (tmp_path / f"f{i}").write_text("")
    result = await run(LsTool(str(tmp_path)), {"limit": 2})
    assert text_of(result) == "f0\nf1\n\n[2 entries limit reached. Use limit=4 for more]"
    assert result.details == {"entryLimitReached": 2}
    (tmp_path / "empty").mkdir()
    assert text_of(await run(LsTool(str(tmp_path)), {"path": "empty"})) == "(empty directory)"


async def test_errors(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("")
    tool = LsTool(str(tmp_path))
    with pytest.raises(Exception, match=rf"^Path not found: {tmp_path / 'nope'}$"):
        await run(tool, {"path": "nope"})
    with pytest.raises(Exception, match=rf"^Not a directory: {tmp_path / 'file.txt'}$"):
        await run(tool, {"path": "file.txt"})


def test_description_mentions_limits() -> None:
    assert "500 entries or 50KB" in LS_DESCRIPTION
