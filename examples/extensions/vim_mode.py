"""Vim mode: a modal editor in front of the built-in one (pi's ``ctx.ui.set_editor_component``, its
modal-editor example's behaviour). Starts in insert mode; Esc goes to normal mode, where ``h j k l`` move,
``0``/``$`` go to the line's start/end, ``w``/``b`` to the next/previous word, ``x`` deletes a character, ``dd`` the line,
``i``/``a``/``A``/``I``/``o`` go back to inserting. Enter sends in both modes. The mode is shown on the
editor's border. ``/vim`` turns it off and on. ``pi-tui -e examples/extensions/vim_mode.py``
"""

from pi_tui.coding.extensions.ui_components import CustomEditor

import re

MOVES = {"h": "left", "l": "right", "k": "up", "j": "down", "0": "line_start", "$": "line_end",
         "left": "left", "right": "right", "up": "up", "down": "down"}


def word_start(line, col, forward):
    """vim's ``w``/``b``: the column of the next word's first character, or of this/the previous word's."""
    starts = [m.start() for m in re.finditer(r"\w+|[^\w\s]+", line)]
    if forward:
        return next((s for s in starts if s > col), len(line))
    return next((s for s in reversed(starts) if s < col), 0)


class VimEditor(CustomEditor):
    """Insert mode leaves keys to the editor; normal mode takes every printable key."""

    def __init__(self, tui, theme, keybindings):
        super().__init__(tui, theme, keybindings)
        self.mode = "insert"
        self.pending = ""  # the first key of a two-key command (dd)

    def label(self):
        text = "-- NORMAL --" if self.mode == "normal" else "-- INSERT --"
        return self.theme.fg("accent" if self.mode == "normal" else "muted", text)

    def handle_input(self, key):
        if self.mode == "insert":
            if key == "escape":
                self.mode = "normal"
                return True
            return False  # typing, Enter, app keys: the built-in editor
        if len(key) > 1 and key not in MOVES:
            return False  # Enter sends, Esc aborts, app keys (Ctrl+L, Ctrl+P ...) work in normal mode too
        editor = self.editor
        if self.pending == "d" and key == "d":
            editor.delete("line")
        elif key in MOVES:
            editor.move(MOVES[key])
        elif key in ("w", "b"):
            row, col = editor.cursor
            editor.set_cursor(row, word_start(editor.text.split("\n")[row], col, key == "w"))
        elif key == "x":
            editor.delete("right")
        elif key in ("i", "a", "A", "I", "o"):
            if key == "a":
                editor.move("right")
            elif key == "A":
                editor.move("line_end")
            elif key == "I":
                editor.move("line_start")
            elif key == "o":
                editor.move("line_end")
                editor.insert("\n")
            self.mode = "insert"
        self.pending = "d" if key == "d" and self.pending != "d" else ""
        return True  # any other key does nothing in normal mode (it is not typed)


def activate(pi):
    state = {"on": True}

    def install(ctx):
        ctx.ui.set_editor_component(VimEditor if state["on"] else None)

    def toggle(args, ctx):
        state["on"] = not state["on"]
        install(ctx)
        ctx.ui.notify(f"Vim mode {'on' if state['on'] else 'off'}", "info")

    pi.on("session_start", lambda event, ctx: install(ctx) if ctx.has_ui else None)
    pi.register_command("vim", toggle, description="Turn vim mode off and on")
