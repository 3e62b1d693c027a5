"""Snapshot scenarios of extensions in the app (issue 11): an extension's confirm dialog (a permission
gate asking before a bash command), a custom-rendered tool result and a footer status segment. The
extension file lives at a fixed path so the screen is the same on every run."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.modals.confirm import ConfirmModal
from tests.tui.helpers import SNAPSHOT_CWD, make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE, Scenario, _type

EXTENSION_DIR = Path("/tmp/pi-tui-snapshot-extensions")

TODO_EXTENSION = """
from rich.text import Text

def activate(pi):
    items = []

    def todo(call_id, params):
        items.append(params["text"])
        return {"content": f"added {params['text']}", "details": {"items": list(items)}}

    def render_call(args, ctx):
        return Text.assemble(("todo ", "bold"), ("+ " + args.get("text", ""), "green"))

    def render_result(result, ctx):
        lines = [f"☑ {item}" if i == 0 else f"☐ {item}" for i, item in enumerate(result.details["items"])]
        return Text("\\n".join(lines), style="cyan")

    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    pi.register_tool("todo", "Add a todo item", schema, todo, render_call=render_call, render_result=render_result)
    pi.on("turn_end", lambda event, ctx: ctx.ui.set_status("todo", f"☑ 1/{len(items)} done" if items else None))
    pi.on("session_start", lambda event, ctx: ctx.ui.set_status("mode", "⏵ plan mode"))
"""

GATE_EXTENSION = """
async def gate(event, ctx):
    if event.tool_name == "bash" and "rm -rf" in event.input.get("command", ""):
        if not await ctx.ui.confirm("Allow dangerous command?", event.input["command"]):
            return {"block": True, "reason": "Blocked by user"}

def activate(pi):
    pi.on("tool_call", gate)
"""


def _extension(name: str, body: str) -> str:
    EXTENSION_DIR.mkdir(parents=True, exist_ok=True)
    path = EXTENSION_DIR / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


def build_extension_todo_status() -> Scenario:
    """A custom-rendered tool call and result (the todo tool) and two footer status segments."""
    steps = [faux_assistant_message([faux_tool_call("todo", {"text": "write tests"}, id="call_t1")],
                                    stop_reason="toolUse"),
             faux_assistant_message([faux_tool_call("todo", {"text": "ship it"}, id="call_t2")],
                                    stop_reason="toolUse"),
             faux_assistant_message("Two items are on the list.")]
    session, _ = snapshot_session(steps, extension_paths=[_extension("todo.py", TODO_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: "todo" in session.tools.all and app.footer.data.statuses.get("mode"))
        # registering the tool rebuilt the system prompt (with today's date): the fixed one again, so the
        # token figures are the same every day
        session.agent.state.system_prompt = "You are a helpful coding assistant (snapshot test)."
        await _type(pilot, "Plan the release")
        await wait_until(pilot, lambda: not app.working and app.footer.data.statuses.get("todo") == "☑ 1/2 done")
        await settle(pilot)

    return app, drive, SIZE


def build_extension_confirm() -> Scenario:
    """A permission-gate extension asks before ``rm -rf build``: its confirm dialog over the app."""
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    steps = [faux_assistant_message([faux_tool_call("bash", {"command": "rm -rf build"}, id="call_rm")],
                                    stop_reason="toolUse"),
             faux_assistant_message("Not deleted.")]
    session, _ = snapshot_session(steps, extension_paths=[_extension("gate.py", GATE_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: session.extensions.runtime.runner.has_handlers("tool_call"))
        await _type(pilot, "Clean the build directory")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.pause(0.1)

    return app, drive, SIZE


WIDGET_EXTENSION = """
def activate(pi):
    def show(event, ctx):
        ctx.ui.set_widget("plan", ["Plan (1/3 done)", "☑ 1. Add a failing test", "☐ 2. Fix the parser",
                                   "☐ 3. Update the docs"])
        ctx.ui.set_widget("hint", ["\\x1b[33m⚠ plan mode: read-only tools\\x1b[0m"], placement="belowEditor")
        ctx.ui.set_widget("gone", ["never shown"])
        ctx.ui.set_widget("gone", None)
    pi.on("session_start", show)
"""

RENDERER_EXTENSION = """
from rich.table import Table
from rich.text import Text

def activate(pi):
    def render(message, ctx):
        table = Table(title="Test run", expand=False)
        table.add_column("suite")
        table.add_column("result", justify="right")
        for suite, ok in message.details["suites"]:
            table.add_row(suite, Text("pass", style="green") if ok else Text("FAIL", style="bold red"))
        return table

    pi.register_message_renderer("test-report", render)

    def report(args, ctx):
        pi.send_message({"custom_type": "test-report", "content": "2 suites, 1 failed", "display": True,
                         "details": {"suites": [["unit", True], ["integration", False]]}})
        pi.send_message({"custom_type": "plain-note", "content": "No renderer: the default look."})
    pi.register_command("report", report, "Post a test report")
"""


def build_extension_widgets() -> Scenario:
    """Widgets above the editor (a plan) and below it (an ANSI-coloured hint); a cleared one is gone."""
    session, _ = snapshot_session([], extension_paths=[_extension("widgets.py", WIDGET_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        controller = app.extensions_controller
        await wait_until(pilot, lambda: "plan" in controller.widgets_above.blocks
                         and "hint" in controller.widgets_below.blocks)
        await pilot.pause(0.1)

    return app, drive, SIZE


def build_extension_message_renderer() -> Scenario:
    """A custom message drawn by its extension's renderer (a Rich table), next to one without a renderer."""
    session, _ = snapshot_session([], extension_paths=[_extension("report.py", RENDERER_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("report") is not None)
        await _type(pilot, "/report")
        await wait_until(pilot, lambda: sum(getattr(m, "role", "") == "custom" for m in session.messages) == 2)
        await settle(pilot)

    return app, drive, SIZE
