"""New-user runs #3 and #13: a user message with an ``@`` file or a ``/skill:name`` shows the user's own words and
one compact, expandable line per attachment (pi 0.73 draws a skill as ``[skill] name``), live and on resume;
what the model gets and the session keeps is unchanged (widgets/user_message_item.py, coding/user_blocks.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_text
from pi_tui.coding.config.paths import ENV_AGENT_DIR
from pi_tui.tui.widgets.user_message_item import UserMessageItem
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _user_text(session: Any) -> str:
    user = next(m for m in session.agent.state.messages if m.role == "user")
    return user.content if isinstance(user.content, str) else "".join(getattr(b, "text", "") for b in user.content)


async def test_an_attached_file_shows_the_words_typed_and_a_file_line(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("".join(f"line {i}: {'x' * 20}\n" for i in range(600)))
    session, _ = make_session(tmp_path, [faux_assistant_message([faux_text("summarised")])])
    app = make_app(session, cwd=str(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("summarise @big.txt")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "summarised" in transcript_text(app))
        assert _user_text(session).startswith(f'<file name="{tmp_path / "big.txt"}">\nline 0:')  # sent as before
        shown = transcript_text(app)
        assert "<file" not in shown and "line 0:" not in shown
        lines = shown.split("\n")
        words = next(i for i, line in enumerate(lines) if "summarise @big.txt" in line)
        chip = next(i for i, line in enumerate(lines) if "[file] big.txt · 600 lines" in line)
        assert words < chip <= words + 2, lines
        assert "click or Ctrl+O to expand" in lines[chip]
        item = next(i for i in app.transcript.items if isinstance(i, UserMessageItem))
        assert item.toggle()  # a click
        assert "line 599: " in transcript_text(app)
        item.toggle()
        assert "line 599: " not in transcript_text(app)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert "line 599: " in transcript_text(app)
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.rebuild_transcript()  # what a resume shows
        await pilot.pause()
        shown = transcript_text(app)
        assert "summarise @big.txt" in shown and "[file] big.txt · 600 lines" in shown and "<file" not in shown
        assert "summarise @big.txt" in app.prompt_input.prompt_history  # Up recalls the words typed


async def test_a_skill_invocation_is_a_collapsed_skill_line_and_the_arguments(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "agent"
    skill = home / "skills" / "release-notes" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: release-notes\ndescription: Writes release notes\n---\n"
                     "Run git log --oneline, group the commits by area.\n")
    monkeypatch.setenv(ENV_AGENT_DIR, str(home))
    project = tmp_path / "proj"
    project.mkdir()
    session, _ = make_session(project, [faux_assistant_message([faux_text("notes written")])])
    app = make_app(session, cwd=str(project))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/skill:release-notes for v0.2")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "notes written" in transcript_text(app))
        assert _user_text(session).startswith('<skill name="release-notes"')  # sent as pi sends it
        shown = transcript_text(app)
        assert "<skill" not in shown and "group the commits" not in shown
        lines = shown.split("\n")
        head = next(i for i, line in enumerate(lines) if "[skill] release-notes (Ctrl+O to expand)" in line)
        words = next(i for i, line in enumerate(lines) if line.strip() == "for v0.2")
        assert head < words
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert "group the commits by area" in transcript_text(app)
        await pilot.press("ctrl+o")
        app.rebuild_transcript()
        await pilot.pause()
        shown = transcript_text(app)
        assert "[skill] release-notes" in shown and "for v0.2" in shown and "<skill" not in shown
