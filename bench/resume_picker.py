"""The ``/resume`` picker with many sessions (issue 12: "fast with hundreds of sessions"); prints, never fails.

Builds N session files of 40 messages each in one folder (500; ``--quick``: 20), then measures:
- ``listing_ms``: ``list_sessions_in_dir`` (what ``/resume`` waits for before the picker opens; in a thread);
- ``preview_ms``: ``session_preview`` of one file (median of 20; what the worker reads per highlighted row);
- ``open_ms``: headless app, from Enter on ``/resume`` to the picker showing its rows and the first preview;
- ``move_ms``: one Down key to the next row, screen updated (median of 30 presses; previews load after it);
- ``filter_ms``: one typed filter character to the filtered rows (median of 10);
- ``baseline_move_ms``/``move_ratio``: Down in the plain ``FuzzyPicker`` over the same rows in the same run
  (the ratio holds on a loaded machine, the milliseconds do not).

Run: ``python bench/resume_picker.py [--quick]``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import median, print_table, write_results  # noqa: E402
from _pi_app import isolate_config  # noqa: E402


def _write(directory: Path, n: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, Any]] = [{"type": "session", "version": 3, "id": f"{n:08x}-0000-4000-8000-000000000000",
                                    "timestamp": "2026-11-01T09:00:00.000Z", "cwd": "/bench"}]
    parent = None
    for i in range(40):
        role = "user" if i % 2 == 0 else "assistant"
        entry_id = f"{n:04x}{i:04x}"
        message: dict[str, Any] = {"role": role, "content": [{"type": "text", "text": f"{role} {n} {i} " + "w" * 900}],
                                   "timestamp": 1_790_000_000_000 + n * 100_000 + i * 1000}
        if role == "assistant":
            message.update({"provider": "p", "model": "m", "api": "x", "stopReason": "stop"})
        lines.append({"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2026-11-01T09:00:00.000Z",
                      "message": message})
        parent = entry_id
    path = directory / f"2026-11-01T09-00-00-000Z_{n:08x}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


async def _app_figures(infos: list[Any], current: Path) -> dict[str, float]:
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.tui.app import PiApp
    from pi_tui.tui.modals.resume_picker import ResumePicker

    session = create_agent_session("/bench", session_path=str(current))
    app = PiApp(session=session, cwd="/bench", probe_local=False, spin=False)
    loop = asyncio.get_running_loop()

    async def until(predicate: Any, limit: float = 60.0) -> None:
        end = loop.time() + limit
        while not predicate():
            if loop.time() > end:
                raise TimeoutError("not reached")
            await asyncio.sleep(0.001)

    async with app.run_test(size=(140, 40)) as pilot:
        await until(lambda: app.session_ready)
        app.prompt_input.insert("/resume")
        t0 = time.perf_counter()
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, ResumePicker) and bool(app.screen.rows) and bool(
            app.screen.previews))
        open_ms = (time.perf_counter() - t0) * 1000
        picker = app.screen
        assert isinstance(picker, ResumePicker)
        moves = []
        for _ in range(30):
            before = picker.query_one("OptionList").highlighted
            t0 = time.perf_counter()
            await pilot.press("down")
            await until(lambda before=before: picker.query_one("OptionList").highlighted != before)
            await pilot.pause()
            moves.append((time.perf_counter() - t0) * 1000)
        filters = []
        for ch in "user 1"[:10]:
            t0 = time.perf_counter()
            await pilot.press(ch if ch != " " else "space")
            await pilot.pause()
            filters.append((time.perf_counter() - t0) * 1000)
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, ResumePicker))
        # baseline in the same run: the plain fuzzy picker (the model picker's) over the same labels
        from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry

        plain = FuzzyPicker("baseline", [PickerEntry(i.first_message[:60], str(i.path)) for i in infos])
        app.push_screen(plain)
        await until(lambda: app.screen is plain and bool(plain.shown))
        base = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("down")
            await pilot.pause()
            base.append((time.perf_counter() - t0) * 1000)
    return {"open_ms": open_ms, "move_ms": median(moves), "filter_ms": median(filters),
            "baseline_move_ms": median(base), "move_ratio": median(moves) / max(median(base), 1e-6)}


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    count = 20 if quick else 500
    isolate_config()
    folder = Path(tempfile.mkdtemp(prefix="pi-tui-bench-resume-")) / "--bench--"
    paths = [_write(folder, n) for n in range(count)]
    from pi_tui.coding.session.listing import list_sessions_in_dir
    from pi_tui.coding.session.preview import session_preview

    t0 = time.perf_counter()
    infos = list_sessions_in_dir(folder)
    listing_ms = (time.perf_counter() - t0) * 1000
    samples = []
    for path in paths[:20]:
        t0 = time.perf_counter()
        session_preview(path)
        samples.append((time.perf_counter() - t0) * 1000)
    figures = {"sessions": len(infos), "listing_ms": listing_ms, "preview_ms": median(samples)}
    figures.update(asyncio.run(_app_figures(infos, paths[0])))
    print_table(f"/resume picker, {len(infos)} sessions x 40 messages", [
        ("listing_ms", figures["listing_ms"], "list_sessions_in_dir, before the picker opens (thread)"),
        ("preview_ms", figures["preview_ms"], "one preview read (worker thread)"),
        ("open_ms", figures["open_ms"], "Enter on /resume -> rows and the first preview shown"),
        ("move_ms", figures["move_ms"], "Down -> next row shown (median)"),
        ("filter_ms", figures["filter_ms"], "one filter character -> rows (median)"),
        ("baseline_move_ms", figures["baseline_move_ms"], "Down in the plain fuzzy picker, same rows (median)"),
        ("move_ratio", figures["move_ratio"], "move_ms / baseline_move_ms"),
    ])
    write_results("resume_picker", {"quick": quick, **figures})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
