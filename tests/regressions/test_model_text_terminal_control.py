"""The model's own text cannot drive the terminal either (tester2 #7: a reply holding ``ESC ]0;…`` retitled the
window, ``ESC [2J`` blanked the screen, ``ESC [?1049l`` left the alternate screen and OSC 52 reached the
terminal; tool output was already clean, issue 10 class 7).

Every transcript item renders through ``RenderContext.to_strips``, which now cleans each rendered line with the
same function as tool output; the tool panel's call line, ``/tree`` previews and ``-p`` on a terminal do too.
The session keeps the reply as the model sent it (pi does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, ThinkingContent
from pi_tui.coding.session.tree_view import _one_line
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.tool_panel import short_form
from pi_tui.tui.widgets.transcript_items import AssistantItem, NoticeItem, SummaryItem, ToolItem, UserItem

from .test_tool_output_terminal_control import EVIL
from .tmux_app import needs_tmux, run_in_tmux

FORBIDDEN = ("\x1b", "\x07", "\x08", "\x9b", "\x9c", "\x9d", "\x0e", "\x0f", "\x7f", "\r")


def _segments_text(strips: list[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def _assistant(text: str, thinking: str = "") -> AssistantMessage:
    content: list[Any] = [ThinkingContent(thinking=thinking)] if thinking else []
    content.append(TextContent(text=text))
    return AssistantMessage(content=content, api="openai-completions", provider="p", model="m",
                            stop_reason="stop", timestamp=0)


@pytest.mark.parametrize("make", [
    lambda: AssistantItem(_assistant(EVIL, thinking=EVIL)),
    lambda: AssistantItem(_assistant(EVIL), streaming=True),
    lambda: UserItem(EVIL),
    lambda: NoticeItem("warning", EVIL),
    lambda: SummaryItem("Compaction summary", EVIL, collapsed_by_default=False),
    lambda: ToolItem("c1", "bash", {"command": EVIL}),
])
@pytest.mark.parametrize("width", [30, 80, 200])
def test_no_item_renders_a_control_character(make: Any, width: int) -> None:
    ctx = RenderContext(find_theme("dark"))
    item = make()
    strips = item.strips(ctx, width)
    text = _segments_text(strips)
    for bad in FORBIDDEN:
        assert bad not in text, (bad, text)
    assert all(strip.cell_length == width for strip in strips)  # lines that lost characters are padded back


def test_the_tool_panel_and_tree_previews_are_clean() -> None:
    for text in (short_form(ToolItem("c1", "bash", {"command": EVIL})), _one_line(EVIL)):
        for bad in FORBIDDEN:
            assert bad not in text, (bad, text)


def test_print_mode_cleans_only_for_a_terminal(tmp_path: Path) -> None:
    from tests.conformance.mock_llm_server import MockLlmServer

    home = tmp_path / "agent"
    home.mkdir()
    with MockLlmServer([{"type": "text", "text": EVIL}]) as server:
        (home / "models.json").write_text(json.dumps({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "mock-model"}]}}}))
        env = {**os.environ, "PI_TUI_DIR": str(home), "PI_TUI_SESSION_DIR": str(tmp_path / "s")}
        piped = subprocess.run([sys.executable, "-m", "pi_tui.cli", "--provider", "mock", "--model", "mock-model",
                                "-p", "hi"], capture_output=True, env=env, cwd=tmp_path, timeout=60, check=False)
    assert piped.returncode == 0, piped.stderr
    assert b"\x1b]52" in piped.stdout  # a pipe gets the text as the model sent it (scripts, pi)


@needs_tmux
def test_tmux_a_reply_with_escape_sequences_leaves_the_terminal_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    script: list[dict[str, Any]] = [
        {"type": "tool", "calls": [{"id": "c1", "name": "bash",
                                    "args": {"command": "echo hi \x1b]0;PWNED-ARG\x07"}}]},
        {"type": "text", "text": EVIL + "\n\nALL-DONE"},
    ]
    run = run_in_tmux(tmp_path, project, script, "say something odd")
    assert run.title_after == run.title_before and "PWNED" not in run.title_after
    assert run.alternate.strip() == "1"  # still on the app's screen
    assert run.buffers == ""  # no OSC 52 clipboard write
    assert b"\x1b]52" not in run.raw and b"cm0gLXJmIH4K" not in run.raw and b"\x1b]0;PWNED" not in run.raw
    assert "say something odd" in run.screen and "Enter" in run.screen  # the prompt and the editor are still drawn


def test_only_the_sequences_go_the_words_after_them_stay() -> None:
    """tester2 #17: Rich drops the BEL that ends an OSC, so cleaning the rendered line removed the OSC 52 and
    the visible word after it (``osc52``); the text is now cleaned before it is rendered."""
    reply = ("normal \x1b[31mred\x1b[0m \x1b]0;pwned-title\x07 \x1b[2J cleared? \x1b]52;c;aGVsbG8=\x07 osc52 "
             "\x1b[?1049h alt \x1b[?1049l back \r carriage\n")
    ctx = RenderContext(find_theme("dark"))
    for item in (AssistantItem(_assistant(reply)), NoticeItem("error", reply), UserItem(reply)):
        text = " ".join(_segments_text(item.strips(ctx, 100)).split())
        for word in ("normal", "red", "cleared?", "osc52", "alt", "back", "carriage"):
            assert word in text, (word, text)
        assert "pwned" not in text and "aGVsbG8" not in text
