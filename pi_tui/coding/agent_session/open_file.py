"""Open the session a run writes to, as its only writer (issue 9 item 5; lock rules in ``session/lock.py``).

:func:`open_session_manager` picks the file (``--session``, ``-c``, or a new one), locks an existing file
before anything reads or rewrites it, and decides what happens when another live pi-tui holds it, by
``if_locked``:

* ``None`` — raise :class:`~pi_tui.coding.session.lock.SessionLockedError` (the app asks the user; print, JSON
  and RPC mode print it and exit 1);
* ``"read-only"`` — open it but never write (a startup warning says so);
* ``"fork"`` — copy it into a new session of this cwd and continue there;
* ``"take-over"`` — take the lock; the other process stops writing before its next entry.

A stale lock (its pid is dead) is recovered silently.
"""

from __future__ import annotations

from pathlib import Path

from pi_tui.coding.session import listing
from pi_tui.coding.session.lock import SessionLock, SessionLockedError, SessionOwnership
from pi_tui.coding.session.session_manager import SessionManager

IF_LOCKED_CHOICES = ("read-only", "fork", "take-over")


def open_session_manager(
    cwd: str,
    directory: Path,
    *,
    session_file: Path | None,
    continue_recent: bool,
    no_session: bool,
    if_locked: str | None,
    warnings: list[str],
    skip_print_runs: bool = False,
) -> tuple[SessionManager, SessionOwnership | None]:
    """``(manager, ownership)`` for this run; ``ownership`` is None for ``--no-session``.

    Raises ``SessionLockedError`` (``if_locked`` None and a live holder) or ``ValueError`` for an unknown
    ``if_locked`` value. Notes (read-only, forked) are appended to ``warnings``. ``skip_print_runs``: ``-c``
    passes over one-shot print runs (the app's ``-c``; print mode's ``-c`` continues them, as pi's does).
    """
    if if_locked is not None and if_locked not in IF_LOCKED_CHOICES:
        raise ValueError(f"--if-locked must be one of {', '.join(IF_LOCKED_CHOICES)}, not {if_locked!r}")
    if no_session:
        return SessionManager.in_memory(cwd), None
    ownership = SessionOwnership()
    target = session_file
    if target is None and continue_recent:
        target = listing.find_most_recent_session(directory, listing.folder_scope(directory, cwd),
                                                  skip_print_runs=skip_print_runs)
    if target is None:
        manager = SessionManager.create(cwd, directory)
    else:
        manager = _open_owned(cwd, directory, target, session_file is None, if_locked, ownership, warnings)
    manager.write_guard = ownership.guard
    return manager, ownership


def _open_owned(
    cwd: str,
    directory: Path,
    target: Path,
    recent: bool,
    if_locked: str | None,
    ownership: SessionOwnership,
    warnings: list[str],
) -> SessionManager:
    def open_it() -> SessionManager:
        if recent:
            return SessionManager(cwd, directory, target, True)  # what SessionManager.continue_recent does
        return SessionManager.open(target, cwd_override=cwd)

    if not target.exists():
        return open_it()
    try:
        ownership.adopt(SessionLock.acquire(target, take_over=if_locked == "take-over"))
    except SessionLockedError as exc:
        if if_locked is None:
            raise
        if if_locked == "fork":
            forked = SessionManager.fork_from(target, cwd, directory)
            warnings.append(f"{exc.summary} Forked it to a new session: {forked.get_session_file()}")
            return forked
        ownership.read_only = True
        warnings.append(f"{exc.summary} Opened read-only: nothing you do in this window is saved.")
    return open_it()
