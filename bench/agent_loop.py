"""Benchmark: agent events per second through an Agent with three listeners, on the faux provider.

Compares, on the same scripted reply, (a) consuming ``stream_simple`` of the faux provider directly with
(b) running ``Agent.prompt`` with three subscribed listeners (a sync counter, an async listener, and one
that reads the streaming state like a UI would). The faux provider runs at full speed (no
``tokens_per_second``, one event-loop tick per chunk). A second scenario runs a tool loop (two parallel tool
calls per turn). Prints a table and writes ``bench/results/agent_loop.json``.

Usage: ``python bench/agent_loop.py [--quick] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from pi_tui.agent import Agent, AgentTool, AgentToolResult
from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_tool_call, register_faux_provider
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import Context, TextContent, UserMessage

# PI_TUI_BENCH_RESULTS redirects it (the smoke test writes into a temp dir, never into the repo), as in _common.py
RESULTS = Path(os.environ.get("PI_TUI_BENCH_RESULTS") or Path(__file__).resolve().parent / "results") / "agent_loop.json"


class EchoTool(AgentTool):
    """Returns its ``text`` argument."""

    async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
        return AgentToolResult(content=[TextContent(text=str(params.get("text", "")))])


def text_reply(chars: int) -> Any:
    return faux_assistant_message("lorem ipsum dolor sit amet, " * (chars // 28 + 1))


async def direct(chars: int) -> tuple[int, float]:
    """Consume the faux stream directly; returns (events, seconds)."""
    faux = register_faux_provider(token_size={"min": 1, "max": 1})
    try:
        faux.set_responses([text_reply(chars)])
        context = Context(system_prompt="bench", messages=[UserMessage(content="go")])
        start = time.perf_counter()
        stream = stream_simple(faux.get_model(), context)
        count = 0
        async for _ in stream:
            count += 1
        await stream.result()
        return count, time.perf_counter() - start
    finally:
        faux.unregister()


def _listeners(agent: Agent, counter: list[int]) -> None:
    def count(event: Any, signal: Any) -> None:
        counter[0] += 1

    async def async_listener(event: Any, signal: Any) -> None:
        if event.type == "agent_end":
            await asyncio.sleep(0)

    def ui_like(event: Any) -> None:
        if event.type == "message_update":
            message = agent.state.streaming_message
            if message is not None and message.content:
                _ = message.content[-1]

    agent.subscribe(count)
    agent.subscribe(async_listener)
    agent.subscribe(ui_like)


async def through_agent(chars: int) -> tuple[int, float]:
    """Run one prompt through an Agent with three listeners; returns (events, seconds)."""
    faux = register_faux_provider(token_size={"min": 1, "max": 1})
    try:
        faux.set_responses([text_reply(chars)])
        agent = Agent({"system_prompt": "bench", "model": faux.get_model()})
        counter = [0]
        _listeners(agent, counter)
        start = time.perf_counter()
        await agent.prompt("go")
        return counter[0], time.perf_counter() - start
    finally:
        faux.unregister()


async def tool_loop(turns: int) -> tuple[int, float]:
    """``turns`` tool turns (two parallel calls each) then a text answer, through the Agent."""
    faux = register_faux_provider(token_size={"min": 1, "max": 1})
    try:
        replies = [
            faux_assistant_message(
                [faux_text(f"turn {i}"), faux_tool_call("echo", {"text": "a" * 40}, id=f"a{i}"), faux_tool_call("echo", {"text": "b"}, id=f"b{i}")],
                stop_reason="toolUse",
            )
            for i in range(turns)
        ]
        faux.set_responses([*replies, faux_assistant_message("done")])
        tool = EchoTool(name="echo", parameters={"type": "object", "properties": {"text": {"type": "string"}}})
        agent = Agent({"system_prompt": "bench", "model": faux.get_model(), "tools": [tool]})
        counter = [0]
        _listeners(agent, counter)
        start = time.perf_counter()
        await agent.prompt("go")
        return counter[0], time.perf_counter() - start
    finally:
        faux.unregister()


def best(runs: list[tuple[int, float]]) -> dict[str, float]:
    events = runs[0][0]
    seconds = min(r[1] for r in runs)
    return {
        "events": events,
        "best_seconds": seconds,
        "median_seconds": statistics.median(r[1] for r in runs),
        "events_per_second": events / seconds,
        "us_per_event": seconds / events * 1e6,
    }


async def main_async(quick: bool, repeat: int) -> dict[str, Any]:
    chars = 2_000 if quick else 40_000
    turns = 3 if quick else 40
    await direct(200)  # warm-up (imports, pydantic schemas)
    await through_agent(200)
    direct_runs: list[tuple[int, float]] = []
    agent_runs: list[tuple[int, float]] = []
    tool_runs: list[tuple[int, float]] = []
    for _ in range(repeat):  # interleaved, so a load change on the machine affects both sides alike
        direct_runs.append(await direct(chars))
        agent_runs.append(await through_agent(chars))
        tool_runs.append(await tool_loop(turns))
    d, a, t = best(direct_runs), best(agent_runs), best(tool_runs)
    return {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "quick": quick,
        "repeat": repeat,
        "text_chars": chars,
        "tool_turns": turns,
        "direct_stream_simple": d,
        "agent_three_listeners": a,
        "agent_tool_loop": t,
        "agent_to_direct_ratio": a["events_per_second"] / d["events_per_second"],
        "agent_overhead_us_per_event": a["us_per_event"] - d["us_per_event"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny run (smoke test)")
    parser.add_argument("--repeat", type=int, default=None, help="runs per scenario (best is reported)")
    args = parser.parse_args()
    repeat = args.repeat or (1 if args.quick else 9)
    result = asyncio.run(main_async(args.quick, repeat))
    rows = [
        ("stream_simple consumed directly", result["direct_stream_simple"]),
        ("Agent.prompt, 3 listeners (text)", result["agent_three_listeners"]),
        ("Agent.prompt, 3 listeners (tool loop)", result["agent_tool_loop"]),
    ]
    print(f"{'scenario':40} {'events':>8} {'best s':>9} {'events/s':>11} {'us/event':>9}")
    for name, r in rows:
        print(f"{name:40} {r['events']:>8} {r['best_seconds']:>9.4f} {r['events_per_second']:>11.0f} {r['us_per_event']:>9.2f}")
    print(f"agent / direct throughput ratio: {result['agent_to_direct_ratio']:.2f}")
    print(f"agent overhead per event: {result['agent_overhead_us_per_event']:.2f} us")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
