"""tester2 #21: a prompt template named like a built-in command (``model.md``) was hidden in the app without a
word, while ``-p "/model foo"`` ran it. The resolution stays pi 0.73's (the app runs its built-in; ``-p``, JSON and
RPC mode, which have no built-in commands, expand the template), and the clash is now one clear warning at start
and on ``/reload``, naming the file and both behaviours."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _template(tmp_path: Path) -> Path:
    path = tmp_path / "prompts" / "model.md"
    path.parent.mkdir()
    path.write_text("---\ndescription: shadows model\n---\nTEMPLATE MODEL $@\n")
    return path


async def test_the_app_warns_at_start_and_on_reload_and_runs_the_built_in(tmp_path: Path) -> None:
    path = _template(tmp_path)
    session, faux = make_session(tmp_path, [faux_assistant_message("never")], prompt_template_paths=[str(path)])
    app = make_app(session)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        warning = f"Prompt template {path} is hidden by the built-in /model"
        await wait_until(pilot, lambda: warning in " ".join(transcript_text(app).split()))
        text = " ".join(transcript_text(app).split())
        assert "-p, JSON and RPC mode expand the template" in text
        app.prompt_input.insert("/reload")
        await pilot.press("enter")
        await wait_until(pilot, lambda: " ".join(transcript_text(app).split()).count(warning) == 2)
        spec = session.commands.get("model")
        assert spec is not None and spec.source == "builtin"


async def test_print_and_rpc_mode_expand_the_template_as_pi_does(tmp_path: Path) -> None:
    path = _template(tmp_path)
    seen: list[str] = []

    def answer(context: object, *_: object) -> object:
        last = context.messages[-1]  # type: ignore[attr-defined]
        seen.append("".join(getattr(b, "text", "") for b in last.content))
        return faux_assistant_message("ok")

    session, _ = make_session(tmp_path, [answer], prompt_template_paths=[str(path)])
    await session.prompt("/model foo")  # what -p "/model foo" and an RPC prompt do
    assert seen == ["TEMPLATE MODEL foo"]
