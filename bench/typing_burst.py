"""Typing without bracketed paste (issue 9): how fast the editor takes a burst of keys, and whether it takes all.

``python bench/typing_burst.py [--quick]`` prints and writes bench/results/typing_burst.json. The real ``PiApp``
on the built-in offline model runs headless at 120x40; text is parsed by Textual's ``XTermParser`` and every
event handed to the driver's ``process_message`` (what the Linux driver's input thread does with one read()),
so the app sees a queue of ``Key`` events as from a fast typist or a terminal that pastes without brackets.

Figures: a 5,000-character one-line paste (1,000 with ``--quick``): wall seconds until the editor holds it
all, characters/s, CPU seconds of this process meanwhile, and whether the text arrived whole and in order.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from _common import print_table, write_results  # noqa: E402


def sample_text(n: int) -> str:
    """``n`` characters of prose with some CJK and accents, no newline (Enter would submit)."""
    words = ["def", "handle(", "self)", "->", "None:", "return", "中文", "café", "naïve", "x", "=", "42;"]
    out: list[str] = []
    size = 0
    i = 0
    while size < n:
        w = words[i % len(words)] + " "
        out.append(w)
        size += len(w)
        i += 1
    return "".join(out)[:n]


async def measure(n: int) -> dict[str, Any]:
    """Paste ``n`` characters as separate keys; returns the figures."""
    from textual._xterm_parser import XTermParser

    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.tui.app import PiApp

    with tempfile.TemporaryDirectory() as home:
        os.environ["PI_TUI_DIR"] = home
        cwd = Path(home) / "proj"
        cwd.mkdir()
        session = create_agent_session(str(cwd), no_session=True)
        app = PiApp(session=session, cwd=str(cwd), cwd_label="~/proj", branch="main", probe_local=False,
                    spin=False, show_timing=False, escape_delay=0.0)
        text = sample_text(n)
        async with app.run_test(size=(120, 40)) as pilot:
            while not app.session_ready:
                await pilot.pause(0.02)
            await pilot.pause(0.2)
            driver = app._driver
            assert driver is not None
            events = list(XTermParser().feed(text))
            editor = app.prompt_input
            done = asyncio.Event()
            original_edit = editor.edit

            def edit(change: Any) -> Any:
                result = original_edit(change)
                if len(editor.text) >= n:
                    done.set()
                return result

            editor.edit = edit  # type: ignore[method-assign]
            cpu0, t0 = time.process_time(), time.perf_counter()
            for event in events:
                driver.process_message(event)
            await asyncio.wait_for(done.wait(), timeout=120)
            wall = time.perf_counter() - t0
            cpu = time.process_time() - cpu0
            await pilot.pause(0.1)
            got = app.prompt_input.text
    return {"chars": n, "seconds": wall, "chars_per_s": n / wall if wall else 0.0, "cpu_s": cpu,
            "cpu_share": cpu / wall if wall else 0.0, "whole_and_in_order": got == text}


def main(argv: list[str]) -> int:
    """Run the measurement and print/write the figures."""
    n = 1000 if "--quick" in argv else 5000
    r = asyncio.run(measure(n))
    print_table("Typing burst without bracketed paste", [
        ("characters", r["chars"], "one key event each"),
        ("seconds until all in the editor", r["seconds"], ""),
        ("characters/s", r["chars_per_s"], "issue 9: ~1,000/s before"),
        ("CPU seconds meanwhile", r["cpu_s"], ""),
        ("text whole and in order", r["whole_and_in_order"], "must be True"),
    ])
    write_results("typing_burst", r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
