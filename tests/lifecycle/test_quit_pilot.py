"""Issue 9 item 3 (in-process part): quitting during a compaction or a retry countdown leaves the session at rest
and its file consistent; the app exits at once instead of waiting out the countdown."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.agent_session.shutdown import session_busy, settle_session
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.retry import RetrySettings
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.session_core.helpers import make_session
from tests.tui.helpers import make_app, wait_until

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def slow_faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(tokens_per_second=2000, token_size={"min": 1, "max": 1})
    yield provider
    provider.unregister()


def _lines(session: Any) -> list[dict[str, Any]]:
    return [json.loads(x) for x in Path(session.session_file).read_text().splitlines() if x.strip()]


def _loads(session: Any) -> list[Any]:
    return list(SessionManager.open(Path(session.session_file)).build_session_context().messages)


async def test_quit_during_compaction_cancels_it_and_exits(tmp_path: Path, slow_faux: FauxProvider) -> None:
    slow_faux.set_responses([
        faux_assistant_message("a" * 400), faux_assistant_message("b" * 400),
        faux_assistant_message("summary " * 4000), faux_assistant_message("prefix " * 4000),
    ])
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=50))
    session = make_session(tmp_path, slow_faux.get_model(), settings=settings)
    await session.prompt("first " + "x" * 400)
    await session.prompt("second")
    app = make_app(session)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*"/compact", "enter")
        await wait_until(pilot, lambda: session.is_compacting and slow_faux.state.call_count >= 3)
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: not app.is_running, limit=10)
    assert not session_busy(session)
    assert all(line["type"] != "compaction" for line in _lines(session))
    assert [m.role for m in _loads(session)][-2:] == ["user", "assistant"]


async def test_quit_during_retry_countdown_exits_at_once(tmp_path: Path, slow_faux: FauxProvider) -> None:
    error = faux_assistant_message([], stop_reason="error", error_message="503 service unavailable")
    slow_faux.set_responses([error, faux_assistant_message("never reached")])
    settings = SessionSettings(retry=RetrySettings(base_delay_ms=600_000, max_delay_ms=600_000))
    session = make_session(tmp_path, slow_faux.get_model(), settings=settings)
    app = make_app(session)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*"hello", "enter")
        await wait_until(pilot, lambda: session.is_retrying and not session.is_streaming)
        started = time.monotonic()
        await pilot.press("ctrl+c", "ctrl+c")
        await wait_until(pilot, lambda: not app.is_running, limit=10)
        assert time.monotonic() - started < 5
    assert not session_busy(session)
    messages = _loads(session)
    assert [m.role for m in messages] == ["user", "assistant"] and messages[-1].stop_reason == "error"


async def test_settle_session_is_a_no_op_when_idle(tmp_path: Path, slow_faux: FauxProvider) -> None:
    session = make_session(tmp_path, slow_faux.get_model())
    assert await asyncio.wait_for(settle_session(session), 5) is True
