"""A sibling of tester2 #2 (tests/tui/test_completion_burst.py): Tab at the end of a burst in an ``@`` token asks
for the text typed, and the burst's own text-changed message, handled after the Tab, no longer closes the list it
asked for (controllers/editor_completion.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from tests.tui.helpers import wait_until
from tests.tui.test_editor_completion import _app, _ready, _type, _values

pytestmark = pytest.mark.anyio


async def test_tab_in_a_burst_completes_the_text_typed(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "@sr")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["@src/"])
        for key, char in [("c", "c"), ("slash", "/"), ("u", "u"), ("tab", "\t")]:
            app.prompt_input.post_message(events.Key(key, char))
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["@src/util.py"])
        assert app.prompt_input.text == "@src/u"  # nothing inserted from the old list
        await pilot.press("tab")
        await wait_until(pilot, lambda: app.prompt_input.text == "@src/util.py ")
