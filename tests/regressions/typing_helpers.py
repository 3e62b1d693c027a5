"""Type into an app the way a terminal does: raw input parsed by the app's terminal parser (``PasteSafeParser``, Textual's ``XTermParser`` with pastes read whole), one event each.

``type_raw`` posts every parsed event to the app at once (as the Linux driver's input thread does for one
``read()``), so a fast typist's burst or a non-bracketed paste arrives as a queue of ``Key`` events.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from pi_tui.tui.paste_parser import PasteSafeParser


def raw_events(data: str) -> list[Any]:
    """The events Textual's terminal parser makes of ``data`` (``\\x7f`` is Backspace, ``\\r`` Enter)."""
    parser = PasteSafeParser()
    events = list(parser.feed(data))
    events.extend(parser.feed(""))  # flush a trailing lone Escape
    return events


async def type_raw(pilot: Pilot[Any], data: str, wait: bool = True) -> None:
    """Post ``data``'s key events to the app; with ``wait``, return once they have been handled."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for event in raw_events(data):
        driver.process_message(event)  # what the input thread does with each parsed event
    if wait:
        await pilot.pause()
        await pilot.pause()
