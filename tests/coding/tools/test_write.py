"""write tool: tools.test.ts "write" and the json-tool-loop trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.tools.write import WRITE_DESCRIPTION, WRITE_PARAMETERS, WriteTool

from .helpers import run, text_of

pytestmark = pytest.mark.anyio


async def test_creates_parent_dirs_and_reports_length(tmp_path: Path) -> None:
    result = await run(WriteTool(str(tmp_path)), {"path": "out/summary.txt", "content": "notes.txt now greets pi\n"})
    assert text_of(result) == "Successfully wrote 24 bytes to out/summary.txt"  # as in the pi trace
    assert (tmp_path / "out" / "summary.txt").read_text() == "notes.txt now greets pi\n"
    artifact = result.details["artifacts"][0]
    assert artifact == {
        "title": "out/summary.txt",
        "kind": "diff",
        "content": "--- /dev/null\n+++ b/out/summary.txt\n@@ -0,0 +1 @@\n+notes.txt now greets pi",
        "path": "out/summary.txt",
    }


async def test_overwrite_diff_and_byte_count(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("old\n")
    result = await run(WriteTool(str(tmp_path)), {"path": "f.txt", "content": "new \U0001f600\n"})
    # the real UTF-8 size (pi 0.73 said 7: UTF-16 code units; pi 0.85.0 called that count misleading)
    assert text_of(result) == "Successfully wrote 9 bytes to f.txt"
    assert (tmp_path / "f.txt").stat().st_size == 9
    assert (tmp_path / "f.txt").read_text() == "new \U0001f600\n"
    assert "-old\n+new \U0001f600" in result.details["artifacts"][0]["content"]


async def test_write_error_is_reported(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("I am a file")
    with pytest.raises(Exception, match=r"^(EEXIST|ENOTDIR): "):
        await run(WriteTool(str(tmp_path)), {"path": "blocker/inner.txt", "content": "x"})


def test_schema_matches_pi_request() -> None:
    request = Path(__file__).resolve().parents[2] / "fixtures" / "pi-traces" / "coding" / "json-tool-loop" / "requests" / "001.json"
    if not request.exists():
        pytest.skip("trace not available")
    tools = {t["function"]["name"]: t["function"] for t in json.loads(request.read_text())["body"]["tools"]}
    assert tools["write"]["description"] == WRITE_DESCRIPTION
    assert tools["write"]["parameters"] == WRITE_PARAMETERS
