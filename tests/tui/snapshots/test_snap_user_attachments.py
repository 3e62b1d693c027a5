"""Snapshot: a prompt sent with an ``@`` file (the words typed, then a ``[file]`` line in the bubble) and a
``/skill:name`` prompt (pi's collapsed ``[skill]`` box above the arguments); new-user runs #3 and #13."""

from __future__ import annotations

from typing import Any

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.resources.skills import skill_block
from tests.tui.helpers import SNAPSHOT_CWD, make_app, settle, snapshot_session

SIZE = (90, 26)


class _Skill:
    name = "release-notes"
    file_path = "/skills/release-notes/SKILL.md"
    base_dir = "/skills/release-notes"


def build_user_attachments() -> tuple[Any, Any, tuple[int, int]]:
    big = SNAPSHOT_CWD / "big.txt"
    big.write_text("".join(f"line {i}\n" for i in range(600)))
    session, _ = snapshot_session([faux_assistant_message("It counts to 599."),
                                   faux_assistant_message("Notes for v0.2 written.")])
    app = make_app(session, cwd=str(SNAPSHOT_CWD))

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        app.prompt_input.insert("summarise @big.txt")
        await pilot.press("enter")
        await settle(pilot)
        app.prompt_input.insert(skill_block(_Skill(), "Group the commits by area.", "for v0.2"))  # type: ignore[arg-type]
        await pilot.press("enter")
        await settle(pilot)
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def test_user_attachments(snap_compare: Any) -> None:
    app, drive, size = build_user_attachments()
    assert snap_compare(app, run_before=drive, terminal_size=size)
