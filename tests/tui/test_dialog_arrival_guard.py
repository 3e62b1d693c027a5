"""Keys typed as a dialog the user did not open appears go on into the editor (tester2 #4, high: a prompt typed
while the app started ended with Enter just as the trust question appeared; the Enter chose "Trust this folder",
remembered, unseen, and the prompt was lost). The dialog takes keys once it has been on screen a moment
(``pi_tui.tui.modals.arrival_guard``); the prompt is kept and sent once the session exists."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.resources import trust
from pi_tui.tui.modals import arrival_guard
from pi_tui.tui.modals.trust import TrustChoiceModal
from tests.regressions.typing_helpers import type_raw

from .helpers import settle, wait_until
from .test_trust_modal import _app, _saved, project  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.anyio, pytest.mark.arrival_guard]


def _users(app: Any) -> list[str]:
    out = []
    for message in getattr(app.session, "messages", []) if app.session is not None else []:
        if getattr(message, "role", None) == "user":
            out.append("".join(getattr(b, "text", "") for b in message.content))
    return out


async def test_a_prompt_typed_as_the_trust_question_appears_never_answers_it(project: Path) -> None:  # noqa: F811
    app = _app(project)
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))
        await type_raw(pilot, "early prompt 2\r")  # the rest of a prompt and its Enter, as the dialog appears
        for _ in range(10):
            await pilot.pause()
        assert isinstance(app.screen, TrustChoiceModal), "a key typed before the question was shown answered it"
        assert _saved(project.parent) == {}
        await asyncio.sleep(arrival_guard.GRACE_S + 0.2)  # the user reads the question, then answers
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.session is not None and not isinstance(app.screen, TrustChoiceModal))
        await settle(pilot)
        await wait_until(pilot, lambda: "early prompt 2" in _users(app), limit=20)
    assert _saved(project.parent).get(trust.canonical_path(project)) is True


async def test_typing_that_goes_on_keeps_going_to_the_editor(project: Path) -> None:  # noqa: F811
    app = _app(project)
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))
        for chunk in ("still ", "typing ", "my ", "draft"):
            await type_raw(pilot, chunk)
            await asyncio.sleep(arrival_guard.GRACE_S / 3)
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, TrustChoiceModal)
        assert app.prompt_input.text == "still typing my draft"
        await asyncio.sleep(arrival_guard.GRACE_S + 0.2)
        await pilot.press("escape")  # now the dialog's: don't load this time
        await wait_until(pilot, lambda: not isinstance(app.screen, TrustChoiceModal))
        assert app.prompt_input.text == "still typing my draft"
    assert json.loads(json.dumps(_saved(project.parent))) == {}
