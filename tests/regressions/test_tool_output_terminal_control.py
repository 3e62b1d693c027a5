"""Issue 10 class 7: tool output cannot drive the terminal.

Real reports:
- daintreehq/daintree#3703 (2026-03-18): agent output carrying ``ESC ]52;c;<base64> BEL`` silently replaced
  the user's clipboard (pastejacking: the pasted "command" runs).
- anthropics/claude-code#15082, #23757: ``printf '\\033]0;title\\007'`` run by the Bash tool: the agent must
  decide what reaches the terminal (here: nothing; a title is never the tool's to set).
- NVIDIA/garak#997 and the Black Hat 2023 "weaponizing plain text ANSI escape sequences" talk: hidden text,
  fake hyperlinks (OSC 8), screen clears and cursor moves in LLM/tool output; CVE-2024-33899 (winrar
  console output spoofing with ANSI escapes).
- pi 0.73.1 strips ANSI only when rendering; the model and the session file get the raw bytes, and so do they
  here (tester2 #23: a read that dropped the sequences made the model's edit of the file fail).

The malicious file below is read by every path: the bash tool (``cat``), the read tool, grep, user ``!cmd``,
and the real app in tmux (the pane title and tmux's clipboard buffers are checked, plus the raw bytes the
app wrote to the terminal).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.agent.terminal_text import TerminalOutputStream, sanitize_terminal_output
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.coding.tools import create_coding_tools
from pi_tui.coding.user_bash import run_user_bash

from ..coding.session_core.helpers import Recorder, make_session, session_lines
from .tmux_app import needs_tmux, run_in_tmux

pytestmark = pytest.mark.anyio

EVIL = (
    "line one\n"
    "\x1b]0;PWNED-TITLE\x07"  # window title (BEL)
    "\x1b]2;PWNED-TITLE2\x1b\\"  # window title (ST)
    "\x1b]52;c;cm0gLXJmIH4K\x07"  # clipboard write: "rm -rf ~"
    "\x1b]52;p;?\x1b\\"  # clipboard read request
    "\x1b]8;;http://evil.example/\x1b\\click me\x1b]8;;\x1b\\\n"  # hyperlink
    "\x1b[2J\x1b[H\x1b[1A\x1b[2K\x1b[?1049h\x1b[31mred\x1b[0m\n"  # clear, home, up, erase, alt screen, SGR
    "\x1bP+q544e\x1b\\\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\"  # DCS (XTGETTCAP), APC, PM, SOS
    "\x9b2J\x9d0;PWNED-C1\x9c"  # 8-bit CSI and OSC
    "\x1bc\x1b7\x1b8\x1b(0\x0e\x0f"  # full reset, save/restore cursor, line-drawing charset, SO/SI
    "bell\x07 back\x08\x08space\x7f\n"
    "progress 10%\rprogress 50%\rprogress 100%\n"
    "crlf line\r\n"
    "tail \x1b]0;UNTERMINATED title to the end of the line\n"
    "last line\n"
)
CLEAN = (
    "line one\n"
    "click me\n"
    "red\n"
    "bell backspace\n"
    "progress 100%\n"
    "crlf line\n"
    "tail \n"
    "last line\n"
)

FORBIDDEN = ("\x1b", "\x07", "\x08", "\x9b", "\x9c", "\x9d", "\x0e", "\x0f", "\x7f", "\r", "PWNED")


def assert_clean(text: str) -> None:
    for bad in FORBIDDEN:
        assert bad not in text, (bad, text)


def test_the_one_function_removes_every_kind_of_sequence() -> None:
    assert sanitize_terminal_output(EVIL) == CLEAN
    assert sanitize_terminal_output(CLEAN) == CLEAN  # idempotent; plain text untouched
    assert sanitize_terminal_output("tab\there, ünïcödé, emoji 🎉\n") == "tab\there, ünïcödé, emoji 🎉\n"
    # removing one sequence never joins the halves of another
    for text in ("\x1b\x1b]0;x\x07]0;y\x07", "\x1b\x00[2J", "\x1b[\x1b]52;c;eA==\x07", "\x1b" * 5 + "]0;t\x07"):
        assert_clean(sanitize_terminal_output(text))


def test_the_stream_form_holds_split_sequences_and_never_shows_old_frames_mixed() -> None:
    stream = TerminalOutputStream()
    chunks = [EVIL[i : i + 7] for i in range(0, len(EVIL), 7)]
    out = "".join(stream.feed(c) for c in chunks) + stream.finish()
    assert_clean(out)
    assert "PWNED" not in out and "cm0gLXJmIH4K" not in out
    # frames that replace already-shown text start a new line instead of being glued together
    stream = TerminalOutputStream()
    shown = stream.feed("10%") + stream.feed("\r50%") + stream.feed("\r") + stream.feed("100%\n") + stream.finish()
    assert shown == "10%\n50%\n100%\n"


async def test_the_model_and_the_session_get_the_true_output_the_screen_a_clean_one(
    tmp_path: Path, faux: FauxProvider
) -> None:
    """tester2 #23: the model gets a tool's true output (as pi), so it can edit the file it read; what the TUI
    draws from the same events is clean."""
    from pi_tui.tui.theme_loader import find_theme
    from pi_tui.tui.transcript_builder import apply_tool_result
    from pi_tui.tui.widgets.message_render import RenderContext
    from pi_tui.tui.widgets.tool_items import ToolItem

    (tmp_path / "evil.txt").write_text(EVIL, newline="")
    faux.set_responses(
        [
            faux_assistant_message(
                [
                    faux_tool_call("bash", {"command": "cat evil.txt"}, id="c1"),
                    faux_tool_call("read", {"path": "evil.txt"}, id="c2"),
                    faux_tool_call("grep", {"pattern": "e", "path": "evil.txt"}, id="c3"),
                    faux_tool_call("bash", {"command": "cat evil.txt; exit 3"}, id="c4"),
                ],
                stop_reason="toolUse",
            ),
            faux_assistant_message("done"),
        ]
    )
    tools = list(create_coding_tools(str(tmp_path)).values())
    session = make_session(tmp_path, faux.get_model(), tools=tools)
    rec = Recorder(session)
    await session.prompt("look at evil.txt")
    ends = {e["toolCallId"]: e for e in rec.of("tool_execution_end")}
    assert set(ends) == {"c1", "c2", "c3", "c4"}
    assert ends["c1"]["result"]["content"][0]["text"].rstrip("\n") == EVIL.rstrip("\n")  # bash: the bytes
    read_text = ends["c2"]["result"]["content"][0]["text"]
    assert "\x1b]52;c;cm0gLXJmIH4K\x07" in read_text and "\x9b2J" in read_text  # read: the bytes (\r = line end)
    assert "\x1b]0;PWNED-TITLE\x07" in ends["c3"]["result"]["content"][0]["text"]
    assert ends["c4"]["isError"] and "\x1b[2J" in ends["c4"]["result"]["content"][0]["text"]
    sent = [m for m in session.messages if m.role == "toolResult"]
    assert sent[0].content[0].text == ends["c1"]["result"]["content"][0]["text"]  # what the model's next request holds
    saved = json.dumps(session_lines(session), ensure_ascii=False)
    assert "\\u001b]52;c;cm0gLXJmIH4K\\u0007" in saved  # the session file, as pi writes it
    # the screen: every item drawn from these events, collapsed and expanded, and the tool panel
    for expand in (False, True):
        ctx = RenderContext(find_theme("dark"), expand_tools=expand)
        for end in ends.values():
            item = ToolItem(end["toolCallId"], end["toolName"], {"command": "cat evil.txt"})
            apply_tool_result(item, end["result"]["content"], end["result"].get("details"), end["isError"])
            drawn = "\n".join("".join(seg.text for seg in strip) for strip in item.strips(ctx, 100))
            assert_clean(drawn)
            assert_clean(item.result_text)  # the tool panel's detail pane shows this text
            assert "click me" in drawn or not expand  # the visible text stays (collapsed bash shows its tail)


async def test_user_bash_chunks_and_result_are_clean(tmp_path: Path) -> None:
    (tmp_path / "evil.txt").write_text(EVIL)
    chunks: list[str] = []
    result = await run_user_bash("cat evil.txt; printf 'p 1\\rp 2\\rp 3\\n'", str(tmp_path), on_chunk=chunks.append)
    assert result.output == CLEAN + "p 3\n"
    assert_clean("".join(chunks))


async def test_an_error_naming_an_unknown_tool_keeps_the_name_and_is_shown_clean(
    tmp_path: Path, faux: FauxProvider
) -> None:
    from pi_tui.tui.widgets import tool_format

    faux.set_responses(
        [
            faux_assistant_message([faux_tool_call("x\x1b]0;PWNED\x07y", {}, id="c1")], stop_reason="toolUse"),
            faux_assistant_message("done"),
        ]
    )
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    await session.prompt("go")
    (end,) = rec.of("tool_execution_end")
    text = end["result"]["content"][0]["text"]
    assert "x\x1b]0;PWNED\x07y" in text  # the model is told the name it really sent
    assert_clean(tool_format.result_text(end["result"]["content"]))


def test_a_command_written_by_an_injected_model_is_shown_clean() -> None:
    # tool INPUT: a model that read a malicious file may echo its sequences into a call
    from pi_tui.tui.widgets import tool_format

    assert_clean(tool_format.call_line("bash", {"command": "printf '\x1b]52;c;eA==\x07'; echo \x9b2J"}))
    assert_clean(tool_format.call_line("read", {"path": "\x1b]0;PWNED\x07x.txt"}))
    assert_clean(tool_format.short_args({"x": "\x9d0;PWNED\x9c"}))
    assert_clean(tool_format.call_line("mcp_tool", {"q": "\x1b[2J\x9d0;PWNED\x07"}))


# ---------------------------------------------------------------------------------------- tmux


@needs_tmux
def test_tmux_bash_cat_of_a_malicious_file_never_reaches_the_terminal(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "evil.txt").write_text(EVIL)
    script: list[dict[str, Any]] = [
        {"type": "tool", "calls": [{"id": "c1", "name": "bash", "args": {"command": "cat evil.txt"}}]},
        {"type": "tool", "calls": [{"id": "c2", "name": "read", "args": {"path": "evil.txt"}}]},
        {"type": "text", "text": "ALL-DONE"},
    ]
    run = run_in_tmux(tmp_path, project, script, "look at evil.txt", timeout=30)
    sent = json.dumps(run.requests)  # ESC and BEL as \u001b / \u0007
    assert "\\u001b]52;c;cm0gLXJmIH4K\\u0007" in sent  # the model got the file's bytes (tester2 #23)
    assert "PWNED" not in run.title_after and run.title_after == run.title_before
    assert run.buffers == ""  # OSC 52 would have created a tmux paste buffer ("rm -rf ~")
    assert b"PWNED" not in run.raw
    assert b"\x1b]52" not in run.raw and b"cm0gLXJmIH4K" not in run.raw
    assert b"evil.example" not in run.raw
    assert b"click me" in run.raw  # the text of the file did reach the screen
