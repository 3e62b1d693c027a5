"""Replay pi-agent-core 0.73.1 golden traces against pi_tui.agent and report every mismatch.

Usage: ``python tests/conformance/replay_agent_trace.py FILE...`` — prints one line per mismatch
(``<scenario>: <section>[<index>]<path>: expected <x>, got <y>``) and exits 1 if any, else prints a summary
and exits 0. Traces live in tests/fixtures/pi-traces/agent/ (format: that directory's README.md).

Each trace's ``setup`` is rebuilt here: the faux provider (api/provider ``faux``, token size 2), tools from
their behaviour text, hooks from their description, and the steps with their event triggers. Our events,
state after each event, provider contexts, final messages and state are normalised like the recorder did
(timestamps 0, ``message_update`` reduced) and compared. Deliberate differences are listed in
tests/conformance/DIFFERENCES.md and applied by :data:`KNOWN_DIFFERENCES` (currently none needed).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import PrivateAttr

from pi_tui.agent import (
    Agent,
    AgentContext,
    AgentLoopConfig,
    AgentTool,
    AgentToolResult,
    parse_agent_message,
    run_agent_loop,
)
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.providers.faux import register_faux_provider
from pi_tui.ai.types import AssistantMessage, TextContent

KNOWN_DIFFERENCES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""scenario -> function adjusting the expected trace for a documented deliberate difference."""

# ---------------------------------------------------------------- normalisation


def _zero_timestamps(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (0 if k == "timestamp" and isinstance(v, int | float) and not isinstance(v, bool) else _zero_timestamps(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_zero_timestamps(v) for v in value]
    return value


def norm(value: Any) -> Any:
    """JSON form (camelCase, None omitted) with every numeric ``timestamp`` set to 0."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    elif isinstance(value, list):
        value = [
            v.model_dump(mode="json", by_alias=True, exclude_none=True) if hasattr(v, "model_dump") else v
            for v in value
        ]
    return _zero_timestamps(value)


def norm_event(event: Any) -> dict[str, Any]:
    """Normalise an agent event like the recorder (message_update reduced to type/contentIndex/delta)."""
    if event.type == "message_update":
        e = event.assistant_message_event
        ame: dict[str, Any] = {"type": e.type}
        if getattr(e, "content_index", None) is not None:
            ame["contentIndex"] = e.content_index
        if getattr(e, "delta", None) is not None:
            ame["delta"] = e.delta
        return {"type": "message_update", "assistantMessageEvent": ame}
    result: dict[str, Any] = norm(event)
    return result


def state_summary(agent: Agent) -> dict[str, Any]:
    """The recorder's ``stateSnapshot`` (pending ids sorted: ours is a set without insertion order)."""
    s = agent.state
    sm = s.streaming_message
    return {
        "isStreaming": s.is_streaming,
        "streamingMessageRole": getattr(sm, "role", None) if sm is not None else None,
        "pendingToolCalls": sorted(s.pending_tool_calls),
        "messageCount": len(s.messages),
        "messageRoles": [m.role for m in s.messages],
        "errorMessage": s.error_message,
    }


def matches(obj: Any, pattern: Any) -> bool:
    """Deep partial match of a normalised event against a trigger pattern."""
    if not isinstance(pattern, dict):
        return bool(obj == pattern)
    if not isinstance(obj, dict):
        return False
    return all(matches(obj.get(k), v) for k, v in pattern.items())


# ---------------------------------------------------------------- tools from their behaviour text


def _js_number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _eval_binary(expression: str) -> int | float:
    m = re.match(r"^\s*(-?\d+(?:\.\d+)?)\s*([-+*/])\s*(-?\d+(?:\.\d+)?)\s*$", expression)
    if not m:
        raise ValueError(f"Invalid expression: {expression}")
    a, op, b = float(m.group(1)), m.group(2), float(m.group(3))
    if op == "+":
        return _js_number(a + b)
    if op == "-":
        return _js_number(a - b)
    if op == "*":
        return _js_number(a * b)
    if b == 0:
        raise ValueError("Division by zero")
    return _js_number(a / b)


def _text(t: str) -> TextContent:
    return TextContent(text=t)


async def _calculate(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    result = _eval_binary(params["expression"])
    return AgentToolResult(content=[_text(f"{params['expression']} = {result}")], details={"result": result})


async def _wait_echo(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    await asyncio.sleep(params["delayMs"] / 1000)
    return AgentToolResult(content=[_text(f"echo: {params['text']}")], details={"delayMs": params["delayMs"]})


async def _echo_args(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    return AgentToolResult(content=[_text(_json(params))], details={"params": params})


async def _add_numbers(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    return AgentToolResult(content=[_text(_json(params))], details={"sum": params["a"] + params["b"]})


async def _finish(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    return AgentToolResult(content=[_text(f"finished: {params['summary']}")], details={}, terminate=True)


async def _fail(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    raise RuntimeError(params["reason"])


async def _progress(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    steps = params["steps"]
    for i in range(1, int(steps) + 1):
        if on_update is not None:
            on_update(AgentToolResult(content=[_text(f"step {i}/{steps}")], details={"step": i}))
        await asyncio.sleep(0)
    return AgentToolResult(content=[_text(f"done after {steps} steps")], details={"step": steps, "done": True})


async def _wait_for_abort(tool_call_id: str, params: Any, signal: AbortSignal | None, on_update: Any) -> AgentToolResult:
    if signal is not None:
        await signal.wait()
    else:
        await asyncio.Event().wait()
    raise RuntimeError("Tool execution aborted")


TOOL_BEHAVIOURS: dict[str, Callable[..., Any]] = {
    "calculate": _calculate,
    "wait_echo": _wait_echo,
    "echo_args": _echo_args,
    "add_numbers": _add_numbers,
    "add_numbers_plain": _add_numbers,
    "finish": _finish,
    "fail": _fail,
    "progress": _progress,
    "wait_for_abort": _wait_for_abort,
}


class TraceTool(AgentTool):
    """An AgentTool whose ``execute`` is one of :data:`TOOL_BEHAVIOURS`."""

    _impl: Callable[..., Any] = PrivateAttr()

    async def execute(
        self, tool_call_id: str, params: Any, signal: AbortSignal | None = None, on_update: Any = None
    ) -> AgentToolResult:
        result: AgentToolResult = await self._impl(tool_call_id, params, signal, on_update)
        return result


def build_tool(desc: dict[str, Any]) -> TraceTool:
    """A tool from a trace's tool description (name, label, description, parameters, executionMode)."""
    tool = TraceTool(
        name=desc["name"],
        label=desc.get("label", ""),
        description=desc.get("description", ""),
        parameters=desc["parameters"],
        execution_mode=desc.get("executionMode"),
    )
    tool._impl = TOOL_BEHAVIOURS[desc["name"]]
    return tool


# ---------------------------------------------------------------- hooks from their description


def build_hooks(scenario: str, described: dict[str, str]) -> dict[str, Any]:
    """Agent options implementing the hooks a scenario describes (``setup.hooks``)."""
    hooks: dict[str, Any] = {}
    if "beforeToolCall" in described:

        async def before(ctx: Any, signal: Any) -> dict[str, Any] | None:
            if ctx.tool_call.id == "call-1":
                return {"block": True, "reason": "Blocked by policy: no multiplication"}
            if ctx.tool_call.id == "call-2":
                return {"block": True}
            return None

        hooks["before_tool_call"] = before
    if "afterToolCall" in described:

        async def after(ctx: Any, signal: Any) -> dict[str, Any]:
            return {"terminate": True}

        hooks["after_tool_call"] = after
    if "convertToLlm" in described:
        hooks["convert_to_llm"] = lambda messages: [m for m in messages if m.role != "notification"]
    if "transformContext" in described:

        async def transform(messages: list[Any], signal: Any) -> list[Any]:
            return messages[-2:]

        hooks["transform_context"] = transform
    unknown = set(described) - {"beforeToolCall", "afterToolCall", "convertToLlm", "transformContext"}
    if unknown:
        raise ValueError(f"{scenario}: no implementation for hooks {sorted(unknown)}")
    return hooks


# ---------------------------------------------------------------- replay


def _responses(setup: dict[str, Any]) -> list[AssistantMessage]:
    out = []
    for r in setup["fauxResponses"]:
        data = {"role": "assistant", "content": r["content"], "stopReason": r["stopReason"]}
        if "errorMessage" in r:
            data["errorMessage"] = r["errorMessage"]
        out.append(AssistantMessage.model_validate(data))
    return out


def _register(setup: dict[str, Any]) -> Any:
    fp = setup["fauxProvider"]
    return register_faux_provider(
        api=fp["api"],
        provider=fp["provider"],
        token_size={"min": fp["tokenSize"]["min"], "max": fp["tokenSize"]["max"]},
        tokens_per_second=fp.get("tokensPerSecond"),
    )


def _capture_factory(rec: dict[str, Any], message: AssistantMessage, with_options: bool) -> Callable[..., Any]:
    def factory(context: Any, options: Any, state: Any, model: Any) -> AssistantMessage:
        entry: dict[str, Any] = {
            "call": len(rec["llmContexts"]) + 1,
            "afterEventIndex": len(rec["events"]) - 1,
            "systemPrompt": context.system_prompt,
            "messages": norm(list(context.messages)),
            "tools": [t.name for t in context.tools or []],
        }
        if with_options:
            opts: dict[str, Any] = {}
            if getattr(options, "reasoning", None) is not None:
                opts["reasoning"] = options.reasoning
            if getattr(options, "session_id", None) is not None:
                opts["sessionId"] = options.session_id
            if getattr(options, "tool_execution", None) is not None:
                opts["toolExecution"] = options.tool_execution
            if getattr(options, "signal", None) is not None:
                opts["signalAborted"] = options.signal.aborted
            entry["options"] = opts
        rec["llmContexts"].append(entry)
        return message

    return factory


async def replay_agent(trace: dict[str, Any]) -> dict[str, Any]:
    """Run an ``api: "Agent"`` trace's setup; returns the recorded sections."""
    setup = trace["setup"]
    faux = _register(setup)
    rec: dict[str, Any] = {
        "events": [],
        "stateTrace": [],
        "llmContexts": [],
        "errors": [],
        "stateSnapshots": [],
        "actionLog": [],
    }
    try:
        faux.set_responses([_capture_factory(rec, m, True) for m in _responses(setup)])
        opts = setup.get("agentOptions") or {}
        agent = Agent(
            {
                "system_prompt": setup["systemPrompt"],
                "model": faux.get_model(),
                "thinking_level": setup["thinkingLevel"],
                "tools": [build_tool(t) for t in setup.get("tools", [])],
                "messages": setup.get("initialMessages", []),
            },
            tool_execution=opts.get("toolExecution", "parallel"),
            steering_mode=opts.get("steeringMode", "one-at-a-time"),
            follow_up_mode=opts.get("followUpMode", "one-at-a-time"),
            session_id=opts.get("sessionId"),
            **build_hooks(trace["scenario"], setup.get("hooks") or {}),
        )
        pending: list[asyncio.Task[Any]] = []

        async def run_action(step: dict[str, Any], where: str) -> None:
            rec["actionLog"].append({"call": step["call"], "where": where, "afterEventIndex": len(rec["events"]) - 1})
            call = step["call"]
            try:
                if call == "prompt":
                    inp = step["input"]
                    await agent.prompt(inp if isinstance(inp, str) else [parse_agent_message(m) for m in inp])
                elif call == "continue":
                    await agent.continue_()
                elif call == "steer":
                    agent.steer(parse_agent_message(step["message"]))
                elif call == "followUp":
                    agent.follow_up(parse_agent_message(step["message"]))
                elif call == "abort":
                    agent.abort()
                elif call == "reset":
                    agent.reset()
                elif call == "waitForIdle":
                    await agent.wait_for_idle()
                elif call == "setMessages":
                    agent.state.messages = [parse_agent_message(m) for m in step["messages"]]
                elif call == "snapshotState":
                    rec["stateSnapshots"].append(
                        {
                            "label": step.get("label"),
                            "where": where,
                            **state_summary(agent),
                            "hasQueuedMessages": agent.has_queued_messages(),
                            "messages": norm(list(agent.state.messages)),
                        }
                    )
                else:
                    raise ValueError(f"unknown action {call}")
            except Exception as exc:  # recorded like the recorder's rejected promises
                rec["errors"].append({"call": call, "where": where, "message": str(exc)})

        triggers = [{"step": s, "seen": 0, "fired": False} for s in setup.get("steps", []) if s["at"] != "top-level"]

        async def listener(event: Any, signal: Any) -> None:
            index = len(rec["events"])
            normalised = norm_event(event)
            rec["events"].append(normalised)
            rec["stateTrace"].append({"index": index, "type": event.type, **state_summary(agent)})
            full = norm(event) if event.type == "message_update" else normalised
            for t in triggers:
                at = t["step"]["at"]
                if t["fired"] or not matches(full, at["event"]):
                    continue
                t["seen"] += 1
                if t["seen"] != at.get("nth", 1):
                    continue
                t["fired"] = True
                delay = at.get("delayMs", 0)
                where = f"event #{index} ({event.type})" + (f" + {delay}ms" if delay else "")
                if delay:

                    async def later(step: dict[str, Any] = t["step"], w: str = where, d: float = delay) -> None:
                        await asyncio.sleep(d / 1000)
                        await run_action(step, w)

                    pending.append(asyncio.get_running_loop().create_task(later()))
                else:
                    await run_action(t["step"], where)

        agent.subscribe(listener)
        for step in setup.get("steps", []):
            if step["at"] == "top-level":
                await run_action(step, "top-level")
        if pending:
            await asyncio.gather(*pending)
        await agent.wait_for_idle()
        return {
            **rec,
            "finalMessages": norm(list(agent.state.messages)),
            "finalState": {
                **state_summary(agent),
                "hasQueuedMessages": agent.has_queued_messages(),
                "fauxCallCount": faux.state.call_count,
                "fauxPendingResponses": faux.get_pending_response_count(),
            },
        }
    finally:
        faux.unregister()


async def replay_loop(trace: dict[str, Any]) -> dict[str, Any]:
    """Run the ``api: "runAgentLoop"`` trace (should_stop_after_turn)."""
    setup = trace["setup"]
    faux = _register(setup)
    rec: dict[str, Any] = {"events": [], "llmContexts": [], "errors": [], "callbacks": []}
    try:
        faux.set_responses([_capture_factory(rec, m, False) for m in _responses(setup)])
        steering = [parse_agent_message(m) for m in setup.get("steeringQueue", [])]
        follow_up = [parse_agent_message(m) for m in setup.get("followUpQueue", [])]

        def get_steering() -> list[Any]:
            rec["callbacks"].append({"callback": "getSteeringMessages", "afterEventIndex": len(rec["events"]) - 1})
            return [steering.pop(0)] if steering else []

        def get_follow_up() -> list[Any]:
            rec["callbacks"].append({"callback": "getFollowUpMessages", "afterEventIndex": len(rec["events"]) - 1})
            return [follow_up.pop(0)] if follow_up else []

        def should_stop(ctx: Any) -> bool:
            rec["callbacks"].append(
                {
                    "callback": "shouldStopAfterTurn",
                    "afterEventIndex": len(rec["events"]) - 1,
                    "toolResultIds": [r.tool_call_id for r in ctx.tool_results],
                    "contextRoles": [m.role for m in ctx.context.messages],
                    "newMessageRoles": [m.role for m in ctx.new_messages],
                    "returned": True,
                }
            )
            return True

        config = AgentLoopConfig(
            model=faux.get_model(),
            convert_to_llm=lambda ms: [m for m in ms if m.role in ("user", "assistant", "toolResult")],
            get_steering_messages=get_steering,
            get_follow_up_messages=get_follow_up,
            should_stop_after_turn=should_stop,
        )
        context = AgentContext(
            system_prompt=setup["systemPrompt"], messages=[], tools=[build_tool(t) for t in setup["tools"]]
        )

        async def emit(event: Any) -> None:
            rec["events"].append(norm_event(event))

        returned: list[Any] | None = None
        try:
            returned = await run_agent_loop(
                [parse_agent_message(m) for m in setup["prompts"]], context, config, emit
            )
        except Exception as exc:
            rec["errors"].append({"call": "runAgentLoop", "message": str(exc)})
        return {
            **rec,
            "returnedMessages": norm(returned) if returned is not None else None,
            "finalMessages": norm(returned) if returned is not None else None,
            "remainingQueues": {"steering": norm(steering), "followUp": norm(follow_up)},
        }
    finally:
        faux.unregister()


async def replay(trace: dict[str, Any]) -> dict[str, Any]:
    """Replay one trace (either kind)."""
    if trace["setup"]["api"] == "runAgentLoop":
        return await replay_loop(trace)
    return await replay_agent(trace)


# ---------------------------------------------------------------- comparison

SECTIONS_AGENT = (
    "events",
    "stateTrace",
    "llmContexts",
    "actionLog",
    "stateSnapshots",
    "finalMessages",
    "finalState",
    "errors",
)
SECTIONS_LOOP = ("events", "callbacks", "llmContexts", "returnedMessages", "remainingQueues", "errors")


def _expected_state(value: Any) -> Any:
    if isinstance(value, dict) and "pendingToolCalls" in value:
        value = {**value, "pendingToolCalls": sorted(value["pendingToolCalls"])}
    return value


def _diff(expected: Any, actual: Any, path: str, out: list[str], limit: int = 5) -> None:
    if len(out) >= limit:
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in actual:
                out.append(f"{path}.{key}: missing (expected {json.dumps(expected[key])[:120]})")
            elif key not in expected:
                out.append(f"{path}.{key}: unexpected {json.dumps(actual[key])[:120]}")
            else:
                _diff(expected[key], actual[key], f"{path}.{key}", out, limit)
            if len(out) >= limit:
                return
        return
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(f"{path}: length {len(actual)}, expected {len(expected)}")
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            _diff(e, a, f"{path}[{i}]", out, limit)
            if len(out) >= limit:
                return
        return
    if expected != actual or type(expected) is bool and type(actual) is not bool:
        out.append(f"{path}: expected {json.dumps(expected)[:160]}, got {json.dumps(actual)[:160]}")


def compare(trace: dict[str, Any], result: dict[str, Any]) -> list[str]:
    """Mismatch lines between a trace and our replay (empty when they agree)."""
    scenario = trace["scenario"]
    adjust = KNOWN_DIFFERENCES.get(scenario)
    expected_trace = adjust(trace) if adjust else trace
    sections = SECTIONS_LOOP if trace["setup"]["api"] == "runAgentLoop" else SECTIONS_AGENT
    lines: list[str] = []
    for section in sections:
        expected = expected_trace.get(section)
        actual = result.get(section)
        if section in ("stateTrace", "stateSnapshots"):
            expected = [_expected_state(e) for e in expected or []]
        elif section == "finalState":
            expected = _expected_state(expected)
        out: list[str] = []
        _diff(expected, actual, section, out)
        lines.extend(f"{scenario}: {line}" for line in out)
    return lines


def load_trace(path: Path) -> dict[str, Any]:
    """Read one trace file."""
    trace: dict[str, Any] = json.loads(path.read_text())
    return trace


async def check_trace(trace: dict[str, Any]) -> list[str]:
    """Replay ``trace`` and compare; returns mismatch lines (a replay crash or hang is one line)."""
    try:
        result = await asyncio.wait_for(replay(trace), timeout=30)
    except Exception as exc:
        return [f"{trace.get('scenario', '?')}: replay failed: {type(exc).__name__}: {exc}"]
    return compare(trace, result)


def main(argv: list[str]) -> int:
    """CLI entry point; returns the exit status."""
    if not argv:
        print("usage: replay_agent_trace.py FILE...", file=sys.stderr)
        return 2
    total = 0
    for name in argv:
        lines = asyncio.run(check_trace(load_trace(Path(name))))
        for line in lines:
            print(line)
        total += len(lines)
    if total == 0:
        print(f"{len(argv)} trace(s) replayed, no mismatch")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
