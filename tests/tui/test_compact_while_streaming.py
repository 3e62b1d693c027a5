"""``/compact`` typed while a reply streams (found by a new-user run, issue 9: the reply was aborted and then
"Nothing to compact" was shown). pi 0.73 (``AgentSession.compact``: abort, then compact) aborts the run and
compacts; the partial reply stays in the transcript and the session as an aborted message, and the compaction
runs. When there is nothing to compact, the run is not aborted for nothing: it goes on and the user is told."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, register_faux_provider
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.session_factory import create_agent_session
from pi_tui.coding.session_settings import SessionSettings
from pi_tui.tui.modals.confirm import ConfirmModal
from pi_tui.tui.widgets.transcript_items import AssistantItem, SummaryItem

from .helpers import make_app, transcript_text, wait_until
from .test_transcript_compaction_history import SUMMARY, ask


def answer(k: int) -> str:
    return f"Answer {k}: " + " ".join(f"word{n}" for n in range(60))


SLOW = " ".join(f"slowword{k}" for k in range(3000))  # streams for seconds: /compact always finds it running


def slow_session(tmp_path: Path) -> tuple[Any, Any]:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1", "context_window": 200000}],
                                  tokens_per_second=300)  # a 3,000-word reply streams for about 15 s
    model = faux.get_model()
    assert model is not None
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=100))
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"), settings=settings)
    session.models.allow(model.provider, model.id, model)
    session.set_model(model)
    return session, faux


def streaming_item(app: Any) -> AssistantItem | None:
    items = [i for i in app.transcript.items if isinstance(i, AssistantItem)]
    return items[-1] if items and "slowword3" in items[-1].plain_text() else None


@pytest.mark.anyio
async def test_compact_during_a_reply_keeps_the_partial_reply_and_compacts(tmp_path: Path) -> None:
    session, faux = slow_session(tmp_path)
    faux.set_responses([faux_assistant_message(answer(k)) for k in range(3)]
                       + [faux_assistant_message(SLOW)] + [faux_assistant_message(SUMMARY)] * 2)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, f"question {k}")
        app.prompt_input.insert("write slowly")
        await pilot.press("enter")
        await wait_until(pilot, lambda: streaming_item(app) is not None)
        app.prompt_input.insert("/compact")
        assert session.is_streaming
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))  # asks first (tester3 #16)
        shown: list[str] = []
        show = app.status_line.show
        app.status_line.show = lambda text: (shown.append(text), show(text))[1]  # type: ignore[method-assign]
        cleared_while_compacting: list[bool] = []
        clear = app.status_line.clear

        def watched_clear() -> None:
            if app.compacting:
                cleared_while_compacting.append(True)
            clear()

        app.status_line.clear = watched_clear  # type: ignore[method-assign]
        await pilot.press("y")
        await wait_until(pilot, lambda: any(isinstance(i, SummaryItem) and i.label == "compaction"
                                            for i in app.transcript.items), limit=20)
        assert any("Compacting context" in text for text in shown)  # the status line said so while it ran
        assert not cleared_while_compacting  # and nothing took it away before the compaction ended
        await wait_until(pilot, lambda: not app.working and not app.compacting)
        text = transcript_text(app)
        assert "Nothing to compact" not in text
        assert "slowword3" in text  # the partial reply is still shown (folded history or kept part)
        stored = [m for m in (e.message for e in session.session_manager.get_entries() if hasattr(e, "message"))
                  if getattr(m, "role", "") == "assistant"]
        assert any("slowword3" in str(m.content) and m.stop_reason == "aborted" for m in stored)


@pytest.mark.anyio
async def test_compact_with_nothing_to_compact_does_not_abort_the_reply(tmp_path: Path) -> None:
    session, faux = slow_session(tmp_path)
    faux.set_responses([faux_assistant_message("short " * 900)])  # streams for seconds
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("write slowly")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(i, AssistantItem) and "short" in i.plain_text()
                                            for i in app.transcript.items))
        app.prompt_input.insert("/compact")
        assert session.is_streaming
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Nothing to compact" in transcript_text(app))
        await wait_until(pilot, lambda: not app.working, limit=20)
        await session.wait_for_idle()
        last = session.messages[-1]
        assert last.role == "assistant" and last.stop_reason == "stop"  # the reply ran to its end
        assert session.messages[-1].content[0].text.count("short") == 900


@pytest.mark.anyio
async def test_compact_during_a_reply_can_be_declined(tmp_path: Path) -> None:
    session, faux = slow_session(tmp_path)
    faux.set_responses([faux_assistant_message(answer(k)) for k in range(3)] + [faux_assistant_message(SLOW)])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, f"question {k}")
        app.prompt_input.insert("write slowly")
        await pilot.press("enter")
        await wait_until(pilot, lambda: streaming_item(app) is not None)
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("n")
        await pilot.pause(0.1)
        assert session.is_streaming and not app.compacting  # the run goes on
        assert not any(isinstance(i, SummaryItem) and i.label == "compaction" for i in app.transcript.items)
        session.agent.abort()  # (the rest of the reply is not needed)
        await session.wait_for_idle()
