"""Streaming a long Markdown reply through the real app, headless at 120x40.

``python bench/tui_stream.py [--quick]`` prints and writes bench/results/tui_stream.json. The reply (40 KB;
2 KB with ``--quick``) has headings, paragraphs, nested lists, fenced code and tables (bench/_content.py). It is
streamed by the faux provider (chunks of 3-5 tokens) through the real agent loop, ``AgentSession`` (from
``create_agent_session``) and ``PiApp``; every screen update is also serialised to terminal bytes.

(a) unthrottled (one event-loop tick per chunk): characters per second from submit to the final screen, beside
    the same text and chunks written to a bare Textual ``Markdown.get_stream`` (in an anchored scroll view) in
    the same run; the ratio.
(b) arriving at 800 characters/s (paced against an absolute clock, see ``AbsolutePacer``): event-loop lag p50/p95/max from a 10 ms probe, and keypress-to-screen latency
    of typing into the prompt meanwhile (one unique character every 250 ms; latency = key sent to the driver ->
    first screen update that shows it).
(c) the final screen of (a) equals the screen of the same reply arriving in one chunk, and the streamed reply's
    lines equal a fresh one-shot render of the final message.

Targets (issue 6): (a) >= 5x get_stream; (b) p95 lag <= 50 ms, keypress <= 50 ms; (c) identical.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _baselines import MarkdownStreamApp  # noqa: E402
from _common import median, percentile, print_table, write_results  # noqa: E402
from _content import markdown_reply  # noqa: E402
from _pi_app import isolate_config, make_pi_app  # noqa: E402
from _tui_harness import AbsolutePacer, DisplayRecorder, LagProbe, screen_styled, settle, type_keys  # noqa: E402
from textual.widgets import Markdown  # noqa: E402

from pi_tui.ai.providers.faux import (  # noqa: E402
    _split_by_token_size,
    faux_assistant_message,
    register_faux_provider,
)

SIZE = (120, 40)
PROMPT = "Explain the design of the streaming renderer."


async def _wait(predicate: Any, wait_limit: float = 60.0) -> None:
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > wait_limit:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.01)


async def run_pi(text: str, cwd: str, tokens_per_second: float | None, token_size: tuple[int, int] = (3, 5),
                 type_interval: float | None = None, probe_lag: bool = True, profiler: Any = None) -> dict[str, Any]:
    """Stream ``text`` through the real app; returns timings, lags, key latencies, final screen and lines.

    ``cpu_s``: CPU seconds of this process (every thread: app, agent loop, provider, screen serialisation) from
    submit to ``agent_end``; ``probe_lag=False`` leaves the 10 ms lag probe out (it costs CPU itself);
    ``profiler`` (a ``cProfile.Profile``) is enabled over the same span."""
    faux = register_faux_provider(tokens_per_second=tokens_per_second, token_size=token_size)
    faux.set_responses([faux_assistant_message(text)])
    app = make_pi_app(cwd, faux=faux)
    out: dict[str, Any] = {}
    try:
        async with app.run_test(size=SIZE) as pilot:
            recorder = DisplayRecorder(app)
            await _wait(lambda: app.session_ready)
            await pilot.pause()
            await settle(recorder, quiet=0.2, limit=5)
            done = asyncio.Event()
            deltas = 0

            def listener(event: Any) -> None:
                nonlocal deltas
                etype = getattr(event, "type", None)
                if etype == "message_update":
                    deltas += 1
                elif etype == "agent_end":
                    out["agent_end"] = time.perf_counter()
                    out["cpu_s"] = time.process_time() - cpu0
                    if profiler is not None:
                        profiler.disable()
                    done.set()

            app.session.subscribe(listener)
            probe = LagProbe(0.01)
            if probe_lag:
                probe.start()
            if profiler is not None:
                profiler.enable()
            cpu0 = time.process_time()
            t0 = time.perf_counter()
            app.run_worker(app.submit_text(PROMPT), name="bench-submit")
            typing = None
            if type_interval is not None:
                typing = asyncio.create_task(type_keys(app, recorder, 10_000, type_interval, stop=done))
            await asyncio.wait_for(done.wait(), timeout=900)
            keys = await typing if typing is not None else []
            t_end = await settle(recorder, quiet=0.3)
            lags = await probe.stop()
            out["worst_lags"] = probe.worst(5, t0)
            out["stream_s"] = out["agent_end"] - t0
            out.update(
                t0=t0, t_end=t_end, lags=lags, keys=keys, deltas=deltas, updates=recorder.updates,
                serialise_s=recorder.serialise_s, screen=screen_styled(app),
            )
            out["lines_equal"] = _reply_lines_equal(app, text)
    finally:
        faux.unregister()
    return out


def _reply_lines_equal(app: Any, text: str) -> bool:
    """The streamed reply's cached lines == a fresh one-shot render of its final message."""
    from pi_tui.tui.widgets.transcript_items import AssistantItem

    items = [it for it in app.transcript.items if isinstance(it, AssistantItem)]
    if not items:
        return False
    item = items[-1]
    width = app.transcript.content_width
    fresh = AssistantItem(item.message, streaming=False)
    a = [[(s.text, str(s.style)) for s in strip] for strip in item.strips(app.ctx, width)]
    b = [[(s.text, str(s.style)) for s in strip] for strip in fresh.strips(app.ctx, width)]
    return a == b and item.plain_text().strip() == text.strip()


async def run_textual(text: str) -> dict[str, Any]:
    """The same chunks written to a bare ``Markdown.get_stream`` (one loop tick per chunk, like the faux)."""
    chunks = _split_by_token_size(text, 3, 5)
    app = MarkdownStreamApp()
    async with app.run_test(size=SIZE) as pilot:
        recorder = DisplayRecorder(app)
        await pilot.pause()
        widget = app.query_one("#reply", Markdown)
        stream = Markdown.get_stream(widget)
        t0 = time.perf_counter()
        for chunk in chunks:
            await stream.write(chunk)
        await stream.stop()
        t_end = await settle(recorder, quiet=0.3)
        return {"t0": t0, "t_end": t_end, "chunks": len(chunks), "updates": recorder.updates}


def _diff_rows(a: list[Any], b: list[Any]) -> list[int]:
    return [i for i in range(max(len(a), len(b))) if (a[i] if i < len(a) else None) != (b[i] if i < len(b) else None)]


async def main_async(quick: bool) -> dict[str, Any]:
    """Run (a), (b), (c) and the Textual baseline; returns the results dict."""
    isolate_config()
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    size = 2_000 if quick else 40_000
    text = markdown_reply(size, seed=1)
    n = len(text)

    a = await run_pi(text, cwd, tokens_per_second=None)
    a_rate = n / (a["t_end"] - a["t0"])
    base = await run_textual(text)
    base_rate = n / (base["t_end"] - base["t0"])
    one = await run_pi(text, cwd, tokens_per_second=None, token_size=(10**9, 10**9))
    diff = _diff_rows(a["screen"], one["screen"])
    pacer = AbsolutePacer()
    pacer.install()
    try:
        b = await run_pi(text, cwd, tokens_per_second=800 / 4, type_interval=0.25)
    finally:
        pacer.uninstall()
    b_arrival = n / (b["agent_end"] - b["t0"])
    lags, keys = b["lags"], b["keys"]
    return {
        "quick": quick, "reply_chars": n,
        "a_pi_chars_per_s": a_rate, "a_pi_seconds": a["t_end"] - a["t0"], "a_pi_deltas": a["deltas"],
        "a_pi_screen_updates": a["updates"],
        "a_textual_chars_per_s": base_rate, "a_textual_seconds": base["t_end"] - base["t0"],
        "a_textual_chunks": base["chunks"], "a_ratio": a_rate / base_rate if base_rate else 0.0,
        "b_arrival_chars_per_s": b_arrival, "b_lag_p50_ms": percentile(lags, 50), "b_lag_p95_ms": percentile(lags, 95),
        "b_lag_max_ms": max(lags, default=0.0), "b_lag_samples": len(lags),
        "b_key_p50_ms": median(keys), "b_key_p95_ms": percentile(keys, 95), "b_key_max_ms": max(keys, default=0.0),
        "b_keys": len(keys), "b_screen_updates": b["updates"],
        "b_worst_lags_s_ms": b["worst_lags"], "b_stream_s": b["stream_s"],
        "c_screen_identical": not diff, "c_rows_differing": diff,
        "c_lines_equal_one_shot": bool(a["lines_equal"]),
    }


def main(argv: list[str]) -> int:
    """Run the benchmark and print the table."""
    load0 = os.getloadavg()[0]
    r = asyncio.run(main_async("--quick" in argv))
    r["load_1min"] = [load0, os.getloadavg()[0]]
    met = lambda ok: "met" if ok else "NOT met"  # noqa: E731
    print_table(f"tui_stream ({r['reply_chars']:,}-char Markdown reply, 120x40)", [
        ("(a) pi-tui chars/s, unthrottled", r["a_pi_chars_per_s"], f"{r['a_pi_seconds']:.2f} s"),
        ("(a) Textual get_stream chars/s", r["a_textual_chars_per_s"], f"{r['a_textual_seconds']:.2f} s, same run"),
        ("(a) ratio", r["a_ratio"], f"target >= 5x: {met(r['a_ratio'] >= 5)}"),
        ("(b) arrival rate chars/s", r["b_arrival_chars_per_s"], "target 800 (faux, absolute-clock pacing)"),
        ("(b) loop lag p50 ms", r["b_lag_p50_ms"], f"{r['b_lag_samples']} samples of a 10 ms probe"),
        ("(b) loop lag p95 ms", r["b_lag_p95_ms"], f"target <= 50: {met(r['b_lag_p95_ms'] <= 50)}"),
        ("(b) loop lag max ms", r["b_lag_max_ms"], "worst (s into the {:.0f} s stream, ms): {}".format(
            r["b_stream_s"], r["b_worst_lags_s_ms"][:3])),
        ("(b) keypress->screen p50 ms", r["b_key_p50_ms"], f"{r['b_keys']} keys"),
        ("(b) keypress->screen p95 ms", r["b_key_p95_ms"], f"target <= 50: {met(r['b_key_p95_ms'] <= 50)}"),
        ("(b) keypress->screen max ms", r["b_key_max_ms"], ""),
        ("(c) final screen == one-chunk screen", "yes" if r["c_screen_identical"] else "NO",
         f"rows differing: {r['c_rows_differing'][:10]}"),
        ("(c) reply lines == one-shot render", "yes" if r["c_lines_equal_one_shot"] else "NO", ""),
        ("load average (1 min), start / end", f"{r['load_1min'][0]:.2f} / {r['load_1min'][1]:.2f}",
         "2 cores shared: absolute chars/s follow the load, (a)'s ratio much less"),
    ])
    write_results("tui_stream", r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
