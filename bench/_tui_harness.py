"""Measurement helpers for the headless TUI benchmarks (bench-only; no project code depends on them).

- :class:`LagProbe`: a task that sleeps 10 ms in a loop and records how late each wake-up was (event-loop lag,
  in ms). A loop blocked by rendering shows up as large lags.
- :class:`DisplayRecorder`: wraps ``App._display`` so that every screen update is also serialised to terminal
  bytes (``render_segments``, the work a real terminal run does before writing) and timestamped; waiters can
  ask for "the first update after t0 containing text X".
- :func:`type_keys`: keypress-to-screen latency: sends ``Key`` events through the driver (as a real terminal
  does) and waits for the first screen update that shows the typed character.
- :func:`rss_mb`, :func:`screen_lines`: process memory and a plain-text copy of the current screen.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from textual import events
from textual.app import App

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")

# Letters that never occur in the benchmark content: each typed key is unique, so the first screen update that
# contains it is the one that shows that key.
UNIQUE_KEYS = (
    [chr(c) for c in range(0x0430, 0x0450)]  # Cyrillic lower case
    + [chr(c) for c in range(0x03B1, 0x03CA) if c != 0x03C2]  # Greek lower case
    + [chr(c) for c in range(0x0561, 0x0587)]  # Armenian lower case
    + [chr(c) for c in range(0x10D0, 0x10FB)]  # Georgian
)


class LagProbe:
    """Measure event-loop lag: wake every ``interval`` s and record lateness in ms."""

    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.lags_ms: list[float] = []
        self.times: list[float] = []  # perf_counter() at the start of each sample
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start probing on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.lags_ms.append(max(0.0, (time.perf_counter() - t0 - self.interval) * 1000))
            self.times.append(t0)

    async def stop(self) -> list[float]:
        """Stop probing; returns the recorded lags (ms)."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        return self.lags_ms

    def worst(self, n: int, origin: float) -> list[tuple[float, float]]:
        """The ``n`` largest lags as ``(seconds after origin, lag ms)``, largest first."""
        pairs = sorted(zip(self.lags_ms, self.times, strict=False), reverse=True)[:n]
        return [(round(t - origin, 3), round(lag, 1)) for lag, t in pairs]


class DisplayRecorder:
    """Record every screen update of ``app`` (headless) with its time and plain text."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.updates = 0
        self.serialise_s = 0.0
        self.last_update = 0.0
        self._waiters: list[tuple[str, float, asyncio.Future[float], Any]] = []
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None:
                return
            now = time.perf_counter()
            text = ""
            render = getattr(renderable, "render_segments", None)
            if render is not None:
                text = render(app.console)
                self.serialise_s += time.perf_counter() - now
            self.updates += 1
            self.last_update = now
            if self._waiters:
                plain = ANSI.sub("", text)
                for waiter in list(self._waiters):
                    needle, after, fut, predicate = waiter
                    if fut.done():
                        self._waiters.remove(waiter)
                    elif now >= after and needle in plain and (predicate is None or predicate()):
                        fut.set_result(now)
                        self._waiters.remove(waiter)

        app._display = display  # type: ignore[method-assign]

    def wait_for(self, needle: str, after: float, predicate: Any = None) -> asyncio.Future[float]:
        """A future resolved with the time of the first update at/after ``after`` whose text contains ``needle``
        (``""``: any update) and for which ``predicate()`` (if given) is true at that moment."""
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiters.append((needle, after, fut, predicate))
        return fut


async def type_keys(app: App[Any], recorder: DisplayRecorder, count: int, interval: float,
                    keys: list[str] | None = None, wait_limit: float = 10.0,
                    stop: asyncio.Event | None = None) -> list[float]:
    """Type up to ``count`` unique characters, one every ``interval`` s (until ``stop`` is set); returns
    keypress-to-screen latencies (ms).

    A key whose character never reaches the screen within ``wait_limit`` s counts as ``wait_limit`` ms.
    """
    chars = keys or UNIQUE_KEYS
    latencies: list[float] = []
    driver = app._driver
    assert driver is not None
    for i in range(min(count, len(chars))):
        await asyncio.sleep(interval)
        if stop is not None and stop.is_set():
            break
        ch = chars[i]
        t0 = time.perf_counter()
        fut = recorder.wait_for(ch, t0)
        event = events.Key(ch, ch)
        event.set_sender(app)
        driver.send_message(event)
        try:
            t1 = await asyncio.wait_for(fut, wait_limit)
        except TimeoutError:
            t1 = t0 + wait_limit
        latencies.append((t1 - t0) * 1000)
    return latencies


async def settle(recorder: DisplayRecorder, quiet: float = 0.3, limit: float = 600.0) -> float:
    """Wait until the screen has not changed for ``quiet`` s; returns the time of the last update."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        seen = recorder.updates
        await asyncio.sleep(quiet)
        if recorder.updates == seen:
            break
    return recorder.last_update


async def press_and_wait(app: App[Any], recorder: DisplayRecorder, key: str, predicate: Any = None,
                         needle: str = "", wait_limit: float = 30.0) -> float:
    """Send ``key`` through the driver; ms until the first screen update for which ``predicate()`` holds."""
    driver = app._driver
    assert driver is not None
    t0 = time.perf_counter()
    fut = recorder.wait_for(needle, t0, predicate)
    event = events.Key(key, None)
    event.set_sender(app)
    driver.send_message(event)
    try:
        t1 = await asyncio.wait_for(fut, wait_limit)
    except TimeoutError:
        t1 = t0 + wait_limit
    return (t1 - t0) * 1000


def rss_mb() -> float:
    """Resident set size of this process in MiB (from /proc/self/status; 0.0 where unavailable)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def screen_lines(app: App[Any]) -> list[str]:
    """The current screen as plain-text lines (from the compositor, no terminal needed)."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def screen_styled(app: App[Any]) -> list[list[tuple[str, str]]]:
    """The current screen as rows of (text, style) segments, for exact comparisons."""
    strips = app.screen._compositor.render_strips()
    rows: list[list[tuple[str, str]]] = []
    for strip in strips:
        rows.append([(seg.text, str(seg.style)) for seg in strip if seg.text])
    return rows


class AbsolutePacer:
    """Pace the faux provider against an absolute clock: chunk k is released at ``start + chars_before_k / cps``.

    The faux provider's own pacing sleeps a fixed time per chunk, so scheduling overshoot accumulates (a nominal
    800 characters/s arrives at ~500/s on a busy loop). ``install()`` replaces ``faux._schedule_chunk`` (bench
    only) for paced streams; unpaced streams (``tokens_per_second`` None) keep one loop tick per chunk.
    """

    def __init__(self) -> None:
        self.start: float | None = None
        self.chars = 0
        self._original: Any = None

    def install(self) -> None:
        """Patch the faux provider module."""
        from pi_tui.ai.providers import faux

        self._original = faux._schedule_chunk

        async def schedule(chunk: str, tokens_per_second: float | None) -> None:
            if not tokens_per_second or tokens_per_second <= 0:
                await asyncio.sleep(0)
                return
            now = time.perf_counter()
            if self.start is None:
                self.start = now
            self.chars += len(chunk)
            await asyncio.sleep(max(0.0, self.start + self.chars / (tokens_per_second * 4) - now))

        faux._schedule_chunk = schedule  # type: ignore[assignment]

    def uninstall(self) -> None:
        """Restore the faux provider's own pacing."""
        from pi_tui.ai.providers import faux

        if self._original is not None:
            faux._schedule_chunk = self._original
            self._original = None
