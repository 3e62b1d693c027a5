"""The transcript never paints a blank frame while a reply streams (found by a new-user run, issue 9: the
transcript flashed completely blank for up to 0.6 s while a fast reply streamed under load).

Cause: each streamed chunk changes the assistant item (its cached render is out of date) and the re-render
waits for the next coalesced flush (40 ms, much later under load); any repaint in between drew the item's
lines blank, and when ``render_line`` then rendered it in the background nothing repainted the lines.
The test samples the screen after every streamed event, i.e. between the change and the flush.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, wait_until

REPLY = "\n\n".join(f"Paragraph {n}: " + " ".join(f"word{k}" for k in range(30)) for n in range(12))


def transcript_lines(app: Any) -> list[str]:
    """What the transcript paints now, line by line (``render_line``, as a repaint would)."""
    return [line for line in app.transcript.visible_text().split("\n")]


@pytest.mark.parametrize("size", [(100, 30), (60, 16)])
@pytest.mark.anyio
async def test_no_frame_is_blank_while_a_reply_streams(tmp_path: Path, size: tuple[int, int]) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message(REPLY)], tokens_per_second=4000)
    app = make_app(session)
    frames: list[list[str]] = []
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.session_ready)

        def sample(event: Any) -> None:
            if getattr(event, "type", "") in ("message_update", "message_end"):
                frames.append(transcript_lines(app))

        unsubscribe = app.session.subscribe(sample)  # after the app's own listener: the item just changed
        app.prompt_input.insert("write a lot")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working)
        await app.session.wait_for_idle()
        unsubscribe()
        await pilot.pause(0.1)
        frames.append(transcript_lines(app))
    assert len(frames) > 20
    shown = False
    blank_frames = 0
    for frame in frames:
        has_text = any(line.strip() for line in frame)
        if shown and not has_text:
            blank_frames += 1
        shown = shown or has_text
    assert shown and blank_frames == 0, f"{blank_frames} of {len(frames)} frames were blank"
    # nor a partly blank one: the streaming item's lines are painted in every frame (a frame keeps at least
    # half the painted lines of the one before; following the tail only scrolls them)
    painted = [sum(1 for line in frame if line.strip()) for frame in frames]
    drops = [(k, a, b) for k, (a, b) in enumerate(zip(painted, painted[1:], strict=False)) if b < a // 2]
    assert not drops, f"frames losing most of their lines (index, before, after): {drops[:5]}"
    # and no frame lost lines that were on screen: the user's prompt stays painted until it scrolls away
    assert "Paragraph 11" in "\n".join(frames[-1])
