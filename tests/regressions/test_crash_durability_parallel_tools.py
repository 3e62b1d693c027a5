"""Crash durability in parallel tool batches (issue 10, class 1).

Real reports: letta-ai/letta-code#578 (interrupting a parallel batch: "Invalid tool call IDs. Expected [3 ids],
received [2]", only /clear recovered), LionSR/TeXRA#7163 (an interrupted round persisted fewer tool_results
than tool_use blocks), Bike4Mind/bike4mind#207 (parallel batch interrupted). pi 0.73.1 writes a batch's results
only when the whole batch is done, so a crash loses every result the user already saw finish.

A real writer process (tests/regressions/crash_writer.py: AgentSession + SessionManager, faux model, five
parallel tools with seeded random durations) is killed with SIGKILL at random points of the batch. Then:
every result whose ``tool_execution_end`` was seen is in the file with its real output; the file loads cleanly;
resuming gives every call a result in call order (an ``interrupted`` error for calls that never finished);
the next request carries all of them in call order; and, when the real pi 0.73.1 is installed (PI_REF_DIR),
pi opens every crashed file too.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers import _openai_completions_convert
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.providers.openai_compat import detect_completions_compat
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    Model,
    TextContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_tui.coding.messages import NotificationMessage, convert_to_llm, register_coding_roles
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session.tool_results import INTERRUPTED_TEXT, settle_tool_results

from ..coding.session_core.helpers import EchoTool, make_session

WRITER = Path(__file__).with_name("crash_writer.py")
CALLS = 5
TRIALS = 24
PI_REF_DIR = os.environ.get("PI_REF_DIR", "")
PI_PACKAGE = Path(PI_REF_DIR) / "node_modules" / "@mariozechner" / "pi-coding-agent"


class Writer:
    """The crash_writer subprocess and a thread that queues its output lines."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WRITER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def next(self) -> str:
        return self.lines.get(timeout=60)

    def run(self, directory: Path, seed: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{directory} {seed} {CALLS}\n")
        self.process.stdin.flush()


@pytest.fixture(scope="module")
def writer() -> Iterator[Writer]:
    process = Writer()
    yield process
    assert process.process.stdin is not None
    process.process.stdin.close()
    process.process.wait(timeout=30)


def _crash_once(writer: Writer, directory: Path, rng: random.Random) -> tuple[Path | None, list[str]]:
    """Run one batch and SIGKILL the writer after a random number of finished calls (plus a random delay);
    returns the session file and the ids whose ``tool_execution_end`` was seen before the kill."""
    writer.run(directory, rng.randrange(1 << 30))
    pid = int(writer.next().split()[1])
    wanted = rng.randint(0, CALLS)
    file: Path | None = None
    ended: list[str] = []
    line = ""
    while True:
        line = writer.next()
        if line.startswith("FILE "):
            file = Path(line.split(" ", 1)[1])
        elif line.startswith("END "):
            ended.append(line.split()[1])
        elif line == "FINISHED" or line.startswith("EXIT"):
            break
        if file is not None and len(ended) >= wanted:
            break
    if not line.startswith("EXIT"):
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 0.01))
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        while True:  # the last END lines before the kill still count: they were seen
            line = writer.next()
            if line.startswith("END "):
                ended.append(line.split()[1])
            elif line.startswith("EXIT"):
                break
    return file, ended


def _request(messages: list[Any]) -> list[dict[str, Any]]:
    model = Model(id="m", api="openai-completions", provider="p", base_url="http://127.0.0.1:9/v1")
    context = Context(system_prompt="s", messages=convert_to_llm(messages))
    return _openai_completions_convert.convert_messages(model, context, detect_completions_compat(model))


def test_sigkill_mid_batch_keeps_every_finished_result(writer: Writer, tmp_path: Path) -> None:
    register_coding_roles()
    rng = random.Random(1010)
    crashed: list[tuple[Path, list[str]]] = []
    for trial in range(TRIALS):
        directory = tmp_path / f"t{trial}"
        directory.mkdir()
        file, ended = _crash_once(writer, directory, rng)
        assert file is not None and file.exists()
        stored = [json.loads(line) for line in file.read_text().splitlines()]  # every line whole: no torn write
        results = {e["message"]["toolCallId"]: e["message"] for e in stored
                   if e["type"] == "message" and e["message"]["role"] == "toolResult"}
        for call_id in ended:  # seen finishing => on disk, with its real output
            assert results[call_id]["content"][0]["text"] == f"output of {call_id}", (trial, call_id)
            assert results[call_id]["isError"] is False
        manager = SessionManager.open(file)
        assert manager.warnings == []
        messages = manager.build_session_context(include_ui=True, close_interrupted=True).messages
        roles = [getattr(m, "role", None) for m in messages]
        start = roles.index("assistant") + 1
        batch = messages[start : start + CALLS]
        assert [m.tool_call_id for m in batch] == [f"call_{i}" for i in range(CALLS)], trial
        for result in batch:
            assert isinstance(result, ToolResultMessage)
            if result.tool_call_id in results:
                assert result.content[0].text == f"output of {result.tool_call_id}"
            else:
                assert result.is_error and result.content[0].text == INTERRUPTED_TEXT
        sent = [m["tool_call_id"] for m in _request(messages) if m["role"] == "tool"]
        assert sent == [f"call_{i}" for i in range(CALLS)]
        crashed.append((file, ended))
    assert any(len(e) < CALLS for _, e in crashed) and any(0 < len(e) < CALLS for _, e in crashed)
    if PI_REF_DIR and PI_PACKAGE.is_dir() and shutil.which("node"):
        _pi_opens(tmp_path, crashed)


PI_SCRIPT = """
import { SessionManager } from "@mariozechner/pi-coding-agent";
for (const path of process.argv.slice(2)) {
  const ctx = SessionManager.open(path).buildSessionContext();
  const results = ctx.messages.filter((m) => m.role === "toolResult").map((m) => [m.toolCallId, m.content[0].text]);
  console.log(JSON.stringify({ path, results }));
}
"""


def _pi_opens(tmp_path: Path, crashed: list[tuple[Path, list[str]]]) -> None:
    """The real pi 0.73.1 opens every crashed file and sees every finished result."""
    runner = Path(PI_REF_DIR) / "pi-tui-crash-interop.mjs"
    runner.write_text(PI_SCRIPT)
    try:
        out = subprocess.run(
            ["node", str(runner), *(str(f) for f, _ in crashed)],
            capture_output=True, text=True, timeout=120, check=True,
            env={**os.environ, "NODE_PATH": str(Path(PI_REF_DIR) / "node_modules")},
        ).stdout
    finally:
        runner.unlink()
    seen = {r["path"]: dict(r["results"]) for r in map(json.loads, (x for x in out.splitlines() if x.startswith("{")))}
    for file, ended in crashed:
        for call_id in ended:
            assert seen[str(file)][call_id] == f"output of {call_id}"


@pytest.mark.anyio
async def test_result_is_on_disk_when_its_end_event_fires(tmp_path: Path, faux: FauxProvider) -> None:
    """In process: when ``tool_execution_end`` of the fast call reaches a subscriber, its result is already in
    the file although the slow sibling still runs; at the end each result is stored exactly once, equal to the
    live message."""
    release = asyncio.Event()

    class Slow(EchoTool):
        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> Any:
            await release.wait()
            return await super().execute(tool_call_id, params, signal, on_update)

    faux.set_responses([
        faux_assistant_message([faux_tool_call("slow", {"text": "S"}, id="s1"), faux_tool_call("echo", {"text": "F"}, id="f1")],
                               stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[Slow(name="slow"), EchoTool()])
    seen_on_disk: dict[str, list[str]] = {}

    def stored_results() -> list[str]:
        assert session.session_file is not None
        lines = [json.loads(x) for x in Path(session.session_file).read_text().splitlines()]
        return [e["message"]["toolCallId"] for e in lines if e["type"] == "message" and e["message"]["role"] == "toolResult"]

    def listen(event: Any) -> None:
        if event.type == "tool_execution_end":
            seen_on_disk[event.tool_call_id] = stored_results()
            release.set()

    session.subscribe(listen)
    await session.prompt("go")
    assert seen_on_disk["f1"] == ["f1"]  # the slow call was still running
    assert seen_on_disk["s1"] == ["f1", "s1"]
    assert stored_results() == ["f1", "s1"]  # once each, in completion order
    live = [m for m in session.messages if getattr(m, "role", "") == "toolResult"]
    assert [m.tool_call_id for m in live] == ["s1", "f1"]  # the live transcript keeps call order
    assert session.session_manager.build_session_context(close_interrupted=True).messages[2:4] == live


def test_settle_orders_results_and_answers_interrupted_calls() -> None:
    calls = [ToolCall(id=i, name="t", arguments={}) for i in ("a", "b", "c", "d")]
    assistant = AssistantMessage(content=[TextContent(text="x"), *calls], api="a", provider="p", model="m",
                                 stop_reason="toolUse")
    result = {i: ToolResultMessage(tool_call_id=i, tool_name="t", content=[TextContent(text=i)]) for i in "abcd"}
    note = NotificationMessage(level="info", text="artifact of c")
    later = UserMessage(content=[TextContent(text="hello")])
    settled = settle_tool_results([assistant, result["c"], note, result["a"], later, result["d"]])
    assert settled[0] is assistant
    assert settled[1] is result["a"] and settled[2].tool_call_id == "b" and settled[2].is_error
    assert settled[2].content[0].text == INTERRUPTED_TEXT
    assert settled[3:5] == [result["c"], note]  # a UI message stays after the result it followed
    assert settled[5:] == [later, result["d"]]  # d's result exists further down: no made-up one here
    failed = assistant.model_copy(update={"stop_reason": "aborted"})
    assert settle_tool_results([failed]) == [failed]


def test_branching_back_to_a_finished_batch_does_not_call_it_interrupted(tmp_path: Path) -> None:
    """Found while trying to break the class: moving the leaf back onto the assistant message of a batch that
    finished (its results hang below it on the old branch) showed every call as 'interrupted'."""
    from . import session_lines as lines

    path = tmp_path / "s.jsonl"
    lines.write(path, [
        lines.header(),
        lines.entry("u1", None, lines.user("go")),
        lines.entry("a1", "u1", lines.assistant(("c1", "echo"), ("c2", "echo"))),
        lines.entry("r2", "a1", lines.result("c2", "echo", "two")),
        lines.entry("r1", "r2", lines.result("c1", "echo", "one")),
        lines.entry("a2", "r1", lines.assistant("done", stop="stop")),
    ])
    manager = SessionManager.open(path)
    manager.branch("a1")
    messages = manager.build_session_context(close_interrupted=True).messages
    assert [getattr(m, "role", None) for m in messages] == ["user", "assistant"]
    manager.branch("a2")
    messages = manager.build_session_context(close_interrupted=True).messages
    assert [m.content[0].text for m in messages[2:4]] == ["one", "two"]  # stored c2 first, shown in call order
