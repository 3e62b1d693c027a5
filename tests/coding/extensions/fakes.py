"""A minimal ExtensionHost and a scripted ExtensionUI for unit tests of the extension runtime."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentTool
from pi_tui.coding.extensions.loader import ExtensionSources
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.extensions.runtime import ExtensionRuntime
from pi_tui.coding.session.session_manager import SessionManager


class FakeHost:
    """Records what extensions ask for."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.session_manager = SessionManager.in_memory(cwd)
        self.model = None
        self.signal = None
        self.notices: list[tuple[str, str]] = []
        self.artifacts: list[tuple[str, str, str]] = []
        self.sent: list[tuple[Any, str, bool]] = []
        self.user_messages: list[tuple[Any, str | None]] = []
        self.tools: dict[str, AgentTool] = {"read": AgentTool(name="read", description="builtin read")}
        self.active: list[str] = ["read"]
        self.thinking = "medium"
        self.name: str | None = None

    def is_idle(self) -> bool:
        return True

    def has_pending_messages(self) -> bool:
        return False

    def abort(self) -> None:
        pass

    async def wait_for_idle(self) -> None:
        pass

    async def compact(self, custom_instructions: str | None = None) -> Any:
        return {"summary": custom_instructions}

    def get_context_usage(self) -> dict[str, Any] | None:
        return None

    def get_system_prompt(self) -> str:
        return "SYSTEM"

    def send_custom_message(self, message: Any, deliver_as: str, trigger_turn: bool) -> None:
        self.sent.append((message, deliver_as, trigger_turn))

    def send_user_message(self, content: Any, deliver_as: str | None) -> None:
        self.user_messages.append((content, deliver_as))

    def append_custom_entry(self, custom_type: str, data: Any) -> str:
        return self.session_manager.append_custom_entry(custom_type, data)

    def notify(self, level: str, text: str) -> None:
        self.notices.append((level, text))

    def add_artifact(self, title: str, kind: str, content: str, language: str | None, path: str | None) -> None:
        self.artifacts.append((title, kind, content))

    def all_tools(self) -> list[AgentTool]:
        return list(self.tools.values())

    def active_tool_names(self) -> list[str]:
        return list(self.active)

    def set_active_tools(self, names: Sequence[str]) -> None:
        self.active = [n for n in names if n in self.tools]

    def add_tool(self, tool: AgentTool) -> None:
        new = tool.name not in self.tools
        self.tools[tool.name] = tool
        if new:
            self.active.append(tool.name)

    def remove_tools(self, names: Sequence[str]) -> None:
        for name in names:
            self.tools.pop(name, None)
            if name in self.active:
                self.active.remove(name)

    def set_model(self, model: Any) -> bool:
        return False

    def get_thinking_level(self) -> str:
        return self.thinking

    def set_thinking_level(self, level: str) -> None:
        self.thinking = level

    async def new_session(self) -> bool:
        return True

    async def fork(self, entry_id: str, position: str = "before") -> bool:
        return True

    async def switch_session(self, path: str) -> bool:
        return True

    def get_session_name(self) -> str | None:
        return self.name

    def set_session_name(self, name: str) -> None:
        self.name = name

    @property
    def errors(self) -> list[str]:
        return [text for level, text in self.notices if level == "error"]


class ScriptedUI:
    """Answers dialogs from a list; records status and notices."""

    def __init__(self, answers: Sequence[Any] = ()) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, str]] = []
        self.statuses: dict[str, str | None] = {}
        self.notices: list[tuple[str, str]] = []

    @property
    def has_ui(self) -> bool:
        return True

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        self.asked.append(("confirm", title))
        return bool(self.answers.pop(0))

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        self.asked.append(("select", title))
        return self.answers.pop(0)  # type: ignore[no-any-return]

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        self.asked.append(("input", title))
        return self.answers.pop(0)  # type: ignore[no-any-return]

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        self.asked.append(("editor", title))
        return self.answers.pop(0)  # type: ignore[no-any-return]

    def notify(self, message: str, level: str = "info") -> None:
        self.notices.append((level, message))

    def set_status(self, key: str, text: str | None) -> None:
        self.statuses[key] = text

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        pass

    def set_title(self, title: str) -> None:
        pass

    def set_editor_text(self, text: str) -> None:
        pass

    def get_editor_text(self) -> str:
        return ""


def write_ext(folder: Path, name: str, body: str) -> Path:
    """Write ``folder/name`` with the dedented ``body``; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def make_runtime(tmp_path: Path, ui: Any = None, timeout: float = 5.0) -> tuple[ExtensionRuntime, FakeHost]:
    host = FakeHost(str(tmp_path / "project"))
    (tmp_path / "project").mkdir(exist_ok=True)
    runtime = ExtensionRuntime(host, commands=CommandRegistry(), ui=ui, timeout=timeout)
    return runtime, host


def sources(tmp_path: Path, **kw: Any) -> ExtensionSources:
    return ExtensionSources(cwd=str(tmp_path / "project"), agent_dir=tmp_path / "agent", **kw)
