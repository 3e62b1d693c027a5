"""The ``oauth`` block of an HTTP ``mcp.json`` entry (issue 13, DIFFERENCES M4; pi 1.x docs/mcp.md
"Authenticate with OAuth"): parsing and errors, and a sign-in with a pre-registered client (id, secret from
``${VAR}``, fixed callback port, a scope the server does not advertise) against the loopback OAuth server of
tests/fixtures/mcp/oauth_server.py with dynamic registration turned off."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.mcp.config import McpOAuthConfig, load_mcp_config
from pi_tui.coding.mcp.oauth import auth_path, credential_key
from pi_tui.coding.mcp.oauth_config import redirect_for
from tests.coding.mcp.test_oauth import _connect, _free_port, _login, _serve

pytestmark = pytest.mark.anyio

SECRET = "cl1ent-S3cret-value-987"


def _load(tmp_path: Path, entry: dict[str, object], env: dict[str, str] | None = None) -> tuple[object, list[str]]:
    agent = tmp_path / "agent-cfg"
    agent.mkdir(exist_ok=True)
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"notes": entry}}))
    loaded = load_mcp_config(str(tmp_path), project_trusted=False, agent_dir=agent, env=env or {})
    return loaded.servers.get("notes"), loaded.errors


def test_the_oauth_block_is_read_and_its_secret_expanded_and_redacted(tmp_path: Path) -> None:
    server, errors = _load(tmp_path, {"url": "https://mcp.example.com/mcp", "oauth": {
        "clientId": "my-client", "clientSecret": "${EXAMPLE_SECRET}", "callbackPort": 8765, "scope": "read  write",
        "clientName": "Claude Code"}}, {"EXAMPLE_SECRET": SECRET})
    assert errors == []
    assert server.oauth == McpOAuthConfig(client_id="my-client", client_secret=SECRET,  # type: ignore[attr-defined]
                                          client_name="Claude Code", scope="read write", callback_port=8765)
    assert SECRET not in redact_text(f"token exchange failed for {SECRET}")


@pytest.mark.parametrize(("oauth", "error"), [
    ("x", "oauth must be an object"),
    ({"clientSecret": "s"}, "oauth.clientSecret needs a clientId"),
    ({"callbackPort": 0}, "oauth.callbackPort must be a port number"),
    ({"callbackPort": True}, "oauth.callbackPort must be a port number"),
    ({"callbackUrl": "https://example.com/cb"}, "oauth.callbackUrl must be an http:// URL on localhost"),
    ({"clientId": ""}, "oauth.clientId must be a non-empty string"),
])
def test_a_bad_oauth_block_rejects_the_entry_with_a_reason(tmp_path: Path, oauth: object, error: str) -> None:
    server, errors = _load(tmp_path, {"url": "https://mcp.example.com/mcp", "oauth": oauth})
    assert server is None and len(errors) == 1 and error in errors[0] and errors[0].startswith(str(tmp_path))


def test_unsupported_oauth_keys_are_reported_and_the_entry_loads(tmp_path: Path) -> None:
    server, errors = _load(tmp_path, {"url": "https://mcp.example.com/mcp",
                                      "oauth": {"clientRegistration": "dcr", "colour": "red"}})
    assert server is not None and server.oauth == McpOAuthConfig()  # type: ignore[attr-defined]
    assert any("oauth.clientRegistration is not supported by pi-tui; ignored" in e for e in errors)
    assert any("oauth.colour is not a known oauth setting; ignored" in e for e in errors)
    server, errors = _load(tmp_path, {"command": "srv", "oauth": {"clientId": "x"}})
    assert server is not None and any("oauth applies to HTTP servers only" in e for e in errors)


def test_redirect_uris() -> None:
    assert redirect_for(None, 5000) == ("http://127.0.0.1:5000/callback", "127.0.0.1", 5000, "/callback")
    assert redirect_for(McpOAuthConfig(callback_port=8765), 5000)[0] == "http://127.0.0.1:8765/callback"
    assert redirect_for(McpOAuthConfig(callback_url="http://localhost:9000/cb"), 5000) == (
        "http://localhost:9000/cb", "localhost", 9000, "/cb")
    assert redirect_for(McpOAuthConfig(callback_url="http://[::1]/oauth"), 5000) == (
        "http://[::1]:5000/oauth", "::1", 5000, "/oauth")  # RFC 8252: the port is added


@pytest.fixture
def registered(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """A server that only knows the pre-registered client ``my-client`` (secret, callback on a fixed port) and
    advertises no scope; yields ``(url, callback port)``."""
    port = _free_port()
    yield from ((url, port) for url in _serve(
        tmp_path, "--client", f"my-client:{SECRET}:http://127.0.0.1:{port}/callback", "--no-registration",
        "--no-advertised-scopes"))


async def test_sign_in_with_a_configured_client_then_a_session_uses_it(
    tmp_path: Path, registered: tuple[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, port = registered
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"notes": {"url": url, "timeout": 30, "oauth": {
        "clientId": "my-client", "clientSecret": "${NOTES_SECRET}", "callbackPort": port, "scope": "notes"}}}}))
    done = await asyncio.to_thread(_login, agent, tmp_path, "login", NOTES_SECRET=SECRET)
    assert done.returncode == 0, done.stderr
    assert "Signed in to notes: 1 tool" in done.stdout
    opened = (tmp_path / "browser.log").read_text().splitlines()
    assert "client_id=my-client" in opened[0] and f"127.0.0.1%3A{port}%2Fcallback" in opened[0]
    assert "scope=notes" in opened[0]  # the configured scope: the server advertises none
    assert SECRET not in done.stdout + done.stderr
    stored = auth_path(agent).read_text()
    assert SECRET not in stored  # the secret stays in the environment / mcp.json
    monkeypatch.setenv("NOTES_SECRET", SECRET)
    config = load_mcp_config(str(tmp_path), project_trusted=False, agent_dir=agent).servers["notes"]
    entry = json.loads(stored)[credential_key(config)]
    assert "client" not in entry and entry["clientAuthMethod"] == "client_secret_basic"
    m = await _connect(tmp_path, config)
    try:
        connection = m.connections["notes"]
        assert connection.state == "connected", connection.error
        result = await connection.call_tool("whoami", {})
        assert result.content[0].text == "signed in"  # type: ignore[union-attr]
    finally:
        await m.close()
