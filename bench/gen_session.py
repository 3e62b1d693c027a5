"""Generate a long, valid v3 session file with the real SessionManager (pi_tui/coding/session/).

``python bench/gen_session.py N OUT_DIR`` writes a session of exactly ``N`` messages to ``OUT_DIR`` and prints
its path. A "message" is one displayed entry: user prompts, assistant replies (thinking + Markdown with code,
lists and tables; some with a ``read`` or ``bash`` tool call), tool results, user ``!bash`` runs, and the
UI-only notifications and artifacts. Every message carries a unique marker ``MSG-<n>`` (5 digits) on a line
the UI shows by default, so a benchmark can check that every message is reachable by scrolling.

``generate_session(path_dir, n, cwd)`` returns ``(path, markers, last_needle)``: the file, the markers in order
and the text on the last line of the last message (what "interactive" waits for).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _content import short_markdown  # noqa: E402

from pi_tui.ai.types import (  # noqa: E402
    AssistantMessage,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from pi_tui.coding.messages import BashExecutionMessage  # noqa: E402
from pi_tui.coding.session.session_manager import SessionManager  # noqa: E402

PROVIDER = "anthropic"
MODEL_ID = "claude-sonnet-4-5"
BASE_TS = 1_764_000_000_000  # ms


def marker(n: int) -> str:
    """The marker of message ``n`` (``MSG-00042``)."""
    return f"MSG-{n:05d}"


def _assistant(content: list[object], ts: int, stop: str = "stop") -> AssistantMessage:
    return AssistantMessage(
        content=content,  # type: ignore[arg-type]
        api="anthropic-messages",
        provider=PROVIDER,
        model=MODEL_ID,
        usage=Usage(input=1200, output=400, cache_read=800, total_tokens=2400),
        stop_reason=stop,  # type: ignore[arg-type]
        timestamp=ts,
    )


def generate_session(out_dir: Path, n: int, cwd: str | None = None, seed: int = 7) -> tuple[Path, list[str], str]:
    """Write a session of exactly ``n`` messages into ``out_dir``; returns ``(file path, markers in order, text
    shown on the last line of the last message)`` (Markdown replies end with ``(end of MSG-<n>)``)."""
    rng = random.Random(seed)
    manager = SessionManager.create(cwd or str(out_dir), out_dir)
    manager.append_model_change(PROVIDER, MODEL_ID)
    manager.append_thinking_level_change("medium")
    markers: list[str] = []
    last_needle = ""
    turn = 0

    def take() -> str | None:
        nonlocal last_needle
        if len(markers) >= n:
            return None
        markers.append(marker(len(markers)))
        last_needle = markers[-1]
        return markers[-1]

    while len(markers) < n:
        ts = BASE_TS + turn * 60_000
        m = take()
        if m is None:
            break
        manager.append_message(UserMessage(content=[TextContent(text=f"{m} please look at handler_{turn} and "
                                                                     "explain what it does, then fix the bug.")],
                                           timestamp=ts))
        m = take()
        if m is None:
            break
        tool_name = "bash" if turn % 4 == 3 else "read"
        call_id = f"toolu_{turn:06d}"
        args = {"command": f"grep -n handler_{turn} src/"} if tool_name == "bash" else {"path": f"src/{m}.py"}
        manager.append_message(_assistant([
            ThinkingContent(thinking=f"The user wants handler_{turn}. I should read the file first, then "
                                     "check the tests.", thinking_signature="sig"),
            TextContent(text=f"{m} Let me read the file first."),
            ToolCall(id=call_id, name=tool_name, arguments=args),
        ], ts + 1000, stop="toolUse"))
        m = take()
        if m is None:
            break
        body = "\n".join(f"{i + 2}    total += step({i})" for i in range(rng.randint(3, 30)))
        # pi shows the head of a read result and the tail of bash output when collapsed: marker on a shown line.
        result = f"1    # {m}\n{body}" if tool_name == "read" else f"{body}\n# {m}"
        manager.append_message(ToolResultMessage(tool_call_id=call_id, tool_name=tool_name,
                                                 content=[TextContent(text=result)], timestamp=ts + 2000))
        m = take()
        if m is None:
            break
        manager.append_message(_assistant([
            ThinkingContent(thinking="Now I understand the bug; explain and propose a fix.",
                            thinking_signature="sig"),
            TextContent(text=short_markdown(rng, m, sections=rng.randint(1, 3)) + f"\n\n(end of {m})"),
        ], ts + 3000))
        last_needle = f"(end of {m})"
        if turn % 3 == 1:
            m = take()
            if m is None:
                break
            manager.append_message(BashExecutionMessage(command=f"echo {m} && pytest -q", output=f"{m}\n3 passed",
                                                        exit_code=0, timestamp=ts + 4000))
        if turn % 5 == 2:
            m = take()
            if m is None:
                break
            manager.append_notification("info", f"{m} Saved session checkpoint", timestamp=ts + 5000)
        if turn % 7 == 4:
            m = take()
            if m is None:
                break
            manager.append_artifact(f"{m} patch for handler_{turn}", "code",
                                    f"def handler_{turn}(x):\n    return x + 1\n", language="python",
                                    path=f"src/h{turn}.py", timestamp=ts + 6000)
        turn += 1
    path = manager.get_session_file()
    assert path is not None and path.exists(), "the session file was not written"
    return path, markers, last_needle


def main(argv: list[str]) -> int:
    """CLI: ``gen_session.py N OUT_DIR``."""
    if len(argv) != 2:
        print("usage: gen_session.py N OUT_DIR", file=sys.stderr)
        return 2
    path, markers, _ = generate_session(Path(argv[1]), int(argv[0]))
    print(f"{path} ({len(markers)} messages, {path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
