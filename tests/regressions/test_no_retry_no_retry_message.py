"""tester2 #14: with ``retry.maxRetries`` 0 a failed request was reported twice, the second time as
``Retry failed after 1 attempts`` although no retry was made. Now the failed reply is the one error; the
summary line comes only after real retries (and a refused connection still names its server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.retry import RetrySettings

from ..coding.session_core.helpers import SleepRecorder, make_session

pytestmark = pytest.mark.anyio

ERR_401 = '401 {"error": {"message": "mock error 401", "type": "server_error"}}'


def _error(text: str) -> Any:
    return faux_assistant_message([], stop_reason="error", error_message=text)


def _notes(session: Any) -> list[str]:
    return [m.text for m in session.messages if getattr(m, "role", "") == "notification"]


async def test_no_retry_due_means_no_retry_failed_line(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error(ERR_401)])
    settings = SessionSettings(retry=RetrySettings(max_retries=0, base_delay_ms=1))
    session = make_session(tmp_path, faux.get_model(), settings=settings, sleep=SleepRecorder())
    await session.prompt("ERR401 again")
    await session.wait_for_idle()
    assert not any("Retry failed" in n for n in _notes(session)), _notes(session)
    errors = [m for m in session.messages if getattr(m, "stop_reason", None) == "error"]
    assert [m.error_message for m in errors] == [ERR_401]  # the one error the user sees


async def test_after_real_retries_the_summary_counts_them(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error(ERR_401), _error(ERR_401)])
    settings = SessionSettings(retry=RetrySettings(max_retries=1, base_delay_ms=1))
    session = make_session(tmp_path, faux.get_model(), settings=settings, sleep=SleepRecorder())
    await session.prompt("ERR401 again")
    await session.wait_for_idle()
    assert [n for n in _notes(session) if "Retry failed" in n] == ["Retry failed after 2 attempts: 401 mock error 401"]
