"""Stream parsing throughput: recorded streams replayed through the REAL providers from a loopback server.

``python bench/stream_parse.py [--quick]`` prints, per workload, the assistant events per second produced
by the provider (HTTP + SSE framing + JSON + block events) and the ratio of its wall time to merely reading
the same bytes as SSE events with httpx-sse (``aconnect_sse``/``aiter_sse``, no JSON). Writes
bench/results/stream_parse.json. Workloads: the largest openai-completions fixture
(groq-qwen3-reasoning-field, 1104 chunks) and the largest openai-responses fixture
(openai-gpt54-reasoning-12-summaries-encrypted, 1393 events, 364 KB), each replayed N times.

"large write tool call" (pi 1.5.0's fix, pi issue #9265): one ``write`` call whose 54 KB of JSON arguments (43 KB of file content)
arrive in 12-character deltas, through the anthropic-messages and openai-completions providers; it prints the
provider's CPU seconds per call and the CPU seconds the old way took (``parse_streaming_json`` of the whole
text after every delta, the same deltas, no HTTP).
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _common import median, print_table, write_results  # noqa: E402

from pi_tui.ai.json_parse import parse_streaming_json  # noqa: E402
from pi_tui.ai.options import StreamOptions  # noqa: E402
from pi_tui.ai.providers import _http  # noqa: E402
from pi_tui.ai.registry import BUILTIN_PROVIDER_MODULES  # noqa: E402
from pi_tui.ai.stream import stream  # noqa: E402
from pi_tui.ai.types import Context, Model, UserMessage  # noqa: E402
from tests.ai.replay_server import ReplayResponse, ReplayServer, sse_body, sse_body_from_lines  # noqa: E402

WORKLOADS = [
    ("openai-completions", "groq-qwen3-reasoning-field"),
    ("openai-responses", "openai-gpt54-reasoning-12-summaries-encrypted"),
]


async def _provider_pass(server: ReplayServer, api: str, body: bytes) -> tuple[float, int]:
    server.enqueue(ReplayResponse(body=body, seed=1, max_chunk=16384))
    model = Model(id="bench", api=api, provider="bench", base_url=server.base_url)
    t0 = time.perf_counter()
    s = stream(model, Context(messages=[UserMessage(content="x")]), StreamOptions(api_key="k", max_retries=0))
    n = 0
    async for _ in s:
        n += 1
    result = await s.result()
    elapsed = time.perf_counter() - t0
    if result.stop_reason == "error":
        raise RuntimeError(f"provider failed: {result.error_message}")
    return elapsed, n


async def _baseline_pass(server: ReplayServer, body: bytes) -> tuple[float, int]:
    server.enqueue(ReplayResponse(body=body, seed=1, max_chunk=16384))
    t0 = time.perf_counter()
    n = 0
    # Same client set-up as the provider (shared SSL context), so only the parsing work differs.
    async with httpx.AsyncClient(verify=_http._get_ssl_context()) as client:
        async with aconnect_sse(client, "POST", server.base_url + "/x", json={"x": 1}) as source:
            async for _ in source.aiter_sse():
                n += 1
    return time.perf_counter() - t0, n


async def _workload(server: ReplayServer, api: str, name: str, repeats: int) -> dict[str, Any]:
    body = sse_body(api, name)
    await _provider_pass(server, api, body)  # warm-up (imports, first connection)
    await _baseline_pass(server, body)
    prov_times: list[float] = []
    base_times: list[float] = []
    events = sse_events = 0
    for _ in range(repeats):
        gc.collect()
        t, events = await _provider_pass(server, api, body)
        prov_times.append(t)
        t, sse_events = await _baseline_pass(server, body)
        base_times.append(t)
    prov = median(prov_times)
    base = median(base_times)
    return {
        "api": api,
        "fixture": name,
        "bytes": len(body),
        "repeats": repeats,
        "sse_events": sse_events,
        "assistant_events": events,
        "provider_s_median": prov,
        "httpx_sse_read_s_median": base,
        "assistant_events_per_s": events / prov if prov else 0.0,
        "sse_events_per_s_provider": sse_events / prov if prov else 0.0,
        "sse_events_per_s_httpx_sse_only": sse_events / base if base else 0.0,
        "ratio_provider_to_read": prov / base if base else 0.0,
    }


WRITE_ARGS = json.dumps({
    "path": "src/big_module.py",
    "content": "".join(f'def f{i}(x):\n    return "value\\t{i}" + str(x)  # naïve ✓\n' for i in range(900))[:43_000],
})
DELTA_CHARS = 12


def _write_call_body(api: str) -> bytes:
    pieces = [WRITE_ARGS[i : i + DELTA_CHARS] for i in range(0, len(WRITE_ARGS), DELTA_CHARS)]
    lines: list[dict[str, Any]]
    if api == "anthropic-messages":
        lines = [
            {"type": "message_start", "message": {"id": "m1", "type": "message", "role": "assistant", "model": "m",
                                                  "content": [], "usage": {"input_tokens": 1, "output_tokens": 1}}},
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "tool_use", "id": "t1", "name": "write", "input": {}}},
            *({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": p}}
              for p in pieces),
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}},
            {"type": "message_stop"},
        ]
    else:
        first = {"index": 0, "id": "c1", "type": "function", "function": {"name": "write", "arguments": ""}}
        lines = [{"choices": [{"index": 0, "delta": {"tool_calls": [first]}}]}]
        lines += [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": p}}]}}]}
                  for p in pieces]
        lines.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return sse_body_from_lines(api, [json.dumps(x) for x in lines])


def _reparse_every_delta_cpu() -> float:
    """CPU seconds of the pre-fix rule: the whole accumulated text parsed after every delta."""
    t0 = time.process_time()
    so_far = ""
    for i in range(0, len(WRITE_ARGS), DELTA_CHARS):
        so_far += WRITE_ARGS[i : i + DELTA_CHARS]
        parse_streaming_json(so_far)
    return time.process_time() - t0


async def _write_call(server: ReplayServer, api: str, repeats: int) -> dict[str, Any]:
    body = _write_call_body(api)
    model = Model(id="bench", api=api, provider="bench", base_url=server.base_url)
    cpu: list[float] = []
    for _ in range(repeats + 1):
        server.enqueue(ReplayResponse(body=body, seed=1, max_chunk=16384))
        gc.collect()
        t0 = time.process_time()
        s = stream(model, Context(messages=[UserMessage(content="x")]), StreamOptions(api_key="k", max_retries=0))
        async for _ in s:
            pass
        result = await s.result()
        cpu.append(time.process_time() - t0)
        if result.stop_reason != "toolUse" or json.loads(WRITE_ARGS) != result.content[0].arguments:  # type: ignore[union-attr]
            raise RuntimeError(f"provider failed: {result.stop_reason} {result.error_message}")
    return {"api": api, "argument_chars": len(WRITE_ARGS), "deltas": -(-len(WRITE_ARGS) // DELTA_CHARS),
            "provider_cpu_s_median": median(cpu[1:])}


async def main(quick: bool) -> None:
    repeats = 2 if quick else 15
    results = []
    with ReplayServer() as server:
        for api, name in WORKLOADS:
            if importlib.util.find_spec(BUILTIN_PROVIDER_MODULES[api]) is None:
                print(f"skipping {api}: provider module missing")
                continue
            r = await _workload(server, api, name, repeats)
            results.append(r)
            print_table(
                f"stream_parse: {api}/{name} ({r['bytes']:,} bytes, {r['sse_events']} SSE events, x{repeats})",
                [
                    ("provider wall time (median, s)", r["provider_s_median"], ""),
                    ("httpx-sse read only (median, s)", r["httpx_sse_read_s_median"], ""),
                    (
                        "assistant events / s",
                        r["assistant_events_per_s"],
                        f"{r['assistant_events']} events per pass",
                    ),
                    ("SSE events / s through provider", r["sse_events_per_s_provider"], ""),
                    ("SSE events / s httpx-sse only", r["sse_events_per_s_httpx_sse_only"], ""),
                    ("ratio provider / read-only", r["ratio_provider_to_read"], "lower is better"),
                ],
            )
    write_calls = []
    with ReplayServer() as server:
        for api in ("anthropic-messages", "openai-completions"):
            write_calls.append(await _write_call(server, api, 1 if quick else 5))
    old_rule = median([_reparse_every_delta_cpu() for _ in range(1 if quick else 3)])
    rows: list[tuple[str, Any, str]] = [
        (f"{w['api']}: provider CPU per call (median, s)", w["provider_cpu_s_median"], "HTTP + SSE + JSON + events")
        for w in write_calls
    ]
    rows.append(("old rule: whole-text parse after every delta (CPU s)", old_rule, "parsing alone, before pi 1.5.0"))
    print_table(f"stream_parse: large write tool call ({len(WRITE_ARGS):,} argument chars, "
                f"{write_calls[0]['deltas']} deltas of {DELTA_CHARS})", rows)
    path = write_results("stream_parse", {"quick": quick, "workloads": results,
                                          "write_call": {"calls": write_calls, "reparse_every_delta_cpu_s": old_rule}})
    print(f"\nwrote {path}")


if __name__ == "__main__":
    asyncio.run(main("--quick" in sys.argv[1:]))
