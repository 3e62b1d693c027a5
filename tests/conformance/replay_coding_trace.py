"""Replay pi 0.73.1 coding-agent golden traces against the ``pi-tui`` CLI and report every mismatch.

Usage: ``python tests/conformance/replay_coding_trace.py DIR...`` (scenario dirs such as
``tests/fixtures/pi-traces/coding/*``) — prints one line per mismatch
(``<scenario>: <section><path>: expected <x>, got <y>``) and exits 1 if any, else prints a summary and exits 0.

Each scenario runs like the recorder did (shared pi-traces/README.md, Part B): a fresh temp root with
``agent/`` (``PI_TUI_DIR``), ``home/`` and ``project/`` (cwd), ``agent/models.json`` pointing at a Python port
of the scripted loopback server (mock_llm_server.py), the same command line (``pi`` → ``python -m
pi_tui.cli``), a clean environment. JSON scenarios close stdin; RPC scenarios are driven step by step as in
``setup.rpcSteps``. Our stdout, session file and HTTP requests are normalised with the README's rules and
compared with the recorded files. Deliberate differences (tests/conformance/DIFFERENCES.md, "Coding agent")
are applied to *both* sides by :func:`normalise_known_differences` before comparing.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mock_llm_server import MockLlmServer  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
UI_ONLY_ROLES = {"notification", "artifact"}
UI_CUSTOM_TYPES = {"pi-tui.notification", "pi-tui.artifact"}
COMPARED_HEADERS = {"authorization", "x-api-key", "content-type", "anthropic-version", "anthropic-beta"}
ISO_EPOCH = "1970-01-01T00:00:00.000Z"
ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
DATE_RE = re.compile(r"Current date: \d{4}-\d{2}-\d{2}")
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TS_PREFIX_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_")


# ---------------------------------------------------------------------------- normalisation


def _encode_cwd(cwd: str) -> str:
    return "--" + re.sub(r"[/\\:]", "-", cwd.lstrip("/\\")) + "--"


class Normaliser:
    """The README's normalisation for one run (paths, ids, timestamps, message_update)."""

    def __init__(self, root: Path, port: int, session_id: str | None) -> None:
        self.replacements = [
            (_encode_cwd(str(root / "project")), "--<PROJECT>--"),
            (str(root / "project"), "<PROJECT>"),
            (str(root / "agent"), "<AGENT_DIR>"),
            (str(root / "home"), "<HOME>"),
            (f"127.0.0.1:{port}", "127.0.0.1:<PORT>"),
        ]
        self.session_id = session_id
        self.entry_ids: dict[str, str] = {}

    def learn_entry_ids(self, session_lines: list[dict[str, Any]]) -> None:
        for line in session_lines:
            for key in ("id", "parentId"):
                value = line.get(key)
                if line.get("type") != "session" and isinstance(value, str) and value not in self.entry_ids:
                    self.entry_ids[value] = f"e{len(self.entry_ids) + 1}"

    def text(self, value: str) -> str:
        for old, new in self.replacements:
            value = value.replace(old, new)
        if self.session_id:
            value = value.replace(self.session_id, "<SESSION_ID>")
        value = TS_PREFIX_RE.sub("<SESSION_TS>_", value)
        value = DATE_RE.sub("Current date: <DATE>", value)
        if value in self.entry_ids:
            return self.entry_ids[value]
        if ISO_RE.match(value):
            return ISO_EPOCH
        return value

    def value(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: self.value(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        if key == "timestamp" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return 0
        return value


def compact_event(event: dict[str, Any]) -> dict[str, Any]:
    """``message_update`` reduced to ``{type, assistantMessageEvent: {type, contentIndex?, delta?}}``."""
    if event.get("type") != "message_update":
        return event
    inner = event.get("assistantMessageEvent") or {}
    kept = {k: inner[k] for k in ("type", "contentIndex", "delta") if k in inner}
    return {"type": "message_update", "assistantMessageEvent": kept}


def _is_ui_message(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") in UI_ONLY_ROLES


def drop_ui_only(value: Any) -> Any:
    """Remove pi-tui's UI-only messages (D3) from events, message lists and responses."""
    if isinstance(value, dict):
        return {k: drop_ui_only(v) for k, v in value.items()}
    if isinstance(value, list):
        return [drop_ui_only(v) for v in value if not _is_ui_message(v)]
    return value


def is_ui_event(event: dict[str, Any]) -> bool:
    return event.get("type") in ("message_start", "message_end") and _is_ui_message(event.get("message"))


def drop_ui_entries(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Session lines without pi-tui UI entries; children of a dropped entry are re-parented (D3)."""
    parent_of: dict[str, Any] = {}
    kept = []
    for line in lines:
        if line.get("type") == "custom" and line.get("customType") in UI_CUSTOM_TYPES:
            parent_of[line["id"]] = line.get("parentId")
            continue
        kept.append(dict(line))
    for line in kept:
        parent = line.get("parentId")
        while parent in parent_of:
            parent = parent_of[parent]
        if "parentId" in line:
            line["parentId"] = parent
    return kept


def canonical_result_order(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """R3 on both sides: pi-tui stores a parallel batch's results in completion order (each when its call
    finishes), pi in call order. Each run of toolResult entries after an assistant entry is put in call order;
    the entries keep the ids/parentIds of their positions, so the chain reads the same."""
    out = [dict(line) for line in lines]
    for index, line in enumerate(out):
        message = line.get("message") if line.get("type") == "message" else None
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        order = [b.get("id") for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "toolCall"]
        end = index + 1
        while end < len(out) and isinstance(out[end].get("message"), dict) and out[end]["message"].get("role") == "toolResult":
            end += 1
        run = out[index + 1 : end]
        ranked = sorted(run, key=lambda e: order.index(e["message"].get("toolCallId")) if e["message"].get("toolCallId") in order else len(order))
        for position, entry in enumerate(ranked):
            out[index + 1 + position] = {**entry, "id": run[position].get("id"), "parentId": run[position].get("parentId")}
    return out


DOCS_BLOCK_RE = re.compile(
    r"\n\n(?:Pi|pi-tui) documentation \(.*?(?=\nCurrent (?:date|working directory):|\n\n# Project Context)", re.S
)
PROMPT_DATE_RE = re.compile(r"\nCurrent date: (?:<DATE>|\d{4}-\d{2}-\d{2})(?=\nCurrent working directory:)")


def normalise_system_prompt(text: str) -> str:
    """D1: the intro names pi-tui and the docs pointers are pi-tui's; both are reduced to a placeholder.
    D23: pi 0.73.1's ``Current date:`` line (pi-tui has none) is removed."""
    text = text.replace("operating inside pi-tui, a coding agent harness", "operating inside pi, a coding agent harness")
    text = PROMPT_DATE_RE.sub("", text)
    return DOCS_BLOCK_RE.sub("\n\n<DOCS>", text)


def normalise_known_differences(value: Any) -> Any:
    """Apply D1 (system prompt) anywhere in a request body."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("content", "text") and isinstance(v, str) and "coding agent harness" in v:
                out[k] = normalise_system_prompt(v)
            else:
                out[k] = normalise_known_differences(v)
        return out
    if isinstance(value, list):
        return [normalise_known_differences(v) for v in value]
    return value


HTTP_ERROR_RE = re.compile(r"^(\d{3}) .+", re.S)


def normalise_provider_details(value: Any, key: str | None = None) -> Any:
    """D6/D7 on both sides: drop ``diagnostics`` (pi-tui only) and reduce ``<status> <text>`` error texts."""
    if isinstance(value, dict):
        return {k: normalise_provider_details(v, k) for k, v in value.items() if k != "diagnostics"}
    if isinstance(value, list):
        return [normalise_provider_details(v) for v in value]
    if key in ("errorMessage", "finalError") and isinstance(value, str):
        return HTTP_ERROR_RE.sub(r"\1 <error text>", value)
    return value


def canonical_tool_completion_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """D5 on both sides: inside a run of consecutive ``tool_execution_update``/``_end`` events, order by
    tool call (stable, so each tool's own order is kept); parallel completion order depends on timing."""
    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    starts: dict[str, int] = {}

    def flush() -> None:
        out.extend(sorted(run, key=lambda e: starts.get(str(e.get("toolCallId")), 0)))
        run.clear()

    for event in events:
        kind = event.get("type")
        if kind == "tool_execution_start":
            starts.setdefault(str(event.get("toolCallId")), len(starts))
        if kind in ("tool_execution_update", "tool_execution_end"):
            run.append(event)
            continue
        flush()
        out.append(event)
    flush()
    return out


def normalise_request(request: dict[str, Any]) -> dict[str, Any]:
    """Compared part of a recorded request: method, url, D2-filtered headers, body, mock reply."""
    headers = {k: v for k, v in (request.get("headers") or {}).items() if k in COMPARED_HEADERS}
    return {
        "method": request.get("method"),
        "url": request.get("url"),
        "headers": headers,
        "body": normalise_known_differences(request.get("body")),
        "mockReply": request.get("mockReply"),
    }


# ---------------------------------------------------------------------------- comparison


def diff(expected: Any, actual: Any, path: str, out: list[str], limit: int = 40) -> None:
    """Append ``path: expected x, got y`` lines for every difference (at most ``limit``)."""
    if len(out) >= limit:
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected.keys() | actual.keys():
            if key not in actual:
                out.append(f"{path}.{key}: expected {_short(expected[key])}, got <missing>")
            elif key not in expected:
                out.append(f"{path}.{key}: expected <missing>, got {_short(actual[key])}")
            else:
                diff(expected[key], actual[key], f"{path}.{key}", out, limit)
        return
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (a, b) in enumerate(zip(expected, actual, strict=False)):
            diff(a, b, f"{path}[{index}]", out, limit)
        if len(expected) != len(actual):
            extra = expected[len(actual):] or actual[len(expected):]
            out.append(f"{path}: expected {len(expected)} items, got {len(actual)} (first extra: {_short(extra[0])})")
        return
    if expected != actual:
        out.append(f"{path}: expected {_short(expected)}, got {_short(actual)}")


def _signature(event: Any) -> str:
    if not isinstance(event, dict):
        return json.dumps(event)
    inner = event.get("assistantMessageEvent") or {}
    message = event.get("message") if isinstance(event.get("message"), dict) else {}
    parts = [event.get("type"), inner.get("type"), event.get("toolCallId"), event.get("id"), event.get("command"),
             message.get("role")]
    return json.dumps(parts)


def diff_events(expected: list[Any], actual: list[Any], path: str, out: list[str], limit: int = 40) -> None:
    """Align two event lists by signature (type, update type, ids, role), then diff aligned pairs deeply.

    Missing or extra events are reported once each instead of shifting every later index.
    """
    import difflib

    matcher = difflib.SequenceMatcher(a=[_signature(e) for e in expected], b=[_signature(e) for e in actual],
                                      autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if len(out) >= limit:
            return
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for offset in range(i2 - i1):
                diff(expected[i1 + offset], actual[j1 + offset], f"{path}[{i1 + offset}]", out, limit)
            continue
        for index in range(i1, i2):
            out.append(f"{path}[{index}]: expected event {_short(expected[index])}, got <missing>")
        for index in range(j1, j2):
            out.append(f"{path}[~{i1}]: unexpected event {_short(actual[index])}")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "..."


# ---------------------------------------------------------------------------- running


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _environment(root: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root / "home"),
        "PI_TUI_DIR": str(root / "agent"),
        "TERM": "dumb",
        "LANG": "C.UTF-8",
        "PYTHONPATH": str(REPO),
    }


class RpcDriver:
    """Runs ``pi-tui --mode rpc`` and records the transcript like the recorder (``{dir, msg}`` lines)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.transcript: list[dict[str, Any]] = []
        self.out: list[dict[str, Any]] = []
        self._lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.cursor = 0

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            try:
                message = json.loads(raw)
            except ValueError:
                message = {"unparsed": raw.decode("utf-8", "replace")}
            with self._lock:
                self.transcript.append({"dir": "out", "msg": message})
                self.out.append(message)
        self._lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        with self._lock:
            self.transcript.append({"dir": "in", "msg": message})
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def wait_for(self, predicate: Any, nth: int = 1, timeout: float = 20.0) -> dict[str, Any]:
        """Wait for the ``nth`` output line (after the cursor) that matches; moves the cursor past it."""
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            with self._lock:
                pending = self.out[self.cursor:]
            for offset, message in enumerate(pending):
                if predicate(message):
                    seen += 1
                    if seen == nth:
                        self.cursor += offset + 1
                        return message
            seen = 0
            time.sleep(0.01)
        raise TimeoutError("RPC driver: expected output did not arrive")

    def response(self, request_id: str) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("type") == "response" and m.get("id") == request_id)

    def event(self, kind: str, nth: int = 1) -> dict[str, Any]:
        return self.wait_for(lambda m: m.get("type") == kind, nth)

    def close(self, timeout: float = 30.0) -> tuple[int, str]:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=timeout)
        self._lines.get(timeout=timeout)
        stderr = self.process.stderr.read().decode("utf-8", "replace") if self.process.stderr else ""
        return code, stderr


def _drive_rpc_steer(driver: RpcDriver) -> None:
    driver.send({"id": "s1", "type": "get_state"})
    driver.response("s1")
    driver.send({"id": "p1", "type": "prompt", "message": "Run a slow command."})
    driver.event("tool_execution_update")
    driver.send({"id": "st1", "type": "steer", "message": "Also say hello when done."})
    driver.event("agent_end")
    time.sleep(0.3)
    driver.send({"id": "s2", "type": "get_state"})
    driver.response("s2")
    driver.send({"id": "m1", "type": "get_messages"})
    driver.response("m1")


def _drive_rpc_abort(driver: RpcDriver) -> None:
    driver.send({"id": "p1", "type": "prompt", "message": "Tell me a long story."})
    driver.wait_for(
        lambda m: m.get("type") == "message_update"
        and (m.get("assistantMessageEvent") or {}).get("type") == "text_delta",
        nth=2,
    )
    driver.send({"id": "a1", "type": "abort"})
    driver.response("a1")
    time.sleep(0.3)
    driver.send({"id": "s1", "type": "get_state"})
    driver.response("s1")
    driver.send({"id": "p2", "type": "prompt", "message": "Run a very slow command."})
    driver.event("tool_execution_start")
    time.sleep(0.3)
    driver.send({"id": "a2", "type": "abort"})
    driver.response("a2")
    time.sleep(0.3)
    driver.send({"id": "s2", "type": "get_state"})
    driver.send({"id": "m1", "type": "get_messages"})
    driver.response("m1")
    driver.send({"id": "p3", "type": "prompt", "message": "Now just answer briefly."})
    driver.event("agent_end")
    time.sleep(0.3)
    driver.send({"id": "m2", "type": "get_messages"})
    driver.response("m2")


RPC_DRIVERS = {"rpc-steer-during-tool": _drive_rpc_steer, "rpc-abort": _drive_rpc_abort}


def replay(scenario_dir: Path) -> list[str]:
    """Run one scenario; returns the mismatch lines (empty = conforming)."""
    scenario = json.loads((scenario_dir / "scenario.json").read_text(encoding="utf-8"))
    name = scenario["scenario"]
    setup = scenario["setup"]
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pi-tui-coding-") as tmp, MockLlmServer(setup["mockScript"]) as server:
        root = Path(tmp).resolve()
        for sub in ("agent", "home", "project"):
            (root / sub).mkdir()
        models = json.loads(json.dumps(setup["modelsJson"]).replace("<PORT>", str(server.port)))
        (root / "agent" / "models.json").write_text(json.dumps(models), encoding="utf-8")
        for rel, content in (setup.get("projectFilesBefore") or {}).items():
            target = root / "project" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        command = [sys.executable, "-m", "pi_tui.cli", *setup["commandLine"][1:]]
        env = _environment(root)
        if setup["mode"] == "json":
            run = subprocess.run(command, cwd=root / "project", env=env, stdin=subprocess.DEVNULL,
                                 capture_output=True, timeout=120)
            code, stderr = run.returncode, run.stderr.decode("utf-8", "replace")
            stdout_lines = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines() if line.strip()]
            transcript = None
        else:
            driver = RpcDriver(command, root / "project", env)
            try:
                RPC_DRIVERS[name](driver)
            except TimeoutError as exc:
                problems.append(f"{name}: driver: {exc}")
            code, stderr = driver.close()
            transcript = driver.transcript
            stdout_lines = []
        expected_result = scenario["result"]
        if code != expected_result["exitCode"]:
            problems.append(f"{name}: exitCode: expected {expected_result['exitCode']}, got {code} (stderr: {stderr[-300:]})")
        sessions = sorted((root / "agent" / "sessions").glob("*/*.jsonl"))
        if len(sessions) != len(expected_result["sessionFiles"]):
            problems.append(f"{name}: session files: expected {len(expected_result['sessionFiles'])}, got {len(sessions)}")
        ours_session = canonical_result_order(drop_ui_entries(_read_jsonl(sessions[0]))) if sessions else []
        if ours_session and ours_session[0].get("type") == "session":
            ours_session[0].pop("runMode", None)  # DIFFERENCES F2: a print/JSON-mode run marks its session
        session_id = ours_session[0].get("id") if ours_session else None
        norm = Normaliser(root, server.port, session_id)
        norm.learn_entry_ids(ours_session)
        diff(
            normalise_provider_details(canonical_result_order(_read_jsonl(scenario_dir / "session.jsonl"))),
            normalise_provider_details(norm.value(ours_session)),
            f"{name}: session.jsonl",
            problems,
        )
        if sessions:
            expected_name = expected_result["sessionFiles"][0]
            got_name = norm.text(str(sessions[0].relative_to(root / "agent")))
            if got_name != expected_name:
                problems.append(f"{name}: session file name: expected {expected_name}, got {got_name}")
        if setup["mode"] == "json":
            ours_events = [compact_event(e) for e in norm.value(drop_ui_only(stdout_lines)) if not is_ui_event(e)]
            expected_events = [compact_event(e) for e in _read_jsonl(scenario_dir / "events.jsonl")]
            ours_events = canonical_tool_completion_order(normalise_provider_details(ours_events))
            expected_events = canonical_tool_completion_order(normalise_provider_details(expected_events))
            diff_events(expected_events, ours_events, f"{name}: events", problems)
        else:
            assert transcript is not None
            ours_out = [
                compact_event(m)
                for m in norm.value(drop_ui_only([t["msg"] for t in transcript if t["dir"] == "out"]))
                if not is_ui_event(m)
            ]
            expected_out = [
                compact_event(t["msg"]) for t in _read_jsonl(scenario_dir / "rpc-transcript.jsonl") if t["dir"] == "out"
            ]
            ours_out = canonical_tool_completion_order(normalise_provider_details(ours_out))
            expected_out = canonical_tool_completion_order(normalise_provider_details(expected_out))
            diff_events(expected_out, ours_out, f"{name}: rpc out", problems)
        expected_requests = [
            normalise_request(json.loads(p.read_text(encoding="utf-8")))
            for p in sorted((scenario_dir / "requests").glob("*.json"))
        ]
        ours_requests = [normalise_request(norm.value(r)) for r in server.requests]
        diff(expected_requests, ours_requests, f"{name}: requests", problems)
        for rel, content in (expected_result.get("projectFilesAfter") or {}).items():
            target = root / "project" / rel
            got = target.read_text(encoding="utf-8") if target.exists() else None
            if got != content:
                problems.append(f"{name}: project file {rel}: expected {_short(content)}, got {_short(got)}")
    return problems


def main(argv: list[str]) -> int:
    """CLI entry: replay every given scenario dir; exit 1 if any mismatch."""
    dirs = [Path(a) for a in argv] or sorted((REPO / "tests/fixtures/pi-traces/coding").iterdir())
    dirs = [d for d in dirs if (d / "scenario.json").exists()]
    total = 0
    for directory in dirs:
        problems = replay(directory)
        total += len(problems)
        for line in problems:
            print(line)
    if total:
        return 1
    print(f"{len(dirs)} coding scenario(s) replayed, no mismatch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
