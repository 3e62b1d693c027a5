"""Make ``screenshots/export_html.png``: a demo session with two branches exported to HTML (the real
``pi_tui.coding.export_html``), shot by headless Chromium. Usage: ``python scripts/export_screenshot.py [theme]``
from the repository root; needs ``chromium`` on PATH (Debian: ``apt-get install -y chromium``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pi_tui.coding.export_html import render_page  # noqa: E402
from pi_tui.coding.export_html.data import build_export_data  # noqa: E402
from pi_tui.coding.session.messages import message_from_json  # noqa: E402
from pi_tui.coding.session.session_manager import SessionManager  # noqa: E402

T = 1764590000000


def _assistant(content: list[dict[str, Any]], stop: str = "stop") -> Any:
    return message_from_json({
        "role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
        "model": "claude-sonnet-4-5", "stopReason": stop, "timestamp": T,
        "usage": {"input": 5230, "output": 412, "cacheRead": 3100, "cacheWrite": 0, "totalTokens": 8742,
                  "cost": {"input": 0.0157, "output": 0.0062, "cacheRead": 0.0009, "cacheWrite": 0, "total": 0.0228}},
    })


def _user(text: str) -> Any:
    return message_from_json({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": T})


def _result(call_id: str, name: str, text: str, details: Any = None) -> Any:
    return message_from_json({"role": "toolResult", "toolCallId": call_id, "toolName": name, "isError": False,
                              "content": [{"type": "text", "text": text}], "details": details, "timestamp": T})


def demo(manager: SessionManager) -> None:
    """A short, realistic session: a question, a read, a first answer, then a second branch with an edit."""
    manager.append_session_info("Fix the greeting in hello.py")
    manager.append_model_change("anthropic", "claude-sonnet-4-5")
    first = manager.append_message(_user("Why does `hello.py` print **Hi** instead of *Hello, world*?"))
    manager.append_message(_assistant([
        {"type": "thinking", "thinking": "I should read the file before guessing. The greeting is probably a constant."},
        {"type": "text", "text": "Let me look at the file."},
        {"type": "toolCall", "id": "r1", "name": "read", "arguments": {"path": "hello.py"}},
    ], "toolUse"))
    manager.append_message(_result("r1", "read", 'GREETING = "Hi"\n\n\ndef main() -> None:\n    print(GREETING)\n'))
    manager.append_message(_assistant([{"type": "text", "text": "`GREETING` is set to `\"Hi\"` on line 1."}]))
    manager.append_label_change(first, "bug report")
    manager.branch(first)
    manager.append_message(_assistant([
        {"type": "text", "text": "The constant on line 1 is the cause. I'll change it:"},
        {"type": "toolCall", "id": "e1", "name": "edit",
         "arguments": {"path": "hello.py", "oldText": '"Hi"', "newText": '"Hello, world"'}},
    ], "toolUse"))
    manager.append_message(_result("e1", "edit", "Successfully replaced 1 block(s) in hello.py.",
                                   {"diff": '-1 GREETING = "Hi"\n+1 GREETING = "Hello, world"', "firstChangedLine": 1}))
    manager.append_message(_assistant([
        {"type": "toolCall", "id": "b1", "name": "bash", "arguments": {"command": "python hello.py"}}], "toolUse"))
    manager.append_message(_result("b1", "bash", "Hello, world\n"))
    manager.append_notification("info", "Auto-compaction skipped: 12% of the context window used")
    manager.append_message(_assistant([{"type": "text", "text": (
        "Fixed. `hello.py` now prints:\n\n```text\nHello, world\n```\n\n"
        "| File | Change |\n|---|---|\n| `hello.py` | `GREETING` is `\"Hello, world\"` |\n\n"
        "```python\nGREETING = \"Hello, world\"\n\n\ndef main() -> None:\n    print(GREETING)\n```"
    )}]))


def main(argv: list[str]) -> int:
    theme = argv[0] if argv else "dark"
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        print("chromium not found (apt-get install -y chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="pi-tui-export-shot-") as tmp:
        manager = SessionManager.in_memory("/home/dev/projects/hello")
        demo(manager)
        data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id(),
                                 system_prompt="You are an expert coding assistant.")
        page = Path(tmp) / "demo.html"
        page.write_text(render_page(data, theme), encoding="utf-8")
        out = ROOT / "screenshots" / "export_html.png"
        subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={tmp}/profile", "--window-size=1280,860",
             f"--screenshot={out}", page.as_uri()],
            check=True, capture_output=True, timeout=120,
        )
    print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
