"""examples/extensions/README.md: it lists every shipped example, and its ten-line extension works in a
real session."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.coding.extensions.setup import start_extensions
from tests.coding.extensions.fakes import ScriptedUI
from tests.tui.helpers import make_session

from .conftest import EXAMPLES


def test_the_readme_lists_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+\.py)` \|", readme, re.MULTILINE))
    assert listed == {p.name for p in EXAMPLES.glob("*.py")} and len(listed) >= 10


@pytest.mark.anyio
async def test_the_ten_line_extension_works(tmp_path: Path) -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```", readme, re.S)
    assert match is not None
    code = match.group(1)
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    path = tmp_path / "edits.py"
    path.write_text(code)
    steps = [faux_assistant_message([faux_tool_call("write", {"path": "a.txt", "content": "a"}, id="w")],
                                    stop_reason="toolUse"), faux_assistant_message("ok")]
    session, _ = make_session(tmp_path, steps, extension_paths=[str(path)])
    ui = ScriptedUI()
    session.extensions.runtime.set_ui(ui)
    assert await start_extensions(session.extensions) == []
    await session.prompt("write a")
    await session.wait_for_idle()
    await session.prompt("/edits")
    assert ui.statuses == {"edits": "✎ 1 edits"} and ui.notices == [("info", "1 edits so far")]
