"""Cutting a long grep match line never splits a non-BMP character (pi 1.5.1, #7121: grep match lines, and
other truncated texts, cut an emoji in half and left a lone UTF-16 surrogate). Python strings hold code points,
so a cut can only fall between them; this checks the 500-character line cut with both backends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pi_tui.coding.tools.grep import GrepTool


@pytest.mark.parametrize("backend", ["python", "auto"])
@pytest.mark.parametrize("offset", [497, 498, 499, 500, 501])
def test_the_line_cut_keeps_emoji_whole(tmp_path: Path, backend: str, offset: int) -> None:
    line = "needle " + "x" * (offset - 7) + "😀🇫🇷👩‍💻" * 40
    (tmp_path / "f.txt").write_text(line + "\n", encoding="utf-8")
    tool = GrepTool(str(tmp_path), backend=backend)  # type: ignore[arg-type]
    result = asyncio.run(tool.execute("c", {"pattern": "needle"}))
    text = result.content[0].text  # type: ignore[union-attr]
    text.encode("utf-8")  # raises on a lone surrogate
    assert "needle" in text and not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)
    assert "\ufffd" not in text  # no character was cut in its bytes either
