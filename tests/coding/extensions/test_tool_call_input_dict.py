"""tester3 #3: a ``tool_call`` handler gets ``event.input`` as the call's arguments dict for every tool, also an
extension tool whose parameters are a pydantic model (it got the model instance, so the README's own example,
``event.input.get("command", "")``, raised on its own ``greet`` tool and the failing handler blocked the call).
Changes made in place still reach the tool; a change the model's schema rejects blocks the call with the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_tui.coding.extensions.setup import start_extensions

from .conftest import Env
from .test_session_events import _errors, _ext

README = Path(__file__).resolve().parents[3] / "README.md"

pytestmark = pytest.mark.anyio


def _readme_example() -> str:
    section = README.read_text(encoding="utf-8").split("## Writing an extension", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def _tool_results(env: Env) -> list[str]:
    return [json.dumps(m["content"]) for m in env.bodies()[-1]["messages"] if m["role"] == "tool"]


async def test_the_readme_extension_runs_its_own_tool_through_a_real_session(env: Env) -> None:
    ext = env.agent_dir / "cli" / "greet.py"
    ext.parent.mkdir(parents=True, exist_ok=True)
    ext.write_text(_readme_example(), encoding="utf-8")
    env.serve([
        {"type": "tool", "calls": [{"id": "c1", "name": "greet", "args": {"name": "Ada"}}]},
        {"type": "tool", "calls": [{"id": "c2", "name": "bash", "args": {"command": "sudo rm -rf /tmp/nothing"}}]},
        {"type": "text", "text": "done"},
    ])
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    await session.prompt("greet Ada")
    results = _tool_results(env)
    assert "Hello, Ada!" in results[0]
    assert "no sudo" in results[1]
    assert _errors(session) == []


async def test_in_place_changes_to_a_model_tools_input_reach_the_tool(env: Env) -> None:
    ext = _ext(env, "shout.py", """
    from pydantic import BaseModel

    class Shout(BaseModel):
        text: str
        times: int = 1

    def activate(pi):
        pi.register_tool("shout", "Shout", Shout, lambda call_id, p: (p.text.upper() + "!") * p.times)
        def change(event):
            assert isinstance(event.input, dict), type(event.input)
            if event.tool_name == "shout":
                event.input["text"] = event.input["text"] + " there"
                event.input["times"] = 2 if event.input["text"].startswith("hi") else "many"
        pi.on("tool_call", change)
    """, folder="cli")
    env.serve([
        {"type": "tool", "calls": [{"id": "c1", "name": "shout", "args": {"text": "hi"}}]},
        {"type": "tool", "calls": [{"id": "c2", "name": "shout", "args": {"text": "yo"}}]},
        {"type": "text", "text": "done"},
    ])
    session = env.session(extension_paths=[str(ext)])
    await start_extensions(session.extensions)
    await session.prompt("shout")
    results = _tool_results(env)
    assert "HI THERE!HI THERE!" in results[0]
    assert "Blocked" in results[1] and "invalid" in results[1] and "times" in results[1]  # "many": no int
    assert "YO" not in results[1]
