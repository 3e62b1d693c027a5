"""What the transcript says (issue 9 small items): one truncation notice with true line counts, plural rules,
one wording for an abort, one diff per edit. Real AgentSession on the faux provider, real tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_tool_call
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import ArtifactItem, AssistantItem, BashItem

from .helpers import make_app, make_session, settle, transcript_text, wait_until


def _tool_turn(name: str, args: dict[str, Any], call_id: str = "call_1") -> list[Any]:
    return [faux_assistant_message([faux_tool_call(name, args, id=call_id)], stop_reason="toolUse"),
            faux_assistant_message("Done.")]


async def _run(app: Any, pilot: Any, text: str) -> str:
    await wait_until(pilot, lambda: app.session_ready)
    app.prompt_input.insert(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.working)
    await settle(pilot)
    return transcript_text(app)


@pytest.mark.anyio
@pytest.mark.parametrize("expand", [False, True])
async def test_bash_truncation_is_noted_once_with_the_real_line_count(tmp_path: Path, expand: bool) -> None:
    session, _ = make_session(tmp_path, _tool_turn("bash", {"command": "seq 1 5000"}))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        if expand:
            await pilot.press("ctrl+o")
        text = await _run(app, pilot, "count")
    assert text.count("Truncated") == 1 and "[Showing" not in text
    assert "showing 2000 of 5000 lines" in text and "5001" not in text


@pytest.mark.anyio
async def test_read_truncation_counts_a_5000_line_file_as_5000(tmp_path: Path) -> None:
    (tmp_path / "five.txt").write_text("".join(f"{i}\n" for i in range(1, 5001)))
    session, _ = make_session(tmp_path, _tool_turn("read", {"path": "five.txt"}))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        text = await _run(app, pilot, "read it")
    assert text.count("Truncated") == 1 and "5001" not in text and "of 5000 lines" in text
    result = next(m for m in session.messages if getattr(m, "role", "") == "toolResult")
    assert result.content[0].text.endswith("[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]")


@pytest.mark.anyio
async def test_one_earlier_line_is_singular(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, _tool_turn("bash", {"command": "seq 1 6"}))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        text = await _run(app, pilot, "six")
    assert "(1 earlier line, Ctrl+O to expand)" in text and "1 earlier lines" not in text


def test_plural_rules_in_every_count_hint() -> None:
    assert tool_format.plural(1, "line") == "1 line" and tool_format.plural(0, "line") == "0 lines"
    assert tool_format.preview("read", "\n".join("x" * 11), False).hint == "... (1 more line, Ctrl+O to expand)"
    assert tool_format.preview("read", "\n".join("x" * 12), False).hint == "... (2 more lines, Ctrl+O to expand)"
    ctx = _ctx()
    bash = BashItem("seq 21", False)
    bash.output = "\n".join(str(i) for i in range(21))
    bash.running = False
    assert "(1 earlier line, Ctrl+O to expand)" in _text(bash, ctx)
    card = ArtifactItem("notes", "text", "\n".join("x" * 13), None, None)
    rendered = _text(card, ctx)
    assert "(1 more line, click or Ctrl+O to expand)" in rendered and "13 lines" in rendered
    assert "· 1 line" in _text(ArtifactItem("one", "text", "x", None, None), ctx)


def _ctx() -> RenderContext:
    from pi_tui.tui.theme_loader import find_theme

    return RenderContext(find_theme("dark"), show_timing=False)


def _text(item: Any, ctx: RenderContext) -> str:
    return "\n".join(s.text.rstrip() for s in item.strips(ctx, 100))


@pytest.mark.parametrize("error", ["Request was aborted", "Request was aborted.", "This operation was aborted", None])
def test_every_provider_abort_text_reads_operation_aborted(error: str | None) -> None:
    item = AssistantItem(faux_assistant_message([faux_text("partial")], stop_reason="aborted", error_message=error))
    text = _text(item, _ctx())
    assert "Operation aborted" in text and "was aborted" not in text


def test_a_custom_abort_reason_is_kept() -> None:
    item = AssistantItem(faux_assistant_message([], stop_reason="aborted",
                                                error_message="Aborted after 2 retry attempts"))
    assert "Aborted after 2 retry attempts" in _text(item, _ctx())


@pytest.mark.anyio
async def test_escape_mid_reply_says_operation_aborted(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("word " * 400)], tokens_per_second=40)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("talk")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "word" in transcript_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
    assert text.count("Operation aborted") == 1 and "was aborted" not in text


@pytest.mark.anyio
async def test_an_edit_shows_its_diff_once(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("import os\nprint('hi')\n")
    session, _ = make_session(tmp_path, _tool_turn(
        "edit", {"path": "app.py", "edits": [{"oldText": "print('hi')", "newText": "print('hello there')"}]}))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        text = await _run(app, pilot, "edit it")
        assert text.count("hello there") == 1, text
        app.rebuild_transcript()  # the same after a reload (the artifact stays in the session)
        app.transcript.flush()
        assert transcript_text(app).count("hello there") == 1
    assert any(getattr(m, "role", "") == "artifact" for m in session.messages)


@pytest.mark.anyio
async def test_a_long_prompt_is_collapsed_like_a_paste_and_ctrl_o_expands_it(tmp_path: Path) -> None:
    from textual import events

    session, _ = make_session(tmp_path, [faux_assistant_message("Got it.")])
    app = make_app(session)
    big = "\n".join(f"pasted line {i}" for i in range(1, 31))
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.post_message(events.Paste(big))
        await pilot.pause(0.1)
        assert app.prompt_input.text == "[paste #1 +30 lines]"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
        assert "pasted line 1" in text and "pasted line 30" not in text
        assert "... (+25 lines, click or Ctrl+O to expand)" in text
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert "pasted line 30" in transcript_text(app)
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert "pasted line 30" not in transcript_text(app)
    user = next(m for m in session.messages if getattr(m, "role", "") == "user")
    assert user.content[0].text == big  # the model gets it all


def test_a_long_single_line_prompt_is_collapsed_by_characters() -> None:
    from pi_tui.tui.widgets.transcript_items import UserItem

    item = UserItem("x" * 3000)
    assert item.long and item.clickable
    assert "(+2600 chars, click or Ctrl+O to expand)" in _text(item, _ctx())
    assert item.toggle() and "chars, click" not in _text(item, _ctx())
    assert not UserItem("short").clickable


@pytest.mark.anyio
async def test_a_pasted_file_ending_in_a_newline_counts_its_real_lines(tmp_path: Path) -> None:
    """New-user run (issue 9): ``seq ... 1 300 > f`` pasted showed ``[paste #1 +301 lines]`` and, once sent,
    5 lines + ``+296 lines``: the final newline was counted as a 301st line (the D18 rule everywhere else)."""
    session, _ = make_session(tmp_path, [faux_assistant_message("ok")])
    app = make_app(session)
    big = "".join(f"paste line {i} with some text\n" for i in range(1, 301))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        from textual import events

        app.post_message(events.Paste(big))
        await pilot.pause(0.1)
        assert app.prompt_input.text == "[paste #1 +300 lines]"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
        assert "... (+295 lines, click or Ctrl+O to expand)" in text
