"""``before_provider_request`` and ``after_provider_response`` (pi 0.73 docs/extensions.md "Provider Events"):
the agent's ``on_payload`` / ``on_response`` stream options run the extensions' handlers, as pi's session
does (pi's ``sdk.ts``: ``onPayload``/``onResponse``). With no handler for an event the hook returns at once.
A hook the agent already had runs first.
"""

from __future__ import annotations

import inspect
from typing import Any

from pi_tui.coding.extensions.events import AfterProviderResponseEvent
from pi_tui.coding.extensions.runner import ExtensionRunner


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def install_provider_hooks(agent: Any, runner: ExtensionRunner) -> None:
    """Set ``agent.on_payload`` and ``agent.on_response`` to run the runner's handlers (module docstring)."""
    previous_payload = getattr(agent, "on_payload", None)
    previous_response = getattr(agent, "on_response", None)

    async def on_payload(body: Any, model: Any) -> Any:
        replaced = None
        if previous_payload is not None:
            replaced = await _maybe(previous_payload(body, model))
            body = body if replaced is None else replaced
        if runner.has_handlers("before_provider_request"):
            changed = await runner.emit_before_provider_request(body)
            if changed is not None:
                return changed
        return replaced

    async def on_response(response: Any, model: Any) -> None:
        if previous_response is not None:
            await _maybe(previous_response(response, model))
        if runner.has_handlers("after_provider_response"):
            status = response.get("status") if isinstance(response, dict) else getattr(response, "status", 0)
            headers = response.get("headers") if isinstance(response, dict) else getattr(response, "headers", {})
            event = AfterProviderResponseEvent(int(status or 0),
                                               {str(k).lower(): str(v) for k, v in dict(headers or {}).items()})
            await runner.emit_notification("after_provider_response", event)

    agent.on_payload = on_payload
    agent.on_response = on_response
