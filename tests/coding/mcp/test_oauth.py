"""OAuth for streamable-HTTP MCP servers (issue 13; pi_tui/coding/mcp/oauth.py) against an OAuth-protected
loopback server written with the SDK's server-side auth (tests/fixtures/mcp/oauth_server.py): before sign-in the
connection fails saying how to sign in; ``pi-tui mcp login NAME`` (a real subprocess, ``$BROWSER`` a stand-in
that follows the approval redirect) stores the tokens 0600 in ``mcp-auth.json``; a session then connects and
calls a tool, with the tokens in no session file or log; expired tokens are refreshed; logout forgets them."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider
from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.mcp.oauth import auth_path, credential_key, file_mode
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FIXTURES
from tests.coding.mcp.helpers import result_text, script_calls

pytestmark = pytest.mark.anyio


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve(tmp_path: Path, *args: str) -> Iterator[str]:
    port = _free_port()
    log_path = tmp_path / f"oauth-server-{port}.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen([sys.executable, str(FIXTURES / "oauth_server.py"), str(port), *args],
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            server.terminate()
            server.wait(10)


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


@pytest.fixture
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "agent"
    directory.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(directory))
    return directory


def _configure(agent: Path, url: str) -> McpServerConfig:
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"notes": {"url": url, "timeout": 30}}}))
    return McpServerConfig(name="notes", transport="http", url=url, timeout=30)


def _login(agent: Path, tmp_path: Path, action: str = "login", **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PI_TUI_DIR": str(agent), "FAKE_BROWSER_LOG": str(tmp_path / "browser.log"),
           "BROWSER": f"{sys.executable} {FIXTURES / 'fake_browser.py'} %s", **extra}
    return subprocess.run([sys.executable, "-m", "pi_tui.cli", "mcp", action, "notes"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


async def _connect(tmp_path: Path, config: McpServerConfig) -> Any:
    m = McpManager(McpConfigLoad(servers={"notes": config}), log_dir=tmp_path / "logs",
                   auth_path=auth_path(tmp_path / "agent"))
    m.start()
    await m.wait_ready(60)
    return m


async def test_sign_in_stores_tokens_privately_and_sessions_use_them(
    tmp_path: Path, agent: Path, server_url: str
) -> None:
    config = _configure(agent, server_url)
    before = await _connect(tmp_path, config)
    try:
        connection = before.connections["notes"]
        assert connection.state == "failed"
        assert "needs sign-in: run `pi-tui mcp login notes`" in (connection.error or "")
    finally:
        await before.close()

    done = await asyncio.to_thread(_login, agent, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Signed in to notes: 1 tool" in done.stdout
    assert "Open this URL to sign in to notes" in done.stdout  # printed, for a browser on another machine
    opened = (tmp_path / "browser.log").read_text().splitlines()
    assert len(opened) == 1 and "code_challenge=" in opened[0] and "/authorize?" in opened[0]
    store = auth_path(agent)
    assert file_mode(store) == 0o600
    entry = json.loads(store.read_text())[credential_key(config)]
    access = entry["tokens"]["access_token"]
    assert access.startswith("at-") and entry["client"]["client_id"]
    assert access not in done.stdout + done.stderr

    after = await _connect(tmp_path, config)
    try:
        connection = after.connections["notes"]
        assert connection.state == "connected", connection.error
        result = await connection.call_tool("whoami", {})
        assert result.content[0].text == "signed in"  # type: ignore[union-attr]
    finally:
        await after.close()

    done = await asyncio.to_thread(_login, agent, tmp_path, "logout")
    assert done.returncode == 0 and "Signed out of notes" in done.stdout
    assert credential_key(config) not in json.loads(store.read_text())
    again = await _connect(tmp_path, config)
    try:
        assert again.connections["notes"].state == "failed"
    finally:
        await again.close()


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    yield provider
    provider.unregister()


async def test_a_session_calls_the_signed_in_server_and_keeps_tokens_out_of_its_files(
    tmp_path: Path, agent: Path, server_url: str, faux: FauxProvider
) -> None:
    config = _configure(agent, server_url)
    done = await asyncio.to_thread(_login, agent, tmp_path)
    assert done.returncode == 0, done.stderr
    tokens = json.loads(auth_path(agent).read_text())[credential_key(config)]["tokens"]
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    model = faux.get_model()
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    sees = script_calls(faux, [("mcp__notes__whoami", {})])
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(60)
        await link.before_prompt()
        await session.prompt("who am i")
        assert result_text(sees.results[0]) == "signed in"
        text = await asyncio.to_thread(Path(session.session_file).read_text)
        logs = "".join(p.read_text(errors="replace") for p in (agent / "mcp-logs").glob("*") if p.is_file())
        for secret in (tokens["access_token"], tokens["refresh_token"]):
            assert secret not in text and secret not in logs
    finally:
        await link.close()


async def test_an_expired_access_token_is_refreshed_and_stored(
    tmp_path: Path, agent: Path, server_url: str
) -> None:
    config = _configure(agent, server_url)
    done = await asyncio.to_thread(_login, agent, tmp_path)
    assert done.returncode == 0, done.stderr
    store = auth_path(agent)
    data = json.loads(store.read_text())
    first = data[credential_key(config)]["tokens"]
    assert data[credential_key(config)]["expiresAt"] > time.time()
    data[credential_key(config)]["expiresAt"] = time.time() - 10  # as if it expired while pi-tui was closed
    store.write_text(json.dumps(data))
    m = await _connect(tmp_path, config)
    try:
        connection = m.connections["notes"]
        assert connection.state == "connected", connection.error
        result = await connection.call_tool("whoami", {})
        assert result.content[0].text == "signed in"  # type: ignore[union-attr]
    finally:
        await m.close()
    entry = json.loads(store.read_text())[credential_key(config)]
    assert entry["tokens"]["access_token"] != first["access_token"]  # refreshed, not a new sign-in
    assert entry["tokens"]["refresh_token"] != first["refresh_token"] and entry["expiresAt"] > time.time()
    assert file_mode(store) == 0o600


async def test_a_refused_sign_in_keeps_the_previous_one(tmp_path: Path, agent: Path, server_url: str) -> None:
    config = _configure(agent, server_url)
    done = await asyncio.to_thread(_login, agent, tmp_path)
    assert done.returncode == 0, done.stderr
    before = json.loads(auth_path(agent).read_text())[credential_key(config)]
    denied = await asyncio.to_thread(_login, agent, tmp_path, "login", FAKE_BROWSER_DENY="1")
    assert denied.returncode == 1
    assert "sign-in to notes failed: sign-in refused: the user said no" in denied.stderr
    after = json.loads(auth_path(agent).read_text())[credential_key(config)]
    assert after["tokens"] == before["tokens"]  # still signed in with the old tokens
    m = await _connect(tmp_path, config)
    try:
        assert m.connections["notes"].state == "connected", m.connections["notes"].error
    finally:
        await m.close()


def test_login_refuses_a_server_oauth_does_not_apply_to(tmp_path: Path, agent: Path) -> None:
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {
        "notes": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer x"}}}}))
    done = _login(agent, tmp_path)
    assert done.returncode == 2 and "OAuth sign-in does not apply" in done.stderr
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {}}))
    done = _login(agent, tmp_path)
    assert done.returncode == 2 and "no MCP server named notes" in done.stderr
