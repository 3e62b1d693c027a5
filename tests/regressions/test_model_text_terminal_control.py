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
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, ThinkingContent
from pi_tui.coding.session.tree_view import _one_line
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.tool_panel import short_form
from pi_tui.tui.widgets.transcript_items import AssistantItem, NoticeItem, SummaryItem, ToolItem, UserItem

from .test_tool_output_terminal_control import EVIL, _tmux

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


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
def test_tmux_a_reply_with_escape_sequences_leaves_the_terminal_alone(tmp_path: Path) -> None:
    from tests.conformance.mock_llm_server import MockLlmServer

    project = tmp_path / "project"
    project.mkdir()
    home = tmp_path / "agent"
    home.mkdir()
    script: list[dict[str, Any]] = [
        {"type": "tool", "calls": [{"id": "c1", "name": "bash",
                                    "args": {"command": "echo hi \x1b]0;PWNED-ARG\x07"}}]},
        {"type": "text", "text": EVIL + "\n\nALL-DONE"},
    ]
    sock = f"model-osc-{os.getpid()}"
    raw_log = tmp_path / "raw.log"
    with MockLlmServer(script) as server:
        (home / "models.json").write_text(json.dumps({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "mock-model"}]}}}))
        env = f"PI_TUI_DIR={home} PI_TUI_SESSION_DIR={tmp_path / 'sessions'} PYTHONPATH={os.environ.get('PYTHONPATH', '')}"
        command = (f"cd {project} && sleep 0.5 && env {env} {sys.executable} -m pi_tui.cli "
                   "--provider mock --model mock-model")
        try:
            _tmux(sock, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command)
            _tmux(sock, "set", "-g", "set-clipboard", "on")
            _tmux(sock, "pipe-pane", "-t", "t", "-o", f"cat >> {raw_log}")
            title_before = _tmux(sock, "display", "-p", "-t", "t", "#{pane_title}")
            deadline = time.monotonic() + 40
            while "Enter" not in _tmux(sock, "capture-pane", "-p", "-t", "t") and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1.0)
            _tmux(sock, "send-keys", "-t", "t", "-l", "say something odd")
            _tmux(sock, "send-keys", "-t", "t", "Enter")
            screen = ""
            while time.monotonic() < deadline:
                screen = _tmux(sock, "capture-pane", "-p", "-t", "t")
                if "ALL-DONE" in screen:
                    break
                time.sleep(0.2)
            assert "ALL-DONE" in screen, screen
            time.sleep(0.5)
            screen = _tmux(sock, "capture-pane", "-p", "-t", "t")
            title_after = _tmux(sock, "display", "-p", "-t", "t", "#{pane_title}")
            alternate = _tmux(sock, "display", "-p", "-t", "t", "#{alternate_on}")
            buffers = _tmux(sock, "list-buffers")
            _tmux(sock, "send-keys", "-t", "t", "C-d")
        finally:
            _tmux(sock, "kill-server")
    raw = raw_log.read_bytes()
    assert title_after == title_before and "PWNED" not in title_after
    assert alternate.strip() == "1"  # still on the app's screen
    assert buffers == ""  # no OSC 52 clipboard write
    assert b"\x1b]52" not in raw and b"cm0gLXJmIH4K" not in raw and b"\x1b]0;PWNED" not in raw
    assert "say something odd" in screen and "Enter" in screen  # the prompt and the editor are still drawn


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
