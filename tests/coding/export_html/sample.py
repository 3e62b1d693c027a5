"""A session with every kind of entry the HTML export shows, on two branches (for the export tests)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from pi_tui.coding.session.messages import message_from_json
from pi_tui.coding.session.session_manager import SessionManager

# A 1x1 red PNG.
PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003"
        "010100c9fe92ef0000000049454e44ae426082"
    )
).decode()
XSS = "<script>window.__pwned = 1; document.title = 'PWNED'</script><img src=x onerror=\"window.__pwned=2\">"


def _assistant(content: list[dict[str, Any]], stop: str = "stop") -> Any:
    return message_from_json(
        {
            "role": "assistant", "content": content, "api": "openai-completions", "provider": "faux",
            "model": "faux-1", "stopReason": stop, "timestamp": 1764590000000,
            "usage": {"input": 1200, "output": 340, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1540,
                      "cost": {"input": 0.001, "output": 0.002, "cacheRead": 0, "cacheWrite": 0, "total": 0.003}},
        }
    )


def _user(text: str, images: bool = False) -> Any:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if images:
        content.append({"type": "image", "data": PNG, "mimeType": "image/png"})
    return message_from_json({"role": "user", "content": content, "timestamp": 1764590000000})


def _result(call_id: str, name: str, text: str, error: bool = False, details: Any = None) -> Any:
    data: dict[str, Any] = {
        "role": "toolResult", "toolCallId": call_id, "toolName": name,
        "content": [{"type": "text", "text": text}], "isError": error, "timestamp": 1764590000000,
    }
    if details is not None:
        data["details"] = details
    return message_from_json(data)


def build_sample(manager: SessionManager, secret: str = "") -> dict[str, str]:
    """Fill ``manager``; returns ids: ``first_user``, ``old_leaf`` (end of the first branch), ``leaf``."""
    ids: dict[str, str] = {}
    manager.append_model_change("faux", "faux-1")
    ids["first_user"] = manager.append_message(_user("Show me **hello.py** " + XSS, images=True))
    manager.append_message(
        _assistant(
            [
                {"type": "thinking", "thinking": "The user wants the file. " + XSS},
                {"type": "text", "text": "Reading it now.\n\n```python\ndef hello():\n    return '<b>hi</b>'\n```"},
                {"type": "toolCall", "id": "call_read", "name": "read", "arguments": {"path": "hello.py"}},
                {"type": "toolCall", "id": "call_bash", "name": "bash", "arguments": {"command": "echo $KEY; ls"}},
            ],
            stop="toolUse",
        )
    )
    manager.append_message(_result("call_read", "read", "def hello():\n    print('hi')  # " + XSS + "\n"))
    manager.append_message(_result("call_bash", "bash", f"KEY={secret}\n" + XSS, error=True))
    manager.append_notification("warning", "Retrying in 2 s " + XSS)
    manager.append_artifact("notes.md", "markdown", "# Notes\n\n- one\n- two " + XSS)
    ids["old_leaf"] = manager.append_message(_assistant([{"type": "text", "text": "First branch answer."}]))
    manager.append_label_change(ids["first_user"], "start-here")
    # Second branch: back to the first user message's answer point.
    manager.branch(ids["first_user"])
    manager.append_message(
        _assistant(
            [
                {"type": "text", "text": "Editing instead. Here is a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |"},
                {"type": "toolCall", "id": "call_edit", "name": "edit",
                 "arguments": {"path": "hello.py", "oldText": "hi", "newText": "hello"}},
            ],
            stop="toolUse",
        )
    )
    manager.append_message(
        _result("call_edit", "edit", "Successfully replaced 1 block(s) in hello.py.",
                details={"diff": "-    print('hi')\n+    print('hello')", "firstChangedLine": 2})
    )
    manager.append_message(
        message_from_json({"role": "bashExecution", "command": "git status", "output": "clean " + XSS,
                           "exitCode": 0, "timestamp": 1764590000000})
    )
    ids["leaf"] = manager.append_message(_assistant([{"type": "text", "text": "Done: *hello* everywhere."}]))
    return ids


def sample_file(tmp_path: Path, secret: str = "") -> tuple[SessionManager, dict[str, str]]:
    """A file-backed sample session under ``tmp_path/sessions``."""
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    ids = build_sample(manager, secret)
    return manager, ids
