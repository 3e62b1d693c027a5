"""UI settings a trust decision unlocks, applied in the run where the question is answered.

Before the trust question the app is built from settings read without the project's ``.pi-tui/settings.json``
(an untrusted folder's settings do not load). Once the folder is trusted, the session's settings include it:
its ``theme`` and ``hideThinkingBlock`` take effect at once, not only from the next start (new-user run #14:
/settings said ``Theme nord project`` while the screen kept the global dark colours).
"""

from __future__ import annotations

from typing import Any


def apply_trusted_ui(app: Any, settings: Any, explicit_theme: str | None) -> None:
    """Apply ``settings``' (the session's ``SettingsManager``, or ``None``) theme and thinking visibility to
    ``app`` (a ``PiApp``). ``explicit_theme``: ``--theme`` / ``PI_TUI_THEME``, which win over settings files.
    The transcript is still empty here (the session is being built), so nothing re-renders."""
    if settings is None:
        return
    app.theme_after_trust(explicit_theme or settings.theme)
    app.ctx.hide_thinking = bool(settings.hide_thinking_block)
