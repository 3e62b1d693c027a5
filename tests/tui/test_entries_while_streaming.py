"""A UI-only entry added while a reply streams (an extension's notification, an artifact) shows before the live
reply, where the session file has it, so the screen reads the same live and after a resume (pi 1.x 0.80.4:
"custom session entries appended during assistant streaming render before the live assistant message")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.transcript_builder import items_for_session
from pi_tui.tui.widgets.transcript_items import ArtifactItem, AssistantItem, NoticeItem, ToolItem, UserItem

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

LONG = " ".join(f"word{i}" for i in range(300))


def _kinds(items: list[Any]) -> list[str]:
    out = []
    for item in items:
        if isinstance(item, NoticeItem) and item.level == "status":
            continue
        out.append(type(item).__name__ + (f":{item.text[:12]}" if isinstance(item, NoticeItem) else ""))
    return out


async def test_a_notification_during_streaming_shows_before_the_live_reply(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    steps = [
        faux_assistant_message([faux_tool_call("read", {"path": "a.txt"}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message(LONG),
    ]
    session, _ = make_session(tmp_path, steps, tokens_per_second=400, no_session=False)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        session.agent.state.messages = []
        app.rebuild_transcript()
        task = asyncio.ensure_future(session.prompt("go"))
        await wait_until(pilot, lambda: app.view.current is not None and app.view.current.streaming
                         and "word3" in app.view.current.plain_text(), limit=20)
        session.notify("info", "noted meanwhile")
        session.add_artifact("Plan", "markdown", "# plan")
        await pilot.pause(0.05)
        live = _kinds(app.transcript.items)
        await task
        await wait_until(pilot, lambda: not session.is_streaming)
        await pilot.pause(0.1)
        final = _kinds(app.transcript.items)
        resumed = _kinds(items_for_session(session))
    # live: the entries come before the streaming reply, not under it
    assert live.index("NoticeItem:noted meanwh") < live.index("AssistantItem", live.index("ToolItem"))
    assert live.index("ArtifactItem") < live.index("AssistantItem", live.index("ToolItem"))
    assert final == resumed, (final, resumed)
    assert final[0] == "UserItem" and final.count("AssistantItem") == 2 and "ToolItem" in final


async def test_entries_between_replies_keep_their_place(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("one")], no_session=False)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        session.agent.state.messages = []
        app.rebuild_transcript()
        await session.prompt("go")
        await pilot.pause(0.1)
        session.notify("warning", "after the reply")
        await pilot.pause(0.1)
        kinds = _kinds(app.transcript.items)
    assert kinds[-1] == "NoticeItem:after the re" and kinds[-2] == "AssistantItem"
    assert [type(i) for i in app.transcript.items if not isinstance(i, NoticeItem)][:2] == [UserItem, AssistantItem]
    assert not any(isinstance(i, (ToolItem, ArtifactItem)) for i in app.transcript.items)
    assert isinstance(app.transcript.items[-2], AssistantItem)
