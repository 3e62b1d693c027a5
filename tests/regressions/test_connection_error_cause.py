"""Connection errors name the server and the cause (pi 1.5.1).

pi-tui said ``Connection error: All connection attempts failed`` for a local server that was not running, with
neither the address nor "refused"; a certificate problem or an unknown host name looked the same.
"""

from __future__ import annotations

import socket
import ssl

import httpx
import pytest

from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers._connection_errors import connection_error_text
from pi_tui.ai.types import Context, Model, UserMessage
from pi_tui.coding.retry import is_retryable_error


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.anyio
async def test_refused_local_server_is_named(anyio_backend: str) -> None:
    port = _closed_port()
    model = Model(id="m", api="openai-completions", provider="local", base_url=f"http://127.0.0.1:{port}/v1")
    stream = openai_completions.stream_simple(model, Context(messages=[UserMessage(content="hi")]),
                                              SimpleStreamOptions(api_key="k", max_retries=0))
    async for _ in stream:
        pass
    message = await stream.result()
    assert message.stop_reason == "error"
    assert f"connection refused by 127.0.0.1:{port}" in (message.error_message or "")
    assert is_retryable_error(message)


def _chained(root: BaseException) -> httpx.ConnectError:
    try:
        try:
            raise root
        except BaseException as inner:
            raise httpx.ConnectError("All connection attempts failed") from inner
    except httpx.ConnectError as outer:
        return outer


def test_certificate_and_dns_causes() -> None:
    cert = ssl.SSLCertVerificationError(1, "certificate verify failed")
    cert.verify_message = "self-signed certificate"
    text = connection_error_text(_chained(cert), "https://llm.example.com/v1/chat/completions?key=SECRET")
    assert "TLS certificate of llm.example.com:443 not trusted: self-signed certificate" in text
    dns = connection_error_text(_chained(socket.gaierror(-2, "Name or service not known")), "http://gpu-box:8000/v1")
    assert "host name not found: gpu-box" in dns
    assert "SECRET" not in text and "/v1" not in text


def test_unknown_cause_still_names_the_server() -> None:
    text = connection_error_text(httpx.ConnectError("boom"), "http://[::1]:8080/v1?key=x")
    assert text == "Connection error: boom ([::1]:8080)"
