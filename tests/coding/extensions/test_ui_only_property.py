"""UI-only messages created by extensions never reach a provider (issue 11; extends
tests/coding/session_core/test_requests_loopback.py::test_ui_only_text_never_reaches_a_provider): whatever
an extension posts with ``pi.notify``, ``pi.post_artifact``, ``ctx.ui.notify``/``set_status`` or saves with
``pi.append_entry``, at any event, is in the transcript or the file but in no request body."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

EXTENSION = """
import json
PLAN = json.loads({plan!r})
def activate(pi):
    def make(kind, marker):
        def handler(event, ctx):
            if kind == "notify":
                pi.notify(marker, "warning")
            elif kind == "artifact":
                pi.post_artifact("title " + marker, marker, "markdown", path=marker + ".md")
            elif kind == "ui":
                ctx.ui.notify(marker, "info")
                ctx.ui.set_status("k", marker)
            else:
                pi.append_entry("state", {{"marker": marker}})
        return handler
    for event, kind, marker in PLAN:
        pi.on(event, make(kind, marker))
"""

EVENTS = ["session_start", "input", "before_agent_start", "agent_start", "turn_start", "message_end",
          "tool_call", "tool_result", "turn_end", "agent_end", "context"]
step = st.tuples(st.sampled_from(EVENTS), st.sampled_from(["notify", "artifact", "ui", "entry"]),
                 st.text(alphabet="abcdefghij0123456789 ", min_size=1, max_size=20))


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(step, min_size=1, max_size=6))
def test_extension_ui_only_text_never_reaches_a_provider(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, plan: list[Any]
) -> None:
    root = tmp_path_factory.mktemp("ext-ui-only")
    (root / "agent").mkdir()
    (root / "project").mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(root / "agent"))
    marked = [(event, kind, f"UIONLY-{uuid.uuid4().hex}-{text}") for event, kind, text in plan]
    extension = root / "ui_only.py"
    extension.write_text(EXTENSION.format(plan=json.dumps(marked)))
    script = [{"type": "tool", "calls": [{"id": "c1", "name": "bash", "args": {"command": "echo hi"}}]},
              {"type": "text", "text": "first"}, {"type": "text", "text": "second"}]
    with MockLlmServer(script) as server:
        (root / "agent" / "models.json").write_text(json.dumps({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "k",
            "models": [{"id": "mock-model", "contextWindow": 128000, "maxTokens": 1024}]}}}))
        from pi_tui.coding.extensions.setup import start_extensions
        from pi_tui.coding.session_factory import create_agent_session

        async def run() -> Any:
            session = create_agent_session(str(root / "project"), provider="mock", model="mock-model",
                                           extension_paths=[str(extension)], session_dir=str(root / "sessions"))
            await start_extensions(session.extensions)
            cwd = os.getcwd()
            os.chdir(root / "project")
            try:
                await session.prompt("run it")
                await session.prompt("again")
            finally:
                os.chdir(cwd)
            return session

        session = asyncio.run(run())
        raw = [json.dumps(r["body"], ensure_ascii=False) for r in server.requests]
    assert len(raw) == 3
    errors = [m.text for m in session.messages if getattr(m, "role", None) == "notification" and m.level == "error"]
    assert errors == []
    for _, kind, marker in marked:
        assert not any(marker in body for body in raw), (kind, marker)
    saved = Path(session.session_file).read_text(encoding="utf-8")
    for event, kind, marker in marked:
        if kind in ("notify", "artifact", "entry"):
            assert marker in saved, (event, kind)  # kept for the user, just never sent
