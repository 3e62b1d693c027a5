"""JSON/RPC ``message_update`` fixes pi shipped after 0.73.1 that pi-tui does not need (PI_FIXES.md).

pi 0.84.0 cut ``message_update`` down to the ``assistantMessageEvent`` delta (no cumulative ``message``, no
``partial``: pi #7290); its next releases then put back what that cut lost: cumulative usage while streaming
(0.84.2, pi #7982) and the tool call's id and name on ``toolcall_start`` (0.84.3, pi #7953). pi-tui keeps pi
0.73.1's full events, so both are there already; these tests pin that down, in JSON and in RPC mode, on the
recorded tool-loop scenario.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coding.modes.test_partial_tool_fields import _run

USAGE_KEYS = {"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"}


@pytest.mark.parametrize("mode", ["json", "rpc"])
def test_every_message_update_carries_cumulative_usage_and_toolcall_start_names_the_call(
    tmp_path: Path, mode: str
) -> None:
    lines = _run("json-tool-loop", tmp_path, mode)
    updates = [e for e in lines if e.get("type") == "message_update"]
    assert updates
    for e in updates:
        assert USAGE_KEYS <= set(e["message"]["usage"]), e["assistantMessageEvent"]["type"]
        assert USAGE_KEYS <= set(e["assistantMessageEvent"]["partial"]["usage"])
    starts = [e for e in updates if e["assistantMessageEvent"]["type"] == "toolcall_start"]
    assert starts
    for e in starts:
        ci = e["assistantMessageEvent"]["contentIndex"]
        for block in (e["assistantMessageEvent"]["partial"]["content"][ci], e["message"]["content"][ci]):
            assert block["type"] == "toolCall" and block["id"] and block["name"]
    ends = [e for e in lines if e.get("type") == "message_end" and e["message"].get("role") == "assistant"]
    assert ends and all(USAGE_KEYS <= set(e["message"]["usage"]) for e in ends)
