"""Permission gate and extension UI for ``--mode acp`` (ACP "Requesting Permission", ``session/request_permission``).

:class:`PermissionGate` is the agent's ``before_tool_call`` hook. What it does depends on the session mode
(:data:`SESSION_MODES`; a client switches it with ``session/set_mode``, the default comes from the
``acp.defaultMode`` setting):

* ``ask`` (default): a call of a tool that can change something (every tool except ``read``, ``grep``,
  ``find``, ``ls``) is sent to the client with the options allow once / allow always / reject; "always"
  lets every later call of that tool run without asking for the rest of the session; reject (or a cancelled
  request, or ``session/cancel`` before the client answered) blocks the call, and the model gets the
  reason as the tool's error result;
* ``allow``: nothing is asked (pi's own behaviour);
* ``read-only``: such calls are blocked without asking.

A hook installed before it (an extension's) runs first; when that one blocks, the client is not asked.
Every call the gate lets run is reported ``in_progress``.

:class:`AcpExtensionUI` implements :class:`~pi_tui.coding.extensions.ui.ExtensionUI` over the same request:
``confirm`` → Yes/No options, ``select`` → one option per choice; ``input``/``editor`` answer None (ACP has
no stable text request); ``notify`` → a message chunk the client shows (never sent to the LLM);
``set_title`` → a ``session_info_update``; status lines, widgets and editor text have no ACP counterpart.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from acp.schema import (
    AllowedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    SessionMode,
    ToolCallUpdate,
)

from pi_tui.agent.types import BeforeToolCallContext, BeforeToolCallResult
from pi_tui.coding.modes.acp.tool_calls import text_content, tool_kind, tool_locations, tool_title

SESSION_MODES = (
    SessionMode(id="ask", name="Ask", description="Ask before running commands or changing files"),
    SessionMode(id="allow", name="Allow all", description="Run every tool without asking (pi's behaviour)"),
    SessionMode(id="read-only", name="Read only", description="Only read and search; block other tools"),
)
SAFE_TOOLS = frozenset({"read", "grep", "find", "ls"})
"""Tools that only read: never asked about."""

ALLOW_ONCE, ALLOW_ALWAYS, REJECT = "allow_once", "allow_always", "reject_once"
TOOL_OPTIONS = [
    PermissionOption(option_id=ALLOW_ONCE, name="Allow once", kind="allow_once"),
    PermissionOption(option_id=ALLOW_ALWAYS, name="Always allow", kind="allow_always"),
    PermissionOption(option_id=REJECT, name="Reject", kind="reject_once"),
]
REJECTED_TEXT = "The user rejected this tool call."
CANCELLED_TEXT = "The permission request was cancelled."
READ_ONLY_TEXT = "Blocked: the session is in read-only mode."

AskFn = Callable[[ToolCallUpdate, list[PermissionOption]], Awaitable[RequestPermissionResponse]]
"""Sends ``session/request_permission`` for this session and returns the client's answer."""


def chosen_option(response: RequestPermissionResponse) -> str | None:
    """The selected option id, or None when the client cancelled the request."""
    outcome = response.outcome
    return outcome.option_id if isinstance(outcome, AllowedOutcome) else None


@dataclass
class PermissionGate:
    """The ``before_tool_call`` hook (module docstring). ``ask``: see :data:`AskFn`; ``flush``: waits until
    the updates queued so far reached the client (the ``tool_call`` goes out before its request);
    ``started(call_id)``: reports ``in_progress``; ``previous``: the hook installed before, or None."""

    ask: AskFn
    flush: Callable[[], Awaitable[None]]
    started: Callable[[str], None]
    cwd: str
    previous: Any = None
    mode: str = "ask"

    def __post_init__(self) -> None:
        self.always_allowed: set[str] = set()

    async def __call__(self, ctx: BeforeToolCallContext, signal: Any = None) -> Any:
        """Block or allow one call; see the module docstring."""
        if self.previous is not None:
            result = self.previous(ctx, signal)
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                result = await result
            if result is not None and _field(result, "block"):
                return result
        call = ctx.tool_call
        if call.name not in SAFE_TOOLS and call.name not in self.always_allowed:
            if self.mode == "read-only":
                return BeforeToolCallResult(block=True, reason=READ_ONLY_TEXT)
            if self.mode == "ask":
                blocked = await self._ask(call.id, call.name, call.arguments, signal)
                if blocked is not None:
                    return blocked
        self.started(call.id)
        return None

    async def _ask(self, call_id: str, name: str, args: Any, signal: Any) -> BeforeToolCallResult | None:
        await self.flush()
        update = ToolCallUpdate(tool_call_id=call_id, title=tool_title(name, args), kind=tool_kind(name),
                                status="pending", locations=tool_locations(name, args, self.cwd), raw_input=args)
        request = asyncio.ensure_future(self.ask(update, TOOL_OPTIONS))
        if signal is not None and callable(getattr(signal, "wait", None)):
            aborted = asyncio.ensure_future(signal.wait())
            await asyncio.wait({request, aborted}, return_when=asyncio.FIRST_COMPLETED)
            aborted.cancel()
            if not request.done():  # cancelled while the client had not answered: the call does not run
                request.cancel()
                return BeforeToolCallResult(block=True, reason=CANCELLED_TEXT)
        option = chosen_option(await request)
        if option == ALLOW_ALWAYS:
            self.always_allowed.add(name)
            return None
        if option == ALLOW_ONCE:
            return None
        return BeforeToolCallResult(block=True, reason=CANCELLED_TEXT if option is None else REJECTED_TEXT)


def _field(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else getattr(value, key, None)


class AcpExtensionUI:
    """:class:`~pi_tui.coding.extensions.ui.ExtensionUI` for ACP (module docstring). ``ask``: see
    :data:`AskFn`; ``show(text)``: sends a message chunk; ``set_title(title)``: sends a session title."""

    _ids = itertools.count(1)

    def __init__(self, ask: AskFn, show: Callable[[str], None], set_title: Callable[[str], None]) -> None:
        self._ask = ask
        self._show = show
        self._set_title = set_title

    @property
    def has_ui(self) -> bool:
        """True: dialogs reach the client."""
        return True

    async def _request(self, title: str, message: str, options: list[PermissionOption],
                       timeout_ms: int | None) -> str | None:
        update = ToolCallUpdate(tool_call_id=f"ui-{next(self._ids)}", title=title, kind="other", status="pending",
                                content=text_content(message) or None)
        try:
            response = await asyncio.wait_for(self._ask(update, options),
                                              None if timeout_ms is None else timeout_ms / 1000)
        except TimeoutError:
            return None
        return chosen_option(response)

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """Yes/No; False when declined, cancelled or timed out."""
        options = [PermissionOption(option_id="yes", name="Yes", kind="allow_once"),
                   PermissionOption(option_id="no", name="No", kind="reject_once")]
        return await self._request(title, message, options, timeout_ms) == "yes"

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """One of ``options``, or None when cancelled or timed out."""
        choices = [PermissionOption(option_id=str(i), name=o, kind="allow_once") for i, o in enumerate(options)]
        picked = await self._request(title, "", choices, timeout_ms)
        if picked is None or not picked.isdigit() or int(picked) >= len(options):
            return None
        return options[int(picked)]

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """None (no text request in stable ACP)."""
        return None

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """None (no text request in stable ACP)."""
        return None

    def notify(self, message: str, level: str = "info") -> None:
        """A message chunk in the client (``Warning: ``/``Error: `` prefixed)."""
        prefix = {"warning": "Warning: ", "error": "Error: "}.get(level, "")
        self._show(f"\n\n> {prefix}{message}\n\n")

    def set_status(self, key: str, text: str | None) -> None:
        """Nothing (no status line in ACP)."""

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        """Nothing (no widgets in ACP)."""

    def set_title(self, title: str) -> None:
        """The session's title in the client (``session_info_update``)."""
        self._set_title(title)

    def set_editor_text(self, text: str) -> None:
        """Nothing (the client owns its editor)."""

    def get_editor_text(self) -> str:
        """``""``."""
        return ""
