"""Extensions see pi's event order (issue 11): the agent events an extension receives, replayed on the
scripted server of pi 0.73.1's own traces (tests/fixtures/pi-traces/coding/json-*), are exactly the
events pi emitted there (``events.jsonl``; ``message_update`` runs collapsed: chunking may differ), and
the extension-only events sit where pi puts them (pi docs/extensions.md "Lifecycle Overview"):
``input`` and ``before_agent_start`` before ``agent_start``; ``context`` after each ``turn_start``'s
user/tool messages and before the assistant's ``message_start``; ``tool_call`` right after
``tool_execution_start``; ``tool_result`` right before ``tool_execution_end``; ``before_provider_request``
and ``after_provider_response`` between ``context`` and the assistant's ``message_start``."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mock_llm_server import MockLlmServer  # noqa: E402

TRACES = Path(__file__).resolve().parents[1] / "fixtures" / "pi-traces" / "coding"
SCENARIOS = ["json-tool-loop", "json-anthropic-tool-loop"]
RECORDER = """
from pi_tui.coding.extensions.events import EXTENSION_EVENTS
SEEN = []
def activate(pi):
    for name in EXTENSION_EVENTS:
        def record(event, name=name):
            message = getattr(event, "message", None)
            role = getattr(message, "role", "") if message is not None else ""
            if name in ("message_start", "message_end"):
                SEEN.append(f"{name}:{role}")
            elif name.startswith("tool_execution_"):
                SEEN.append(f"{name}|{event.tool_call_id}")
            else:
                SEEN.append(name)
        pi.on(name, record)
"""


def _collapse(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if name == "message_update" and out and out[-1] == "message_update":
            continue
        out.append(name)
    return out


def _canonical(names: list[str]) -> list[str]:
    """DIFFERENCES D5 (as replay_coding_trace.canonical_tool_completion_order): inside a run of
    ``tool_execution_update``/``_end`` events, order by tool call (parallel completion order is timing);
    then the call ids are dropped."""
    out: list[str] = []
    run: list[str] = []
    starts: dict[str, int] = {}

    def flush() -> None:
        out.extend(sorted(run, key=lambda n: starts.get(n.partition("|")[2], 0)))
        run.clear()

    for name in names:
        kind, _, call = name.partition("|")
        if kind == "tool_execution_start":
            starts.setdefault(call, len(starts))
        if kind in ("tool_execution_update", "tool_execution_end"):
            run.append(name)
            continue
        flush()
        out.append(name)
    flush()
    return _collapse([n.partition("|")[0] for n in out])


def _pi_events(scenario: str) -> list[str]:
    names = []
    for line in (TRACES / scenario / "events.jsonl").read_text().splitlines():
        event = json.loads(line)
        kind = event["type"]
        if kind == "session":
            continue
        if kind in ("message_start", "message_end"):
            kind += ":" + event["message"]["role"]
        elif kind.startswith("tool_execution_"):
            kind += "|" + event["toolCallId"]
        names.append(kind)
    return _canonical(names)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_extension_events_follow_pis_order(scenario: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup = json.loads((TRACES / scenario / "scenario.json").read_text())["setup"]
    agent_dir, project = tmp_path / "agent", tmp_path / "project"
    agent_dir.mkdir()
    project.mkdir()
    for name, content in (setup.get("projectFilesBefore") or {}).items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(content)
    recorder = tmp_path / "recorder.py"
    recorder.write_text(RECORDER)
    monkeypatch.setenv("PI_TUI_DIR", str(agent_dir))
    args = setup["commandLine"]
    provider, model, prompt = args[args.index("--provider") + 1], args[args.index("--model") + 1], args[-1]
    server = MockLlmServer(setup["mockScript"]).start()
    try:
        models = json.loads(json.dumps(setup["modelsJson"]).replace("<PORT>", str(server.port)))
        (agent_dir / "models.json").write_text(json.dumps(models))
        from pi_tui.coding.extensions.setup import start_extensions
        from pi_tui.coding.session_factory import create_agent_session

        async def run() -> list[str]:
            session = create_agent_session(str(project), provider=provider, model=model, no_session=True,
                                           extension_paths=[str(recorder)])
            await start_extensions(session.extensions)
            seen: list[str] = session.extensions.runtime.extensions[0].module.SEEN
            seen.clear()  # session_start / resources_discover came before the prompt
            await session.prompt(prompt)
            return list(seen)

        cwd = os.getcwd()
        os.chdir(project)
        try:
            raw = asyncio.run(run())
        finally:
            os.chdir(cwd)
    finally:
        server.close()
    extension_only = {"input", "before_agent_start", "context", "tool_call", "tool_result",
                      "before_provider_request", "after_provider_response"}
    assert _canonical([n for n in raw if n not in extension_only]) == _pi_events(scenario)
    seen = _collapse([n.partition("|")[0] for n in raw])
    assert seen[:3] == ["input", "before_agent_start", "agent_start"]
    for index, name in enumerate(seen):
        if name == "context":  # pi: context, before_provider_request, after_provider_response, the reply
            assert seen[index + 1: index + 4] == ["before_provider_request", "after_provider_response",
                                                  "message_start:assistant"], seen[index - 2: index + 4]
            assert seen[index - 1] in ("message_end:user", "turn_start"), seen[index - 2: index + 2]
        if name == "tool_call":
            assert seen[index - 1] == "tool_execution_start" or seen[index - 1] == "tool_call" or \
                seen[index - 2] == "tool_execution_start"
        if name == "tool_result":
            assert "tool_execution_end" in seen[index + 1: index + 3]
    calls = sum(1 for n in seen if n == "tool_execution_start")
    assert seen.count("tool_call") == seen.count("tool_result") == calls
    assert seen.count("context") == seen.count("turn_start") == seen.count("before_provider_request")
