"""Scenario builders shared by the snapshot tests and scripts/make_screenshots.py.

Each ``build_<name>()`` returns ``(app, run_before, size)``: a deterministic ``PiApp`` and the async driver
that puts it into the state to capture. Every state is a real ``PiApp`` + ``AgentSession`` run on the faux
provider, driven through the editor like a user. Mid-run states are held, not faked: :class:`HeldStream` lets the
faux reply stream but holds its end (an open tail), :func:`hold_tool` makes a tool report partial output and wait
(a running call, later calls queued).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentToolResult, BeforeToolCallResult
from pi_tui.ai.events import AssistantMessageEventStream
from pi_tui.ai.providers.faux import faux_assistant_message, faux_text, faux_thinking, faux_tool_call
from pi_tui.ai.types import TextContent
from pi_tui.tui.local_probe import models_from_listing
from pi_tui.tui.widgets.transcript_items import ToolItem
from tests.tui.helpers import SNAPSHOT_CWD, make_app, offline_session, settle, snapshot_session, wait_until

Driver = Callable[[Any], Awaitable[None]]
Scenario = tuple[Any, Driver, tuple[int, int]]

SIZE = (110, 36)


async def _type(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")


class HeldStream:
    """Wraps a session's stream function: the faux provider's events pass through as they stream, but the final
    ``done``/``error`` event is held until :meth:`release` (so the reply stays mid-stream for the capture)."""

    def __init__(self, session: Any) -> None:
        self.inner = session.agent.stream_fn
        session.agent.stream_fn = self
        self.holding = False
        self._release = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, model: Any, context: Any, options: Any = None) -> AssistantMessageEventStream:
        inner = self.inner(model, context, options)
        outer = AssistantMessageEventStream()

        async def pump() -> None:
            async for event in inner:
                if event.type in ("done", "error"):
                    self.holding = True
                    await self._release.wait()
                outer.push(event)
            outer.end(await inner.result())

        task = asyncio.ensure_future(pump())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return outer

    def release(self) -> None:
        self._release.set()


def hold_tool(session: Any, name: str, partial: str) -> asyncio.Event:
    """Make the session's ``name`` tool report ``partial`` as live output and wait until the returned event is
    set (then it returns ``partial`` as its result). The call line, events and panel are the real ones."""
    tool = next(t for t in session.agent.state.tools if t.name == name)
    release = asyncio.Event()

    async def execute(tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
        result = AgentToolResult(content=[TextContent(text=partial)], details={})
        if on_update is not None:
            pending = on_update(result)
            if inspect.isawaitable(pending):
                await pending
        await release.wait()
        return result

    object.__setattr__(tool, "execute", execute)
    return release


def _tool(app: Any, call_id: str) -> ToolItem | None:
    return app.view.tools.get(call_id)


def build_first_screen_offline() -> Scenario:
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    app = make_app(offline_session(SNAPSHOT_CWD))
    return app, settle, SIZE


STREAM_TEXT = ("Here is a function that adds two numbers:\n\n```python\ndef add(a: int, b: int) -> int:\n"
               "    \"\"\"Return the sum.\"\"\"\n    return a + b\n\n\nprint(add(2, 3))\n```\n\nIt works for")


def build_streaming() -> Scenario:
    session, _ = snapshot_session([faux_assistant_message([
        faux_thinking("The user wants a tiny typed function with a docstring."), faux_text(STREAM_TEXT)])],
        reasoning=True)
    held = HeldStream(session)
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Write an add function in Python")
        # every delta has reached the view; the reply has not ended
        await wait_until(pilot, lambda: held.holding and app.view.current is not None
                         and app.view.current.plain_text().rstrip().endswith("It works for"))
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def build_tool_panel() -> Scenario:
    """Sequential tools: read done, grep failed, write blocked by a guard hook, bash running (live output),
    ls queued behind it."""
    (SNAPSHOT_CWD / "src").mkdir(parents=True, exist_ok=True)
    (SNAPSHOT_CWD / "src" / "app.py").write_text("".join(f"line {i}\n" for i in range(1, 41)))
    calls = [faux_tool_call("read", {"path": "src/app.py", "offset": 1, "limit": 40}, id="call_read"),
             faux_tool_call("grep", {"pattern": "TODO", "path": "lib"}, id="call_grep"),
             faux_tool_call("write", {"path": "/etc/passwd", "content": "x"}, id="call_write"),
             faux_tool_call("bash", {"command": "pytest -q"}, id="call_bash"),
             faux_tool_call("ls", {"path": "docs"}, id="call_ls")]
    session, _ = snapshot_session([faux_assistant_message(calls, stop_reason="toolUse")],
                                  tools=["read", "bash", "edit", "write", "grep", "find", "ls"])
    session.agent.tool_execution = "sequential"

    async def guard(ctx: Any, *_: Any) -> BeforeToolCallResult | None:
        path = str((ctx.args or {}).get("path", "")) if isinstance(ctx.args, dict) else ""
        return BeforeToolCallResult(block=True) if path.startswith("/etc/") else None

    session.agent.before_tool_call = guard
    hold_tool(session, "bash", "collected 12 items\n.......")
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Check the project")
        await wait_until(pilot, lambda: (bash := _tool(app, "call_bash")) is not None and bash.status == "running"
                         and bool(bash.partial_text))
        await pilot.press("f2")
        # The panel is built in a worker and then focused; it opens on the running bash call (it follows it).
        await wait_until(pilot, lambda: app.tool_panel.is_built and app.focused is app.tool_panel.option_list
                         and len(app.tool_panel.calls) == 5)
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, (140, 40)


def build_narrow_tool_panel() -> Scenario:
    """The tool panel on a 60x16 terminal: it covers the transcript at full width, one-line header."""
    app, drive, _ = build_tool_panel()
    return app, drive, (60, 16)


def build_queue() -> Scenario:
    call = faux_tool_call("bash", {"command": "npm test"}, id="call_npm")
    session, _ = snapshot_session([faux_assistant_message([faux_text("Running the tests."), call],
                                                          stop_reason="toolUse")])
    hold_tool(session, "bash", "")
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Run the tests")
        await wait_until(pilot, lambda: (t := _tool(app, "call_npm")) is not None and t.status == "running")
        await _type(pilot, "Use the --runInBand flag")  # Enter while working: a steering message
        app.prompt_input.insert("Then update CHANGELOG.md")
        await pilot.press("ctrl+f")  # the follow-up key
        await wait_until(pilot, lambda: session.steering_messages == ["Use the --runInBand flag"]
                         and session.follow_up_messages == ["Then update CHANGELOG.md"])
        app.prompt_input.insert("also check lint")
        await pilot.pause(0.1)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def build_narrow_queue() -> Scenario:
    """Four queued messages at 60x16: the capped queue shows one and counts the rest next to the hint."""
    call = faux_tool_call("bash", {"command": "npm test"}, id="call_npm")
    session, _ = snapshot_session([faux_assistant_message([faux_text("Running the tests."), call],
                                                          stop_reason="toolUse")])
    hold_tool(session, "bash", "")
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await _type(pilot, "Run the tests")
        await wait_until(pilot, lambda: (t := _tool(app, "call_npm")) is not None and t.status == "running")
        for text in ("Use the --runInBand flag", "Skip the e2e suite"):
            await _type(pilot, text)  # Enter while working: steering
        for text in ("Then update CHANGELOG.md", "And bump the version"):
            app.prompt_input.insert(text)
            await pilot.press("ctrl+f")  # follow-up
        await wait_until(pilot, lambda: len(session.steering_messages) == 2 and len(session.follow_up_messages) == 2)
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
