"""Extensions in print, JSON and RPC mode (issue 11; pi docs/rpc.md "Extension UI Protocol"): they load;
without a UI dialogs get pi's defaults; in RPC mode dialogs are extension_ui_request lines answered by
extension_ui_response lines; failures are one stderr line / one extension_error line; get_commands lists
extension commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]

EXTENSION = """
def activate(pi):
    async def ask(args, ctx):
        answer = await ctx.ui.confirm("Proceed?", "with " + args)
        choice = await ctx.ui.select("Pick", ["red", "blue"])
        ctx.ui.notify(f"answer {answer} {choice} has_ui={ctx.has_ui}")
        open(LOG, "a").write(f"ask {answer} {choice} {ctx.has_ui}\\n")
    pi.register_command("ask", ask, "Ask the user")
    async def start(event, ctx):
        ok = await ctx.ui.confirm("Start?")
        open(LOG, "a").write(f"start {event.reason} {ok} {ctx.has_ui}\\n")
    pi.on("session_start", start)
    pi.on("session_shutdown", lambda e: open(LOG, "a").write("shutdown " + e.reason + "\\n"))
    def record_input(event):
        if event.text != "/ask now" and not event.text.startswith("/ask"):
            open(LOG, "a").write("input " + event.source + "\\n")
    pi.on("input", record_input)
"""
BROKEN = "def activate(pi):\n    raise ValueError('cannot start')\n"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PI_TUI_DIR": str(tmp_path / "agent"), "PI_TUI_OFFLINE_TPS": "0", "HOME": str(tmp_path / "home")})
    return env


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "agent").mkdir(exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    log = tmp_path / "log.txt"
    ext = tmp_path / "asker.py"
    ext.write_text(textwrap.dedent(EXTENSION).replace("LOG", repr(str(log))))
    broken = tmp_path / "broken.py"
    broken.write_text(BROKEN)
    return ext, broken, log


def test_print_mode_loads_extensions_with_the_no_ui_defaults(tmp_path: Path) -> None:
    ext, broken, log = _files(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pi_tui.cli", "-e", str(ext), "-e", str(broken), "-p", "/ask now"],
        cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == ["start startup False False", "ask False None False", "shutdown quit"]
    errors = [line for line in done.stderr.splitlines() if line.startswith("Extension error")]
    assert len(errors) == 1 and 'Extension "broken" failed on activate: ValueError: cannot start' in errors[0]
    assert str(broken) in errors[0]


def test_json_mode_writes_extension_error_lines(tmp_path: Path) -> None:
    _, broken, _ = _files(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pi_tui.cli", "-e", str(broken), "--mode", "json", "-p", "hello"],
        cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=60,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [line for line in lines if line.get("type") == "extension_error"]
    assert errors == [{"type": "extension_error", "extensionPath": str(broken), "event": "activate",
                       "error": "ValueError: cannot start"}]


class Rpc:
    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pi_tui.cli", "--mode", "rpc", *args], cwd=tmp_path, env=_env(tmp_path),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )

    def send(self, value: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(value) + "\n")
        self.process.stdin.flush()

    def read_until(self, predicate: Any, limit: float = 30.0) -> dict[str, Any]:
        assert self.process.stdout is not None
        end = time.monotonic() + limit
        while time.monotonic() < end:
            line = self.process.stdout.readline()
            if not line:
                break
            value = json.loads(line)
            if predicate(value):
                return value  # type: ignore[no-any-return]
        raise AssertionError("no such line")

    def close(self) -> tuple[int, str]:
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=30)
        return code, self.process.stderr.read()


def _ui_request(method: str) -> Any:
    return lambda v: v.get("type") == "extension_ui_request" and v.get("method") == method


def test_rpc_mode_speaks_the_extension_ui_sub_protocol(tmp_path: Path) -> None:
    ext, broken, log = _files(tmp_path)
    rpc = Rpc(tmp_path, "-e", str(ext), "-e", str(broken))
    try:
        error = rpc.read_until(lambda v: v.get("type") == "extension_error")
        assert error["extensionPath"] == str(broken) and error["event"] == "activate"
        start = rpc.read_until(_ui_request("confirm"))
        assert start["title"] == "Start?"
        rpc.send({"type": "get_commands", "id": "c1"})  # waits until the extensions are loaded and started
        rpc.send({"type": "extension_ui_response", "id": start["id"], "confirmed": True})
        commands = rpc.read_until(lambda v: v.get("type") == "response" and v.get("id") == "c1")
        assert [c for c in commands["data"]["commands"] if c["source"] == "extension"] == [
            {"name": "ask", "description": "Ask the user", "source": "extension", "sourceInfo": {"path": str(ext)}}]
        rpc.send({"type": "prompt", "id": "p1", "message": "/ask now"})
        confirm = rpc.read_until(_ui_request("confirm"))
        assert (confirm["title"], confirm["message"]) == ("Proceed?", "with now")
        rpc.send({"type": "extension_ui_response", "id": confirm["id"], "confirmed": True})
        select = rpc.read_until(_ui_request("select"))
        assert select["options"] == ["red", "blue"]
        rpc.send({"type": "extension_ui_response", "id": select["id"], "value": "blue"})
        notify = rpc.read_until(_ui_request("notify"))
        assert notify["message"] == "answer True blue has_ui=True" and notify["notifyType"] == "info"
    finally:
        code, stderr = rpc.close()
    assert code == 0, stderr
    assert log.read_text().splitlines() == ["start startup True True", "ask True blue True", "shutdown quit"]


def test_rpc_prompts_reach_input_handlers_with_source_rpc(tmp_path: Path) -> None:
    ext, _, log = _files(tmp_path)
    rpc = Rpc(tmp_path, "-e", str(ext))
    try:
        start = rpc.read_until(_ui_request("confirm"))
        rpc.send({"type": "extension_ui_response", "id": start["id"], "confirmed": False})
        rpc.send({"type": "prompt", "id": "p1", "message": "hello"})
        rpc.read_until(lambda v: v.get("type") == "agent_end")
    finally:
        code, stderr = rpc.close()
    assert code == 0, stderr
    assert "input rpc" in log.read_text().splitlines()


@pytest.mark.parametrize("answer", [{"cancelled": True}, {"value": "not an option"}])
def test_rpc_cancelled_or_odd_answers_give_the_defaults(tmp_path: Path, answer: dict[str, Any]) -> None:
    ext, _, log = _files(tmp_path)
    rpc = Rpc(tmp_path, "-e", str(ext))
    try:
        start = rpc.read_until(_ui_request("confirm"))
        rpc.send({"type": "extension_ui_response", "id": start["id"], **answer})
        rpc.send({"type": "prompt", "id": "p1", "message": "/ask x"})
        confirm = rpc.read_until(_ui_request("confirm"))
        rpc.send({"type": "extension_ui_response", "id": confirm["id"], **answer})
        select = rpc.read_until(_ui_request("select"))
        rpc.send({"type": "extension_ui_response", "id": select["id"], **answer})
        rpc.read_until(_ui_request("notify"))
    finally:
        code, stderr = rpc.close()
    assert code == 0, stderr
    assert log.read_text().splitlines()[:2] == ["start startup False True", "ask False None True"]
