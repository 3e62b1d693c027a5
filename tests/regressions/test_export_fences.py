"""``/export`` Markdown keeps every tool output inside its own code block, even when the output itself holds
a ``` fence (found by H11: a tool result printing a Markdown file closed the export's fence early, and the
rest of the export rendered as prose / headings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_text, faux_tool_call
from pi_tui.coding.export import export_markdown, transcript_markdown
from pi_tui.coding.messages import BashExecutionMessage

from ..coding.session_core.helpers import EchoTool, make_session

pytestmark = pytest.mark.anyio

TRICKY = "# Title\n\n```python\nprint('x')\n```\n\n## not a heading of the export\n````\nfour"


async def test_tool_output_with_fences_stays_in_one_code_block(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses(
        [
            faux_assistant_message(
                [faux_text("Reading it."), faux_tool_call("echo", {"text": TRICKY})], stop_reason="toolUse"
            ),
            faux_assistant_message("Done."),
        ]
    )
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()], persist=False)
    await session.prompt("show me")
    session.agent.state.messages.append(
        BashExecutionMessage(command="cat README.md", output=TRICKY, exit_code=2, timestamp=1)
    )
    tokens = MarkdownIt().parse(transcript_markdown(session))
    fences = [t for t in tokens if t.type == "fence"]
    # tool-call arguments (JSON), the tool result and the user bash output: each one block, content intact
    assert [t.content.rstrip("\n") for t in fences[1:]] == [TRICKY, TRICKY]
    assert TRICKY.replace("\n", "\\n") in fences[0].content  # JSON-escaped inside the arguments block
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert "not a heading of the export" not in headings and "Title" not in headings
    assert "Command exited with code 2" in transcript_markdown(session)


async def test_export_to_a_missing_directory_names_the_path(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model(), persist=False)
    target = str(tmp_path / "missing" / "x.md")
    with pytest.raises(OSError) as info:
        export_markdown(session, target)
    assert str(info.value) == f"Cannot write {target}: No such file or directory"
