"""tester2 #10: a prompt sent while a ``!cmd`` runs was invisible until the command ended, then drawn below the
command box, but sent to the model (and saved) before the command, without its output.

Now the prompt waits for the command (shown ``Pending:``, the editor title says so): the screen, the session and
the model all have the command and its output first, then the prompt. Escape cancels the command and gives the
waiting text back to the editor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio

WAIT_FOR_GO = "!while [ ! -f go ]; do sleep 0.05; done; echo out-of-the-command"


def _text(message: Any) -> str:
    content = getattr(message, "content", "")
    return content if isinstance(content, str) else "".join(getattr(b, "text", "") for b in content)


def _roles(messages: list[Any]) -> list[str]:
    return [getattr(m, "role", "") for m in messages]


async def test_a_prompt_typed_while_a_command_runs_goes_after_its_output(tmp_path: Path) -> None:
    seen: list[list[Any]] = []

    def answer(context: Any, *_: Any) -> Any:
        seen.append(list(context.messages))
        return faux_assistant_message("the answer")

    session, _ = make_session(tmp_path, [answer])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert(WAIT_FOR_GO)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.bash_running and session.is_bash_running)
        assert "send after the command" in str(app.prompt_input.border_title)
        app.prompt_input.insert("prompt during bang")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.queue_view.pending == ["prompt during bang"])  # visible at once
        assert app.queue_view.pending_note == "sent when the command ends"
        await pilot.pause(0.2)
        assert not seen and "user" not in _roles(session.messages)  # not sent while the command runs
        (tmp_path / "go").write_text("")
        await wait_until(pilot, lambda: "the answer" in transcript_text(app))
        await wait_until(pilot, lambda: not app.working)
        text = transcript_text(app)
        assert text.index("out-of-the-command") < text.index("prompt during bang") < text.index("the answer")
        assert not app.queue_view.pending
    roles = _roles(session.messages)
    assert roles.index("bashExecution") < roles.index("user")  # saved in the order drawn
    (context,) = seen
    texts = [_text(m) for m in context]  # the command reaches the model as a user message ("Ran `…`")
    assert "out-of-the-command" in texts[-2] and texts[-1] == "prompt during bang"  # the output first


async def test_escape_cancels_the_command_and_gives_the_waiting_text_back(tmp_path: Path) -> None:
    session, faux = make_session(tmp_path, [faux_assistant_message("never")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert(WAIT_FOR_GO)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.bash_running and session.is_bash_running)
        app.prompt_input.insert("wait for it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.queue_view.pending == ["wait for it"])
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.bash_running and "(cancelled)" in transcript_text(app))
        await pilot.pause(0.2)
        assert app.prompt_input.text == "wait for it" and not app.queue_view.pending
        assert "user" not in _roles(session.messages)
