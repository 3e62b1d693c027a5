"""``before_provider_request`` / ``after_provider_response`` (pi 0.73 docs/extensions.md): handlers see the
provider's request body in load order and may replace it (what the loopback server receives changes); the
response's status and headers reach ``after_provider_response``; a failing handler leaves the body as it was."""

from __future__ import annotations

import textwrap

import pytest

from pi_tui.coding.extensions.setup import start_extensions

from .conftest import Env

EXTENSION = """
seen = []

def activate(pi):
    def first(event):
        seen.append(("first", event.payload.get("temperature")))
        return {**event.payload, "temperature": 0.25}

    def second(event, ctx):
        seen.append(("second", event.payload.get("temperature")))
        body = dict(event.payload)
        body["messages"] = [m for m in body["messages"] if m.get("role") != "system"]
        return body

    def broken(event):
        raise RuntimeError("payload bug")

    def response(event):
        seen.append(("response", event.status, event.headers.get("content-type", "")[:17]))

    pi.on("before_provider_request", first)
    pi.on("before_provider_request", broken)
    pi.on("before_provider_request", second)
    pi.on("after_provider_response", response)
    pi.register_command("seen", lambda args, ctx: pi.notify(repr(seen)))
"""


@pytest.mark.anyio
async def test_the_request_body_is_rewritten_and_the_response_seen(env: Env) -> None:
    path = env.agent_dir / "extensions" / "payload.py"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(EXTENSION))
    env.serve([{"type": "text", "text": "ok"}])
    session = env.session()
    await start_extensions(session.extensions)
    await session.prompt("hello")
    await session.wait_for_idle()
    body = env.bodies()[0]
    assert body["temperature"] == 0.25
    assert all(m.get("role") != "system" for m in body["messages"])
    await session.prompt("/seen")
    notices = [m.text for m in session.messages if m.role == "notification"]
    assert "('first', None), ('second', 0.25), ('response', 200, 'text/event-stream')" in notices[-1]
    errors = [m.text for m in session.messages if m.role == "notification" and m.level == "error"]
    assert len(errors) == 1 and 'failed on before_provider_request: RuntimeError: payload bug' in errors[0]
