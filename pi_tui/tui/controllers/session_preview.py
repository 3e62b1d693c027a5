"""``SessionPreview``: the end of the session being opened, on screen before the session is built (issue 15).

Building a long session (reading and checking the whole file, the agent core's imports, models, tools) takes
seconds; the app already paints first and builds it in a thread (``StartupFlow``). Meanwhile the transcript
shows the end of the file's current branch (``pi_tui.coding.session.tail``): the last entries, walked back by
``parentId`` from the last one, made into items by the same ``items_from_branch`` a resumed session's
transcript is made by. The editor takes keys meanwhile (a prompt sent before the session exists waits in the
submit queue and is sent once it does, as before). When the session is attached its full transcript replaces
the preview (``said_before`` keeps what the app said meanwhile; ``take_shown`` tells the transcript to find a
scrolled-up reader's place counting from the end, since the preview is the end of the new items).

The file is found as the factory finds it (``preview_path``: ``--session FILE`` or ``-c``). A file the tail
reader gives up on, or any failure here, simply shows no preview.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_tui.coding.session.entries import SessionEntryBase
    from pi_tui.tui.widgets.transcript import Transcript
    from pi_tui.tui.widgets.transcript_items import TranscriptItem


def preview_path(options: dict[str, Any], cwd: str, settings_session_dir: str | None = None) -> str | None:
    """The session file ``create_agent_session(**options)`` will open, found as the factory finds it, or ``None``
    (``--no-session``, a new session, a partial id: the factory resolves those). ``--session`` with a path
    (``.jsonl``, a path separator, or an existing file; relative to ``cwd``, as ``_find_session_file`` reads it)
    that is a file; ``-c``: the most recent session of ``cwd`` in the session dir (CLI > ``PI_TUI_SESSION_DIR``
    > settings ``sessionDir``, ``settings_session_dir``), passing over print runs when ``skip_print_runs``, as
    ``open_session_manager`` does. Reads the file system: run it off the event loop."""
    if options.get("no_session"):
        return None
    session = options.get("session_path")
    if isinstance(session, str) and session:
        path = Path(session).expanduser()
        if not (path.suffix == ".jsonl" or os.sep in session or path.exists()):
            return None
        path = path if path.is_absolute() else Path(cwd) / path
        return str(path) if path.is_file() else None
    if not options.get("continue_recent"):
        return None
    from pi_tui.coding.config.paths import resolve_session_dir
    from pi_tui.coding.session import listing

    directory = resolve_session_dir(cwd, options.get("session_dir"), settings_session_dir)
    found = listing.find_most_recent_session(directory, listing.folder_scope(directory, cwd),
                                             skip_print_runs=bool(options.get("skip_print_runs")))
    return str(found) if found is not None else None


def preview_items(path: str) -> list[TranscriptItem]:
    """Transcript items for the end of the session file at ``path`` (``[]`` when the tail reader gives up).
    Calls without a result are interrupted, as a resumed session shows them."""
    from pi_tui.coding.session.tail import read_session_tail
    from pi_tui.tui.entry_labels import MessageLabels
    from pi_tui.tui.transcript_builder import close_unanswered, items_from_branch

    tail = read_session_tail(path)
    if tail is None or not tail.entries:
        return []
    branch: list[SessionEntryBase] = list(tail.entries)
    items = items_from_branch(branch, MessageLabels(tail))
    close_unanswered(items)
    return items


class SessionPreview:
    """Shows, and later hands over, the preview in ``transcript`` (see module docstring); ``report`` gets a
    failure (it never stops the start-up)."""

    def __init__(self, transcript: Callable[[], Transcript], report: Callable[[str, BaseException], None],
                 after_refresh: Callable[[Callable[[], None]], object]) -> None:
        self._transcript = transcript
        self._report = report
        self._after_refresh = after_refresh  # App.call_after_refresh
        self._ids: set[int] = set()
        self._shown = False
        self.locate: Callable[[], str | None] | None = None  # the file to preview (``run_app``: ``preview_path``)

    async def show(self) -> bool:
        """Find the file (``locate``) and read its preview in a thread, then show it before what the transcript
        holds (what the app said during start-up); returns once it is painted (True), so the session's thread,
        which competes for the interpreter, starts after it is on screen. False when there was nothing to show."""
        locate = self.locate
        if locate is None:
            return False

        def read() -> list[TranscriptItem]:
            path = locate()
            return preview_items(path) if path else []

        try:
            items = await asyncio.to_thread(read)
        except Exception as exc:
            self._report("session preview", exc)
            return False
        if not items:
            return False
        transcript = self._transcript()
        self._ids = {id(item) for item in items}
        self._shown = True
        transcript.replace_items([*items, *transcript.items])
        painted = asyncio.Event()
        self._after_refresh(painted.set)
        await painted.wait()
        return True

    def said_before(self, items: list[TranscriptItem]) -> list[TranscriptItem]:
        """``items`` without the preview's (what the app said before the session was attached)."""
        return [item for item in items if id(item) not in self._ids]

    def take_shown(self) -> bool:
        """True once after a preview was shown (the next rebuild replaces it), then False."""
        shown, self._shown = self._shown, False
        self._ids = set() if shown else self._ids
        return shown
