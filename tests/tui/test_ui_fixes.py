"""Fixes for the new-user tester's findings (H11 list): compaction Escape/queue, narrow tool panel, paste
markers, tiny terminals, the ``!cmd`` hint, ``/export`` formats."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, transcript_text, wait_until


def _user_texts(session: Any) -> list[str]:
    out = []
    for m in session.messages:
        if getattr(m, "role", None) == "user":
            content = m.content
            out.append(content if isinstance(content, str) else "".join(getattr(c, "text", "") for c in content))
    return out


@pytest.mark.anyio
async def test_escape_cancels_compact_and_enter_queues_until_it_ends(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """H11 #1: Escape during /compact calls abort_compaction ("Compaction cancelled"); text typed meanwhile
    is held locally (queue area) and sent afterwards: the first as a prompt, the next as its follow-up."""
    import pi_tui.coding.agent_session.compaction as sc

    started: list[bool] = []

    async def hanging_compact(preparation: Any, model: Any, api_key: Any, **kwargs: Any) -> Any:
        started.append(True)
        await kwargs["signal"].wait()
        raise RuntimeError("Request was aborted")

    monkeypatch.setattr(sc, "prepare_compaction",
                        lambda *a, **k: SimpleNamespace(messages_to_summarize=[1], turn_prefix_messages=[]))
    monkeypatch.setattr(sc, "compact", hanging_compact)
    session, faux = make_session(tmp_path, [faux_assistant_message("first reply"),
                                            faux_assistant_message("second reply")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(started) and app.compacting)
        assert "Esc: cancel compaction" in str(app.prompt_input.border_title)
        app.prompt_input.insert("hello after")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Queued message for after compaction" in transcript_text(app))
        await app.submit_text("and a follow-up", "follow_up")
        await pilot.pause(0.1)
        assert faux.get_pending_response_count() == 2  # nothing was sent while compacting
        assert app.queue_view.display
        assert app.queue_view.local_steering == ["hello after"]
        assert app.queue_view.local_follow_up == ["and a follow-up"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: "Compaction cancelled" in transcript_text(app))
        await wait_until(pilot, lambda: "second reply" in transcript_text(app) and not app.working)
        assert not session.is_compacting
        assert _user_texts(session) == ["hello after", "and a follow-up"]
        assert not app.queue_view.display
        assert "first reply" in transcript_text(app)


@pytest.mark.anyio
async def test_tool_panel_covers_the_transcript_on_narrow_terminals(tmp_path: Path) -> None:
    """H11 #2: at 50 columns F2 used to leave the transcript ~8 columns; now the panel takes the full width
    while open (the transcript keeps its width underneath) and the wide layout keeps the side column."""
    session, _ = make_session(tmp_path, [faux_assistant_message("A reply long enough to wrap at eight columns.")])
    app = make_app(session)
    async with app.run_test(size=(50, 15)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("f2")
        await pilot.pause(0.1)
        assert app.tool_panel.display
        assert app.tool_panel.size.width == 50
        assert app.transcript.size.width == 50  # not squeezed
        await pilot.press("f2")
        await pilot.pause(0.1)
        assert not app.tool_panel.display and app.transcript.size.width == 50
    app = make_app(make_session(tmp_path, [])[0])
    async with app.run_test(size=(140, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("f2")
        await pilot.pause(0.1)
        assert app.tool_panel.size.width + app.transcript.size.width + 1 >= 139
        assert app.transcript.size.width > 70


@pytest.mark.anyio
async def test_large_paste_is_a_marker_and_arrives_whole_on_submit(tmp_path: Path) -> None:
    """H11 #3: a 5,000-line paste shows as ``[paste #1 +5000 lines]``; on submit the exact text reaches the
    model and the transcript, and the history keeps the expanded text. Small pastes are inserted as they are."""
    from textual import events

    session, _ = make_session(tmp_path, [faux_assistant_message("got it")])
    app = make_app(session)
    big = "\n".join(f"line {i}: " + "é" * (i % 70) for i in range(5000))
    long_one_line = "w" * 1500
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("Summarise ")
        app.post_message(events.Paste(big.replace("\n", "\r\n")))  # CRLF from the terminal is normalised
        await pilot.pause(0.1)
        app.post_message(events.Paste(" and "))
        await pilot.pause(0.1)
        app.post_message(events.Paste(long_one_line))
        await pilot.pause(0.1)
        assert app.prompt_input.text == "Summarise [paste #1 +5000 lines] and [paste #2 1500 chars]"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "got it" in transcript_text(app) and not app.working)
        expected = f"Summarise {big} and {long_one_line}"
        assert _user_texts(session) == [expected]
        assert app.prompt_input.prompt_history[-1] == expected
        assert app.prompt_input.text == "" and app.prompt_input.pastes == {}
        assert "line 4999: " not in transcript_text(app)  # collapsed like a paste (issue 9) ...
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert "line 4999: " in transcript_text(app)  # ... and all there


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(40, 10), (20, 6), (30, 8)])
async def test_tiny_terminals_keep_the_editor_and_footer(tmp_path: Path, size: tuple[int, int]) -> None:
    """H11 #4: on small terminals the header no longer wraps over the screen: one truncated line (hidden when
    tiny); the editor and the footer stay fully on screen, also with queued messages and a reply."""
    from .helpers import offline_session

    app = make_app(offline_session(tmp_path))
    width, height = size
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        app.queue_view.set_queues(["one", "two", "three"], ["four"])
        await pilot.pause(0.1)
        for widget in (app.prompt_input, app.footer):
            region = widget.region
            assert widget.display and region.height >= (3 if widget is app.prompt_input else 1)
            assert region.y >= 0 and region.bottom <= height, (widget, region)
        assert app.footer.region.bottom == height
        assert app.footer.render().plain.count("\n") == (0 if height < 9 else 1)
        header = app.header_widget
        if height < 9:
            assert not header.display or header.region.height == 0
        else:
            assert header.region.height == 1
            assert "\n" not in header.render().plain and header.render().cell_len <= width
        app.set_working(True)  # the status line takes a row too
        await pilot.pause(0.1)
        assert app.status_line.display
        assert app.prompt_input.region.bottom <= height - 1 and app.footer.region.bottom == height
        app.set_working(False)
        app.prompt_input.insert("hi")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and "hi" in transcript_text(app))
        assert app.prompt_input.region.bottom <= height and app.footer.region.bottom == height


@pytest.mark.anyio
async def test_running_bash_command_title_says_escape_cancels_it(tmp_path: Path) -> None:
    """H11 #5: while ``!cmd`` runs the editor title says Escape cancels it; Escape does; the title reverts."""
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        assert "Esc" not in str(app.prompt_input.border_title)
        app.prompt_input.insert("!sleep 20")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.bash_running and session.is_bash_running)
        assert "Esc: cancel the running command" in str(app.prompt_input.border_title)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.bash_running and "(cancelled)" in transcript_text(app))
        assert "Esc" not in str(app.prompt_input.border_title)


@pytest.mark.anyio
async def test_export_writes_html_to_any_path_and_one_file_by_default(tmp_path: Path) -> None:
    """H11 #6: ``/export x.txt`` writes HTML (pi) instead of a usage error; ``/export`` writes one HTML file
    and says where; a ``.md`` path still gets Markdown."""
    session, _ = make_session(tmp_path, [faux_assistant_message("The answer is 42.")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and "42" in transcript_text(app))
        before = set(os.listdir(tmp_path))
        commands = [f"/export {tmp_path / 'x.txt'}", "/export", f"/export {tmp_path / 'notes.md'}"]
        for count, command in enumerate(commands, start=1):
            app.prompt_input.insert(command)
            await pilot.press("enter")
            await wait_until(pilot, lambda n=count: len(_notices(app, "Session exported to: ")) == n)
        txt = (tmp_path / "x.txt").read_text()
        assert txt.startswith("<!doctype html>") and "42" in txt
        new = sorted(set(os.listdir(tmp_path)) - before)
        default = [n for n in new if n not in ("x.txt", "notes.md")]
        assert len(default) == 1 and default[0].endswith(".html"), new
        assert _notices(app, "Session exported to: ")[1] == f"Session exported to: {tmp_path / default[0]}"
        md = (tmp_path / "notes.md").read_text()
        assert "42" in md and "<html" not in md
        assert not _notices(app, "Usage") and not _notices(app, "Error")


def _notices(app: Any, prefix: str) -> list[str]:
    from pi_tui.tui.widgets.transcript_items import NoticeItem

    return [i.text for i in app.transcript.items if isinstance(i, NoticeItem) and i.text.startswith(prefix)]


@pytest.mark.anyio
async def test_burst_of_enter_and_follow_up_keeps_every_message(tmp_path: Path) -> None:
    """H11 #7: ``q1`` Enter ``q2`` Ctrl+F typed in one burst while the agent works. The submit worker used
    to read the editor only when it started, after ``q2`` had been typed: one steer ``q1q2``, the Ctrl+F
    lost. Now each key takes the editor text when it is pressed."""
    from textual import events

    session, _ = make_session(tmp_path, [faux_assistant_message("slow " * 400)], tokens_per_second=50)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("start")
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.is_streaming)
        keys = [events.Key(key, char) for key, char in
                [("q", "q"), ("1", "1"), ("enter", "\r"), ("q", "q"), ("2", "2"), ("ctrl+f", None)]]
        for n, key_event in enumerate(keys):  # all queued before any is handled, typed 50 ms apart (a paste
            key_event.time = keys[0].time + n * 0.05  # arrives at once: its Enter is a newline, new-user #29)
            app.prompt_input.post_message(key_event)
        await wait_until(pilot, lambda: len(session.steering_messages) + len(session.follow_up_messages) == 2)
        assert session.steering_messages == ["q1"] and session.follow_up_messages == ["q2"]
        await pilot.press("alt+up")
        await pilot.pause(0.1)
        assert app.prompt_input.text == "q1\n\nq2"
        await session.abort()
