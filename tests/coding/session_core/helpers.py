"""Builders for AgentSession tests (faux provider, in-memory or file-backed SessionManager)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentTool, AgentToolResult
from pi_tui.ai.types import Model, TextContent
from pi_tui.coding.agent_session import AgentSession, _SessionAgent
from pi_tui.coding.agent_session.events import event_to_json
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.session.session_manager import SessionManager


class StaticAccess:
    """ModelAccess over a fixed list of models; ``keyless`` providers have no auth."""

    def __init__(self, models: list[Model], keyless: set[str] | None = None) -> None:
        self.models = models
        self.keyless = keyless or set()

    def get_api_key(self, model: Model) -> str | None:
        return None if model.provider in self.keyless else "test-key"

    def has_auth(self, model: Model) -> bool:
        return model.provider not in self.keyless

    def available_models(self) -> list[Model]:
        return [m for m in self.models if self.has_auth(m)]

    def find(self, provider: str, model_id: str) -> Model | None:
        return next((m for m in self.models if m.provider == provider and m.id == model_id), None)


class Recorder:
    """Collects every session event as pi JSON (copied at emission time)."""

    def __init__(self, session: AgentSession) -> None:
        self.events: list[dict[str, Any]] = []
        session.subscribe(lambda e: self.events.append(json.loads(json.dumps(event_to_json(e)))))

    def types(self, *, updates: bool = False) -> list[str]:
        out = []
        for e in self.events:
            if e["type"] == "message_update" and not updates:
                continue
            if e["type"] in ("message_start", "message_end"):
                out.append(f"{e['type']}:{e['message']['role']}")
            else:
                out.append(e["type"])
        return out

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


class SleepRecorder:
    """Replaces ``asyncio.sleep`` for retry waits: records the seconds, returns at once."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        import asyncio

        self.calls.append(seconds)
        await asyncio.sleep(0)


class EchoTool(AgentTool):
    """Returns its ``text`` argument; ``artifacts`` (optional) go into details like the edit tool's."""

    def __init__(self, **data: Any) -> None:
        super().__init__(
            name=data.pop("name", "echo"),
            description="echo",
            parameters={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            **data,
        )

    async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
        details: dict[str, Any] = {}
        if params.get("artifact"):
            details["artifacts"] = [{"title": "out.txt", "kind": "diff", "content": params["artifact"], "path": "out.txt"}]
        return AgentToolResult(content=[TextContent(text=params["text"])], details=details or None)


def make_session(
    tmp_path: Path,
    model: Model,
    *,
    tools: list[AgentTool] | None = None,
    settings: SessionSettings | None = None,
    persist: bool = True,
    sleep: Any = None,
    system_prompt: str = "You are a test assistant.",
    access: Any = None,
    manager: SessionManager | None = None,
) -> AgentSession:
    """An AgentSession on ``model`` (file-backed under ``tmp_path/sessions`` unless ``persist`` is False)."""
    if manager is None:
        manager = (
            SessionManager.create(str(tmp_path), tmp_path / "sessions") if persist else SessionManager.in_memory(str(tmp_path))
        )
    context = manager.build_session_context(include_ui=True)
    agent = _SessionAgent(
        {"system_prompt": system_prompt, "model": model, "thinking_level": "off", "tools": tools or [],
         "messages": list(context.messages)}
    )
    session = AgentSession(
        agent=agent,
        session_manager=manager,
        models=access or StaticAccess([model]),
        settings=settings or SessionSettings(),
        cwd=str(tmp_path),
        sleep=sleep,
    )
    if not manager.get_entries():
        session._record_initial_settings()
    return session


def session_lines(session: AgentSession) -> list[dict[str, Any]]:
    """The session file's JSON lines."""
    assert session.session_file is not None
    return [json.loads(line) for line in Path(session.session_file).read_text().splitlines() if line.strip()]
