"""Every recorded stream (tests/fixtures/streams) replayed through the REAL provider code.

For each of the 45 fixtures and each API: the SSE body is served by the loopback :class:`ReplayServer`
cut at random byte boundaries (three seeds), and also fed through ``httpx.MockTransport`` one byte per read
(exact read boundaries; bodies above 64 KB use random 1..16-byte reads instead). The final message must match
``*.expected.json`` under the README's normalisation, and the event sequence must obey the protocol of
pi-reference §1.10 (``check_event_protocol``). An API whose provider module does not exist yet is skipped.
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import _http
from pi_tui.ai.registry import BUILTIN_PROVIDER_MODULES
from pi_tui.ai.stream import stream
from pi_tui.ai.types import Context, Model, Tool, UserMessage

from .replay_server import (
    APIS,
    ReplayResponse,
    ReplayServer,
    check_event_protocol,
    chunk_bytes,
    compare_to_expected,
    fixture_names,
    load_expected,
    sse_body,
)

CASES = [(api, name) for api in APIS for name in fixture_names(api)]
SEEDS = (11, 22, 33)
EXPECTED_FIXTURE_COUNT = 45


def _skip_if_missing(api: str) -> None:
    module = BUILTIN_PROVIDER_MODULES[api]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"provider module {module} not written yet")


def _model(api: str, base_url: str) -> Model:
    return Model(id="replay-model", api=api, provider="replay", base_url=base_url, reasoning=True)


def _context() -> Context:
    tool = Tool(name="weather", description="d", parameters={"type": "object", "properties": {}})
    return Context(system_prompt="sys", messages=[UserMessage(content="hi")], tools=[tool])


async def _run(model: Model) -> tuple[list[Any], Any]:
    s = stream(model, _context(), StreamOptions(api_key="test-key", max_retries=0))
    events = [e async for e in s]
    return events, await s.result()


def _check(api: str, name: str, events: list[Any], result: Any) -> None:
    expected = load_expected(api, name)
    diffs = compare_to_expected(result, expected, api)
    assert not diffs, f"{api}/{name}: " + "; ".join(diffs)
    problems = check_event_protocol(events)
    assert not problems, f"{api}/{name}: " + "; ".join(problems)


def test_all_fixtures_present() -> None:
    assert len(CASES) == EXPECTED_FIXTURE_COUNT


@pytest.mark.anyio
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("api", "name"), CASES, ids=[f"{a}/{n}" for a, n in CASES])
async def test_fixture_replay_loopback(api: str, name: str, seed: int, replay_server: ReplayServer) -> None:
    _skip_if_missing(api)
    body = sse_body(api, name)
    max_chunk = 64 if len(body) < 64_000 else 4096
    replay_server.enqueue(ReplayResponse(body=body, seed=seed, max_chunk=max_chunk))
    events, result = await _run(_model(api, replay_server.base_url))
    _check(api, name, events, result)
    assert len(replay_server.requests) == 1


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for p in self.pieces:
            yield p


@pytest.mark.anyio
@pytest.mark.parametrize(("api", "name"), CASES, ids=[f"{a}/{n}" for a, n in CASES])
async def test_fixture_replay_one_byte_reads(api: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _skip_if_missing(api)
    body = sse_body(api, name)
    pieces = (
        chunk_bytes(body, one_byte=True) if len(body) <= 64_000 else chunk_bytes(body, seed=5, max_chunk=16)
    )

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=_Chunks(pieces))

    monkeypatch.setattr(
        _http, "client_factory", lambda timeout: httpx.AsyncClient(transport=httpx.MockTransport(handler))
    )
    events, result = await _run(_model(api, "http://mock.invalid/v1"))
    _check(api, name, events, result)
