"""What an extension can ask of the user interface: :class:`ExtensionUI` (pi's ``ExtensionUIContext``,
pi docs/extensions.md "Custom UI"), implemented by each front end.

* the Textual app: modal dialogs, footer status segments, transcript notices (``pi_tui/tui``);
* print and JSON mode: :class:`NoUI` (pi's defaults: ``confirm`` → False, ``select``/``input``/``editor``
  → None, everything else is a no-op; ``has_ui`` is False);
* RPC mode: the extension-UI sub-protocol (``extension_ui_request`` on stdout, ``extension_ui_response`` on
  stdin; pi docs/rpc.md "Extension UI Protocol"), ``pi_tui/coding/modes/rpc_extension_ui.py``.

Dialog methods are coroutines; ``timeout_ms`` is pi's ``timeout`` option (milliseconds): when it expires
the dialog resolves to its default (False / None).
The fire-and-forget methods (``notify``, ``set_status``, ``set_widget``, ``set_title``,
``set_editor_text``) return at once. ``level`` is ``"info"``, ``"warning"`` or ``"error"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class ExtensionUI(Protocol):
    """The UI surface an extension sees as ``ctx.ui`` (module docstring)."""

    @property
    def has_ui(self) -> bool:
        """False in print/JSON mode (dialogs return their defaults at once), True in the TUI and RPC mode."""
        ...

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """Ask yes/no; False when declined, dismissed or timed out."""
        ...

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """Pick one of ``options``; the chosen string, or None when dismissed or timed out."""
        ...

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """Ask for one line of text; None when dismissed or timed out."""
        ...

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """Ask for multi-line text starting from ``prefill``; None when dismissed or timed out."""
        ...

    def notify(self, message: str, level: str = "info") -> None:
        """Show a non-blocking notice."""
        ...

    def set_status(self, key: str, text: str | None) -> None:
        """Set (``text``) or clear (None) the footer status segment ``key``."""
        ...

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        """Set or clear (None) a block of text lines above (``"aboveEditor"``) or below the editor."""
        ...

    def set_title(self, title: str) -> None:
        """Set the terminal window title."""
        ...

    def set_editor_text(self, text: str) -> None:
        """Replace the editor's text."""
        ...

    def get_editor_text(self) -> str:
        """The editor's text (``""`` without an editor)."""
        ...


class NoUI:
    """pi's no-UI defaults for print and JSON mode (pi docs/extensions.md "Mode Behavior")."""

    @property
    def has_ui(self) -> bool:
        """Always False."""
        return False

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """False."""
        return False

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """None."""
        return None

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """None."""
        return None

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """None."""
        return None

    def notify(self, message: str, level: str = "info") -> None:
        """Nothing (the session's own notifications still reach the transcript and stderr)."""

    def set_status(self, key: str, text: str | None) -> None:
        """Nothing."""

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        """Nothing."""

    def set_title(self, title: str) -> None:
        """Nothing."""

    def set_editor_text(self, text: str) -> None:
        """Nothing."""

    def get_editor_text(self) -> str:
        """``""``."""
        return ""
