"""Failures inside the TUI are logged to a file and shown once (issue 9).

The session listener's exceptions went to a logger nobody configured, under Textual's stderr redirect: the
screen went out of step and nothing told the user. Now every silent catch in the TUI logs to
``<PI_TUI_DIR>/pi-tui.log`` (rotated, redacted) and the listener's failure is shown once as an error
notification.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.ai.secret_redaction import clear_secrets, register_secret
from pi_tui.tui.log_setup import FailureReporter, configure_logging, redact_log_text
from pi_tui.tui.session_view import SessionView
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until

SECRET = "sk-test-1234567890abcdefABCDEF"


@pytest.fixture
def log_file(tmp_path: Path) -> Any:
    path = configure_logging(tmp_path / "agent")
    assert path is not None
    yield path
    root = logging.getLogger("pi_tui")
    for handler in [h for h in root.handlers if h.get_name() == "pi-tui-file"]:
        root.removeHandler(handler)
        handler.close()
    root.propagate = True
    clear_secrets()


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def error_notifications(app: Any) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


@pytest.mark.anyio
async def test_a_listener_failure_is_logged_and_shown_once(tmp_path: Path, log_file: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    register_secret(SECRET)

    def broken(self: SessionView, event: Any) -> None:
        raise RuntimeError(f"view broke while the key {SECRET} was around")

    monkeypatch.setattr(SessionView, "on_message_start", broken)  # the user's messages never appear
    session, _ = make_session(tmp_path, [faux_assistant_message("one"), faux_assistant_message("two")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for text in ("prompt-alpha", "prompt-beta"):
            await pilot.press(*text, "enter")
            await wait_until(pilot, lambda: not app.working)
            await session.wait_for_idle()
        await pilot.pause()
        shown = error_notifications(app)
        assert len(shown) == 1, shown
        # Back in step once the run ended: the prompts are on screen although showing them failed.
        screen = transcript_text(app)
        assert "prompt-alpha" in screen and "prompt-beta" in screen and not app.working
        assert "session listener" in shown[0] and "view broke" in shown[0] and SECRET not in shown[0]
    text = read(log_file)
    assert text.count("RuntimeError: view broke") >= 2  # every failure is logged, with its traceback
    assert "Traceback" in text
    assert SECRET not in text and "[REDACTED]" in text


def test_log_lines_never_hold_keys(log_file: Path) -> None:
    logging.getLogger("pi_tui.coding.x").error("auth failed: Authorization: Bearer abcdEFGH12345678 for %s",
                                               "sk-ant-api03-unregisteredKEY1234567890")
    text = log_file.read_text(encoding="utf-8")
    assert "abcdEFGH12345678" not in text and "unregisteredKEY" not in text
    assert redact_log_text("x-api-key: zzzzzzzz99999999") == "x-api-key: [REDACTED]"


def test_reporter_shows_each_place_once_and_survives_a_broken_notify() -> None:
    shown: list[str] = []
    reporter = FailureReporter(shown.append)
    for _ in range(3):
        reporter.report("footer", ValueError("bad stats"))
    reporter.report("theme loader", OSError("gone"))
    assert shown == ["Internal error in the footer: ValueError: bad stats.",
                     "Internal error in the theme loader: OSError: gone."]

    def broken(message: str) -> None:
        raise RuntimeError("app closing")

    FailureReporter(broken).report("x", ValueError("y"))  # never raises
