"""Scenario builders shared by the snapshot tests and scripts/make_screenshots.py.

Each ``build_<name>()`` returns ``(app, run_before, size)``: a deterministic ``PiApp`` and the async driver
that puts it into the state to capture. Mid-stream states are produced by feeding the app's session view the
same agent events the session emits (pydantic models from ``pi_tui.agent.events``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pi_tui.agent.events import (
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from pi_tui.agent.types import AgentToolResult
from pi_tui.ai.events import TextDeltaEvent
from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_thinking, faux_tool_call
from pi_tui.ai.types import TextContent, UserMessage
from pi_tui.coding.session_events import QueueUpdateEvent
from pi_tui.tui.local_probe import models_from_listing
from tests.tui.helpers import SNAPSHOT_CWD, make_app, offline_session, settle, snapshot_session, wait_until

Driver = Callable[[Any], Awaitable[None]]
Scenario = tuple[Any, Driver, tuple[int, int]]

SIZE = (110, 36)


async def _type(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")


def _emit(app: Any, *events: Any) -> None:
    for e in events:
        app.view.handle(e)


def _delta(message: Any) -> MessageUpdateEvent:
    return MessageUpdateEvent(message=message, assistant_message_event=TextDeltaEvent(
        content_index=0, delta="", partial=message))


def build_first_screen_offline() -> Scenario:
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    app = make_app(offline_session(SNAPSHOT_CWD))
    return app, settle, SIZE


STREAM_TEXT = ("Here is a function that adds two numbers:\n\n```python\ndef add(a: int, b: int) -> int:\n"
               "    \"\"\"Return the sum.\"\"\"\n    return a + b\n\n\nprint(add(2, 3))\n```\n\nIt works for")


def build_streaming() -> Scenario:
    session, _ = snapshot_session(reasoning=True)
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        user = UserMessage(content=[TextContent(text="Write an add function in Python")])
        partial = faux_assistant_message([faux_thinking("The user wants a tiny typed function with a docstring."),
                                          faux_text(STREAM_TEXT)])
        _emit(app, AgentStartEvent(), MessageStartEvent(message=user), MessageEndEvent(message=user),
              MessageStartEvent(message=partial), _delta(partial))
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def _tool_result(text: str, **details: Any) -> AgentToolResult:
    return AgentToolResult(content=[TextContent(text=text)], details=details or {})


def build_tool_panel() -> Scenario:
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        calls = [faux_tool_call("read", {"path": "src/app.py", "offset": 1, "limit": 40}, id="call_read"),
                 faux_tool_call("bash", {"command": "pytest -q"}, id="call_bash"),
                 faux_tool_call("grep", {"pattern": "TODO", "path": "src"}, id="call_grep"),
                 faux_tool_call("write", {"path": "/etc/passwd", "content": "x"}, id="call_write"),
                 faux_tool_call("ls", {"path": "docs"}, id="call_ls")]
        msg = faux_assistant_message(calls, stop_reason="toolUse")
        user = UserMessage(content=[TextContent(text="Check the project")])
        _emit(app, AgentStartEvent(), MessageStartEvent(message=user), MessageEndEvent(message=user),
              MessageStartEvent(message=msg), MessageEndEvent(message=msg))
        _emit(app,
              ToolExecutionStartEvent(tool_call_id="call_read", tool_name="read", args=calls[0].arguments),
              ToolExecutionEndEvent(tool_call_id="call_read", tool_name="read", is_error=False,
                                    result=_tool_result("\n".join(f"line {i}" for i in range(1, 41)))),
              ToolExecutionStartEvent(tool_call_id="call_bash", tool_name="bash", args=calls[1].arguments),
              ToolExecutionUpdateEvent(tool_call_id="call_bash", tool_name="bash", args=calls[1].arguments,
                                       partial_result=_tool_result("collected 12 items\n.......")),
              ToolExecutionStartEvent(tool_call_id="call_grep", tool_name="grep", args=calls[2].arguments),
              ToolExecutionEndEvent(tool_call_id="call_grep", tool_name="grep", is_error=True,
                                    result=_tool_result("Path not found: src")),
              ToolExecutionEndEvent(tool_call_id="call_write", tool_name="write", is_error=True,
                                    result=_tool_result("Tool execution was blocked")))
        await pilot.press("f2")
        # The panel is built in a worker and then focused; it opens on the running bash call (it follows it).
        await wait_until(pilot, lambda: app.tool_panel.is_built and app.focused is app.tool_panel.option_list)
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, (140, 40)


def build_narrow_tool_panel() -> Scenario:
    """The tool panel on a 60x16 terminal: it covers the transcript at full width, one-line header."""
    app, drive, _ = build_tool_panel()
    return app, drive, (60, 16)


def build_queue() -> Scenario:
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        call = faux_tool_call("bash", {"command": "npm test"}, id="call_npm")
        msg = faux_assistant_message([faux_text("Running the tests."), call], stop_reason="toolUse")
        user = UserMessage(content=[TextContent(text="Run the tests")])
        _emit(app, AgentStartEvent(), MessageStartEvent(message=user), MessageEndEvent(message=user),
              MessageStartEvent(message=msg), MessageEndEvent(message=msg),
              ToolExecutionStartEvent(tool_call_id="call_npm", tool_name="bash", args=call.arguments),
              QueueUpdateEvent(steering=["Use the --runInBand flag"], follow_up=["Then update CHANGELOG.md"]))
        app.prompt_input.insert("also check lint")
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def build_narrow_queue() -> Scenario:
    """Four queued messages at 60x16: the capped queue shows one and counts the rest next to the hint."""
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        call = faux_tool_call("bash", {"command": "npm test"}, id="call_npm")
        msg = faux_assistant_message([faux_text("Running the tests."), call], stop_reason="toolUse")
        user = UserMessage(content=[TextContent(text="Run the tests")])
        _emit(app, AgentStartEvent(), MessageStartEvent(message=user), MessageEndEvent(message=user),
              MessageStartEvent(message=msg), MessageEndEvent(message=msg),
              ToolExecutionStartEvent(tool_call_id="call_npm", tool_name="bash", args=call.arguments),
              QueueUpdateEvent(steering=["Use the --runInBand flag", "Skip the e2e suite"],
                               follow_up=["Then update CHANGELOG.md", "And bump the version"]))
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, (60, 16)


DIFF = "\n".join([
    "--- a/src/app.py",
    "+++ b/src/app.py",
    "@@ -1,5 +1,6 @@",
    " import os",
    "-import sys",
    "+import sys, json",
    " ",
    " def main():",
    '-    print("hi")',
    '+    data = json.loads(os.environ.get("CFG", "{}"))',
    '+    print("hi", data)',
])


def build_notification_artifact() -> Scenario:
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        session.notify("info", "Indexed 42 files")
        session.notify("warning", "Context is 75% full")
        session.add_artifact("Proposed patch", "diff", DIFF, path="src/app.py")
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def build_error_reply() -> Scenario:
    session, _ = snapshot_session([faux_assistant_message(
        "", stop_reason="error", error_message='429 {"error":{"message":"Rate limit reached"}}')])
    session.settings.retry.enabled = False
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Hello?")
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)

    return app, drive, SIZE


def build_model_picker() -> Scenario:
    session, _ = snapshot_session()
    app = make_app(session)

    # What the startup probe returns when an Ollama server lists two models (same parsing code).
    app.local_models = models_from_listing("ollama", "http://127.0.0.1:11434/v1",
                                           {"data": [{"id": "qwen2.5-coder:7b"}, {"id": "llama3.2:3b"}]})

    async def drive(pilot: Any) -> None:
        from textual.widgets import OptionList

        from pi_tui.tui.modals.model_picker import ModelPicker

        await settle(pilot)
        await pilot.press("ctrl+l")
        # the picker is up and filled (a fixed pause was not enough on a loaded machine)
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker)
                         and app.screen.query_one(OptionList).option_count > 0)
        await pilot.pause(0.1)

    return app, drive, SIZE


def build_conversation(theme: str = "dark", size: tuple[int, int] = SIZE) -> Scenario:
    Path(SNAPSHOT_CWD / "notes.md").write_text("# Notes\n\n- buy milk\n- write tests\n")
    session, _ = snapshot_session([
        faux_assistant_message([faux_text("Let me read it."), faux_tool_call("read", {"path": "notes.md"},
                                                                             id="call_1")],
                               stop_reason="toolUse"),
        faux_assistant_message("Your notes have **two** items:\n\n1. buy milk\n2. write tests\n\n"
                               "```bash\ncat notes.md | wc -l\n```"),
    ])
    app = make_app(session, theme=theme)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Summarise notes.md")
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)

    return app, drive, size


def build_light_theme() -> Scenario:
    return build_conversation("light")


def build_small_terminal() -> Scenario:
    return build_conversation("dark", (80, 24))


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "first_screen_offline": build_first_screen_offline,
    "streaming": build_streaming,
    "tool_panel": build_tool_panel,
    "narrow_tool_panel": build_narrow_tool_panel,
    "queue": build_queue,
    "narrow_queue": build_narrow_queue,
    "notification_artifact": build_notification_artifact,
    "error_reply": build_error_reply,
    "model_picker": build_model_picker,
    "light_theme": build_light_theme,
    "small_terminal": build_small_terminal,
    "conversation": build_conversation,
}
