"""The app's parts that extensions may replace or steer (pi 0.73 docs/extensions.md "Custom UI"):
the header and footer (:class:`~pi_tui.tui.widgets.extension_slot.ExtensionSlot` beside the built-in ones),
the working row (message, visibility, spinner frames), tool output expansion and pastes into the editor.
:class:`~pi_tui.tui.extension_ui.TextualExtensionUI` hands ``ctx.ui``'s calls here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events

from pi_tui.coding.extensions.ui_slots import SlotSpec
from pi_tui.tui.widgets.extension_slot import ExtensionSlot

if TYPE_CHECKING:
    from pi_tui.tui.controllers.host import AppHost


class FooterDataView:
    """The ``footer_data`` a footer factory gets (pi's ``FooterData``): ``get_git_branch()``,
    ``get_extension_statuses()`` (``ctx.ui.set_status`` texts by key), ``on_branch_change(callback)``
    (returns the unsubscribe function; called when the footer sees another branch)."""

    def __init__(self, branch: Callable[[], str | None], statuses: Callable[[], dict[str, str]]) -> None:
        self._branch = branch
        self._statuses = statuses
        self.listeners: list[Callable[[], Any]] = []

    def get_git_branch(self) -> str | None:
        """The git branch of the working folder (None outside a repository)."""
        return self._branch()

    def get_extension_statuses(self) -> dict[str, str]:
        """The footer status segments extensions set."""
        return dict(self._statuses())

    def on_branch_change(self, callback: Callable[[], Any]) -> Callable[[], None]:
        """Call ``callback()`` when the branch changes; returns the function that stops it."""
        self.listeners.append(callback)

        def off() -> None:
            if callback in self.listeners:
                self.listeners.remove(callback)

        return off


class CustomParts:
    """Header/footer slots and the working row, expansion and paste hooks of ``host`` (module docstring).
    ``statuses``: the extension status segments (the controller's)."""

    def __init__(self, host: AppHost, statuses: Callable[[], dict[str, str]]) -> None:
        self.host = host
        self.footer_data = FooterDataView(lambda: getattr(host, "branch", None), statuses)
        self._branch_seen: str | None = None
        theme = lambda: host.pi_theme  # noqa: E731 - follows /theme
        self.header_slot = ExtensionSlot(lambda: getattr(host, "header_widget", None), theme,
                                         trailer=self._header_notice, id="ext-header")
        self.footer_slot = ExtensionSlot(lambda: getattr(host, "footer", None), theme,
                                         extra_args=lambda: (self.footer_data,), id="ext-footer")

    def _header_notice(self) -> Text | None:
        """The built-in header's notice (the offline model's way to a real one), kept below a custom header."""
        notice = getattr(getattr(self.host, "header_widget", None), "notice", None)
        return Text(notice, style=self.host.pi_theme.fg("warning")) if notice else None

    def set_header(self, spec: SlotSpec | None) -> None:
        """``ctx.ui.set_header``: the component of ``spec`` in place of the header (None: the built-in); the
        header's offline notice stays visible below it (``ExtensionSlot`` trailer)."""
        header = getattr(self.host, "header_widget", None)
        listeners = getattr(header, "notice_listeners", None)
        if listeners is not None and self.header_slot.invalidate not in listeners:
            listeners.append(self.header_slot.invalidate)  # a notice set or cleared later shows at once
        self.header_slot.set_spec(spec)

    def set_footer(self, spec: SlotSpec | None) -> None:
        """``ctx.ui.set_footer``: the component of ``spec`` in place of the footer (None: the built-in)."""
        self.footer_slot.set_spec(spec)

    def footer_changed(self) -> None:
        """The app recomputed its footer (after events): a custom footer renders again; a new branch is told
        to ``on_branch_change`` listeners."""
        branch = self.footer_data.get_git_branch()
        if branch != self._branch_seen:
            self._branch_seen = branch
            for listener in list(self.footer_data.listeners):
                try:
                    listener()
                except Exception as exc:
                    if self.footer_slot.spec is not None:
                        self.footer_slot.spec.fail(exc)
        if self.footer_slot.active:
            self.footer_slot.invalidate()

    def _status_line(self) -> Any:
        return getattr(self.host, "status_line", None)

    def set_working_message(self, message: str | None) -> None:
        """``ctx.ui.set_working_message`` (None: ``Working...``)."""
        line = self._status_line()
        if line is not None:
            line.customize_working(message=message)

    def set_working_visible(self, visible: bool) -> None:
        """``ctx.ui.set_working_visible``."""
        line = self._status_line()
        if line is not None:
            line.customize_working(visible=visible)

    def set_working_indicator(self, frames: list[str] | None, interval_ms: int | None) -> None:
        """``ctx.ui.set_working_indicator`` (None: the default spinner; [] none)."""
        line = self._status_line()
        if line is not None:
            line.customize_working(frames=frames, interval_ms=interval_ms)

    def set_tools_expanded(self, expanded: bool) -> None:
        """``ctx.ui.set_tools_expanded``: as the expand key, when it changes anything."""
        if bool(self.host.ctx.expand_tools) != expanded:
            actions = getattr(self.host, "key_actions", None)
            if actions is not None:
                actions.toggle_expand()

    def get_tools_expanded(self) -> bool:
        """``ctx.ui.get_tools_expanded``."""
        return bool(self.host.ctx.expand_tools)

    def paste_to_editor(self, text: str) -> None:
        """``ctx.ui.paste_to_editor``: a paste event for the editor (a large paste becomes pi's marker)."""
        self.host.prompt_input.post_message(events.Paste(text))
