"""Extension widgets and message renderers in the app (issue 11): ``set_widget`` blocks above/below the
editor (moved between placements, cut at 10 lines, cleared by None and by ``/reload``); a custom
message's renderer draws it, and one that raises leaves the default look."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import make_app, make_session, settle, transcript_text, wait_until

EXTENSION = """
def activate(pi):
    def widget(args, ctx):
        name, _, rest = args.partition(" ")
        if rest == "clear":
            ctx.ui.set_widget(name, None)
        elif rest.startswith("below"):
            ctx.ui.set_widget(name, [rest], placement="belowEditor")
        elif rest == "long":
            ctx.ui.set_widget(name, [f"line {i}" for i in range(14)])
        else:
            ctx.ui.set_widget(name, rest)
    pi.register_command("w", widget)

    def broken(message, ctx):
        raise RuntimeError("renderer bug")
    pi.register_message_renderer("broken", broken)
    pi.register_message_renderer("shout", lambda message, ctx: message.content.upper() + ("!" if ctx.expanded else ""))
    pi.register_command("say", lambda args, ctx: pi.send_message({"custom_type": args.split()[0],
                                                                   "content": args.split(None, 1)[1]}))
"""


def _app(tmp_path: Path) -> tuple[Any, Any]:
    ext = tmp_path / "w.py"
    ext.write_text(textwrap.dedent(EXTENSION))
    session, _ = make_session(tmp_path, extension_paths=[str(ext)])
    return session, make_app(session)


@pytest.mark.anyio
async def test_widgets_move_truncate_clear_and_reload(tmp_path: Path) -> None:
    session, app = _app(tmp_path)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        above, below = app.extensions_controller.widgets_above, app.extensions_controller.widgets_below
        assert not above.display and not below.display
        await session.prompt("/w a first\nsecond")
        await pilot.pause()
        assert above.blocks == {"a": ["first", "second"]} and above.display
        assert above.render().plain == "first\nsecond"
        await session.prompt("/w a below now")
        await pilot.pause()
        assert above.blocks == {} and not above.display and below.blocks == {"a": ["below now"]}
        await session.prompt("/w b long")
        await pilot.pause()
        lines = above.render().plain.splitlines()
        assert lines[0] == "line 0" and lines[9] == "line 9" and lines[10] == "... (widget truncated)"
        assert above.size.height == 11
        await session.prompt("/w a clear")
        await pilot.pause()
        assert below.blocks == {} and not below.display
        app.prompt_input.insert("/reload")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not above.blocks)
        assert not above.display


@pytest.mark.anyio
async def test_message_renderer_and_its_fallback(tmp_path: Path) -> None:
    session, app = _app(tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(pilot)
        await session.prompt("/say shout hello there")
        await session.prompt("/say broken still readable")
        await settle(pilot)
        text = transcript_text(app)
        assert "HELLO THERE!" in text and "[shout]" not in text
        assert "[broken]" in text and "still readable" in text
        assert [m.role for m in session.messages if m.role == "notification" and m.level == "error"] == []
