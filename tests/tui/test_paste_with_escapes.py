"""A bracketed paste is one paste whatever bytes it holds (tester2 #15, high: pasting coloured output split the
paste at its first ESC; the rest was taken as typed keys, each newline sent a prompt, and the text before the ESC
ended up after it). ``pi_tui.tui.paste_parser.PasteSafeParser`` reads pastes whole, across reads."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events

from pi_tui.tui.paste_parser import PasteSafeParser, paste_text
from tests.regressions.typing_helpers import type_raw

from .helpers import make_app, make_session

COLOURED = "line1 \x1b[1mbold\x1b[0m\nline2 plain\nline3 \x1b[32mgreen\x1b[0m end\n"
STREAM = "ab" + "\x1b[200~" + COLOURED + "\x1b[201~" + "cd\x1b[A" + "\x1b[200~x\x1b]0;t\x07y\r\nz\x1b[201~"


def _events(chunks: list[str]) -> list[Any]:
    parser = PasteSafeParser()
    out: list[Any] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    out.extend(parser.feed(""))
    return out


def _summary(evs: list[Any]) -> list[tuple[str, str]]:
    return [("paste", e.text) if isinstance(e, events.Paste) else ("key", e.key) for e in evs
            if isinstance(e, events.Paste | events.Key)]


def test_a_paste_with_escape_bytes_is_one_clean_paste_in_order() -> None:
    got = _summary(_events([STREAM]))
    assert got == [("key", "a"), ("key", "b"), ("paste", "line1 bold\nline2 plain\nline3 green end\n"),
                   ("key", "c"), ("key", "d"), ("key", "up"), ("paste", "xy\nz")]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=len(STREAM) - 1), max_size=8, unique=True))
def test_reads_cut_anywhere_give_the_same_events(cuts: list[int]) -> None:
    points = [0, *sorted(cuts), len(STREAM)]
    chunks = [STREAM[a:b] for a, b in zip(points, points[1:], strict=False) if b > a]
    assert _summary(_events(chunks)) == _summary(_events([STREAM]))


def test_line_breaks_from_the_terminal_become_newlines() -> None:
    assert paste_text("a\r\nb\rc\x00\td") == "a\nb\nc\td"


def test_a_lone_escape_key_is_not_held_back() -> None:
    parser = PasteSafeParser()
    list(parser.feed("\x1b"))
    time.sleep(0.15)
    assert [e.key for e in parser.tick() if isinstance(e, events.Key)] == ["escape"]


@pytest.mark.anyio
async def test_the_editor_gets_the_whole_paste_and_nothing_is_sent(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_raw(pilot, "\x1b[200~" + COLOURED + "\x1b[201~")
        for _ in range(10):
            await pilot.pause()
        assert app.prompt_input.text == "line1 bold\nline2 plain\nline3 green end\n"
        assert not [m for m in session.messages if getattr(m, "role", None) == "user"]
        await type_raw(pilot, "AAA \x1b[200~\x1b[31mBBB\x1b[0m CCC\x1b[201~")
        assert app.prompt_input.text.endswith("AAA BBB CCC")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
def test_tmux_bracketed_paste_of_coloured_text(tmp_path: Path) -> None:
    home = tmp_path / "agent"
    home.mkdir()
    sock = f"paste-esc-{os.getpid()}"
    buffer = tmp_path / "paste.txt"
    buffer.write_text(COLOURED)
    env = f"PI_TUI_DIR={home} PI_TUI_SESSION_DIR={tmp_path / 's'} PYTHONPATH={os.environ.get('PYTHONPATH', '')}"
    command = f"cd {tmp_path} && env {env} {sys.executable} -m pi_tui.cli --no-extensions"

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, check=False).stdout

    try:
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", command)
        deadline = time.monotonic() + 40
        while "Enter" not in tmux("capture-pane", "-p", "-t", "t") and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)
        tmux("load-buffer", str(buffer))
        tmux("paste-buffer", "-p", "-t", "t")
        screen = ""
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p", "-t", "t")
            if "line3 green end" in screen:
                break
            time.sleep(0.2)
        time.sleep(0.5)
        screen = tmux("capture-pane", "-p", "-t", "t")
        tmux("send-keys", "-t", "t", "C-c")
    finally:
        tmux("kill-server")
    assert "line1 bold" in screen and "line2 plain" in screen and "line3 green end" in screen, screen
    assert screen.index("line1 bold") < screen.index("line2 plain") < screen.index("line3 green end")
    assert "^[" not in screen and "Offline" not in screen.split("line1 bold")[1].split("line3")[0]
