"""Keys that arrive in one burst while the completion list is open never insert a stale item (tester2 #2: the
rest of ``/session`` and Enter arrived together while the list for ``/sessi`` was shown, and the editor sent
``/s/session`` to the model; ``/checkpoin`` + ``ts`` Enter sent ``/c/checkpoints``).

The editor's text-changed message is handled after the keys queued behind it, so the list's suggestions can be
for an earlier prefix when Tab or Enter is handled: they are recomputed for the text before the cursor first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.regressions.typing_helpers import type_raw

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


async def _open_list(pilot: object, app: object, text: str) -> None:
    await type_raw(pilot, text)  # type: ignore[arg-type]
    await wait_until(pilot, lambda: app.completion_list.is_open)  # type: ignore[attr-defined]


@pytest.mark.parametrize("typed, rest", [("/sessi", "on"), ("/sessi", "on\r"), ("/hot", "keys\r"),
                                         ("/s", "ession\r"), ("/mod", "el\t")])
async def test_a_burst_after_the_list_opened_completes_the_whole_word(tmp_path: Path, typed: str, rest: str) -> None:
    session, faux = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await _open_list(pilot, app, typed)
        await type_raw(pilot, rest, wait=False)  # the rest and Enter in one read, as a terminal delivers them
        for _ in range(20):
            await pilot.pause()
        word = (typed + rest).rstrip("\r\t")
        sent = [m for m in session.messages if getattr(m, "role", None) == "user"]
        assert sent == [], f"a command burst reached the model: {sent}"
        text = app.prompt_input.text
        assert "/" not in text[1:], f"stale completion inserted: {text!r}"
        if rest.endswith("\r") and word == "/session":
            await wait_until(pilot, lambda: "Session" in transcript_text(app) or "session" in transcript_text(app))
        elif not rest.endswith("\r"):
            assert text.rstrip() == word, text
