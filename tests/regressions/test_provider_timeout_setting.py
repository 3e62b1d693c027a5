"""``retry.provider.timeoutMs`` and ``retry.provider.maxRetries`` reach every provider request (PI_FIXES.md rows
0.75.4, 0.78.1, 1.2.0).

pi 0.73's session passes ``retry.provider.{timeoutMs,maxRetries}`` into every request (sdk.js ``streamFn``);
pi-tui read the settings and never passed them on, so the HTTP timeout could not be changed at all (pi 0.75.4:
"HTTP idle timeout configurable for long streams", 0.78.1: "the HTTP timeout setting applies to every
provider, e.g. llama.cpp"). pi-tui's timeout is a per-read (idle) timeout, so a stream that keeps sending lasts
as long as it needs (pi 1.2.0: Mistral streams were aborted after the request timeout during long thinking);
a server that goes quiet for longer than the timeout fails the request.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.types import Context, Model, UserMessage
from pi_tui.coding.agent_session.live_settings import apply_settings, session_settings_from
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.agent_session.wiring import credential_stream
from pi_tui.coding.config.settings import SettingsManager
from tests.ai.replay_server import ReplayResponse, ReplayServer

CHUNKS = [{"choices": [{"index": 0, "delta": {"content": f"part {i} "}, "finish_reason": None}]} for i in range(8)]
CHUNKS.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
BODY = "".join(f"data: {json.dumps(c)}\n\n" for c in CHUNKS).encode() + b"data: [DONE]\n\n"
CUTS = [BODY.index(b"data: ", 1 + i * 10) for i in range(1, 9)]


class _NoCredentials:
    """A ModelAccess without per-request credentials (the options' key is used)."""


async def _run(server: ReplayServer, settings: SessionSettings) -> Any:
    model = Model(id="m", api="openai-completions", provider="llama.cpp", base_url=server.base_url + "/v1")
    stream = credential_stream(_NoCredentials(), settings)  # type: ignore[arg-type]
    s = stream(model, Context(messages=[UserMessage(content="hi")]), SimpleStreamOptions(api_key="k"))
    _ = [e async for e in s]
    return await s.result()


def test_the_provider_settings_are_read_and_follow_changes() -> None:
    manager = SettingsManager.in_memory({"retry": {"provider": {"timeoutMs": 900, "maxRetries": 1}}})
    settings = session_settings_from(manager)
    assert (settings.provider_timeout_ms, settings.provider_max_retries) == (900, 1)
    manager2 = SettingsManager.in_memory({"retry": {"provider": {"timeoutMs": 0}}})

    class _Session:
        pass

    session = _Session()
    session.settings = settings  # type: ignore[attr-defined]
    apply_settings(session, manager2)
    assert settings.provider_timeout_ms is None and settings.provider_max_retries is None  # 0 = the default


@pytest.mark.anyio
async def test_a_stream_that_keeps_sending_outlasts_the_timeout() -> None:
    with ReplayServer() as server:
        server.enqueue(ReplayResponse(body=BODY, cuts=CUTS, write_delay=0.15))
        msg = await _run(server, SessionSettings(provider_timeout_ms=600, provider_max_retries=0))
    assert msg.stop_reason == "stop", msg.error_message
    assert msg.content[0].text == "".join(f"part {i} " for i in range(8))  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_a_server_that_goes_quiet_fails_after_the_configured_timeout() -> None:
    with ReplayServer() as server:
        server.enqueue(ReplayResponse(body=BODY, cuts=CUTS, stall_after=CUTS[2]))
        msg = await _run(server, SessionSettings(provider_timeout_ms=300, provider_max_retries=0))
        assert len(server.requests) == 1  # maxRetries 0: no second attempt
    assert msg.stop_reason == "error"
    assert msg.content and "part 0" in msg.content[0].text  # type: ignore[union-attr]
