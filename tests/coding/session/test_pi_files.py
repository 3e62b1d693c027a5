"""pi 0.73.1's own session files load here, and files written here have the same shape (pi-reference §3.4).

Fixtures: tests/fixtures/pi-sessions/ (copied from /work/shared/pi-traces/coding/*; see its README).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.messages import message_to_json

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pi-sessions"
TRACES = Path(__file__).resolve().parents[2] / "fixtures" / "pi-traces" / "coding"
SCENARIOS = [
    "json-tool-loop",
    "json-anthropic-tool-loop",
    "json-retry-500",
    "rpc-abort",
    "rpc-steer-during-tool",
]
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
HEX8 = re.compile(r"^[0-9a-f]{8}$")
UUID7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def _objects(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copyfile(FIXTURES / name, target)
    target.chmod(0o644)
    return target


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("variant", ["raw", "normalised"])
def test_pi_file_loads_and_round_trips(tmp_path: Path, scenario: str, variant: str) -> None:
    name = f"{scenario}.raw.jsonl" if variant == "raw" else f"{scenario}.jsonl"
    path = _copy(tmp_path, name)
    original = path.read_bytes()
    objects = _objects(path)
    session = SessionManager.open(path)
    assert session.warnings == []
    assert path.read_bytes() == original  # opening never rewrites a current-version file
    assert session.session_id == objects[0]["id"]
    assert session.cwd == objects[0]["cwd"]
    assert [entry.to_json_dict() for entry in session.get_entries()] == objects[1:]
    assert session.get_leaf_id() == objects[-1]["id"]
    context = session.build_session_context()
    expected = [obj["message"] for obj in objects[1:] if obj["type"] == "message"]
    assert [message_to_json(m) for m in context.messages] == expected
    assert context.model == {"provider": objects[1]["provider"], "modelId": objects[1]["modelId"]}
    assert context.thinking_level == "off"
    # appending to pi's file keeps it valid and chained
    new_id = session.append_message(
        {"role": "user", "content": [{"type": "text", "text": "more"}], "timestamp": 1}
    )
    reopened = SessionManager.open(path)
    assert reopened.get_entry(new_id).parent_id == objects[-1]["id"]  # type: ignore[union-attr]


def _rpc_get_messages(scenario: str) -> list[Any] | None:
    transcript = TRACES / scenario / "raw" / "rpc-transcript.jsonl"
    if not transcript.exists():
        return None
    last = None
    for line in transcript.read_text().splitlines():
        record = json.loads(line)
        if record["dir"] == "out":
            msg = json.loads(record["line"]) if "line" in record else record["msg"]
            if msg.get("command") == "get_messages" and msg.get("success"):
                last = msg["data"]["messages"]
    return last


@pytest.mark.parametrize("scenario", ["rpc-abort", "rpc-steer-during-tool"])
def test_context_matches_pi_get_messages(tmp_path: Path, scenario: str) -> None:
    expected = _rpc_get_messages(scenario)
    if expected is None:
        pytest.skip("pi-traces not available")
    session = SessionManager.open(_copy(tmp_path, f"{scenario}.raw.jsonl"))
    context = [message_to_json(m) for m in session.build_session_context().messages]
    assert context[: len(expected)] == expected


def test_context_matches_pi_agent_end_of_print_run(tmp_path: Path) -> None:
    stdout = TRACES / "json-tool-loop" / "raw" / "stdout.jsonl"
    if not stdout.exists():
        pytest.skip("pi-traces not available")
    agent_end = [
        json.loads(line) for line in stdout.read_text().splitlines() if '"type":"agent_end"' in line
    ][-1]
    session = SessionManager.open(_copy(tmp_path, "json-tool-loop.raw.jsonl"))
    context = [message_to_json(m) for m in session.build_session_context().messages]
    assert context == agent_end["messages"]


def _shape(obj: Any) -> Any:
    """Structure of a JSON value: keys and value kinds, ids/timestamps classified by format."""
    if isinstance(obj, dict):
        return {key: _shape(value) for key, value in sorted(obj.items())}
    if isinstance(obj, list):
        return [_shape(item) for item in obj]
    if isinstance(obj, str):
        if ISO.match(obj):
            return "<iso>"
        if HEX8.match(obj):
            return "<hex8>"
        if UUID7.match(obj):
            return "<uuid7>"
        return "<str>"
    if isinstance(obj, bool) or obj is None:
        return obj
    return "<number>"


def test_file_written_here_has_pi_shape(tmp_path: Path) -> None:
    pi_objects = _objects(FIXTURES / "json-tool-loop.raw.jsonl")
    session = SessionManager.create(pi_objects[0]["cwd"], tmp_path / "ours")
    session.append_model_change("mock", "mock-model")
    session.append_thinking_level_change("off")
    for obj in pi_objects[1:]:
        if obj["type"] == "message":
            session.append_message(obj["message"])
    assert session.session_file is not None
    ours = _objects(session.session_file)
    assert [_shape(obj) for obj in ours] == [_shape(obj) for obj in pi_objects]
    assert list(ours[0]) == list(pi_objects[0])  # header key order too
    for mine, theirs in zip(ours[1:], pi_objects[1:], strict=True):
        assert list(mine)[:4] == list(theirs)[:4] == ["type", "id", "parentId", "timestamp"]
    pi_name = re.sub(
        r"[0-9a-f-]{36}", "<id>", "2026-11-29T22-02-30-006Z_01a22954-c0f5-7712-bccd-1793438e3e09.jsonl"
    )
    assert re.sub(r"[0-9a-f-]{36}", "<id>", session.session_file.name)[24:] == pi_name[24:]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_", session.session_file.name)
