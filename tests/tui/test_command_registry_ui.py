"""Issue 11 "Built-ins through the same seams": the TUI's slash commands are one list, the session's
``CommandRegistry``. A command an extension registers there (before the app starts or while it runs) shows up in
Tab completion, the F1 palette and ``/hotkeys`` and runs on submit, next to the built-ins; unknown commands are
still refused; a failing extension command is one error notice; an extension command named like a built-in loses
(pi). Pilot with a real AgentSession on the faux provider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.extensions.registries import CommandSpec
from pi_tui.tui.commands import BUILTIN_COMMANDS

from .helpers import make_app, make_session, transcript_text, wait_until


async def _palette_titles(pilot: Any) -> str:
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await pilot.press("f1")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    palette = app.screen
    await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 10)
    await pilot.pause(0.2)
    ol = palette.query_one(CommandList)
    titles = "\n".join(str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count))
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette))
    return titles


@pytest.mark.anyio
async def test_a_registered_extension_command_appears_everywhere_and_runs(tmp_path: Path) -> None:
    session, faux = make_session(tmp_path, [faux_assistant_message("never sent")])
    calls: list[tuple[str, Any]] = []

    async def greet(arg: str, context: Any) -> None:
        calls.append((arg, context))
        context.add_notice("info", f"hello {arg}")

    session.commands.register(CommandSpec("greet", "Say hello from an extension", greet, usage="[who]",
                                          source="extension", owner="greeter.py"))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        # the built-ins joined the session's one list (with /reload, which the session's extension runtime
        # registers); the app lists the built-ins first
        assert {c.name for c in session.commands.all()} == {"greet", "reload", *(c.name for c in BUILTIN_COMMANDS)}
        assert [c.name for c in app.slash_commands()] == ["reload", *(c.name for c in BUILTIN_COMMANDS), "greet"]
        app.prompt_input.insert("/gre")
        await pilot.press("tab")
        assert app.prompt_input.text == "/greet "
        app.prompt_input.set_text("")
        assert "/greet" in await _palette_titles(pilot)
        app.prompt_input.insert("/hotkeys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "/greet [who]" in transcript_text(app))
        assert "/model [search], /new" in transcript_text(app)
        app.prompt_input.insert("/greet world")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "hello world" in transcript_text(app))
        assert calls == [("world", app)]
        assert faux.get_pending_response_count() == 1 and not app.working  # nothing went to the model
        # registered while the app runs: seen at once, and gone again once unregistered
        session.commands.register(CommandSpec("later", "Registered late", greet, source="template",
                                              owner="/p/later.md"))
        app.prompt_input.insert("/lat")
        await pilot.press("tab")
        assert app.prompt_input.text == "/later "
        app.prompt_input.set_text("")
        assert "/later" in await _palette_titles(pilot)
        session.commands.unregister("later")
        app.prompt_input.insert("/later x")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Unknown command: /later." in transcript_text(app))
        assert calls == [("world", app)] and faux.get_pending_response_count() == 1


@pytest.mark.anyio
async def test_a_failing_extension_command_is_one_error_and_the_app_goes_on(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("still here")])

    def broken(arg: str, context: Any) -> None:
        raise RuntimeError("disk on fire")

    session.commands.register(CommandSpec("boom", "Fails", broken, source="extension", owner="boom.py"))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/boom")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "/boom (extension boom.py) failed: disk on fire" in transcript_text(app))
        assert transcript_text(app).count("disk on fire") == 1
        app.prompt_input.insert("question")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "still here" in transcript_text(app) and not app.working)


@pytest.mark.anyio
async def test_an_extension_command_named_like_a_built_in_loses_with_a_warning(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    ran: list[str] = []
    session.commands.register(CommandSpec("tools", "Not the panel", lambda arg, ctx: ran.append(arg),
                                          source="extension", owner="shadow.py"))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        assert "Extension command '/tools' (shadow.py) conflicts with a built-in command" in transcript_text(app)
        spec = session.commands.get("tools")
        assert spec is not None and spec.source == "builtin"
        app.prompt_input.insert("/tools")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.tool_panel.display))
        assert ran == []


@pytest.mark.anyio
async def test_built_in_commands_work_before_the_session_exists() -> None:
    """The app's own registry serves until the session's is attached: /hotkeys while the session fails."""

    def broken() -> None:
        raise ValueError("no model")

    app = make_app(None, session_factory=broken)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "Could not start the session" in transcript_text(app))
        app.prompt_input.insert("/hotkeys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "/hotkeys, /quit" in transcript_text(app))
