"""Session file figures: append rate, load time, lazy listing vs full parsing (prints, never fails).

Run: /work/venv/bin/python bench/session_io.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.listing import list_sessions_in_dir
from pi_tui.coding.session.session_file import read_session_file


def _fill(session: SessionManager, turns: int) -> None:
    for turn in range(turns):
        session.append_message(UserMessage(content=[TextContent(text=f"question {turn} " + "x" * 200)]))
        session.append_message(
            AssistantMessage(
                content=[TextContent(text=f"answer {turn} " + "y" * 800)], provider="p", model="m"
            )
        )


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="pi-tui-bench-"))
    session = SessionManager.create("/bench", root / "one")
    start = time.perf_counter()
    _fill(session, 5000)
    elapsed = time.perf_counter() - start
    print(f"append: 10000 entries in {elapsed:.2f}s = {10000 / elapsed:,.0f} entries/s (each one os.write)")
    assert session.session_file is not None
    size = session.session_file.stat().st_size
    start = time.perf_counter()
    reopened = SessionManager.open(session.session_file)
    load = time.perf_counter() - start
    start = time.perf_counter()
    context = reopened.build_session_context()
    build = time.perf_counter() - start
    print(
        f"load: {len(reopened.get_entries())} entries ({size / 1e6:.1f} MB) in {load * 1000:.0f} ms; "
        f"build_session_context ({len(context.messages)} messages) {build * 1000:.0f} ms"
    )

    many = root / "many"
    for _ in range(200):
        _fill(SessionManager.create("/bench", many), 100)
    start = time.perf_counter()
    infos = list_sessions_in_dir(many)
    lazy = time.perf_counter() - start
    start = time.perf_counter()
    for path in many.iterdir():
        read_session_file(path)
    full = time.perf_counter() - start
    print(
        f"listing: {len(infos)} sessions x 200 entries: lazy {lazy * 1000:.0f} ms vs full JSON parse "
        f"{full * 1000:.0f} ms (ratio {full / lazy:.1f}x)"
    )


if __name__ == "__main__":
    main()
