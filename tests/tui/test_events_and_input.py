"""Session events the status line shows, large pastes, Ctrl+C twice, status-line coalescing, idle timers."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from pi_tui.coding.agent_session.events import (
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    CompactionEndEvent,
    CompactionStartEvent,
)
from pi_tui.tui.widgets.transcript_items import NoticeItem

from .helpers import make_app, make_session, transcript_text, wait_until


@pytest.mark.anyio
async def test_compaction_and_retry_events_drive_the_status_line(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.view.handle(CompactionStartEvent(reason="threshold"))
        assert app.status_line.display and app.status_line.message == "Auto-compacting... (esc to cancel)"
        app.view.handle(CompactionEndEvent(reason="threshold", aborted=True))
        assert not app.status_line.display
        app.view.handle(CompactionStartEvent(reason="manual"))
        app.view.handle(CompactionEndEvent(reason="manual", aborted=True))
        app.view.handle(AutoRetryStartEvent(attempt=1, max_attempts=3, delay_ms=4000, error_message="overloaded"))
        assert app.status_line.message == "Retrying in 4s (attempt 2 of 4) · overloaded"
        app.view.handle(AutoRetryEndEvent(success=False, attempt=3, final_error="529 overloaded"))
        await pilot.pause(0.1)
        text = transcript_text(app)
        assert "Auto-compaction cancelled" in text
        # Errors are shown once: by the /compact command (it raises) or the session's own notification.
        assert "Compaction cancelled" not in text.replace("Auto-compaction cancelled", "")
        assert "Retry failed" not in text
        assert not app.status_line.display and not app.status_line.timer_running


@pytest.mark.anyio
async def test_large_paste_arrives_whole(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    big = "\n".join(f"pasted line {i} " + "x" * 80 for i in range(2000))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.post_message(events.Paste(big))  # as the driver delivers a bracketed paste
        await pilot.pause(0.2)
        assert app.prompt_input.text == "[paste #1 +2000 lines]"  # pi's marker (§3.14b)
        assert app.prompt_input.expanded_text() == big


@pytest.mark.anyio
async def test_ctrl_c_twice_quits(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+c", "ctrl+c")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.anyio
async def test_status_notices_replace_each_other_and_idle_app_runs_no_timer(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session, spin=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.add_notice("status", "one")
        app.add_notice("status", "two")
        await pilot.pause(0.1)
        notices = [i for i in app.transcript.items if isinstance(i, NoticeItem) and i.level == "status"]
        assert len(notices) == 1 and notices[0].text == "two"
        await pilot.pause(0.2)
        assert not app.status_line.timer_running
        assert app.transcript._flush_timer is None
        assert not app.prompt_input.cursor_blink


@pytest.mark.anyio
async def test_tab_completes_slash_commands_and_home_end_scroll(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/hot")
        await pilot.press("tab")
        assert app.prompt_input.text == "/hotkeys "
        app.prompt_input.set_text("/co")
        await pilot.press("tab")
        await pilot.pause(0.1)
        assert app.prompt_input.text == "/co"
        assert "Commands: /compact  /copy" in transcript_text(app)
        app.prompt_input.set_text("")
        for i in range(40):
            app.add_notice("info", f"notice {i}")
        await pilot.pause(0.1)
        await pilot.press("home")
        await pilot.pause()
        assert "notice 0" in app.transcript.visible_text() and not app.transcript.following
        await pilot.press("end")
        await pilot.pause()
        assert "notice 39" in app.transcript.visible_text() and app.transcript.following


@pytest.mark.anyio
async def test_session_setup_error_is_shown_not_fatal() -> None:
    from .helpers import make_app as _make_app

    def broken() -> None:
        raise ValueError("Model not found: nope/nothing")

    app = _make_app(None, session_factory=broken)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: "Could not start the session: Model not found" in transcript_text(app))
        app.prompt_input.insert("hello")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "No session: Model not found: nope/nothing" in transcript_text(app))
        assert app.is_running


@pytest.mark.anyio
async def test_unknown_theme_falls_back_to_dark_with_a_warning(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session, theme="no-such-theme")
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        assert app.pi_theme.name == "dark"
        assert "Warning: Theme not found: no-such-theme" in transcript_text(app)
