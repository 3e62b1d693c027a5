"""Text typed into a view that takes no text is refused visibly, never dropped in silence (tester3 #12 and #13,
issue 9 item 2's class: "every printable key and Enter typed in any focus state either goes to the editor or is
visibly refused").

A viewer screen (``/changelog``, ``/mcp``) covers the transcript but not always the editor, so a user may type a
prompt into it. :func:`refuse_typing` is called from the screen's ``on_key``: a printable key or Enter that no
active binding takes (the screen's own keys and its focused widget's keep working) is stopped and the screen's
hint line says, for a few seconds, that typing goes nowhere here and how to get back to the editor.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widgets import Static

REFUSAL = "This view takes no text — Esc closes it, then type in the editor"
SHOW_S = 4.0
"""Seconds the refusal stays on the hint line before the screen's own hint comes back."""


def refuse_typing(screen: Screen[Any], event: events.Key, hint: Static, normal: str) -> bool:
    """Refuse ``event`` when it is text (printable or Enter) that no active binding of ``screen`` takes: it is
    stopped and ``hint`` shows :data:`REFUSAL` (then ``normal`` again). True when refused."""
    if event.key in screen.active_bindings:
        return False
    if not (event.is_printable or event.key == "enter"):
        return False
    event.stop()
    event.prevent_default()
    flash(hint, REFUSAL, normal)
    return True


def flash(hint: Static, text: str, normal: str) -> None:
    """Show ``text`` on ``hint`` in bold for :data:`SHOW_S` seconds, then ``normal`` again (a later flash
    replaces an earlier one)."""
    hint.update(Text(text, style="bold"))
    timer = getattr(hint, "_flash_timer", None)
    if timer is not None:
        timer.stop()
    hint._flash_timer = hint.set_timer(SHOW_S, lambda: hint.update(normal))  # type: ignore[attr-defined]
