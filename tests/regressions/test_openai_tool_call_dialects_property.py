"""Property test over the openai-completions tool-call dialects together (issue 10, class 4, found afresh).

Random calls streamed the ways real servers do: the name once (OpenAI, vLLM), whole in every delta (MiniMax via
NIM, LM Studio), in pieces, or cumulatively; the id on the first delta or on every one; indexes per call
(interleaved or not); arguments cut at random places, optionally followed by vLLM's flush of the whole
arguments again. Every stream must give back exactly the calls that were sent.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.providers._openai_completions_parse import ChunkConsumer
from pi_tui.ai.providers._provider_run import new_output
from pi_tui.ai.types import Model

MODEL = Model(id="m", api="openai-completions", provider="local", base_url="http://127.0.0.1:9/v1")
NAMES = ["read", "bash", "get_weather", "write_file", "ls"]
VALUES = st.one_of(st.integers(-5, 500), st.text(alphabet='ab {}[]":,\\é', max_size=12), st.booleans())
ARGS = st.dictionaries(st.sampled_from(["path", "command", "city", "n", "content"]), VALUES, max_size=3)


class _Sink:
    def push(self, event: Any) -> None:
        pass


def _cut(text: str, cuts: list[int]) -> list[str]:
    bounds = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a] or [""]


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[tuple[str, str, dict[str, Any]]], list[dict[str, Any]]]:
    n = draw(st.integers(1, 3))
    calls = [(f"call{i}", draw(st.sampled_from(NAMES)), draw(ARGS)) for i in range(n)]
    name_mode = draw(st.sampled_from(["once", "repeat", "pieces", "cumulative"]))
    id_every = draw(st.booleans())
    index_mode = draw(st.sampled_from(["per_call", "zero", "absent"]))  # Ollama: index 0 for every call
    interleave = draw(st.booleans()) and (index_mode == "per_call" or id_every)
    flush = draw(st.booleans())
    per_call: list[list[dict[str, Any]]] = []
    for call_id, name, args in calls:
        text = json.dumps(args, ensure_ascii=False)
        frags = _cut(text, draw(st.lists(st.integers(0, 200), max_size=6)))
        split = max(1, len(name) // 2)
        name_parts = [name[:split], name[split:]] if name_mode in ("pieces", "cumulative") else [name]
        deltas: list[dict[str, Any]] = []
        for k, part in enumerate(name_parts):
            shown = name[: len("".join(name_parts[: k + 1]))] if name_mode == "cumulative" else part
            d: dict[str, Any] = {"function": {"name": shown, "arguments": ""}}
            if k == 0 or id_every:
                d["id"] = call_id
            deltas.append(d)
        for frag in frags:
            d = {"function": {"arguments": frag}}
            if name_mode == "repeat":
                d["function"]["name"] = name
            if id_every:
                d["id"] = call_id
            deltas.append(d)
        if flush:
            deltas.append({"function": {"arguments": text}, **({"id": call_id} if id_every else {})})
        per_call.append(deltas)
    for pos, deltas in enumerate(per_call):
        for d in deltas:
            if index_mode == "per_call":
                d["index"] = pos
            elif index_mode == "zero":
                d["index"] = 0
    order: list[dict[str, Any]] = []
    if interleave:
        while any(per_call):
            for deltas in per_call:
                if deltas:
                    order.append(deltas.pop(0))
    else:
        for deltas in per_call:
            order += deltas
    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [d]}}]} for d in order]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return calls, chunks


@settings(max_examples=300, derandomize=True, deadline=None)
@given(streams())
def test_every_dialect_mix_gives_back_the_calls_sent(
    case: tuple[list[tuple[str, str, dict[str, Any]]], list[dict[str, Any]]],
) -> None:
    calls, chunks = case
    output = new_output(MODEL)
    consumer = ChunkConsumer(MODEL, output, _Sink(), None)  # type: ignore[arg-type]
    for chunk in chunks:
        consumer.consume(chunk)
    consumer.finish()
    got = [(b.id, b.name, b.arguments) for b in output.content if b.type == "toolCall"]
    assert got == calls
    assert output.diagnostics is None
