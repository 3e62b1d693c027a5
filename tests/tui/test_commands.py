"""Slash commands, the model picker, the command palette provider, and the local-server probe."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.commands import complete_slash, parse_slash
from pi_tui.tui.local_probe import probe_local_servers
from pi_tui.tui.modals.model_picker import ModelPicker

from .helpers import make_app, make_session, transcript_text, wait_until


def test_parse_slash() -> None:
    parsed = parse_slash("/name  my session ")
    assert parsed is not None and parsed[0].name == "name" and parsed[1] == "my session"
    assert parse_slash("/unknown thing") is None
    assert parse_slash("hello /model") is None
    assert [c.name for c in complete_slash("/c")] == ["clone", "compact", "copy", "changelog"]


async def _ready(tmp_path: Path, steps: list[Any] | None = None) -> tuple[Any, Any]:
    session, _ = make_session(tmp_path, steps or [faux_assistant_message("The **answer** is 42.")])
    return session, make_app(session)


async def _run(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")
    await pilot.pause(0.1)


@pytest.mark.anyio
async def test_name_session_copy_export_hotkeys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pi_tui.tui.clipboard.copy_with_tool", lambda text, timeout=2.0: None)
    session, app = await _ready(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/copy")
        assert "No agent messages to copy yet." in transcript_text(app)
        await _run(pilot, "question")
        await wait_until(pilot, lambda: not app.working and "42" in transcript_text(app))
        copied: list[str] = []
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        await _run(pilot, "/copy")
        await wait_until(pilot, lambda: bool(copied))
        assert copied == ["The **answer** is 42."]
        assert "OSC 52" in transcript_text(app)
        await _run(pilot, "/name")
        assert "Session name: (unnamed) · /name <name> sets one" in transcript_text(app)
        await _run(pilot, "/name refactor run")
        await wait_until(pilot, lambda: app.footer.data.session_name == "refactor run")
        assert "Session name set: refactor run" in transcript_text(app)
        assert app.title.startswith("π - refactor run - ")
        await _run(pilot, "/session")
        assert "Messages: 1 user, 1 assistant" in transcript_text(app)
        out = tmp_path / "out.md"
        await _run(pilot, f"/export {out}")
        await wait_until(pilot, lambda: out.exists())
        assert "42" in out.read_text()
        await _run(pilot, f"/export {tmp_path / 'out.html'}")
        await wait_until(pilot, lambda: (tmp_path / "out.html").exists())
        await _run(pilot, "/hotkeys")
        text = transcript_text(app)
        assert "Alt+Enter / Ctrl+F" in text and "Alt+Up / Ctrl+R" in text


@pytest.mark.anyio
async def test_theme_switch_and_bad_theme(tmp_path: Path) -> None:
    session, app = await _ready(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/theme light")
        await wait_until(pilot, lambda: app.pi_theme.name == "light")
        assert app.theme == "pi-light"
        await _run(pilot, "/theme ansi-dark")
        await wait_until(pilot, lambda: app.theme == "ansi-dark")
        await _run(pilot, "/theme nope")
        await wait_until(pilot, lambda: "Theme not found: nope" in transcript_text(app))


@pytest.mark.anyio
async def test_new_session_clears_the_transcript(tmp_path: Path) -> None:
    session, app = await _ready(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "question")
        await wait_until(pilot, lambda: not app.working and "42" in transcript_text(app))
        await _run(pilot, "/new")
        await wait_until(pilot, lambda: "New session started" in transcript_text(app))
        assert "42" not in transcript_text(app)


@pytest.mark.anyio
async def test_model_picker_filters_and_switches(tmp_path: Path) -> None:
    session, app = await _ready(tmp_path)
    from pi_tui.tui.local_probe import models_from_listing

    app.local_models = models_from_listing("ollama", "http://127.0.0.1:11434/v1",
                                           {"data": [{"id": "qwen2.5-coder:7b"}, {"id": "llama3.2:3b"}]})
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        picker = app.screen
        assert isinstance(picker, ModelPicker)
        assert [e.label for e in picker.shown][:1] == ["faux-1"]
        await pilot.press("l", "l", "a", "m")
        await pilot.pause()
        assert picker.shown[0].label == "llama3.2:3b"
        await pilot.press("enter")
        await wait_until(pilot, lambda: getattr(session.model, "id", "") == "llama3.2:3b")
        await wait_until(pilot, lambda: app.footer.data.model_id == "llama3.2:3b")
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPicker))
        assert session.model.id == "llama3.2:3b"


@pytest.mark.anyio
async def test_palette_lists_slash_commands(tmp_path: Path) -> None:
    session, app = await _ready(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("f1")
        await pilot.pause(0.2)
        await pilot.press(*"/hotkeys")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Slash commands:" in transcript_text(app))


class _Models(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server API
        body = json.dumps({"object": "list", "data": [{"id": "local-model-a"}, {"id": "local-model-b"}]}).encode()
        if self.path != "/v1/models":
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.anyio
async def test_probe_finds_a_loopback_server_and_skips_closed_ports() -> None:
    server = HTTPServer(("127.0.0.1", 0), _Models)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        closed = HTTPServer(("127.0.0.1", 0), _Models)
        closed_port = closed.server_address[1]
        closed.server_close()
        models = await probe_local_servers(timeout=1.0, servers=(("lmstudio", port), ("ollama", closed_port)))
    finally:
        server.shutdown()
        server.server_close()
    assert [(m.provider, m.id, m.base_url) for m in models] == [
        ("lmstudio", "local-model-a", f"http://127.0.0.1:{port}/v1"),
        ("lmstudio", "local-model-b", f"http://127.0.0.1:{port}/v1"),
    ]
    assert all(m.api == "openai-completions" for m in models)


@pytest.mark.anyio
async def test_compact_error_is_shown_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Found in tmux: /compact on a tiny session printed its error twice. A new-user run (issue 9) found the
    refusal also logged to pi-tui.log as an internal failure with a traceback: it is an answer, not a fault."""
    caplog.set_level(logging.INFO, logger="pi_tui")
    session, app = await _ready(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/compact")
        await wait_until(pilot, lambda: "Nothing to compact" in transcript_text(app))
        await pilot.pause(0.2)
        assert transcript_text(app).count("Nothing to compact") == 1
        assert not app.status_line.display
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


@pytest.mark.anyio
async def test_resume_picks_an_older_session(tmp_path: Path) -> None:
    from pi_tui.ai.providers.faux import register_faux_provider
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.tui.modals.resume_picker import ResumePicker
    from pi_tui.tui.modals.resume_rows import session_label

    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1"}])
    model = faux.get_model()
    assert model is not None
    sessions = tmp_path / "sessions"

    def new_session() -> Any:
        s = create_agent_session(str(tmp_path), session_dir=str(sessions))
        s.models.allow(model.provider, model.id, model)
        s.set_model(model)
        return s

    old = new_session()
    faux.set_responses([faux_assistant_message("old answer")])
    await old.prompt("question from the first session")
    await old.wait_for_idle()
    current = new_session()
    app = make_app(current)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/resume")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker))
        picker = app.screen
        assert isinstance(picker, ResumePicker)
        assert [session_label(r.info) for r in picker.rows] == ["question from the first session"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: "old answer" in transcript_text(app))
        assert "question from the first session" in transcript_text(app)
        assert str(current.session_file) == str(old.session_file)


@pytest.mark.anyio
async def test_palette_theme_command_opens_the_pi_theme_picker(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        from textual.command import CommandPalette

        from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker

        await pilot.press("f1")  # the palette lists /theme (pi themes); Textual's own theme command is gone
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"/theme")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))

        assert isinstance(app.screen, FuzzyPicker) and app.screen.title_text == "Select theme"
        await pilot.press(*"light", "enter")
        await wait_until(pilot, lambda: app.pi_theme.name == "light")
