"""How the handlers' results of each event with results are combined (pi docs/extensions.md "Events";
pi-reference §3.20). Each function takes the :class:`~pi_tui.coding.extensions.runner.ExtensionRunner` and
runs the handlers in load order through its one handler loop (:meth:`ExtensionRunner.each`), so failures,
timeouts and garbage are handled in one place; the runner's ``emit_*`` methods call these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_tui.coding.extensions.events import (
    BeforeAgentStartEvent,
    BeforeProviderRequestEvent,
    ContextEvent,
    InputEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from pi_tui.coding.extensions.loaded import LoadedExtension
from pi_tui.coding.extensions.results import Garbage, describe, get, has, is_record, tool_result_patch

if TYPE_CHECKING:
    from pi_tui.coding.extensions.runner import ExtensionRunner


async def tool_call(runner: ExtensionRunner, event: ToolCallEvent) -> tuple[bool, str | None]:
    """``(blocked, reason)``. Handlers see earlier handlers' in-place changes of ``event.input``; the first
    ``block`` wins; a handler that fails blocks the call (fail-safe, pi)."""
    verdict: list[Any] = [False, None]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok:
            verdict[:] = [True, f'Blocked: extension "{ext.name}" failed on tool_call']
            return True
        if result is None:
            return False
        if not is_record(result) or not has(result, "block", "reason"):
            runner.fail(ext, "tool_call", f"returned {describe(result)}, expected None or {{'block': True}}")
            return False
        if get(result, "block"):
            reason = get(result, "reason")
            verdict[:] = [True, str(reason) if reason else f'Blocked by extension "{ext.name}"']
            return True
        return False

    await runner.each("tool_call", event, step)
    return verdict[0], verdict[1]


async def tool_result(runner: ExtensionRunner, event: ToolResultEvent) -> ToolResultEvent:
    """Chain ``tool_result`` patches (``content``/``details``/``is_error``) onto ``event``; returns it."""

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        try:
            content, details, is_error = tool_result_patch(result)
        except Garbage as exc:
            runner.fail(ext, "tool_result", str(exc))
            return False
        if content is not None:
            event.content = content
        if details is not None:
            event.details = details
        if is_error is not None:
            event.is_error = is_error
        return False

    await runner.each("tool_result", event, step)
    return event


async def context(runner: ExtensionRunner, messages: list[Any]) -> list[Any] | None:
    """Run ``context`` handlers on a (lazy) deep copy of ``messages``; the rewritten list, or None when no
    handler changed it."""
    event = ContextEvent(messages)
    changed = [False]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        new = get(result, "messages") if is_record(result) else None
        if not isinstance(new, list):
            runner.fail(ext, "context", f"returned {describe(result)}, expected {{'messages': [...]}}")
            return False
        event.messages = new
        changed[0] = True
        return False

    await runner.each("context", event, step)
    return event.messages if changed[0] else None


async def user_input(runner: ExtensionRunner, event: InputEvent) -> tuple[str, InputEvent]:
    """``(action, event)``: ``"handled"`` (first wins; the agent is not run) or ``"continue"`` with
    ``event.text``/``event.images`` after every transform."""
    action_taken = ["continue"]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        action = get(result, "action") if is_record(result) else None
        if action == "handled":
            action_taken[0] = "handled"
            return True
        if action == "transform":
            text = get(result, "text")
            if text is not None and not isinstance(text, str):
                runner.fail(ext, "input", f"transform text is {describe(text)}, expected a string")
                return False
            if text is not None:
                event.text = text
            images = get(result, "images")
            if isinstance(images, list):
                event.images = images
        elif action != "continue":
            runner.fail(ext, "input", f"returned {describe(result)}, expected action continue|transform|handled")
        return False

    await runner.each("input", event, step)
    return action_taken[0], event


async def before_agent_start(runner: ExtensionRunner,
                             event: BeforeAgentStartEvent) -> tuple[list[Any], str | None]:
    """``(messages to add, system prompt or None when unchanged)``; the system prompt chains (each handler
    sees ``event.system_prompt`` as changed by the ones before)."""
    original = event.system_prompt
    messages: list[Any] = []

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        if not is_record(result) or not (has(result, "message") or has(result, "system_prompt", "systemPrompt")):
            runner.fail(ext, "before_agent_start",
                        f"returned {describe(result)}, expected {{'message': ..., 'system_prompt': ...}}")
            return False
        prompt = get(result, "system_prompt", "systemPrompt")
        if prompt is not None:
            if not isinstance(prompt, str):
                runner.fail(ext, "before_agent_start", f"system_prompt is {describe(prompt)}, expected a string")
            else:
                event.system_prompt = prompt
        message = get(result, "message")
        if message is not None:
            messages.append((ext, message))
        return False

    await runner.each("before_agent_start", event, step)
    return messages, (event.system_prompt if event.system_prompt != original else None)


async def cancellable(runner: ExtensionRunner, event_name: str, event: Any) -> tuple[bool, Any]:
    """``session_before_*``: ``(cancelled, first 'compaction' given or None)``; the first cancel wins."""
    outcome: list[Any] = [False, None]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        if not is_record(result):
            runner.fail(ext, event_name, f"returned {describe(result)}, expected None or {{'cancel': True}}")
            return False
        if get(result, "cancel"):
            outcome[:] = [True, None]
            return True
        if outcome[1] is None and get(result, "compaction") is not None:
            outcome[1] = get(result, "compaction")
        return False

    await runner.each(event_name, event, step)
    return outcome[0], outcome[1]


async def message_end(runner: ExtensionRunner, event: Any) -> Any:
    """``message_end``: the replacement message a handler returned (``{'message': m}`` with the same role),
    chained; None when no handler replaced it."""
    role = getattr(event.message, "role", None)
    replaced: list[Any] = [None]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if not ok or result is None:
            return False
        message = get(result, "message") if is_record(result) else None
        if message is None or getattr(message, "role", None) != role:
            runner.fail(ext, "message_end", f"returned {describe(result)}, expected {{'message': <a {role} message>}}")
            return False
        replaced[0] = message
        return False

    await runner.each("message_end", event, step)
    return replaced[0]


async def user_bash(runner: ExtensionRunner, event: Any) -> Any:
    """``user_bash``: the first ``{'result': {...}}`` given (it replaces running the command), or None."""
    for ext, result in await runner.emit("user_bash", event):
        value = get(result, "result") if is_record(result) else None
        if isinstance(value, dict):
            return value
        runner.fail(ext, "user_bash", f"returned {describe(result)}, expected {{'result': {{'output', 'exit_code'}}}}")
    return None


async def resources_discover(runner: ExtensionRunner, event: Any) -> dict[str, list[str]]:
    """``resources_discover``: the ``skill_paths``/``prompt_paths``/``theme_paths`` of all handlers."""
    found: dict[str, list[str]] = {"skill_paths": [], "prompt_paths": [], "theme_paths": []}
    for ext, result in await runner.emit("resources_discover", event):
        if not is_record(result):
            runner.fail(ext, "resources_discover", f"returned {describe(result)}, expected a dict of paths")
            continue
        for key, camel in (("skill_paths", "skillPaths"), ("prompt_paths", "promptPaths"),
                           ("theme_paths", "themePaths")):
            value = get(result, key, camel)
            if isinstance(value, list):
                found[key].extend(str(v) for v in value)
    return found


async def provider_request(runner: ExtensionRunner, payload: Any) -> Any:
    """``before_provider_request``: the body after every handler (each sees the one before it changed;
    a non-None result replaces it), or None when no handler replaced it."""
    event = BeforeProviderRequestEvent(payload)
    replaced = [False]

    def step(ext: LoadedExtension, ok: bool, result: Any) -> bool:
        if ok and result is not None:
            event.payload = result
            replaced[0] = True
        return False

    await runner.each("before_provider_request", event, step)
    return event.payload if replaced[0] else None
