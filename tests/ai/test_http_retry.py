"""Provider-level HTTP retries, Retry-After, error text and hooks (pi-reference §1.8, §1.18; cases/README.md 14).

The loopback :class:`ReplayServer` answers; ``_http.sleep`` is replaced by a recorder so no test waits.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers import _http, openai_completions
from pi_tui.ai.providers._http import ProviderHTTPError, open_sse, parse_retry_after_ms
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage

from .helpers import chat_sse
from .replay_server import ReplayResponse, ReplayServer

OK_BODY = chat_sse({"choices": [{"index": 0, "delta": {"content": "third"}, "finish_reason": "stop"}]})
RATE_BODY = b'{"error":{"message":"rate limited"}}'
OVERLOADED = b'{"type":"error","error":{"type":"overloaded_error"}}'


def _model(server: ReplayServer, provider: str = "openai") -> Model:
    return Model(id="m", api="openai-completions", provider=provider, base_url=server.base_url + "/v1")


def _err(status: int, body: bytes, headers: dict[str, str] | None = None) -> ReplayResponse:
    return ReplayResponse(
        body=body, status=status, headers={"content-type": "application/json", **(headers or {})}
    )


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    recorded: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(_http, "sleep", fake_sleep)
    return recorded


async def _complete(model: Model, **opts: Any) -> AssistantMessage:
    options = SimpleStreamOptions(api_key="k", **opts)
    return await openai_completions.stream_simple(
        model, Context(messages=[UserMessage(content="hi")]), options
    ).result()


@pytest.mark.anyio
async def test_case14_retry_after_seconds_is_honoured(
    replay_server: ReplayServer, waits: list[float]
) -> None:
    replay_server.enqueue(
        _err(429, RATE_BODY, {"Retry-After": "3"}),
        _err(429, RATE_BODY, {"Retry-After": "3"}),
        ReplayResponse(body=OK_BODY),
    )
    result = await _complete(_model(replay_server))
    assert waits == [3, 3]
    assert result.stop_reason == "stop"
    assert result.content[0].text == "third"
    assert len(replay_server.requests) == 3


@pytest.mark.anyio
async def test_case14_retry_after_http_date(
    replay_server: ReplayServer, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = 1_800_000_000.0  # a fake clock: HTTP dates have whole seconds
    monkeypatch.setattr(_http, "wall_clock", lambda: now)

    def date() -> str:
        return email.utils.formatdate(now + 3, usegmt=True)

    replay_server.enqueue(
        _err(429, RATE_BODY, {"Retry-After": date()}),
        _err(429, RATE_BODY, {"Retry-After": date()}),
        ReplayResponse(body=OK_BODY),
    )
    result = await _complete(_model(replay_server))
    assert waits == [3, 3]
    assert result.content[0].text == "third"


@pytest.mark.anyio
async def test_case14_anthropic_529_overloaded_with_retry_after(
    replay_server: ReplayServer, waits: list[float]
) -> None:
    anthropic_ok = b'event: message_start\ndata: {"type":"message_start"}\n\n'
    replay_server.enqueue(
        _err(529, OVERLOADED, {"retry-after": "3"}),
        _err(529, OVERLOADED, {"retry-after": "3"}),
        ReplayResponse(body=anthropic_ok),
    )
    model = Model(id="c", api="anthropic-messages", provider="anthropic", base_url=replay_server.base_url)
    async with open_sse(
        url=replay_server.base_url + "/v1/messages", headers={}, body={}, model=model, options=None
    ) as sse:
        events = [(e.event, e.data) async for e in sse]
    assert waits == [3, 3]
    assert events == [("message_start", '{"type":"message_start"}')]


@pytest.mark.anyio
async def test_case14_delay_over_cap_fails_fast_without_sleeping(
    replay_server: ReplayServer, waits: list[float]
) -> None:
    replay_server.enqueue(_err(429, RATE_BODY, {"Retry-After": "120"}), ReplayResponse(body=OK_BODY))
    result = await _complete(_model(replay_server))
    assert waits == []
    assert len(replay_server.requests) == 1
    assert result.stop_reason == "error"
    assert result.error_message is not None
    assert result.error_message.startswith('429 {"error":{"message":"rate limited"}}')
    assert "retry delay of 120s" in result.error_message
    assert result.diagnostics is not None
    diag = next(d for d in result.diagnostics if d["type"] == "http_error")
    assert diag["details"] == {"status": 429, "retryAfterMs": 120_000}
    assert [d["details"] for d in result.diagnostics if d["type"] == "requests"] == [{"count": 1}]


@pytest.mark.anyio
async def test_cap_zero_disables_the_cap(replay_server: ReplayServer, waits: list[float]) -> None:
    replay_server.enqueue(_err(429, RATE_BODY, {"Retry-After": "120"}), ReplayResponse(body=OK_BODY))
    result = await _complete(_model(replay_server), max_retry_delay_ms=0)
    assert waits == [120]
    assert result.content[0].text == "third"


@pytest.mark.anyio
async def test_case14_abort_during_retry_wait_ends_at_once(
    replay_server: ReplayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = AbortController()
    started: list[float] = []

    async def slow_sleep(seconds: float) -> None:
        started.append(seconds)
        asyncio.get_running_loop().call_later(0.05, controller.abort)
        await asyncio.sleep(seconds)

    monkeypatch.setattr(_http, "sleep", slow_sleep)
    replay_server.enqueue(_err(429, RATE_BODY, {"Retry-After": "30"}), ReplayResponse(body=OK_BODY))
    t0 = time.monotonic()
    result = await _complete(_model(replay_server), signal=controller.signal)
    elapsed = time.monotonic() - t0
    assert started == [30]
    assert result.stop_reason == "aborted"
    assert result.error_message == "Request was aborted."  # no response yet: the OpenAI SDK's text (pi obs. 9)
    assert elapsed < 5  # the 30 s wait was cut short
    assert len(replay_server.requests) == 1


@pytest.mark.anyio
async def test_5xx_uses_exponential_backoff_then_surfaces_the_error(
    replay_server: ReplayServer, waits: list[float]
) -> None:
    replay_server.enqueue(*[_err(503, b"busy") for _ in range(3)])
    result = await _complete(_model(replay_server))
    assert len(waits) == 2
    assert 0.375 <= waits[0] <= 0.5 and 0.75 <= waits[1] <= 1.0
    assert result.stop_reason == "error"
    assert result.error_message == "503 busy"
    assert result.diagnostics == [
        {
            "type": "http_error",
            "timestamp": result.diagnostics[0]["timestamp"],
            "details": {"status": 503, "retryAfterMs": None},
        },
        {  # pi-tui: the requests this attempt made, retries included (the session's retry message counts them)
            "type": "requests",
            "timestamp": result.diagnostics[1]["timestamp"],
            "details": {"count": 3},
        },
    ]


@pytest.mark.anyio
async def test_retry_after_ms_header_wins(replay_server: ReplayServer, waits: list[float]) -> None:
    replay_server.enqueue(
        _err(429, RATE_BODY, {"retry-after-ms": "1500", "Retry-After": "9"}), ReplayResponse(body=OK_BODY)
    )
    result = await _complete(_model(replay_server))
    assert waits == [1.5]
    assert result.stop_reason == "stop"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("body", "text"), [(b'{"error":"bad"}', '400 {"error":"bad"}'), (b"", "400 status code (no body)")]
)
async def test_non_retryable_status_is_not_retried_and_formatted(
    replay_server: ReplayServer, waits: list[float], body: bytes, text: str
) -> None:
    replay_server.enqueue(_err(400, body), ReplayResponse(body=OK_BODY))
    events = []
    s = openai_completions.stream(
        _model(replay_server), Context(messages=[UserMessage(content="x")]), StreamOptions(api_key="k")
    )
    async for e in s:
        events.append(e)
    assert [e.type for e in events] == ["error"]  # no start before headers of a failed request
    assert events[0].error.error_message == text
    assert waits == [] and len(replay_server.requests) == 1


def test_provider_http_error_text() -> None:
    assert str(ProviderHTTPError(429, "slow down", 3000)) == "429 slow down"
    assert str(ProviderHTTPError(500, "")) == "500 status code (no body)"


def test_parse_retry_after() -> None:
    assert parse_retry_after_ms({"retry-after": "2.5"}) == 2500
    assert parse_retry_after_ms({"retry-after-ms": "40"}) == 40
    assert parse_retry_after_ms({"retry-after": "soon"}) is None
    assert parse_retry_after_ms({}) is None
    now = 1_700_000_000.0
    assert (
        parse_retry_after_ms({"retry-after": email.utils.formatdate(now + 7, usegmt=True)}, now=now) == 7000
    )
    assert parse_retry_after_ms({"retry-after": email.utils.formatdate(now - 7, usegmt=True)}, now=now) == 0


@pytest.mark.anyio
async def test_connection_refused_is_retried_then_reported(waits: list[float]) -> None:
    model = Model(id="m", api="openai-completions", provider="openai", base_url="http://127.0.0.1:9/v1")
    result = await _complete(model)
    assert len(waits) == 2
    assert result.stop_reason == "error"
    assert result.error_message is not None and result.error_message.startswith("Connection error")


@pytest.mark.anyio
async def test_hooks_payload_replacement_response_callback_and_surrogates(
    replay_server: ReplayServer,
) -> None:
    replay_server.enqueue(
        ReplayResponse(body=OK_BODY, headers={"content-type": "text/event-stream", "x-test": "1"})
    )
    seen: list[dict[str, Any]] = []

    async def on_payload(body: dict[str, Any], model: Model) -> dict[str, Any]:
        return {**body, "messages": [{"role": "user", "content": "replaced \ud800 text"}], "extra_field": 1}

    def on_response(info: dict[str, Any], model: Model) -> None:
        seen.append(info)

    result = await _complete(_model(replay_server), on_payload=on_payload, on_response=on_response)
    assert result.stop_reason == "stop"
    sent = json.loads(replay_server.requests[0].body)
    assert sent["messages"] == [{"role": "user", "content": "replaced  text"}]
    assert sent["extra_field"] == 1
    assert seen[0]["status"] == 200 and seen[0]["headers"]["x-test"] == "1"


@pytest.mark.anyio
async def test_bad_url_scheme_is_not_retried(waits: list[float]) -> None:
    model = Model(id="m", api="openai-completions", provider="openai", base_url="ftp://example.invalid/v1")
    result = await _complete(model)
    assert waits == []
    assert result.stop_reason == "error"
    assert result.error_message is not None and result.error_message.startswith("Connection error")
