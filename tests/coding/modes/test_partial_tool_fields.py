"""Tool-call ``message_update`` events carry pi's streaming scratch fields (issue 10, class 9).

Found by driving pi-tui with pi 0.73.1's own ``RpcClient``: pi's partial tool-call blocks carry ``partialArgs``
(the argument text so far) and ``streamIndex`` (openai-completions) or ``partialJson`` and ``index``
(anthropic-messages; ``index`` on every block) until the block ends; pi-tui's had neither. Compared with pi's
own recorded output (tests/fixtures/pi-traces/coding/*/raw/stdout.jsonl): for every ``message_update`` the
keys of the event's own block, in order, in ``partial`` and in ``message``. Values depend on when pi
serialised the line, so only the shape is compared, plus: ``partialArgs`` is a prefix of the arguments'
text, and ``message_end``/``toolcall_end`` carry no scratch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
TRACES = REPO / "tests/fixtures/pi-traces/coding"
sys.path.insert(0, str(REPO / "tests/conformance"))

from mock_llm_server import MockLlmServer  # noqa: E402

SCRATCH = {"partialArgs", "streamIndex", "partialJson", "index"}


def _run(scenario: str, tmp_path: Path, mode: str) -> list[dict[str, Any]]:
    setup = json.loads((TRACES / scenario / "scenario.json").read_text())["setup"]
    for sub in ("agent", "home", "project"):
        (tmp_path / sub).mkdir()
    for rel, content in (setup.get("projectFilesBefore") or {}).items():
        (tmp_path / "project" / rel).write_text(content)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "PI_TUI_DIR": str(tmp_path / "agent"), "TERM": "dumb", "LANG": "C.UTF-8", "PYTHONPATH": str(REPO)}
    args = list(setup["commandLine"][1:])
    with MockLlmServer(setup["mockScript"]) as server:
        models = json.loads(json.dumps(setup["modelsJson"]).replace("<PORT>", str(server.port)))
        (tmp_path / "agent" / "models.json").write_text(json.dumps(models))
        if mode == "json":
            stdin = subprocess.DEVNULL
            out = subprocess.run([sys.executable, "-m", "pi_tui.cli", *args], cwd=tmp_path / "project", env=env,
                                 stdin=stdin, capture_output=True, timeout=120).stdout
        else:  # the same prompt through RPC mode; stdin closes after it, the server waits for the run to settle
            i = args.index("-p")
            prompt = args[i + 1]
            rpc_args = [a for a in args[:i] if a not in ("--mode", "json")] + ["--mode", "rpc"]
            line = json.dumps({"id": "1", "type": "prompt", "message": prompt}) + "\n"
            out = subprocess.run([sys.executable, "-m", "pi_tui.cli", *rpc_args], cwd=tmp_path / "project",
                                 env=env, input=line.encode(), capture_output=True, timeout=120).stdout
    return [json.loads(x) for x in out.decode().splitlines() if x.strip()]


def _shapes(lines: list[dict[str, Any]]) -> list[tuple[str, int, tuple[str, ...], tuple[str, ...]]]:
    shapes = []
    for e in lines:
        if e.get("type") != "message_update":
            continue
        ame = e["assistantMessageEvent"]
        if "contentIndex" not in ame:
            continue
        ci = ame["contentIndex"]
        shapes.append((ame["type"], ci, tuple(ame["partial"]["content"][ci]), tuple(e["message"]["content"][ci])))
    return shapes


def _pi_lines(scenario: str) -> list[dict[str, Any]]:
    raw = (TRACES / scenario / "raw/stdout.jsonl").read_text().splitlines()
    return [json.loads(x) for x in raw if x.strip()]


def _plain(keys: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(k for k in keys if k not in SCRATCH)


@pytest.mark.parametrize("mode", ["json", "rpc"])
@pytest.mark.parametrize("scenario", ["json-tool-loop", "json-anthropic-tool-loop"])
def test_message_update_blocks_have_pis_shapes(tmp_path: Path, scenario: str, mode: str) -> None:
    """Through the CLI, lines are serialised when the agent gets to them (in pi too), so a block may already
    have ended: each line's block has pi's streaming shape or its final one; ends and messages never scratch.
    The exact moments are pinned by the provider-level tests below."""
    ours = _run(scenario, tmp_path, mode)
    mine, pis = _shapes(ours), _shapes(_pi_lines(scenario))
    assert [s[:2] for s in mine] == [s[:2] for s in pis]
    streaming = {(kind.split("_")[0], p) for kind, _, p, _ in pis if SCRATCH & set(p)}
    assert streaming  # pi's own lines show the scratch fields
    for (kind, _, partial, message), (_, _, pi_partial, _) in zip(mine, pis, strict=True):
        assert partial == message
        assert _plain(partial) == _plain(pi_partial)
        if SCRATCH & set(partial):
            assert (kind.split("_")[0], partial) in streaming
        if kind.endswith("_end"):
            assert not SCRATCH & set(partial)
    for e in ours:
        ame = e.get("assistantMessageEvent") or {}
        if ame.get("type") == "toolcall_end":
            assert not SCRATCH & set(ame["toolCall"])
        if e.get("type") in ("message_end", "agent_end"):
            for m in [e.get("message")] + list(e.get("messages") or []):
                for b in (m or {}).get("content") or []:
                    assert isinstance(b, str) or not SCRATCH & set(b), b


# ---------------------------------------------------------------- provider level: at the moment of each event


class _Recorder:
    """An event stream stand-in that records, at push time, the JSON keys of the event's own block."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, dict[str, Any]]] = []

    def push(self, event: Any) -> None:
        ci = getattr(event, "content_index", None)
        if ci is None:
            return
        block = event.partial.content[ci].model_dump(mode="json", by_alias=True, exclude_none=True)
        self.seen.append((event.type, ci, block))


def test_openai_completions_blocks_carry_partial_args_and_stream_index() -> None:
    from pi_tui.ai.providers._openai_completions_parse import ChunkConsumer
    from pi_tui.ai.providers._provider_run import new_output
    from pi_tui.ai.types import Model

    model = Model(id="m", api="openai-completions", provider="p", base_url="http://127.0.0.1:9/v1")
    rec = _Recorder()
    consumer = ChunkConsumer(model, new_output(model), rec, None)  # type: ignore[arg-type]

    def tc(**kw: Any) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": {"tool_calls": [kw]}}]}

    consumer.consume(tc(index=0, id="a", function={"name": "bash", "arguments": ""}))
    consumer.consume(tc(index=0, function={"arguments": '{"command":'}))
    consumer.consume(tc(index=1, id="b", function={"name": "ls", "arguments": "{}"}))
    consumer.consume(tc(index=0, function={"arguments": '"ls"}'}))
    consumer.consume(tc(id="c", function={"name": "read", "arguments": "{}"}))  # no index: no streamIndex
    consumer.finish()
    shapes = [(kind, ci, tuple(b), b.get("partialArgs"), b.get("streamIndex")) for kind, ci, b in rec.seen]
    full = ("type", "id", "name", "arguments", "partialArgs", "streamIndex")
    plain = ("type", "id", "name", "arguments")
    assert shapes == [
        ("toolcall_start", 0, full, "", 0),
        ("toolcall_delta", 0, full, "", 0),
        ("toolcall_delta", 0, full, '{"command":', 0),
        ("toolcall_start", 1, full, "", 1),
        ("toolcall_delta", 1, full, "{}", 1),
        ("toolcall_delta", 0, full, '{"command":"ls"}', 0),
        ("toolcall_start", 2, ("type", "id", "name", "arguments", "partialArgs"), "", None),
        ("toolcall_delta", 2, ("type", "id", "name", "arguments", "partialArgs"), "{}", None),
        ("toolcall_end", 0, plain, None, None),
        ("toolcall_end", 1, plain, None, None),
        ("toolcall_end", 2, plain, None, None),
    ]


def test_anthropic_blocks_carry_index_and_partial_json_until_they_stop() -> None:
    from pi_tui.ai.providers._anthropic_parse import AnthropicStreamParser
    from pi_tui.ai.providers._provider_run import new_output
    from pi_tui.ai.providers._stream_blocks import BlockWriter
    from pi_tui.ai.types import Model

    model = Model(id="m", api="anthropic-messages", provider="p", base_url="http://127.0.0.1:9")
    rec = _Recorder()
    parser = AnthropicStreamParser(BlockWriter(new_output(model), rec), model)  # type: ignore[arg-type]
    for ev in [
        {"type": "message_start", "message": {"id": "m1", "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hm"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t", "name": "ls",
                                                                      "input": {}}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": '{"p'}},
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": '":1}'}},
        {"type": "content_block_stop", "index": 2},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {}},
        {"type": "message_stop"},
    ]:
        parser.feed(ev["type"], json.dumps(ev))
    parser.finish()
    shapes = [(kind, ci, tuple(b), b.get("partialJson"), b.get("index")) for kind, ci, b in rec.seen]
    tool = ("type", "id", "name", "arguments", "partialJson", "index")
    assert shapes == [
        ("thinking_start", 0, ("type", "thinking", "thinkingSignature", "index"), None, 0),
        ("thinking_delta", 0, ("type", "thinking", "thinkingSignature", "index"), None, 0),
        ("thinking_end", 0, ("type", "thinking", "thinkingSignature"), None, None),
        ("text_start", 1, ("type", "text", "index"), None, 1),
        ("text_delta", 1, ("type", "text", "index"), None, 1),
        ("toolcall_start", 2, tool, "", 2),
        ("toolcall_delta", 2, tool, '{"p', 2),
        ("text_end", 1, ("type", "text"), None, None),
        ("toolcall_delta", 2, tool, '{"p":1}', 2),
        ("toolcall_end", 2, ("type", "id", "name", "arguments"), None, None),
    ]


def test_partial_args_grow_to_the_arguments_text(tmp_path: Path) -> None:
    ours = _run("json-tool-loop", tmp_path, "json")
    seen: dict[tuple[int, int], list[str]] = {}
    turn = 0
    for e in ours:
        if e.get("type") == "turn_start":
            turn += 1
        ame = e.get("assistantMessageEvent") or {}
        if ame.get("type") == "toolcall_delta":
            block = ame["partial"]["content"][ame["contentIndex"]]
            if "partialArgs" in block:  # absent only if the line was written after the stream had ended
                seen.setdefault((turn, ame["contentIndex"]), []).append(block["partialArgs"])
                assert block["streamIndex"] == 0
        if ame.get("type") == "toolcall_end":
            grown = seen.get((turn, ame["contentIndex"]), [])
            assert all(b.startswith(a) for a, b in zip(grown, grown[1:], strict=False))
            assert all(json.dumps(ame["toolCall"]["arguments"], separators=(",", ":")).startswith(a.rstrip("}"))
                       or a == "" for a in grown)


def test_openai_responses_tool_calls_carry_partial_json_until_done() -> None:
    from pi_tui.ai.providers._provider_run import new_output
    from pi_tui.ai.providers._responses_parse import ResponsesStreamParser
    from pi_tui.ai.providers._stream_blocks import BlockWriter
    from pi_tui.ai.types import Model

    model = Model(id="m", api="openai-responses", provider="p", base_url="http://127.0.0.1:9/v1")
    rec = _Recorder()
    parser = ResponsesStreamParser(BlockWriter(new_output(model), rec), model)  # type: ignore[arg-type]
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "ls", "arguments": ""}
    for ev in [
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"p"'},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": ":1}"},
        {"type": "response.function_call_arguments.done", "output_index": 0, "arguments": '{"p":1}'},
        {"type": "response.output_item.done", "output_index": 0, "item": {**item, "arguments": '{"p":1}'}},
    ]:
        parser.feed(ev)
    shapes = [(kind, tuple(b), b.get("partialJson")) for kind, _, b in rec.seen]
    tool = ("type", "id", "name", "arguments", "partialJson")
    assert shapes == [
        ("toolcall_start", tool, ""),
        ("toolcall_delta", tool, '{"p"'),
        ("toolcall_delta", tool, '{"p":1}'),
        ("toolcall_end", ("type", "id", "name", "arguments"), None),
    ]
