"""``pi-tui -p`` after a context-overflow error (found by H11 with a local server answering HTTP 400
``context_length_exceeded``): overflow recovery drops the failed message from the state and, with nothing
to compact, ends silently; print mode then printed the PREVIOUS answer of the session as the answer to the
new prompt, with exit code 0. It must report the error on stderr and exit 1."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ..coding.modes.helpers import CLI, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()

OVERFLOW = {
    "error": {
        "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        "type": "invalid_request_error",
        "code": "context_length_exceeded",
    }
}


def test_print_mode_reports_an_overflow_instead_of_an_older_answer(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    session = str(tmp_path / "s.jsonl")
    script = [
        {"type": "text", "text": "FIRST ANSWER"},
        {"type": "http_error", "status": 400, "body": OVERFLOW},
    ]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        base = [*CLI, "--provider", "mock", "--model", "mock-model", "--session", session, "-p"]
        options = {
            "cwd": tmp_path / "project",
            "env": env,
            "stdin": subprocess.DEVNULL,
            "capture_output": True,
            "text": True,
            "timeout": 60,
        }
        first = subprocess.run([*base, "first"], **options)  # type: ignore[call-overload]
        second = subprocess.run([*base, "second"], **options)  # type: ignore[call-overload]
    assert first.returncode == 0 and first.stdout.strip() == "FIRST ANSWER"
    assert second.returncode == 1
    assert "FIRST ANSWER" not in second.stdout
    assert "maximum context length" in second.stderr


def test_print_mode_reports_a_failure_before_streaming(tmp_path: Path) -> None:
    """An unknown ``api`` in models.json fails before any message_start (only agent_end carries the error)."""
    env = clean_env(tmp_path)
    models = '{"providers":{"local":{"baseUrl":"http://127.0.0.1:9/v1","api":"bogus-api","apiKey":"none","models":[{"id":"m"}]}}}'
    (tmp_path / "agent" / "models.json").write_text(models, encoding="utf-8")
    run = subprocess.run(
        [*CLI, "--provider", "local", "--model", "m", "-p", "hi"],
        cwd=tmp_path / "project",
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "No API provider registered for api: bogus-api" in run.stderr


def test_print_mode_into_a_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    """``pi-tui -p … | head -0`` printed a BrokenPipeError traceback (found by H11)."""
    env = clean_env(tmp_path)
    with MockLlmServer([{"type": "text", "text": "line\n" * 20000}]) as server:
        write_models_json(tmp_path, server.port)
        reader, writer = os.pipe()
        os.close(reader)  # nobody reads: the first write fails with EPIPE
        run = subprocess.run(
            [*CLI, "--provider", "mock", "--model", "mock-model", "-p", "hi"],
            cwd=tmp_path / "project",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
        os.close(writer)
    assert run.returncode == 141
    assert "Traceback" not in run.stderr and "BrokenPipeError" not in run.stderr


def test_json_mode_stops_when_its_reader_leaves(tmp_path: Path) -> None:
    """``pi-tui --mode json -p … | head -1`` kept running the whole turn, tools included, for nobody (H11)."""
    env = clean_env(tmp_path)
    marker = tmp_path / "project" / "ran.txt"
    script = [
        {
            "type": "tool",
            "calls": [{"id": "c1", "name": "bash", "args": {"command": f"sleep 3; echo x > {marker}"}}],
        },
        {"type": "text", "text": "done"},
    ]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        reader, writer = os.pipe()
        os.close(reader)
        run = subprocess.run(
            [*CLI, "--provider", "mock", "--model", "mock-model", "--mode", "json", "-p", "go"],
            cwd=tmp_path / "project",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
        os.close(writer)
    assert run.returncode == 141, run.stderr
    assert not marker.exists()
