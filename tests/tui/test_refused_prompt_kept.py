"""A prompt the session refuses before it starts (no model, no key) goes back to the editor (new-user run, issue
9's class "nothing the user typed is lost": with a broken models.json the typed prompt left the editor, was not in
the transcript, and only Up brought it back)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


async def test_a_prompt_refused_for_no_model_stays_in_the_editor(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        session.agent.state.model = None
        app.prompt_input.text = "my important long prompt"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "No model selected" in transcript_text(app))
        await wait_until(pilot, lambda: app.prompt_input.text == "my important long prompt")
        assert not app.working
