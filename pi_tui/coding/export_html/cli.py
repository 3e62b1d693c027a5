"""``pi-tui --export <session.jsonl> [output.html]``: write a session file's page and exit (pi's ``--export``,
pi docs/usage.md). Prints ``Exported to: <path>``; a missing or unreadable file prints ``Error: <reason>`` on
stderr and exits 1, as pi does."""

from __future__ import annotations

import os
import sys

from pi_tui.ai.secret_redaction import register_env_secrets


def _default_theme(cwd: str) -> str:
    """The theme of settings.json (global, then a trusted project's), ``dark`` when unset or unreadable."""
    try:
        from pi_tui.coding.config.settings import SettingsManager

        return SettingsManager.create(cwd).theme
    except Exception:  # a broken settings file must not stop an export; the page is then dark
        return "dark"


def _register_stored_keys() -> None:
    """auth.json's keys are registered as secrets when it is read, so they are redacted from the page."""
    try:
        from pi_tui.coding.config.auth import AuthStorage
        from pi_tui.coding.config.paths import get_auth_path

        AuthStorage.create(get_auth_path())
    except Exception:  # unreadable credentials: the environment's keys are still redacted
        return


def run_export(input_path: str, output_path: str | None, theme: str | None = None) -> int:
    """Export ``input_path`` to HTML; returns the exit code (0 written, 1 error)."""
    from pi_tui.coding.export_html import export_file_to_html

    register_env_secrets()
    _register_stored_keys()
    cwd = os.getcwd()
    try:
        path = export_file_to_html(input_path, output_path, theme or _default_theme(cwd), cwd)
    except (OSError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    print(f"Exported to: {path}")
    return 0
