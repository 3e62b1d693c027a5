"""Messages typed during a compaction keep their kind (pi 0.81.0, #6730): after the compaction the first is the
prompt, a steering message is delivered at the run's next poll (before the model's next reply) and a follow-up
only once the run would end (after its tool batch and the reply that follows).
pi lost the kind (everything was delivered one way). pi-tui's app holds them locally with their kind
(``SubmitController.compaction_queue``) and hands each to the session as what it was."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call

from ..tui.helpers import make_app, make_session, transcript_text, wait_until


def _flow(session: Any) -> list[str]:
    out = []
    for m in session.messages:
        role = getattr(m, "role", None)
        if role == "user":
            out.append("user:" + "".join(getattr(c, "text", "") for c in m.content))
        elif role == "assistant":
            text = "".join(getattr(c, "text", "") for c in m.content)
            out.append("assistant:" + (text or "<tool call>"))
        elif role == "toolResult":
            out.append("toolResult")
    return out


@pytest.mark.anyio
async def test_steering_and_follow_up_typed_during_compaction_keep_their_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_tui.coding.agent_session.compaction as sc

    started: list[bool] = []

    async def hanging_compact(preparation: Any, model: Any, api_key: Any, **kwargs: Any) -> Any:
        started.append(True)
        await kwargs["signal"].wait()
        raise RuntimeError("Request was aborted")

    monkeypatch.setattr(sc, "prepare_compaction",
                        lambda *a, **k: SimpleNamespace(messages_to_summarize=[1], turn_prefix_messages=[]))
    monkeypatch.setattr(sc, "compact", hanging_compact)
    steps = [
        faux_assistant_message("first reply"),
        faux_assistant_message([faux_tool_call("bash", {"command": "sleep 1"}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message("after the steer"),
        faux_assistant_message("after the follow-up"),
    ]
    session, _ = make_session(tmp_path, steps, tools=["bash"])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await app.submit_text("earlier", "steer")
        await wait_until(pilot, lambda: "first reply" in transcript_text(app) and not app.working)
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(started) and app.compacting)
        await app.submit_text("hello after", "steer")
        await app.submit_text("and a follow-up", "follow_up")
        await app.submit_text("steer me", "steer")
        assert app.queue_view.local_steering == ["hello after", "steer me"]
        assert app.queue_view.local_follow_up == ["and a follow-up"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: "after the follow-up" in transcript_text(app) and not app.working, 20)
        assert _flow(session) == [
            "user:earlier", "assistant:first reply",
            "user:hello after",
            "user:steer me",  # steering: at the run's first poll, before the model answers
            "assistant:<tool call>", "toolResult", "assistant:after the steer",
            "user:and a follow-up", "assistant:after the follow-up",  # follow-up: only once the run would end
        ]
