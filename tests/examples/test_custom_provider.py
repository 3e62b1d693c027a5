"""examples/extensions/custom_provider.py against a loopback OpenAI-compatible server: its async
``activate`` asks the server's ``GET /models``, the ``local`` provider's model is taken from ``--model`` in print
mode (a subprocess), listed by RPC ``get_available_models`` and chosen with RPC ``set_model``; the request
carries the example's header; ``/local-llm URL`` moves the provider at once; the ``shout`` provider answers from
its own stream function."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.coding.modes.helpers import CLI, clean_env, load_mock_server

from .conftest import errors, example

MockLlmServer = load_mock_server()


def test_print_mode_takes_the_examples_model_from_the_command_line(tmp_path: Path) -> None:
    with MockLlmServer([{"type": "text", "text": "local answer"}], model="qwen-local") as server:
        env = clean_env(tmp_path, LOCAL_LLM_URL=f"http://127.0.0.1:{server.port}/v1")
        run = subprocess.run([*CLI, "-e", example("custom_provider"), "--model", "local/qwen-local", "-p", "hi"],
                             cwd=tmp_path / "project", env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=90)
        requests = list(server.requests)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "local answer"
    assert requests[0]["url"] == "/v1/chat/completions"
    assert requests[0]["headers"]["x-client"] == "pi-tui-custom-provider"
    assert requests[0]["body"]["model"] == "qwen-local"


def test_print_mode_names_a_model_no_provider_has(tmp_path: Path) -> None:
    env = clean_env(tmp_path, LOCAL_LLM_URL="http://127.0.0.1:9/v1", LOCAL_LLM_MODELS="a,b")
    run = subprocess.run([*CLI, "-e", example("custom_provider"), "--model", "nowhere/zzz-none", "-p", "hi"],
                         cwd=tmp_path / "project", env=env, stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=90)
    assert run.returncode == 1
    assert "zzz-none" in run.stderr and run.stdout == ""


def _rpc(proc: Any, command: dict[str, Any]) -> dict[str, Any]:
    proc.stdin.write(json.dumps(command) + "\n")
    proc.stdin.flush()
    while True:
        line = json.loads(proc.stdout.readline())
        if line.get("type") == "response" and line.get("id") == command["id"]:
            return line  # type: ignore[no-any-return]


def test_rpc_lists_and_selects_the_examples_models(tmp_path: Path) -> None:
    with MockLlmServer([], model="qwen-local") as server:
        env = clean_env(tmp_path, LOCAL_LLM_URL=f"http://127.0.0.1:{server.port}/v1")
        proc = subprocess.Popen([*CLI, "--mode", "rpc", "-e", example("custom_provider"), "--no-session"],
                                cwd=tmp_path / "project", env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            listed = _rpc(proc, {"id": "1", "type": "get_available_models"})
            ids = {(m["provider"], m["id"]) for m in listed["data"]["models"]}
            assert {("local", "qwen-local"), ("shout", "shout-1")} <= ids
            chosen = _rpc(proc, {"id": "2", "type": "set_model", "provider": "shout", "modelId": "shout-1"})
            assert chosen["success"] is True, chosen
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=30)
            assert proc.stderr is not None and proc.stdout is not None
            proc.stderr.close()
            proc.stdout.close()


def test_rpc_mode_says_when_the_model_is_still_unknown(tmp_path: Path) -> None:
    env = clean_env(tmp_path, LOCAL_LLM_URL="http://127.0.0.1:9/v1")
    proc = subprocess.Popen([*CLI, "--mode", "rpc", "-e", example("custom_provider"), "--no-session",
                             "--model", "nowhere/zzz-none"], cwd=tmp_path / "project", env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _rpc(proc, {"id": "1", "type": "get_state"})  # answered once the extensions loaded
    _out, err = proc.communicate(timeout=30)
    assert 'Error: Model "nowhere/zzz-none" not found' in err


@pytest.mark.anyio
async def test_the_examples_providers_in_a_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding.extensions.setup import start_extensions
    from pi_tui.coding.session_factory import create_agent_session

    first = MockLlmServer([{"type": "text", "text": "from the first"}], model="m1").start()
    second = MockLlmServer([{"type": "text", "text": "from the second"}], model="m1").start()
    try:
        monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
        monkeypatch.setenv("LOCAL_LLM_URL", f"http://127.0.0.1:{first.port}/v1")
        (tmp_path / "project").mkdir()
        session = create_agent_session(str(tmp_path / "project"), model="local/m1", no_session=True,
                                       extension_paths=[example("custom_provider")])
        await start_extensions(session.extensions)
        assert (session.model.provider, session.model.id) == ("local", "m1")
        await session.prompt("one")
        await session.wait_for_idle()
        await session.prompt(f"/local-llm http://127.0.0.1:{second.port}/v1")  # at once, no /reload
        await session.prompt("two")
        await session.wait_for_idle()
        assert len(first.requests) == 1 and len(second.requests) == 1
        replies = [m for m in session.messages if m.role == "assistant"]
        assert [r.content[0].text for r in replies] == ["from the first", "from the second"]

        shout = session.models.find("shout", "shout-1")
        assert shout is not None
        session.set_model(shout)
        await session.prompt("make some noise")
        await session.wait_for_idle()
        last = [m for m in session.messages if m.role == "assistant"][-1]
        assert last.content[0].text == "MAKE SOME NOISE" and last.stop_reason == "stop"
        assert errors(session) == []
    finally:
        first.close()
        second.close()


@pytest.mark.anyio
async def test_the_app_shows_the_model_resolved_after_the_extensions_loaded(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding.session_factory import create_agent_session
    from tests.tui.helpers import make_app, settle, wait_until

    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("LOCAL_LLM_URL", "http://127.0.0.1:9/v1")  # nothing answers: $LOCAL_LLM_MODELS is used
    monkeypatch.setenv("LOCAL_LLM_MODELS", "first,second")
    (tmp_path / "project").mkdir()
    session = create_agent_session(str(tmp_path / "project"), model="local/second", no_session=True,
                                   extension_paths=[example("custom_provider")])
    assert session.is_offline_model  # the stand-in until the extension registered its provider
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.footer.data.model_id == "second")
        await settle(pilot)
        assert app.header_widget.notice is None  # no offline-model notice once the real model is in use
