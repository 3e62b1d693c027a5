""""Retry failed after 3 attempts" while the provider client had retried each attempt too (found by a
new-user run, issue 9: 12 requests reached the server). Both layers stay, as in pi 0.73 (the SDK's own retries
under the session's ``retry.maxRetries``, pi-reference §3.10), and the message counts what happened: the
session's attempts and every request sent. The provider records the requests of each attempt in a diagnostic.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers import _http
from pi_tui.coding.retry import RetrySettings
from pi_tui.coding.session_factory import create_agent_session
from pi_tui.coding.session_settings import SessionSettings

pytestmark = pytest.mark.anyio

BODY = json.dumps({"error": {"message": "The server had an error while processing your request.",
                             "type": "server_error"}}).encode()


class _Always500(BaseHTTPRequestHandler):
    hits = 0

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        type(self).hits += 1
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Always500]]]:
    handler = type("Handler", (_Always500,), {"hits": 0})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", handler
    finally:
        httpd.shutdown()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent_dir = tmp_path / "home"
    agent_dir.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent_dir))
    for name in list(os.environ):
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)

    async def no_wait(seconds: float) -> None:
        return None

    monkeypatch.setattr(_http, "sleep", no_wait)  # the provider's back-off
    return agent_dir


async def test_the_final_message_counts_attempts_and_requests(home: Path, tmp_path: Path,
                                                              server: tuple[str, Any]) -> None:
    url, handler = server
    (home / "models.json").write_text(json.dumps({"providers": {"local": {
        "baseUrl": url, "api": "openai-completions", "apiKey": "none", "models": [{"id": "m"}]}}}))
    settings = SessionSettings(retry=RetrySettings(max_retries=3, base_delay_ms=1))
    session = create_agent_session(str(tmp_path), provider="local", model="m", no_session=True, settings=settings)
    await session.prompt("hello")
    await session.wait_for_idle()
    attempts = 1 + 3
    requests = attempts * (1 + _http.DEFAULT_MAX_RETRIES)
    assert handler.hits == requests == 12
    notes = [m.text for m in session.messages if getattr(m, "role", "") == "notification"]
    final = [n for n in notes if n.startswith("Retry failed")]
    assert final == [f"Retry failed after {attempts} attempts ({requests} requests): 500 The server had an error "
                     "while processing your request."], notes
    failed = [m for m in session.messages if getattr(m, "role", "") == "assistant"]
    counts = [d["details"]["count"] for d in failed[-1].diagnostics or [] if d["type"] == "requests"]
    assert counts == [1 + _http.DEFAULT_MAX_RETRIES]
