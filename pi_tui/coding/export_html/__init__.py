"""Standalone HTML export of a session (pi's ``/export`` and ``--export``; pi docs/usage.md, pi-reference §3.14).

One self-contained page: Markdown rendered with markdown-it-py, code highlighted with Pygments, tool calls
collapsed with their output, thinking toggles, pi-tui's UI-only messages marked, the whole session tree in a
sidebar (every branch, the current leaf marked), the theme's colours; inline CSS and JS only, no network.
Secrets are redacted before rendering (:mod:`.data`). Modules: ``data`` (what is shown), ``markdown``,
``tools``, ``entries``, ``tree``, ``theme_css``, ``page`` (the document), ``assets`` (CSS, JS).
"""

from __future__ import annotations

import os
from typing import Any

from pi_tui.coding.export_html.data import ExportData, export_data_from_file, export_data_from_session
from pi_tui.coding.export_html.page import render_page

__all__ = ["ExportData", "export_file_to_html", "export_session_to_html", "render_page", "write_page"]


def write_page(target: str, text: str) -> None:
    """Write ``text`` to ``target`` (UTF-8). Raises ``OSError`` naming the path and the reason in words."""
    try:
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise OSError(f"Cannot write {target}: {exc.strerror or exc}") from exc


def _theme_of(session: Any) -> str:
    settings = getattr(session, "settings", None)
    theme = getattr(settings, "theme", None)
    return theme if isinstance(theme, str) and theme else "dark"


def export_session_to_html(session: Any, path: str | None = None, theme: str | None = None) -> str:
    """Write the page of a live ``AgentSession``; returns the path written (default:
    ``<cwd>/pi-tui-session-<session file name>.html``, :func:`pi_tui.coding.export.default_export_path`).
    ``theme`` defaults to the session's ``settings.theme``."""
    from pi_tui.coding.export import default_export_path

    target = path or default_export_path(session, "html")
    page = render_page(export_data_from_session(session), theme or _theme_of(session), session.cwd)
    write_page(target, page)
    return target


def export_file_to_html(input_path: str, output_path: str | None = None, theme: str = "dark",
                        cwd: str | None = None) -> str:
    """pi's ``exportFromFile``: the page of a session file, written to ``output_path`` (default:
    ``pi-tui-session-<file stem>.html`` in the current directory); returns the path. Raises
    ``FileNotFoundError``/``ValueError`` for a missing or non-session file, ``OSError`` when writing fails."""
    data: ExportData = export_data_from_file(input_path)
    stem = os.path.basename(input_path)
    stem = stem[: -len(".jsonl")] if stem.endswith(".jsonl") else stem
    target = output_path or f"pi-tui-session-{stem}.html"
    write_page(target, render_page(data, theme, cwd))
    return target
