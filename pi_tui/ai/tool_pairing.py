"""Request-time repair of tool call / tool result pairing, so every request is valid for its provider.

Every provider API rejects (HTTP 400) a history where a tool call has no result, a result has no call, a result
is separated from its call by another message, or a call id repeats (see ``tests/regressions/pairing_rules.py``
for the rules of each API). Such histories happen in real sessions: a crash or abort in the middle of a parallel
batch, a compaction that cut a call from its result or rendered a summary between them (earendil-works/pi#8667),
results written in completion order, duplicated or hand-edited lines, servers that reuse ids such as ``call_0``
in every response.

:func:`repair_tool_pairing` runs on the messages of one request (after :func:`transform_messages` step 2) and
returns a new list; the stored session is never changed. Rules, applied to each assistant message that has tool
calls, over the messages up to the next assistant message (its "turn"):

1. its results come straight after it, in the order of its calls (a result further down the turn, after a user
   message or out of order, is moved up; pi 0.73.1 instead inserted a synthetic result and left the real one
   behind, an orphan);
2. a call without a result in its turn gets a synthetic error result ``No result provided`` (pi's text);
3. a result that answers no call of the turn (its call was compacted away, belongs to a failed turn that is not
   sent, or repeats one already placed) is sent as a user text message in its place, ``(tool result of <name>
   [<id>] without a matching call)`` + its content, so nothing the model produced is lost;
4. a call id used earlier in the request is renamed (``<id>_2``, ``<id>_3`` ...; the Responses item id after
   ``|`` is dropped with it) and its result follows the new id;
5. text/thinking blocks after the first tool call of a message are moved in front of the calls
   (anomalyco/opencode#5750).

Results before the first assistant message become text too. A result whose tool name differs from its call's
takes the call's name (Gemini pairs by name). Each repair is logged once per request, at warning
level, on the ``pi_tui.ai.tool_pairing`` logger. Assistant messages with stop reason ``error``/``aborted`` must
already be removed (their calls never ran and are never sent).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .types import AssistantMessage, TextContent, ToolCall, ToolResultMessage, UserMessage, now_ms

log = logging.getLogger(__name__)

NO_RESULT_TEXT = "No result provided"
_ID_LIMIT = 40  # the shortest id limit of the supported APIs (OpenAI), so a renamed id fits everywhere


def synthetic_result(call: ToolCall, text: str = NO_RESULT_TEXT) -> ToolResultMessage:
    """An error tool result standing in for the missing result of ``call``."""
    return ToolResultMessage(
        tool_call_id=call.id,
        tool_name=call.name,
        content=[TextContent(text=text)],
        is_error=True,
        timestamp=now_ms(),
    )


def _unique_id(call_id: str, used: set[str]) -> str:
    base = call_id.split("|", 1)[0] or "call"
    n = 2
    while True:
        suffix = f"_{n}"
        candidate = base[: _ID_LIMIT - len(suffix)] + suffix
        if candidate not in used:
            return candidate
        n += 1


def _calls_last(message: AssistantMessage, repairs: list[str]) -> AssistantMessage:
    first = next((i for i, b in enumerate(message.content) if isinstance(b, ToolCall)), None)
    if first is None:
        return message
    tail = message.content[first:]
    moved = [b for b in tail if not isinstance(b, ToolCall)]
    if not moved:
        return message
    repairs.append(f"moved {len(moved)} text/thinking block(s) in front of the tool calls")
    calls = [b for b in tail if isinstance(b, ToolCall)]
    return message.model_copy(update={"content": [*message.content[:first], *moved, *calls]})


def _stray_as_text(result: ToolResultMessage) -> UserMessage:
    """A result that answers no call, as a user message, so its content still reaches the model."""
    label = "error result" if result.is_error else "result"
    head = TextContent(text=f"(tool {label} of {result.tool_name} [{result.tool_call_id}] without a matching call)")
    blocks = list(result.content)
    if blocks and isinstance(blocks[0], TextContent):
        blocks[0] = TextContent(text=f"{head.text}\n{blocks[0].text}")
    else:
        blocks.insert(0, head)
    return UserMessage(content=blocks, timestamp=result.timestamp)


def _take_result(pending: list[ToolResultMessage | None], call_id: str, name: str) -> ToolResultMessage | None:
    """The first unplaced result with ``call_id`` (one with the same tool name preferred); marks it placed."""
    candidates = [i for i, r in enumerate(pending) if r is not None and r.tool_call_id == call_id]
    if not candidates:
        return None
    chosen = next((i for i in candidates if pending[i].tool_name == name), candidates[0])  # type: ignore[union-attr]
    result = pending[chosen]
    pending[chosen] = None
    return result


def _repair_turn(assistant: AssistantMessage, rest: list[Any], used: set[str], repairs: list[str]) -> list[Any]:
    """The assistant message, its results in call order, then the turn's other messages."""
    assistant = _calls_last(assistant, repairs)
    results: list[ToolResultMessage | None] = [m for m in rest if isinstance(m, ToolResultMessage)]
    calls = [b for b in assistant.content if isinstance(b, ToolCall)]
    placed: list[ToolResultMessage] = []
    real: list[ToolResultMessage] = []  # the stored results placed, as found in ``rest``
    renamed: dict[int, str] = {}
    for index, call in enumerate(calls):
        result = _take_result(results, call.id, call.name)
        new_id = call.id
        if call.id in used:
            new_id = _unique_id(call.id, used)
            renamed[index] = new_id
            repairs.append(f"renamed the repeated tool call id {call.id!r} to {new_id!r}")
        used.add(new_id)
        if result is not None:
            real.append(result)
        else:
            repairs.append(f"added a {NO_RESULT_TEXT!r} result for tool call {new_id!r} ({call.name})")
            result = synthetic_result(call)
        if result.tool_call_id != new_id or result.tool_name != call.name:
            if result.tool_name != call.name:
                repairs.append(f"named the result of {new_id!r} after its call ({result.tool_name!r} -> {call.name!r})")
            result = result.model_copy(update={"tool_call_id": new_id, "tool_name": call.name})
        placed.append(result)
    if renamed:
        content: list[Any] = []
        call_index = 0
        for block in assistant.content:
            if isinstance(block, ToolCall):
                if call_index in renamed:
                    block = block.model_copy(update={"id": renamed[call_index]})
                call_index += 1
            content.append(block)
        assistant = assistant.model_copy(update={"content": content})
    strays = {id(r) for r in results if r is not None}
    for stray in results:
        if stray is not None:
            repairs.append(f"sent the tool result for {stray.tool_call_id!r}, which answers no call before it, as text")
    others = [
        _stray_as_text(m) if id(m) in strays else m
        for m in rest
        if not isinstance(m, ToolResultMessage) or id(m) in strays
    ]
    leading = rest[: len(real)]
    if len(leading) != len(real) or any(a is not b for a, b in zip(leading, real, strict=False)):
        repairs.append(
            f"moved the result(s) of {[r.tool_call_id for r in real]} straight after their calls, in call order"
        )
    return [assistant, *placed, *others]


def repair_tool_pairing(messages: Sequence[Any]) -> list[Any]:
    """Messages of one request with every tool call answered once, right after it (module docstring).

    ``messages``: pydantic ``Message`` objects (other objects pass through as ordinary messages). Returns a new
    list; the input messages are never mutated. Repairs are logged (warning, ``pi_tui.ai.tool_pairing``).
    """
    repairs: list[str] = []
    out: list[Any] = []
    used: set[str] = set()
    index = 0
    while index < len(messages) and not isinstance(messages[index], AssistantMessage):
        message = messages[index]
        if isinstance(message, ToolResultMessage):
            repairs.append(
                f"sent the tool result for {message.tool_call_id!r}, which answers no call before it, as text"
            )
            out.append(_stray_as_text(message))
        else:
            out.append(message)
        index += 1
    while index < len(messages):
        assistant = messages[index]
        end = index + 1
        while end < len(messages) and not isinstance(messages[end], AssistantMessage):
            end += 1
        out.extend(_repair_turn(assistant, list(messages[index + 1 : end]), used, repairs))
        index = end
    if repairs:
        log.warning("request history repaired (session file unchanged): %s", "; ".join(repairs))
    return out
