"""``/fork`` and ``/clone`` in the app (issue 12; pi 0.73.1 docs/sessions.md "/tree, /fork, and /clone").

``/fork`` lists the current branch's user messages (newest highlighted); choosing one makes a new session file
holding the path before it, with the old file as ``parentSession``, and puts the message's text in the editor.
``/clone`` copies the branch into a new file. Both go through ``AgentSession.fork``/``clone`` (the RPC path), so
an extension's ``session_before_fork`` hears them and can cancel. ``app.session.fork`` is a remappable key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.modals.fork_picker import ForkPicker

from .helpers import make_app, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _session(tmp_path: Path, answers: list[str], **options: Any) -> Any:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1"}])
    faux.set_responses([faux_assistant_message(a) for a in answers])
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"), **options)
    model = faux.get_model()
    session.models.allow(model.provider, model.id, model)
    session.set_model(model, announce=False)
    return session


async def _say(pilot: Any, text: str) -> None:
    app = pilot.app
    app.prompt_input.insert(text)
    await pilot.press("enter")
    await pilot.pause(0.05)
    await wait_until(pilot, lambda: not app.working)


def _exists(path: Any) -> bool:
    return Path(path).exists()


def _message_lines(path: Any) -> int:
    with open(path, encoding="utf-8") as handle:
        return sum(1 for line in handle if json.loads(line).get("type") == "message")


def _header(path: Any) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return dict(json.loads(handle.readline()))


async def test_fork_picks_a_message_and_starts_a_new_session_before_it(tmp_path: Path) -> None:
    session = _session(tmp_path, ["one", "two", "three"])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for text in ("first question", "second question", "third question"):
            await _say(pilot, text)
        original = session.session_file
        await _say(pilot, "/fork")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        picker = app.screen
        assert isinstance(picker, ForkPicker)
        assert [e.label for e in picker.shown] == ["first question", "second question", "third question"]
        assert picker.highlighted_value == picker.shown[-1].value  # pi: the newest first
        await pilot.press("up", "enter")
        await wait_until(pilot, lambda: "Forked to new session" in transcript_text(app))
        assert app.prompt_input.text == "second question"
        assert session.session_file != original
        assert _header(session.session_file)["parentSession"] == str(original)
        text = transcript_text(app)
        assert "first question" in text and "one" in text and "third question" not in text
        assert [m.role for m in session.messages] == ["user", "assistant"]
        assert _message_lines(original) == 6  # the original file is untouched


async def test_fork_lists_only_the_current_branch(tmp_path: Path) -> None:
    session = _session(tmp_path, ["one", "two", "other"])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _say(pilot, "first question")
        await _say(pilot, "abandoned question")
        manager = session.session_manager
        abandoned = session.get_fork_messages()[1]["entryId"]
        manager.branch(manager.get_entry(abandoned).parent_id)
        session.agent.state.messages = list(manager.build_session_context().messages)
        await _say(pilot, "kept question")
        await _say(pilot, "/fork")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        assert isinstance(app.screen, ForkPicker)
        assert [e.label for e in app.screen.shown] == ["first question", "kept question"]


async def test_clone_copies_the_branch_into_a_new_file(tmp_path: Path) -> None:
    session = _session(tmp_path, ["one", "two"])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _say(pilot, "/clone")
        await wait_until(pilot, lambda: "Nothing to clone yet" in transcript_text(app) or
                         "Cloned to new session" in transcript_text(app))
        await _say(pilot, "first question")
        await _say(pilot, "second question")
        original = session.session_file
        await _say(pilot, "/clone")
        await wait_until(pilot, lambda: "Cloned to new session" in transcript_text(app))
        assert session.session_file != original and _exists(session.session_file)
        assert _header(session.session_file)["parentSession"] == str(original)
        assert [m.role for m in session.messages] == ["user", "assistant", "user", "assistant"]
        assert "second question" in transcript_text(app) and app.prompt_input.text == ""


async def test_fork_with_no_messages_says_so(tmp_path: Path) -> None:
    session = _session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _say(pilot, "/fork")
        await wait_until(pilot, lambda: "No messages to fork from" in transcript_text(app))
        assert not isinstance(app.screen, ForkPicker)


async def test_an_extension_hears_and_can_cancel_fork_and_clone(tmp_path: Path) -> None:
    ext = tmp_path / "guard.py"
    log = tmp_path / "forks.log"
    ext.write_text(
        "def activate(pi):\n"
        "    def before(event):\n"
        f"        open({str(log)!r}, 'a').write(f'{{event.position}} {{event.entry_id}}\\n')\n"
        "        return {'cancel': True}\n"
        "    pi.on('session_before_fork', before)\n")
    session = _session(tmp_path, ["one"], extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _say(pilot, "first question")
        original = session.session_file
        await _say(pilot, "/fork")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Fork cancelled by an extension" in transcript_text(app))
        await _say(pilot, "/clone")
        await wait_until(pilot, lambda: "Clone cancelled by an extension" in transcript_text(app))
        assert session.session_file == original
        first = session.get_fork_messages()[0]["entryId"]
        leaf = session.session_manager.get_leaf_id()
        assert log.read_text().splitlines() == [f"before {first}", f"at {leaf}"]


async def test_the_fork_key_is_remappable(tmp_path: Path) -> None:
    session = _session(tmp_path, ["one"])
    app = make_app(session)
    app.keymap.keys["app.session.fork"] = ["f6"]
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _say(pilot, "first question")
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))


async def test_a_draft_replaced_by_fork_is_kept_in_the_history(tmp_path: Path) -> None:
    """tester2 #9: a draft in the editor was overwritten by the forked message's text, and was nowhere after."""
    session = _session(tmp_path, ["one", "two"])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for text in ("first question", "second question"):
            await _say(pilot, text)
        app.prompt_input.insert("my long precious draft that I was writing")
        app.run_slash("/fork")  # as from the F1 palette: the draft stays in the editor meanwhile
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Forked to new session" in transcript_text(app))
        assert app.prompt_input.text == "second question"
        assert "my long precious draft that I was writing" in app.prompt_input.prompt_history
