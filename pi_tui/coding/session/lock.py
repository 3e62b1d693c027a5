"""One writer per session file: ``<session>.jsonl.lock`` holds the writer's pid (issue 9 item 5).

Two pi-tui processes appending to one session both chain their entries to the same parent; on the next resume
one exchange sits on a branch nobody sees. So the process that writes a session file holds a lock file next to
it: JSON ``{"pid", "host", "startedAt"}``, created with ``O_EXCL``.

* A lock whose pid is dead (same host) is stale: it is removed and taken silently (a crashed or killed pi-tui).
* A live holder makes :meth:`SessionLock.acquire` raise :class:`SessionLockedError`; the caller offers to open
  the session read-only, fork it to a new session, or take it over (``take_over=True`` rewrites the lock).
* The holder checks before every write that the lock is still its own (:meth:`SessionLock.still_ours`, one
  ``stat``); after a take-over it stops writing instead of forking the file behind the new owner's back.
* Locks are released on every normal exit (:func:`release_all` also runs ``atexit``).

:class:`SessionOwnership` is the per-session guard the SessionManager calls before a write; it follows the
session to a new file (``/new``, ``/resume``, fork) and reports a conflict or a lost lock once per file.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOCK_SUFFIX = ".lock"
_held: dict[Path, SessionLock] = {}  # every lock this process holds (released at exit)


def lock_path_for(session_file: Path) -> Path:
    """``<session_file>.lock`` (``*.jsonl`` listings never see it)."""
    return session_file.with_name(session_file.name + LOCK_SUFFIX)


@dataclass(frozen=True)
class LockHolder:
    """Who holds a lock: ``pid``, ``host`` name, ``started_at`` (ISO-8601 text; may be empty)."""

    pid: int
    host: str
    started_at: str

    def describe(self) -> str:
        """``pid 123`` (plus the host when it is not this one, and since when)."""
        where = "" if self.host == socket.gethostname() else f" on {self.host}"
        since = f", since {self.started_at}" if self.started_at else ""
        return f"pid {self.pid}{where}{since}"


class SessionLockedError(RuntimeError):
    """The session file is being written by another live pi-tui; ``holder`` says which one."""

    def __init__(self, session_file: Path, holder: LockHolder) -> None:
        self.session_file = session_file
        self.holder = holder
        self.summary = f"Session {session_file.name} is open in another pi-tui ({holder.describe()})."
        """The problem without the command-line hint (what the app shows)."""
        super().__init__(
            f"Session {session_file} is open in another pi-tui ({holder.describe()}). Start with "
            "--if-locked read-only (look only), fork (continue in a copy) or take-over (the other one stops saving)."
        )


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    except OSError:
        return False
    return True


def read_holder(lock_file: Path) -> LockHolder | None:
    """The holder recorded in ``lock_file``; None when it is missing or unreadable (a torn write)."""
    try:
        data = json.loads(lock_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pid"), int):
        return None
    return LockHolder(int(data["pid"]), str(data.get("host") or ""), str(data.get("startedAt") or ""))


def _is_stale(holder: LockHolder | None, lock_file: Path) -> bool:
    if holder is None:  # unreadable: stale once it is older than a torn write could be
        try:
            return time.time() - lock_file.stat().st_mtime > 5
        except OSError:
            return True
    return holder.host == socket.gethostname() and not _pid_alive(holder.pid)


def live_holder(session_file: Path) -> LockHolder | None:
    """Who holds ``session_file``'s lock when that holder is alive (a stale or missing lock gives ``None``);
    an unreadable fresh lock reads as pid 0. Only looks: the lock is not taken or removed."""
    lock_file = lock_path_for(session_file)
    if not lock_file.exists():
        return None
    holder = read_holder(lock_file)
    if _is_stale(holder, lock_file):
        return None
    return holder or LockHolder(0, socket.gethostname(), "")


class SessionLock:
    """A lock this process holds on one session file (see the module docstring)."""

    def __init__(self, session_file: Path, lock_file: Path, stamp: tuple[int, int]) -> None:
        self.session_file = session_file
        self.lock_file = lock_file
        self._stamp = stamp  # (inode, mtime ns) of the lock file as written by this process

    @classmethod
    def acquire(cls, session_file: Path, *, take_over: bool = False) -> SessionLock:
        """Lock ``session_file`` for this process (re-entrant). Raises :class:`SessionLockedError` when a live
        process holds it and ``take_over`` is False; ``OSError`` when the lock file cannot be written."""
        session_file = Path(session_file).resolve()
        existing = _held.get(session_file)
        if existing is not None and existing.still_ours():
            return existing
        lock_file = lock_path_for(session_file)
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            try:
                fd = os.open(lock_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder = read_holder(lock_file)
                if holder is not None and holder.pid == os.getpid() and holder.host == socket.gethostname():
                    return cls._register(session_file, lock_file)
                if _is_stale(holder, lock_file):
                    with contextlib.suppress(FileNotFoundError):
                        lock_file.unlink()
                    continue
                if not take_over:
                    raise SessionLockedError(session_file, holder or LockHolder(0, "?", "")) from None
                return cls._write_over(session_file, lock_file)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(_lock_json())
            return cls._register(session_file, lock_file)
        return cls._write_over(session_file, lock_file)  # a stale lock kept coming back: ours now

    @classmethod
    def _write_over(cls, session_file: Path, lock_file: Path) -> SessionLock:
        temp = lock_file.with_name(f".{lock_file.name}.{os.getpid()}.tmp")
        temp.write_text(_lock_json(), encoding="utf-8")
        os.replace(temp, lock_file)  # a new inode: the old holder sees it is no longer its lock
        return cls._register(session_file, lock_file)

    @classmethod
    def _register(cls, session_file: Path, lock_file: Path) -> SessionLock:
        lock = cls(session_file, lock_file, _stamp(lock_file))
        _held[session_file] = lock
        return lock

    def still_ours(self) -> bool:
        """True while the lock file is the one this process wrote (False after a take-over or removal).

        One ``stat`` when nothing changed; otherwise the recorded pid decides (an inode can be reused)."""
        try:
            stamp = _stamp(self.lock_file)
        except OSError:
            return False
        if stamp == self._stamp:
            return True
        holder = read_holder(self.lock_file)
        if holder is not None and holder.pid == os.getpid() and holder.host == socket.gethostname():
            self._stamp = stamp
            return True
        return False

    def release(self) -> None:
        """Remove the lock file if it is still ours (idempotent)."""
        if _held.get(self.session_file) is self:
            del _held[self.session_file]
        if self.still_ours():
            holder = read_holder(self.lock_file)
            if holder is None or holder.pid == os.getpid():
                with contextlib.suppress(OSError):
                    self.lock_file.unlink()


def _stamp(lock_file: Path) -> tuple[int, int]:
    info = lock_file.stat()
    return info.st_ino, info.st_mtime_ns


def _lock_json() -> str:
    started = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime())
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "startedAt": started}) + "\n"


def release_all() -> None:
    """Release every lock this process holds (runs at interpreter exit; call it before ``os._exit``)."""
    for lock in list(_held.values()):
        lock.release()


atexit.register(release_all)


class SessionOwnership:
    """The write guard of one session: ``guard(path)`` is True when this process may append to ``path``.

    A file not locked yet is locked on its first write (a new session, ``/new``, a fork); switching to another
    file releases the previous lock. ``on_problem(text)`` is called once per file when a write is refused:
    another live pi-tui holds the file, or took it over. ``read_only`` refuses every write quietly.
    """

    def __init__(self, on_problem: Callable[[str], Any] | None = None, read_only: bool = False) -> None:
        self.on_problem = on_problem
        self.read_only = read_only
        self._lock: SessionLock | None = None
        self._refused: set[Path] = set()
        self._saving = not read_only

    @property
    def saving(self) -> bool:
        """Did the last write check let this window write? False once a write to the current file was refused
        (another pi-tui holds it or took it over) and in ``read_only`` mode; True again after a write to a file
        of its own (``/new``, a fork). The app marks the editor and footer read-only while it is False."""
        return self._saving and not self.read_only

    @property
    def lock(self) -> SessionLock | None:
        """The lock currently held for this session (None before the first write)."""
        return self._lock

    def adopt(self, lock: SessionLock) -> None:
        """Use ``lock`` (taken before the session was built)."""
        self._lock = lock

    def guard(self, session_file: Path) -> bool:
        """May this process write ``session_file`` now? (Called before every append; one ``stat`` normally.)"""
        if self.read_only:
            return False
        path = Path(session_file).resolve()
        lock = self._lock
        if lock is not None and lock.session_file == path:
            if lock.still_ours():
                self._saving = True
                return True
            self._lock = None
            self._refuse(path, f"Another pi-tui took over {path.name}; nothing more is saved from this window.")
            return False
        if path in self._refused:
            self._saving = False
            return False
        try:
            new_lock = SessionLock.acquire(path)
        except SessionLockedError as exc:
            self._refuse(path, f"{exc.summary} Nothing is saved from this window; /new starts a session of your own.")
            return False
        except OSError:
            self._saving = True
            return True  # the lock cannot be written: the session write itself will report the problem
        if lock is not None:
            lock.release()
        self._lock = new_lock
        self._saving = True
        return True

    def check(self, session_file: Path | str | None = None) -> bool:
        """Is this window still the session's writer? A held lock that another pi-tui took over is reported
        (``on_problem``, once) when checked, not only at the next write, so the user hears it before typing on
        (issue 9 new-user run: the old window ran a prompt and only then said nothing was saved). One ``stat``.

        ``session_file``: the file the session writes now. When it is not the locked one (``/new`` or a fork after
        a refusal: the new file is locked at its first write), ``saving`` says whether that file was refused."""
        lock = self._lock
        if session_file is not None and (lock is None or lock.session_file != Path(session_file).resolve()):
            self._saving = not self.read_only and Path(session_file).resolve() not in self._refused
            return self._saving
        if lock is None:
            return not self.read_only
        return self.guard(lock.session_file)

    def _refuse(self, path: Path, text: str) -> None:
        self._saving = False
        first = path not in self._refused
        self._refused.add(path)
        if first and self.on_problem is not None:
            self.on_problem(text)

    def release(self) -> None:
        """Release the held lock (quit)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
