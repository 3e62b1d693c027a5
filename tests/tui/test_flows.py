"""User flows with Pilot against a real AgentSession on a scripted faux provider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_thinking, faux_tool_call
from pi_tui.tui.widgets.transcript_items import BashItem, ToolItem

from .helpers import make_app, make_session, transcript_text, wait_until


def last_user_text(context: Any) -> str:
    for m in reversed(context.messages):
        if getattr(m, "role", None) == "user":
            c = m.content
            return c if isinstance(c, str) else "".join(getattr(b, "text", "") for b in c)
    return ""


def echo_last_user(prefix: str) -> Any:
    def step(context: Any, *_: Any) -> Any:
        return faux_assistant_message(f"{prefix}: {last_user_text(context)}")
    return step


async def type_and(pilot: Any, text: str, key: str = "enter") -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press(key)


@pytest.mark.anyio
async def test_prompt_stream_tool_call_answer(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello from a\n")
    session, _ = make_session(tmp_path, [
        faux_assistant_message([faux_thinking("I should read it."), faux_tool_call("read", {"path": "a.txt"})],
                               stop_reason="toolUse"),
        faux_assistant_message("The file says **hello**.\n\n```python\nprint('hello')\n```"),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "what is in a.txt?")
        await wait_until(pilot, lambda: not app.working and any(isinstance(i, ToolItem) for i in app.transcript.items))
        await session.wait_for_idle()
        await pilot.pause(0.1)
        text = transcript_text(app)
        assert "what is in a.txt?" in text
        assert "I should read it." in text
        assert "read a.txt" in text and "hello from a" in text
        assert "The file says hello." in text and "print('hello')" in text
        tool = next(i for i in app.transcript.items if isinstance(i, ToolItem))
        assert tool.status == "done"
        assert app.prompt_input.text == ""
        assert app.footer.data.model_id == "faux-1"


@pytest.mark.anyio
async def test_steer_while_a_tool_runs_reaches_the_model_before_its_next_call(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 0.8"}), stop_reason="toolUse"),
        echo_last_user("model saw"),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "start")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        assert "steer" in str(app.prompt_input.border_title)
        await type_and(pilot, "STEER NOW")
        await wait_until(pilot, lambda: app.queue_view.steering == ["STEER NOW"])
        assert app.queue_view.display
        await wait_until(pilot, lambda: not app.working)
        await session.wait_for_idle()
        await pilot.pause(0.1)
        text = transcript_text(app)
        assert "model saw: STEER NOW" in text
        assert text.index("$ sleep 0.8") < text.index("STEER NOW") < text.index("model saw: STEER NOW")
        assert app.queue_view.steering == [] and not app.queue_view.display


@pytest.mark.anyio
async def test_follow_up_runs_after_the_run_ends(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 0.5"}), stop_reason="toolUse"),
        faux_assistant_message("first run done"),
        echo_last_user("follow-up answer"),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "go")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        await type_and(pilot, "AND THEN THIS", key="ctrl+f")
        await wait_until(pilot, lambda: app.queue_view.follow_up == ["AND THEN THIS"])
        await wait_until(pilot, lambda: "follow-up answer: AND THEN THIS" in transcript_text(app))
        text = transcript_text(app)
        assert text.index("first run done") < text.index("AND THEN THIS") < text.index("follow-up answer")


@pytest.mark.anyio
async def test_escape_aborts_and_restores_queued_text(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 5"}), stop_reason="toolUse"),
        faux_assistant_message("never"),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "go")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        await type_and(pilot, "steer one")
        await type_and(pilot, "later two", key="ctrl+f")
        await wait_until(pilot, lambda: len(app.queue_view.steering) + len(app.queue_view.follow_up) == 2)
        app.prompt_input.insert("draft")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)
        assert app.prompt_input.text == "steer one\n\nlater two\n\ndraft"
        assert not app.queue_view.display
        await session.wait_for_idle()
        tool = next(i for i in app.transcript.items if isinstance(i, ToolItem))
        assert tool.status == "error"
        assert "never" not in transcript_text(app)


@pytest.mark.anyio
async def test_alt_up_pulls_the_queue_back(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 3"}), stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "go")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        await type_and(pilot, "one")
        await type_and(pilot, "two", key="ctrl+f")
        await wait_until(pilot, lambda: app.queue_view.follow_up == ["two"])
        await pilot.press("alt+up")
        await pilot.pause()
        assert app.prompt_input.text == "one\n\ntwo"
        assert app.queue_view.steering == [] and app.queue_view.follow_up == []
        await wait_until(pilot, lambda: not app.working)
        await session.wait_for_idle()
        text = transcript_text(app)
        assert "one" not in text.split("$ sleep 3")[1].split("done")[0]


@pytest.mark.anyio
async def test_escape_followed_by_up_is_alt_up(tmp_path: Path) -> None:
    """Terminals that send Alt+Up as ESC + Up: the pair dequeues instead of aborting."""
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 3"}), stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    app = make_app(session, escape_delay=0.2)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "go")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        await type_and(pilot, "queued")
        await wait_until(pilot, lambda: app.queue_view.steering == ["queued"])
        await pilot.press("escape", "up")
        await pilot.pause()
        assert app.prompt_input.text == "queued"
        await wait_until(pilot, lambda: not app.working)
        assert "done" in transcript_text(app)  # the run was not aborted


@pytest.mark.anyio
async def test_user_bash_runs_with_output(tmp_path: Path) -> None:
    (tmp_path / "marker-file.txt").write_text("x")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "!ls")
        await wait_until(pilot, lambda: any(isinstance(i, BashItem) and not i.running for i in app.transcript.items))
        item = next(i for i in app.transcript.items if isinstance(i, BashItem))
        assert "marker-file.txt" in item.output and item.exit_code == 0
        assert "$ ls" in transcript_text(app)
        await type_and(pilot, "!!exit 3")
        await wait_until(pilot, lambda: sum(isinstance(i, BashItem) and not i.running
                                            for i in app.transcript.items) == 2)
        assert "(exit 3)" in transcript_text(app)


@pytest.mark.anyio
async def test_history_ctrl_c_and_ctrl_d(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("a1"), faux_assistant_message("a2")])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "first prompt")
        await wait_until(pilot, lambda: "a1" in transcript_text(app) and not app.working)
        await type_and(pilot, "second prompt")
        await wait_until(pilot, lambda: "a2" in transcript_text(app) and not app.working)
        await pilot.press("up")
        assert app.prompt_input.text == "second prompt"
        await pilot.press("up")
        assert app.prompt_input.text == "first prompt"
        await pilot.press("down", "down")
        assert app.prompt_input.text == ""
        app.prompt_input.insert("junk")
        app.key_actions.last_clear = -10.0
        await pilot.press("ctrl+c")
        assert app.prompt_input.text == "" and app.is_running
        await pilot.press("ctrl+d")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.anyio
async def test_error_reply_and_thinking_toggle(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [
        faux_assistant_message([faux_thinking("secret reasoning"), faux_text("partial")], stop_reason="error",
                               error_message="429 rate limited"),
    ], reasoning=True)
    session.settings.retry.enabled = False
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "hi")
        await wait_until(pilot, lambda: "Error: 429 rate limited" in transcript_text(app))
        assert "secret reasoning" in transcript_text(app)
        await pilot.press("ctrl+t")
        await pilot.pause()
        text = transcript_text(app)
        assert "secret reasoning" not in text and "Thinking..." in text
        assert "Thinking blocks: hidden" in text


@pytest.mark.anyio
async def test_resize_keeps_the_layout(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("word " * 200)])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_and(pilot, "hi")
        await wait_until(pilot, lambda: not app.working and "word word" in transcript_text(app))
        for w, h in ((80, 24), (60, 20), (140, 50)):
            await pilot.resize_terminal(w, h)
            await pilot.pause(0.1)
            assert app.prompt_input.region.bottom <= app.footer.region.y
            assert app.footer.region.bottom == h
            assert app.transcript.region.height > 0
            assert "word" in app.transcript.visible_text()


@pytest.mark.anyio
async def test_view_stays_at_the_bottom_when_the_scrollbar_appears() -> None:
    """Found by a flaky 80x24 snapshot: the first overflow's scroll-to-end was clamped by a stale container size."""
    from .snapshots.scenarios import build_small_terminal

    for _ in range(4):
        app, drive, size = build_small_terminal()
        async with app.run_test(size=size) as pilot:
            await drive(pilot)
            t = app.transcript
            assert t.max_scroll_y > 0 and t.following
            assert t.scroll_y == t.max_scroll_y
