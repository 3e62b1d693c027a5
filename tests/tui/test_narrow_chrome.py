"""At 80 columns the header and the model picker never wrap: every line is cut with an ellipsis (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from pi_tui.tui.local_probe import models_from_listing

from .helpers import make_app, offline_session, wait_until


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (60, 30), (120, 40)])
async def test_header_lines_never_wrap(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(offline_session(tmp_path))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        header = app.header_widget
        assert header.notice  # the offline notice is the second line
        rendered = header.render()
        lines = rendered.plain.split("\n")
        assert len(lines) == 2 and header.region.height == 2
        assert all(len(line) <= size[0] - 2 for line in lines), lines
        if size[0] < 100:
            assert lines[0].endswith("…") and lines[1].endswith("…")
        assert lines[1].startswith("Offline demo model · Ctrl+L picks a model")


@pytest.mark.anyio
async def test_model_picker_rows_are_one_line_each_at_80_columns(tmp_path: Path) -> None:
    app = make_app(offline_session(tmp_path))
    app.local_models = models_from_listing("ollama", "http://127.0.0.1:11434/v1", {"data": [
        {"id": "qwen2.5-coder:32b-instruct-q8_0-with-a-very-long-tag-name"}, {"id": "llama3.2:3b"}]})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+l")
        await pilot.pause(0.2)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 3
        assert options.virtual_size.height == options.option_count  # one row per model
        rows = [strip.text for strip in options.render_lines(options.region.reset_offset)[:3]]
        assert any(row.rstrip().endswith("…") for row in rows), rows
