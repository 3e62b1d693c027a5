"""Harness for the shipped examples (examples/extensions/): each runs in a real ``AgentSession`` on the
faux provider (``tests/tui/helpers.make_session``) with a scripted ``ctx.ui``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.types import Context
from pi_tui.coding.extensions.setup import start_extensions
from tests.coding.extensions.fakes import ScriptedUI
from tests.tui.helpers import make_session

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "extensions"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent-dir"))


def example(name: str) -> str:
    """The path of ``examples/extensions/<name>.py``."""
    path = EXAMPLES / f"{name}.py"
    assert path.is_file(), path
    return str(path)


async def started(cwd: Path, name: str | list[str], steps: list[Any], ui: Any = None,
                  **options: Any) -> tuple[Any, Any]:
    """A faux session in ``cwd`` with the example(s) ``name`` loaded and started, ``ui`` as ``ctx.ui``
    (a :class:`ScriptedUI` when None). Returns ``(session, ui)``; fails on any extension error."""
    names = [name] if isinstance(name, str) else name
    session, _faux = make_session(cwd, steps, extension_paths=[example(n) for n in names], **options)
    ui = ui if ui is not None else ScriptedUI()
    session.extensions.runtime.set_ui(ui)
    errors = await start_extensions(session.extensions)
    assert errors == []
    return session, ui


def errors(session: Any) -> list[str]:
    """The error notifications of ``session``."""
    return [m.text for m in session.messages if getattr(m, "role", None) == "notification" and m.level == "error"]


def role(session: Any, name: str) -> list[Any]:
    """The messages of ``session`` with role ``name``."""
    return [m for m in session.messages if getattr(m, "role", None) == name]


def tool_results(session: Any) -> list[tuple[str, bool, str]]:
    """``(tool_name, is_error, text)`` of each tool result."""
    return [(m.tool_name, m.is_error, "".join(getattr(b, "text", "") for b in m.content))
            for m in role(session, "toolResult")]


class Capture:
    """A faux step factory that records the context it was called with and answers ``reply``."""

    def __init__(self, reply: Any) -> None:
        self.reply = reply
        self.contexts: list[Context] = []

    def __call__(self, context: Context, *_: Any) -> Any:
        self.contexts.append(context)
        return self.reply

    def user_texts(self) -> list[str]:
        """The text of every user message of the last context."""
        out: list[str] = []
        for message in self.contexts[-1].messages:
            if getattr(message, "role", None) == "user":
                content = message.content
                out.append(content if isinstance(content, str) else "".join(getattr(b, "text", "") for b in content))
        return out


async def settle(session: Any) -> None:
    """Wait until the session is idle and the messages its extensions sent (and the runs they started)
    are done."""
    await session.extensions.host.wait_for_deliveries()
