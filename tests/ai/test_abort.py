"""Abort of a provider stream (DESIGN.md "Concurrency", pi-reference §1.18).

A loopback server sends part of a stream and then stalls; aborting must end the stream with
``stop_reason="aborted"`` at once, close the connection and never leak ``CancelledError``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import Context, Model, UserMessage

from .helpers import chat_sse
from .replay_server import ReplayResponse, ReplayServer, check_event_protocol

CTX = Context(messages=[UserMessage(content="hi")])
BODY = chat_sse(
    {"id": "r", "choices": [{"index": 0, "delta": {"content": "partial "}, "finish_reason": None}]},
    {"id": "r", "choices": [{"index": 0, "delta": {"content": "never"}, "finish_reason": "stop"}]},
)


def _model(server: ReplayServer) -> Model:
    return Model(id="m", api="openai-completions", provider="local", base_url=server.base_url + "/v1")


@pytest.mark.anyio
async def test_abort_mid_stream_against_stalled_server(replay_server: ReplayServer) -> None:
    first_event_end = BODY.index(b"\n\n") + 2
    replay_server.enqueue(ReplayResponse(body=BODY, stall_after=first_event_end))
    controller = AbortController()
    s = openai_completions.stream_simple(
        _model(replay_server), CTX, SimpleStreamOptions(signal=controller.signal)
    )
    events: list[Any] = []
    t_abort = 0.0
    async for e in s:
        events.append(e)
        if e.type == "text_delta":
            t_abort = time.monotonic()
            controller.abort()
    result = await s.result()
    latency_ms = (time.monotonic() - t_abort) * 1000
    print(f"abort latency: {latency_ms:.1f} ms")
    assert result.stop_reason == "aborted"
    assert result.error_message == "Request was aborted"
    assert result.content[0].text == "partial "
    assert events[-1].type == "error" and events[-1].reason == "aborted"
    assert not check_event_protocol(events)
    assert latency_ms < 1000
    for _ in range(100):  # the server notices the closed connection
        if replay_server.disconnects:
            break
        await asyncio.sleep(0.01)
    assert replay_server.disconnects


@pytest.mark.anyio
async def test_abort_while_waiting_for_the_first_byte(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=BODY, stall_after=0))
    controller = AbortController()
    s = openai_completions.stream_simple(
        _model(replay_server), CTX, SimpleStreamOptions(signal=controller.signal)
    )
    asyncio.get_running_loop().call_later(0.1, controller.abort)
    t0 = time.monotonic()
    result = await s.result()
    assert result.stop_reason == "aborted"
    assert result.content == []
    assert time.monotonic() - t0 < 2


@pytest.mark.anyio
async def test_already_aborted_signal_sends_nothing(replay_server: ReplayServer) -> None:
    controller = AbortController()
    controller.abort()
    s = openai_completions.stream_simple(
        _model(replay_server), CTX, SimpleStreamOptions(signal=controller.signal)
    )
    events = [e async for e in s]
    assert [e.type for e in events] == ["error"]
    assert events[0].error.stop_reason == "aborted"
    assert replay_server.requests == []


@pytest.mark.anyio
async def test_exceptions_in_hooks_become_error_events(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=BODY))

    def bad_payload(body: dict[str, Any], model: Model) -> None:
        raise RuntimeError("payload hook failed")

    s = openai_completions.stream_simple(
        _model(replay_server), CTX, SimpleStreamOptions(on_payload=bad_payload)
    )
    result = await s.result()
    assert result.stop_reason == "error"
    assert result.error_message == "payload hook failed"


@pytest.mark.anyio
async def test_cancelling_the_consumer_does_not_break_the_producer(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=BODY, stall_after=10))
    controller = AbortController()
    s = openai_completions.stream_simple(
        _model(replay_server), CTX, SimpleStreamOptions(signal=controller.signal)
    )

    async def consume() -> None:
        async for _ in s:
            pass

    task = asyncio.ensure_future(consume())
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    controller.abort()
    result = await asyncio.wait_for(s.result(), 2)
    assert result.stop_reason == "aborted"


@pytest.mark.anyio
async def test_read_timeout_mid_stream_is_an_error_not_a_hang(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=BODY, stall_after=BODY.index(b"\n\n") + 2))
    opts = SimpleStreamOptions(timeout_ms=200)
    result = await asyncio.wait_for(
        openai_completions.stream_simple(_model(replay_server), CTX, opts).result(), 5
    )
    assert result.stop_reason == "error"
    assert result.error_message is not None and result.error_message.startswith("Request timed out")
    assert result.content[0].text == "partial "


@pytest.mark.anyio
async def test_provider_started_inside_another_providers_abort_scope_still_aborts(
    replay_server: ReplayServer,
) -> None:
    from pi_tui.ai.providers._http import abort_scope

    replay_server.enqueue(ReplayResponse(body=BODY, stall_after=0))
    controller = AbortController()
    with abort_scope(controller.signal):
        s = openai_completions.stream_simple(
            _model(replay_server), CTX, SimpleStreamOptions(signal=controller.signal)
        )
    asyncio.get_running_loop().call_later(0.05, controller.abort)
    result = await asyncio.wait_for(s.result(), 2)
    assert result.stop_reason == "aborted"
