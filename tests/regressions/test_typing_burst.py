"""Typing without bracketed paste is taken fast and whole (issue 9).

A fast typist or a terminal that pastes without brackets delivers one ``Key`` per character. The editor made
one edit per key (each re-wrapping the whole line: a 5,000-character paste crawled at ~140 characters/s here,
bench/typing_burst.py). Text keys queued behind each other are now one edit; other keys keep their place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.tui.widgets.prompt_input import PromptInput
from tests.tui.helpers import make_app, offline_session, wait_until

from .typing_helpers import type_raw


def count_edits(editor: PromptInput) -> list[int]:
    """Wrap ``editor.edit`` to count calls (one per document change)."""
    calls = [0]
    original = editor.edit

    def counting(edit: Any) -> Any:
        calls[0] += 1
        return original(edit)

    editor.edit = counting  # type: ignore[method-assign]
    return calls


@pytest.mark.anyio
async def test_a_5000_character_unbracketed_paste_arrives_whole_in_few_edits(tmp_path: Path) -> None:
    app = make_app(offline_session(tmp_path))
    text = "".join(f"word{i % 97} 中文 café " for i in range(400))[:5000]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        edits = count_edits(app.prompt_input)
        await type_raw(pilot, text)
        await wait_until(pilot, lambda: len(app.prompt_input.text) >= len(text))
        assert app.prompt_input.text == text
        assert edits[0] < len(text) // 10, f"{edits[0]} edits for {len(text)} keys"


@pytest.mark.anyio
async def test_other_keys_in_a_burst_keep_their_place(tmp_path: Path) -> None:
    app = make_app(offline_session(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        # Backspace, Left and Delete between text keys act where they were typed.
        await type_raw(pilot, "abc\x7fde\x1b[D\x1b[Dx\x1b[3~")
        assert app.prompt_input.text == "abxe"
        # A key the app binds (Ctrl+C: clear the editor) in the middle of a burst.
        await type_raw(pilot, "gone\x03kept")
        await pilot.pause(0.2)
        assert app.prompt_input.text == "kept"
