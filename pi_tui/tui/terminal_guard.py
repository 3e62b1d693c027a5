"""No text the app shows can drive the terminal: control characters become visible placeholders (tester2 #25).

A file name, a session name, a model id from a server, an extension's label or status, an MCP resource name:
any string from outside may hold ``ESC ]0;title BEL`` (retitles the window), ``ESC [?1049l`` (leaves the
alternate screen) or OSC 52 (writes the clipboard). The transcript cleans its lines itself
(``RenderContext.to_strips``); every other widget (the ``@``/``/`` completion list, pickers, dialogs, the footer,
the editor, notifications) draws through Rich ``Text`` or Textual ``Content``, which drop only BEL, BS, VT, FF
and CR and let ESC through.

* :func:`show_controls` is the rule for one label: each control character is replaced by a visible one-cell
  placeholder (C0 by its Unicode control picture, ``ESC`` -> ``␛``; DEL -> ``␡``; C1 and U+FFF9..U+FFFB ->
  ``�``), so the user sees that a name is odd and nothing reaches the terminal; a tab or newline in a label is
  shown as ``␉``/``␊`` (a label is one line).
* :func:`install` makes the same replacement (tab and newline kept, BEL/BS/VT/FF/CR still dropped, as Rich and
  Textual do) part of every Rich ``Text`` and Textual ``Content`` built while the app runs, by adding entries to
  the translation tables their ``strip_control_codes`` use. It is the catch-all for widgets that show strings
  nobody cleaned; :func:`uninstall` restores the tables. ``run_app`` installs it for the app's lifetime only, so
  ``-p`` output and other modes are untouched (a pipe gets the model's bytes: DIFFERENCES T9).
"""

from __future__ import annotations

from typing import Final

_DROPPED: Final = frozenset((7, 8, 11, 12, 13))  # what Rich and Textual already drop (BEL, BS, VT, FF, CR)


def _placeholder(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ .. ␟ (␛ for ESC)
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1 controls (8-bit CSI, OSC, ST, ...) and U+FFF9..U+FFFB have no picture


_CONTROL_CODES: Final = (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0xFFF9, 0xFFFA, 0xFFFB)
_LABEL_TABLE: Final = {code: _placeholder(code) for code in _CONTROL_CODES}
_TEXT_TABLE: Final = {code: _placeholder(code) for code in _CONTROL_CODES if code not in _DROPPED | {9, 10}}


def show_controls(text: str) -> str:
    """``text`` (a one-line label: a file or session name, a model id, an extension's label) with every control
    character replaced by a visible placeholder (module docstring); the same string when there is none."""
    return text.translate(_LABEL_TABLE) if any(ord(c) in _LABEL_TABLE for c in text) else text


def _tables() -> list[dict[int, str | None]]:
    import rich.control
    import textual.content

    return [rich.control._CONTROL_STRIP_TRANSLATE, textual.content._CONTROL_STRIP_TRANSLATE]  # type: ignore[list-item]


_installed: list[dict[int, str | None]] = []


def install() -> None:
    """From now on, Rich ``Text`` and Textual ``Content`` show control characters as placeholders instead of
    passing them to the terminal (module docstring). Idempotent."""
    if _installed:
        return
    for table in _tables():
        table.update(_TEXT_TABLE)
        _installed.append(table)


def uninstall() -> None:
    """Undo :func:`install`: the tables drop only what Rich and Textual drop themselves."""
    while _installed:
        table = _installed.pop()
        for code in _TEXT_TABLE:
            table.pop(code, None)
