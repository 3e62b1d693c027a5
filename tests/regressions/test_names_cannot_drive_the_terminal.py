"""tester2 #25: a file name with an escape sequence retitled the window from the ``@`` completion list.

Names come from outside (a cloned repository's files, session names, model ids a server lists, extension labels
and statuses, MCP resource names). The completion list shows each control character as a visible placeholder
(``terminal_guard.show_controls``), and while the app runs every Rich ``Text`` / Textual ``Content`` does the same
(``terminal_guard.install``): the catch-all for the pickers, dialogs, footer and editor.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from rich.text import Text
from textual.content import Content

from pi_tui.coding.autocomplete import CompletionItem
from pi_tui.tui import terminal_guard
from pi_tui.tui.widgets.completion_list import list_rows

from .tmux_app import needs_tmux
from .tmux_app import tmux as _tmux

NAME = "evil\x1b]0;fn-title\x07name.txt"
CONTROLS = [chr(c) for c in (*range(0, 9), *range(11, 32), 0x7F, *range(0x80, 0xA0))]


def test_the_completion_list_shows_control_characters_as_placeholders() -> None:
    items = [CompletionItem(NAME), CompletionItem("x", label="\x9d0;t\x9c", description="by \x1b[2J ext")]
    for width in (20, 60, 120):
        rows = list_rows(items, 0, width, commands=False)
        text = "".join(label + description for label, description, _ in rows)
        assert not any(c in text for c in CONTROLS), (width, text)
    (first, _, _), (second, description, _) = list_rows(items, 0, 120, commands=False)
    assert first.strip() == "→ evil␛]0;fn-title␇name.txt"  # every visible character kept, the odd ones shown
    assert second.strip() == "\ufffd0;t\ufffd" and description.strip() == "by ␛[2J ext"


def test_the_guard_makes_every_text_show_placeholders_and_undoes_itself() -> None:
    before = Text(NAME).plain
    assert "\x1b" in before  # Rich alone lets ESC through (it drops only BEL, BS, VT, FF, CR)
    terminal_guard.install()
    try:
        for plain in (Text(NAME).plain, Content(NAME).plain, Text("a\tb\nc \x9b2J").plain):
            assert not any(c in plain for c in CONTROLS), repr(plain)
        assert Text(NAME).plain == "evil␛]0;fn-titlename.txt"
        assert Text("a\tb\nc").plain == "a\tb\nc"  # tab and newline keep their meaning
    finally:
        terminal_guard.uninstall()
    assert Text(NAME).plain == before


@needs_tmux
def test_tmux_an_odd_file_name_in_the_at_list_leaves_the_title_alone(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / NAME).write_text("x\n")
    (project / "evil-plain.txt").write_text("y\n")
    home = tmp_path / "agent"
    home.mkdir()
    sock = f"names-osc-{os.getpid()}"
    raw_log = tmp_path / "raw.log"
    env = f"PI_TUI_DIR={home} PI_TUI_SESSION_DIR={tmp_path / 'sessions'} PYTHONPATH={os.environ.get('PYTHONPATH', '')}"
    command = f"cd {project} && sleep 0.5 && env {env} {sys.executable} -m pi_tui.cli --no-mcp --no-extensions"
    try:
        _tmux(sock, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command)
        _tmux(sock, "set", "-g", "set-clipboard", "on")
        _tmux(sock, "pipe-pane", "-t", "t", "-o", f"cat >> {raw_log}")
        title_before = _tmux(sock, "display", "-p", "-t", "t", "#{pane_title}")
        deadline = time.monotonic() + 40
        while "Enter" not in _tmux(sock, "capture-pane", "-p", "-t", "t") and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.0)
        _tmux(sock, "send-keys", "-t", "t", "-l", "x @evil")
        screen = ""
        while time.monotonic() < deadline:
            screen = _tmux(sock, "capture-pane", "-p", "-t", "t")
            if "evil-plain.txt" in screen:
                break
            time.sleep(0.2)
        time.sleep(0.5)
        screen = _tmux(sock, "capture-pane", "-p", "-t", "t")
        title_after = _tmux(sock, "display", "-p", "-t", "t", "#{pane_title}")
        _tmux(sock, "send-keys", "-t", "t", "Escape")
        _tmux(sock, "send-keys", "-t", "t", "C-c")
        _tmux(sock, "send-keys", "-t", "t", "C-d")
    finally:
        _tmux(sock, "kill-server")
    assert "evil-plain.txt" in screen, screen
    assert "evil␛]0;fn-title" in screen, screen  # the odd name is listed, visibly odd
    assert title_after == title_before and "fn-title" not in title_after
    assert b"\x1b]0;fn-title" not in raw_log.read_bytes()
