"""The ``ctx`` handlers, tools, commands and shortcuts receive (pi's ``ExtensionContext`` and
``ExtensionCommandContext``; pi docs/extensions.md), and the UI wrapper behind ``ctx.ui``.

``ctx.ui`` is the front end's :class:`~pi_tui.coding.extensions.ui.ExtensionUI`, wrapped so that a dialog
pauses handler timeouts, ``timeout_ms`` works in every front end, and a UI that raises gives the dialog's
default (False / None) instead of breaking the extension.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pi_tui.coding.extensions.ui import ExtensionUI, NoUI
from pi_tui.coding.extensions.ui_components import UI_NOT_AVAILABLE, PlainTheme, theme_result
from pi_tui.coding.extensions.ui_slots import SLOTS, make_slot

if TYPE_CHECKING:
    from pi_tui.coding.extensions.runtime import ExtensionRuntime

READ_ONLY_SESSION_METHODS = frozenset({
    "get_cwd", "get_session_dir", "get_session_id", "get_session_file", "get_session_name", "get_header",
    "get_entries", "get_entry", "get_leaf_id", "get_leaf_entry", "get_children", "get_label", "get_branch",
    "get_tree", "build_session_context", "session_file", "session_id", "session_name", "header",
    "is_persisted",
})


class ReadOnlySessionManager:
    """A view of the SessionManager with only its readers (``get_entries``, ``get_branch``,
    ``get_leaf_id``, ``get_label``, ``get_session_file`` ...). Writing goes through ``pi.append_entry``
    and the other API calls; any other attribute raises ``AttributeError``."""

    def __init__(self, manager: Any) -> None:
        self._manager = manager

    def __getattr__(self, name: str) -> Any:
        if name in READ_ONLY_SESSION_METHODS:
            return getattr(self._manager, name)
        raise AttributeError(f"the session manager is read-only for extensions: {name!r} is not available")


class GuardedUI:
    """``ctx.ui``: the front end's UI with timeouts, dialog accounting and failure defaults (module doc)."""

    def __init__(self, runtime: ExtensionRuntime) -> None:
        self._runtime = runtime
        self._custom: set[str] = set()  # replaced parts: "header", "footer", "working", "editor", ...
        self._editor_factory: Any = None

    @property
    def _ui(self) -> ExtensionUI:
        return self._runtime.ui

    @property
    def has_ui(self) -> bool:
        """False in print/JSON mode."""
        return bool(self._ui.has_ui)

    async def _dialog(self, start: Callable[[], Any], default: Any, timeout_ms: int | None) -> Any:
        async with self._runtime.runner.dialog():
            try:
                if timeout_ms is not None and timeout_ms > 0:
                    return await asyncio.wait_for(start(), timeout_ms / 1000)
                return await start()
            except TimeoutError:
                return default
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken front end gives the default answer
                self._runtime.report_ui_failure(exc)
                return default

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """Yes/no dialog; False when declined, dismissed, timed out or without a UI."""
        value = await self._dialog(lambda: self._ui.confirm(title, message, timeout_ms=timeout_ms), False, timeout_ms)
        return bool(value)

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """Pick one of ``options``; None when dismissed, timed out or without a UI."""
        choices = [str(o) for o in options]
        value = await self._dialog(lambda: self._ui.select(title, choices, timeout_ms=timeout_ms), None, timeout_ms)
        return value if value is None or value in choices else None

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """One line of text; None when dismissed, timed out or without a UI."""
        value = await self._dialog(lambda: self._ui.input(title, placeholder, timeout_ms=timeout_ms), None, timeout_ms)
        return value if value is None else str(value)

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """Multi-line text; None when dismissed, timed out or without a UI."""
        value = await self._dialog(lambda: self._ui.editor(title, prefill, timeout_ms=timeout_ms), None, timeout_ms)
        return value if value is None else str(value)

    def _fire(self, call: Callable[[], Any]) -> None:
        try:
            call()
        except Exception as exc:
            self._runtime.report_ui_failure(exc)

    def notify(self, message: str, level: str = "info") -> None:
        """A transient notice (``info``/``warning``/``error``)."""
        self._fire(lambda: self._ui.notify(str(message), level if level in ("info", "warning", "error") else "info"))

    def set_status(self, key: str, text: str | None) -> None:
        """Set or clear (None) the footer status segment ``key``."""
        self._runtime.statuses[str(key)] = text
        if text is None:
            self._runtime.statuses.pop(str(key), None)
        self._fire(lambda: self._ui.set_status(str(key), None if text is None else str(text)))

    def set_widget(self, key: str, lines: Sequence[str] | str | None, placement: str = "aboveEditor") -> None:
        """Set or clear (None) the widget ``key``: a block of lines above (``placement="aboveEditor"``, the
        default) or below (``"belowEditor"``) the editor, at most 10 lines shown (pi's ``setWidget``). A
        ``str`` is one block split at newlines."""
        shown = None if lines is None else (str(lines).split("\n") if isinstance(lines, str) else [str(x) for x in lines])
        if shown is None:
            self._runtime.widgets.discard(str(key))
        else:
            self._runtime.widgets.add(str(key))
        self._fire(lambda: self._ui.set_widget(str(key), shown, placement))

    def set_title(self, title: str) -> None:
        """Set the terminal title."""
        self._fire(lambda: self._ui.set_title(str(title)))

    def set_editor_text(self, text: str) -> None:
        """Replace the editor's text."""
        self._fire(lambda: self._ui.set_editor_text(str(text)))

    def get_editor_text(self) -> str:
        """The editor's text."""
        try:
            return str(self._ui.get_editor_text())
        except Exception as exc:
            self._runtime.report_ui_failure(exc)
            return ""

    # ---------------------------------------------------------------- custom parts (ui_slots.py)

    def _optional(self, name: str, *args: Any) -> Any:
        """Call the front end's ``name`` if it has one (print/RPC/ACP have no header, footer or spinner)."""
        method = getattr(self._ui, name, None)
        if method is None:
            return None
        try:
            return method(*args)
        except Exception as exc:
            self._runtime.report_ui_failure(exc)
            return None

    def _slot(self, slot: str, factory: Any) -> None:
        spec = make_slot(self._runtime, slot, factory)  # TypeError for a factory that is not callable
        self._custom.discard(slot) if spec is None else self._custom.add(slot)
        self._optional(f"set_{slot}", spec)

    def set_header(self, factory: Any) -> None:
        """Replace the header with ``factory(tui, theme)``'s component; None restores the built-in one."""
        self._slot("header", factory)

    def set_footer(self, factory: Any) -> None:
        """Replace the footer with ``factory(tui, theme, footer_data)``'s component; None restores it."""
        self._slot("footer", factory)

    def set_working_message(self, message: str | None = None) -> None:
        """The text shown while the agent works (None: the default ``Working...``)."""
        self._custom.add("working")
        self._optional("set_working_message", None if message is None else str(message))

    def set_working_visible(self, visible: bool) -> None:
        """Hide (False) or show again the working row while the agent works."""
        self._custom.add("working")
        self._optional("set_working_visible", bool(visible))

    def set_working_indicator(self, frames: Sequence[str] | dict[str, Any] | None = None,
                              interval_ms: int | None = None) -> None:
        """The working spinner's frames (shown verbatim, ANSI allowed; ``[]`` hides it; None restores the
        default) and its frame interval. pi's ``{frames, intervalMs}`` dict is accepted too."""
        if isinstance(frames, dict):
            interval_ms = frames.get("intervalMs", frames.get("interval_ms", interval_ms))
            frames = frames.get("frames")
        self._custom.add("working")
        self._optional("set_working_indicator", None if frames is None else [str(f) for f in frames],
                       None if interval_ms is None else max(16, int(interval_ms)))

    def set_tools_expanded(self, expanded: bool) -> None:
        """Expand (True) or collapse tool output, as the expand key does."""
        self._optional("set_tools_expanded", bool(expanded))

    def get_tools_expanded(self) -> bool:
        """Whether tool output is expanded (False without a TUI)."""
        return bool(self._optional("get_tools_expanded"))

    def paste_to_editor(self, text: str) -> None:
        """Paste ``text`` into the editor as a paste (a large one is collapsed to pi's marker)."""
        self._optional("paste_to_editor", str(text))

    # ---------------------------------------------------------------- components and themes (ui_components.py)

    async def custom(self, factory: Any, *, overlay: bool = False, timeout_ms: int | None = None) -> Any:
        """Show ``factory(tui, theme, keybindings, done)``'s component until it calls ``done(value)``; returns
        ``value`` (None without a screen, when it fails or times out). Raises ``TypeError`` for a factory that
        is not callable."""
        spec = make_slot(self._runtime, "custom", factory)
        show = getattr(self._ui, "custom", None)
        if spec is None or show is None:
            if spec is None:
                raise TypeError("custom needs a factory (tui, theme, keybindings, done) -> component")
            return None
        return await self._dialog(lambda: show(spec, overlay=bool(overlay)), None, timeout_ms)

    def set_editor_component(self, factory: Any) -> None:
        """Put ``factory(tui, theme, keybindings)``'s editor component in front of the editor (None: the
        built-in editor alone again); ``ui_components.CustomEditor`` is the contract."""
        spec = make_slot(self._runtime, "editor", factory)
        self._editor_factory = factory
        self._custom.discard("editor") if spec is None else self._custom.add("editor")
        self._optional("set_editor_component", spec)

    def get_editor_component(self) -> Any:
        """The factory given to :meth:`set_editor_component` last (None: the built-in editor)."""
        return self._editor_factory

    def add_autocomplete_provider(self, factory: Any) -> None:
        """Stack ``factory(current)``'s provider on the editor's completion (``ui_components`` module doc)."""
        spec = make_slot(self._runtime, "autocomplete", factory)
        if spec is not None:
            self._custom.add("autocomplete")
            self._optional("add_autocomplete_provider", spec)

    @property
    def theme(self) -> Any:
        """The current theme: ``fg(token, text)``, ``bg``, ``bold``, ``italic`` give ANSI strings."""
        value = self._optional("current_theme")
        return value if value is not None else PlainTheme()

    def get_all_themes(self) -> list[dict[str, Any]]:
        """``[{"name", "path"}]`` of every theme (``[]`` without a screen); ``path`` None for built-in ones."""
        value = self._optional("get_all_themes")
        return list(value) if isinstance(value, list) else []

    def get_theme(self, name: str) -> Any:
        """The theme ``name`` (as :attr:`theme`) without switching to it; None when unknown or no screen."""
        return self._optional("get_theme", str(name))

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """Switch to the theme named ``theme`` (saved as the setting, as ``/theme``) or to a theme from
        :meth:`get_theme` (not saved); ``{"success": True}`` or ``{"success": False, "error": ...}``."""
        value = self._optional("set_theme", theme)
        return value if isinstance(value, dict) else theme_result(UI_NOT_AVAILABLE)

    def offer_themes(self, paths: Sequence[str]) -> None:
        """The ``theme_paths`` extensions returned from ``resources_discover`` (files or folders of themes)."""
        if paths:
            self._custom.add("themes")
        self._optional("set_extension_themes", [str(p) for p in paths])

    def reset_custom(self) -> None:
        """Put back every part extensions replaced (on unload and ``/reload``)."""
        if "editor" in self._custom:
            self._optional("set_editor_component", None)
        self._editor_factory = None
        if "autocomplete" in self._custom:
            self._optional("clear_autocomplete_providers")
        if "themes" in self._custom:
            self._optional("set_extension_themes", [])
        for slot in SLOTS:
            if slot in self._custom:
                self._optional(f"set_{slot}", None)
        if "working" in self._custom:
            self._optional("set_working_message", None)
            self._optional("set_working_visible", True)
            self._optional("set_working_indicator", None, None)
        self._custom.clear()


class ExtensionContext:
    """``ctx`` of event handlers and tools: ``cwd``, ``session_manager`` (read-only), ``ui``, ``has_ui``,
    ``model``, ``signal`` (the running turn's abort signal or None), ``is_idle()``, ``abort()``,
    ``has_pending_messages()``, ``compact()``, ``get_context_usage()``, ``get_system_prompt()``,
    ``shutdown()``."""

    def __init__(self, runtime: ExtensionRuntime) -> None:
        self._runtime = runtime
        self.ui = runtime.guarded_ui

    @property
    def _host(self) -> Any:
        return self._runtime.host

    @property
    def cwd(self) -> str:
        """The session's working directory."""
        return str(self._host.cwd)

    @property
    def session_manager(self) -> ReadOnlySessionManager:
        """Read-only view of the session (entries, branch, leaf, labels, file)."""
        return ReadOnlySessionManager(self._host.session_manager)

    @property
    def has_ui(self) -> bool:
        """False in print/JSON mode, True in the TUI and RPC mode."""
        return self.ui.has_ui

    @property
    def model(self) -> Any:
        """The current model (``provider``, ``id``, ``context_window`` ...) or None."""
        return self._host.model

    @property
    def signal(self) -> Any:
        """The running turn's abort signal (None when idle): pass it to long work so Esc cancels it."""
        return self._host.signal

    def is_idle(self) -> bool:
        """True when the agent is not running."""
        return bool(self._host.is_idle())

    def has_pending_messages(self) -> bool:
        """True when steering or follow-up messages are queued."""
        return bool(self._host.has_pending_messages())

    def abort(self) -> None:
        """Abort the running turn (returns at once)."""
        self._host.abort()

    def compact(
        self,
        custom_instructions: str | None = None,
        *,
        on_complete: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> None:
        """Start a compaction without waiting for it (pi's ``ctx.compact``); ``on_complete(result)`` or
        ``on_error(exception)`` is called when it ends."""

        async def run() -> None:
            try:
                result = await self._host.compact(custom_instructions)
            except Exception as exc:
                if on_error is not None:
                    with contextlib.suppress(Exception):
                        on_error(exc)
                return
            if on_complete is not None:
                with contextlib.suppress(Exception):
                    on_complete(result)

        self._runtime.spawn(run())

    def get_context_usage(self) -> dict[str, Any] | None:
        """``{"tokens", "context_window", "percent"}`` of the current model, or None when unknown."""
        return self._host.get_context_usage()

    def get_system_prompt(self) -> str:
        """The current system prompt (during ``before_agent_start``: as chained so far)."""
        return self._runtime.current_system_prompt or str(self._host.get_system_prompt())

    def shutdown(self) -> None:
        """Ask the front end to quit once the agent is idle (no-op in print mode)."""
        if self._runtime.on_shutdown_request is not None:
            self._runtime.on_shutdown_request()


class ExtensionCommandContext(ExtensionContext):
    """``ctx`` of commands and shortcuts: the :class:`ExtensionContext` plus session control, which would
    deadlock inside an event handler: ``wait_for_idle()``, ``new_session()``, ``fork(entry_id)``,
    ``switch_session(path)``, ``reload()``. The session-control calls return ``{"cancelled": bool}``."""

    async def wait_for_idle(self) -> None:
        """Wait until the agent is idle."""
        await self._host.wait_for_idle()

    async def new_session(self) -> dict[str, bool]:
        """Start a new session (``/new``)."""
        return {"cancelled": not await self._host.new_session()}

    async def fork(self, entry_id: str, options: dict[str, Any] | None = None) -> dict[str, bool]:
        """Fork before the user message ``entry_id``, or through any entry with ``{"position": "at"}`` (pi's
        ``ctx.fork(entryId, {position})``, docs/extensions.md)."""
        position = str((options or {}).get("position") or "before")
        return {"cancelled": not await self._host.fork(entry_id, position)}

    async def switch_session(self, path: str) -> dict[str, bool]:
        """Open another session file."""
        return {"cancelled": not await self._host.switch_session(path)}

    async def reload(self) -> None:
        """Run ``/reload``: code after it still runs from the old version of the extension (pi)."""
        await self._runtime.reload()


def default_ui() -> ExtensionUI:
    """The no-UI defaults (print/JSON mode)."""
    return NoUI()
