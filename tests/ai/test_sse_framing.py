"""SSE framing through open_sse and the openai-completions provider (cases/README.md cases 2 and 3).

Reads are delivered with exact boundaries by ``httpx.MockTransport``, so a CR at the end of one read and
the LF at the start of the next really arrive in separate reads.
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers._http import open_sse
from pi_tui.ai.types import Context, Model, UserMessage

from .helpers import mock_reads

MODEL = Model(id="m", api="openai-completions", provider="openai", base_url="http://mock.invalid/v1")

CASE2_READS = [
    b'data:{"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\r\n\r\n'
    b'data: {"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}\r',
    b'\n\r\nevent: message\ndata:{"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop"}]}\n\n',
    b"data:[DONE]\r\n\r\n",
]

CASE3_BODY = b""": OPENROUTER PROCESSING

retry: 3000

id: 1
data: {"choices":[{"index":0,"delta":{"content":"A"},"finish_reason":null}]}

:

data:

event: ping
data:

: keepalive
data: {"choices":[{"index":0,"delta":{"content":"B"},"finish_reason":"stop"}]}

data: [DONE]

"""


async def _events(reads: list[bytes], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    mock_reads(monkeypatch, reads)
    async with open_sse(url="http://mock.invalid/x", headers={}, body={}, model=MODEL, options=None) as sse:
        return [(e.event, e.data) async for e in sse]


async def _complete(reads: list[bytes], monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], Any]:
    mock_reads(monkeypatch, reads)
    s = openai_completions.stream(
        MODEL, Context(messages=[UserMessage(content="hi")]), StreamOptions(api_key="k")
    )
    events = [e async for e in s]
    return events, await s.result()


@pytest.mark.anyio
async def test_case2_crlf_split_across_reads_yields_three_events_then_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = await _events(CASE2_READS, monkeypatch)
    assert [d for _, d in events][-1] == "[DONE]"
    assert len(events) == 4
    assert all(d.startswith("{") for _, d in events[:3])
    assert [ev for ev, _ in events] == ["message"] * 4


@pytest.mark.anyio
async def test_case2_provider_text_is_hello(monkeypatch: pytest.MonkeyPatch) -> None:
    events, result = await _complete(CASE2_READS, monkeypatch)
    assert result.stop_reason == "stop"
    assert [b.text for b in result.content] == ["Hello!"]
    assert [e.delta for e in events if e.type == "text_delta"] == ["Hel", "lo", "!"]


@pytest.mark.anyio
async def test_case2_anthropic_variant_keeps_event_name_with_data(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = [
        b"event: content_block_delta\r",
        b'\ndata:{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}\r\n\r\n',
    ]
    events = await _events(reads, monkeypatch)
    assert events == [
        (
            "content_block_delta",
            '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}',
        )
    ]


@pytest.mark.anyio
async def test_cr_only_line_ends_and_one_space_stripped(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = [b"event: a\rdata:  two spaces\r\r", b"data:x\r", b"\r"]
    events = await _events(reads, monkeypatch)
    assert events == [("a", " two spaces"), ("message", "x")]


@pytest.mark.anyio
async def test_every_single_byte_read_of_case2(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(CASE2_READS)
    _, result = await _complete([body[i : i + 1] for i in range(len(body))], monkeypatch)
    assert result.content[0].text == "Hello!"


@pytest.mark.anyio
async def test_utf8_character_split_across_reads_and_bom(monkeypatch: pytest.MonkeyPatch) -> None:
    body = '\ufeffdata: {"choices":[{"index":0,"delta":{"content":"h\u00e9\U0001f600"},"finish_reason":"stop"}]}\n\n'.encode()
    cut = body.index("\U0001f600".encode()) + 2
    _, result = await _complete([body[:cut], body[cut:]], monkeypatch)
    assert result.content[0].text == "h\u00e9\U0001f600"
    assert result.stop_reason == "stop"


@pytest.mark.anyio
async def test_case3_comments_keepalives_and_empty_events_never_reach_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = await _events([CASE3_BODY], monkeypatch)
    assert [d for _, d in events] == [
        '{"choices":[{"index":0,"delta":{"content":"A"},"finish_reason":null}]}',
        '{"choices":[{"index":0,"delta":{"content":"B"},"finish_reason":"stop"}]}',
        "[DONE]",
    ]


@pytest.mark.anyio
async def test_case3_provider_text_ab_with_exactly_two_deltas(monkeypatch: pytest.MonkeyPatch) -> None:
    events, result = await _complete([CASE3_BODY], monkeypatch)
    assert result.stop_reason == "stop"
    assert result.error_message is None
    assert result.content[0].text == "AB"
    assert len([e for e in events if e.type == "text_delta"]) == 2


@pytest.mark.anyio
async def test_stream_without_done_marker_or_final_blank_line_still_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = b'data: {"choices":[{"index":0,"delta":{"content":"z"},"finish_reason":"stop"}]}'
    _, result = await _complete([body], monkeypatch)
    assert result.content[0].text == "z"
    assert result.stop_reason == "stop"
