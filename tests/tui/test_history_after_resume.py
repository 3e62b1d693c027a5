"""Up on an empty editor recalls the prompts of a resumed session (new-user run: after ``pi-tui -c`` the history was
empty although the transcript showed the earlier prompts). pi 0.73 ``renderInitialMessages`` adds every user
message it renders to the editor history: at start (``-c``/``-r``), after a session switch and after a /tree jump.
pi-tui does the same, without adding a prompt that is already in the history again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.tui.helpers import make_app, settle, snapshot_session

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pi-sessions" / "pi-branched.raw.jsonl"


@pytest.mark.anyio
async def test_up_recalls_the_prompts_of_a_resumed_session(tmp_path: Path) -> None:
    copy = tmp_path / "pi-branched.jsonl"
    shutil.copyfile(FIXTURE, copy)
    session, _ = snapshot_session()
    app = make_app(session)
    async with app.run_test() as pilot:
        await settle(pilot)
        await app.session.switch_session(copy)
        app.rebuild_transcript()
        await settle(pilot)
        prompts = [m for m in app.prompt_input.prompt_history]
        assert prompts == ["Plan the parser", "Now try Pratt"]  # the open branch's prompts, in order
        app.prompt_input.focus()
        await pilot.press("up")
        assert app.prompt_input.text == "Now try Pratt"
        await pilot.press("up")
        assert app.prompt_input.text == "Plan the parser"
        app.rebuild_transcript()  # a rebuild (a resync, a /tree jump back) does not add them twice
        assert app.prompt_input.prompt_history == ["Plan the parser", "Now try Pratt"]
