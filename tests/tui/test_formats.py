"""Pure formatting: pi's tool call lines and previews, token format, footer, queue lines, keymap."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.tui.keymap import load_keymap
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.footer import FooterData, footer_lines, format_tokens, tilde
from pi_tui.tui.widgets.queue_view import queue_lines
from pi_tui.tui.widgets.tool_format import call_line, preview


def test_call_lines() -> None:
    assert call_line("bash", {"command": "ls -la", "timeout": 5}) == "$ ls -la (timeout 5s)"
    assert call_line("read", {"path": "a.py", "offset": 1, "limit": 40}) == "read a.py:1-40"
    assert call_line("read", {"path": "a.py"}) == "read a.py"
    assert call_line("edit", {"path": "a.py"}) == "edit a.py"
    assert call_line("write", {"path": "b.md", "content": "x"}) == "write b.md"
    assert call_line("grep", {"pattern": "foo", "path": "src", "glob": "*.py", "limit": 3}) == \
        "grep /foo/ in src (*.py) limit 3"
    assert call_line("find", {"pattern": "*.py"}) == "find *.py in ."
    assert call_line("ls", {}) == "ls ."


def test_previews_use_pis_line_counts() -> None:
    text = "\n".join(f"l{i}" for i in range(50))
    assert len(preview("read", text, False).lines) == 10
    assert len(preview("grep", text, False).lines) == 15
    assert len(preview("ls", text, False).lines) == 20
    pv = preview("bash", text, False)
    assert pv.lines == [f"l{i}" for i in range(45, 50)]
    assert pv.hint == "... (45 earlier lines, Ctrl+O to expand)" and pv.hint_above
    assert preview("read", text, False).hint == "... (40 more lines, Ctrl+O to expand)"
    assert len(preview("read", text, True).lines) == 50
    # bash counts visual lines: two 25-cell lines at width 10 fill 6 rows, so only the last one fits.
    wide = "\n".join(["a" * 25, "b" * 25])
    pv = preview("bash", wide, False, width=10)
    assert pv.lines == ["b" * 25] and pv.hint.startswith("... (1 earlier line,")


def test_token_format() -> None:
    assert [format_tokens(n) for n in (999, 1234, 12345, 999_499, 1_234_567, 12_345_678)] == \
        ["999", "1.2k", "12k", "999k", "1.2M", "12M"]


def test_tilde() -> None:
    assert tilde("/home/u/proj", "/home/u") == "~/proj"
    assert tilde("/home/user2", "/home/u") == "/home/user2"


def test_footer_lines_and_context_colours() -> None:
    theme = find_theme("dark")
    d = FooterData(cwd="~/p", branch="main", session_name="s", input=1200, output=340, cache_read=12000,
                   cost=0.0123, context_percent=75.0, context_window=200000, model_id="m1", reasoning=True,
                   thinking_level="medium")
    a, b = footer_lines(d, theme, 100)
    assert a.plain == "~/p (main) • s"
    assert b.plain.startswith("↑1.2k ↓340 R12k $0.012 75.0%/200k (auto)")
    assert b.plain.endswith("m1 • medium")
    span_styles = [str(s.style) for s in b.spans if b.plain[s.start:s.end].startswith("75.0%")]
    assert span_styles and "ffff00" in span_styles[0]  # warning colour above 70 %


def test_queue_lines() -> None:
    lines = queue_lines(["fix it\nplease"], ["then test"], "Alt+Up")
    assert [t for _, t in lines] == ["Steering: fix it …", "Follow-up: then test",
                                     "↳ Alt+Up to edit all queued messages"]
    assert queue_lines([], [], "Alt+Up") == []


def test_keymap_overrides_and_warnings(tmp_path: Path) -> None:
    p = tmp_path / "keybindings.json"
    p.write_text(json.dumps({"app.tools.expand": "ctrl+e", "app.message.followUp": ["ctrl+g"],
                             "tui.editor.cursorUp": ["up"], "app.clear": 5, "app.model.cycleBackward": "shift+ctrl+P"}))
    km = load_keymap(p)
    assert km.action_for("ctrl+e") == "app.tools.expand"
    assert km.action_for("ctrl+o") is None
    assert km.action_for("ctrl+g") == "app.message.followUp"
    assert km.action_for("ctrl+shift+p") == "app.model.cycleBackward"
    assert km.action_for("ctrl+c") == "app.clear"  # the bad entry is ignored, with a warning
    assert len(km.warnings) == 3 and "app.clear" in km.warnings[0]  # and tui.editor.cursorUp: not remappable
    assert "app.editor.external no longer answers" in km.warnings[2]  # Ctrl+G was its default (keymap_conflicts)
    p.write_text("{bad")
    assert load_keymap(p).warnings


def test_keymap_warns_about_ids_it_cannot_bind(tmp_path: Path) -> None:
    """New-user run: ``"nonsense.action": "ctrl+q"`` was ignored without a word (a typo in an id is a binding
    that silently does nothing); pi's editor ids, which pi-tui does not remap, are named as such."""
    p = tmp_path / "keybindings.json"
    p.write_text(json.dumps({"nonsense.action": "ctrl+q", "tui.editor.cursorUp": ["up", "ctrl+p"],
                             "app.tools.expand": "ctrl+e", "app.tool.expand": "ctrl+x"}))
    km = load_keymap(p)
    assert km.action_for("ctrl+e") == "app.tools.expand"
    text = "\n".join(km.warnings)
    assert len(km.warnings) == 3
    assert "nonsense.action" in text and "unknown action id" in text
    assert "did you mean 'app.tools.expand'" in text
    assert "tui.editor.cursorUp" in text and "not remappable" in text
