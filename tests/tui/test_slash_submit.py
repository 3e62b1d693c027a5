"""Issue 9 #11 and the small slash-command items: unknown commands, ``//`` literals, ``/name``, ``/new`` during
a run, the F1 palette's entries, one announcement per model switch. Pilot with a real AgentSession on the
faux provider; keys are pressed one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call, register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.commands import classify_submit
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for, last_user_text


def keys(text: str) -> list[str]:
    """Key names for typing ``text``, then Enter."""
    return [*keys_for(text), "enter"]


def echo(seen: list[str]) -> Any:
    def step(context: Any, *_: Any) -> Any:
        seen.append(last_user_text(context))
        return faux_assistant_message(f"echo: {last_user_text(context)}")
    return step


def test_classify_submit() -> None:
    assert classify_submit("/export out.md").kind == "command"
    unknown = classify_submit("/exprot")
    assert unknown.kind == "unknown" and unknown.suggestion == "export"
    assert classify_submit("/hot").suggestion == "hotkeys"  # a unique prefix
    assert classify_submit("/zzzzzz").suggestion is None
    assert (classify_submit("//exprot").kind, classify_submit("//exprot").text) == ("message", "/exprot")
    assert (classify_submit(" /exprot").kind, classify_submit(" /exprot").text) == ("message", "/exprot")
    assert classify_submit("/etc/hosts has a typo").kind == "message"  # a path, not a command
    assert classify_submit("/").kind == "unknown"
    assert classify_submit("hello /export").kind == "message"


@pytest.mark.anyio
async def test_unknown_slash_command_is_refused_and_a_double_slash_sends_it(tmp_path: Path) -> None:
    seen: list[str] = []
    session, faux = make_session(tmp_path, [echo(seen), echo(seen), echo(seen)])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys("/exprot"))
        await wait_until(pilot, lambda: "Unknown command: /exprot" in transcript_text(app))
        assert "Did you mean /export?" in transcript_text(app)
        assert app.prompt_input.text == "/exprot"  # given back to fix, not lost
        assert faux.get_pending_response_count() == 3 and not app.working  # nothing went to the model
        await pilot.press("ctrl+c")
        await pilot.press(*keys("//exprot is a typo"))
        await wait_until(pilot, lambda: "echo: /exprot is a typo" in transcript_text(app))
        await wait_until(pilot, lambda: not app.working)
        await pilot.press(*keys("/etc/hosts is wrong"))
        await wait_until(pilot, lambda: "echo: /etc/hosts is wrong" in transcript_text(app))
        await wait_until(pilot, lambda: not app.working)
    assert seen == ["/exprot is a typo", "/etc/hosts is wrong"]


@pytest.mark.anyio
async def test_name_without_argument_shows_the_name(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys("/name"))
        await wait_until(pilot, lambda: "Session name: (unnamed)" in transcript_text(app))
        await pilot.press(*keys("/name demo run"))
        await wait_until(pilot, lambda: "Session name set: demo run" in transcript_text(app))
        await pilot.press(*keys("/name"))
        await wait_until(pilot, lambda: "Session name: demo run" in transcript_text(app))
        assert "Usage" not in transcript_text(app)


@pytest.mark.anyio
async def test_new_during_a_run_asks_before_aborting(tmp_path: Path) -> None:
    from pi_tui.tui.modals.confirm import ConfirmModal

    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 5"}), stop_reason="toolUse"),
        faux_assistant_message("never"),
    ])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys("go"))
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        await pilot.press(*keys("keep me"))  # a queued steer: back in the editor if the run is aborted
        await wait_until(pilot, lambda: app.queue_view.steering == ["keep me"])
        await pilot.press(*keys("/new"))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("enter")  # Cancel has focus: a stray Enter keeps the run
        await wait_until(pilot, lambda: "Kept the current session" in transcript_text(app))
        assert app.working and session.is_streaming
        await pilot.press(*keys("/new"))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.click("#confirm-yes")
        await wait_until(pilot, lambda: "New session started" in transcript_text(app))
        assert not app.working and not session.is_streaming
        assert "go" not in [m for m in transcript_text(app).split("\n")]
        assert app.prompt_input.text == "keep me"


@pytest.mark.anyio
async def test_palette_lists_the_apps_commands_only(tmp_path: Path) -> None:
    from textual.command import CommandList, CommandPalette

    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        await wait_until(pilot, lambda: palette.query_one(CommandList).option_count > 10)
        await pilot.pause(0.2)
        ol = palette.query_one(CommandList)
        titles = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
        joined = "\n".join(titles)
        assert "/export" in joined and "Tool-call panel" in joined and "F2 / Ctrl+B" in joined
        for textual_own in ("Keys", "Screenshot", "Maximize", "Change theme"):
            assert textual_own not in joined
        await pilot.press(*"theme", "enter")
        from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker

        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        assert app.screen.title_text == "Select theme"


@pytest.mark.anyio
async def test_model_switch_is_announced_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    faux = register_faux_provider(provider="faux", models=[
        {"id": "one", "name": "Model One", "context_window": 200000},
        {"id": "two", "name": "Model Two", "context_window": 200000},
    ])
    try:
        session = create_agent_session(str(tmp_path), no_session=True)
        for model in faux.models:
            session.models.allow(faux.provider, model.id, model)
        session.set_model(faux.models[0])
        session.agent.state.messages = []
        monkeypatch.setattr(session.models, "available_models", lambda: list(faux.models))
        app = make_app(session)
        async with app.run_test(size=(110, 30)) as pilot:
            await wait_until(pilot, lambda: app.session_ready)
            await pilot.press("ctrl+p")
            await wait_until(pilot, lambda: "Switched to Model Two" in transcript_text(app))
            await pilot.pause(0.1)
            text = transcript_text(app)
            assert "Model: faux/two" not in text and text.count("Model Two") == 1
            app.run_slash("/model")
            await wait_until(pilot, lambda: len(app.screen_stack) > 1)
            await pilot.press(*"one", "enter")
            await wait_until(pilot, lambda: "Switched to Model One" in transcript_text(app))
            await pilot.pause(0.1)
            assert "Model: faux/one" not in transcript_text(app)
    finally:
        faux.unregister()
