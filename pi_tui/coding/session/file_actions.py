"""Deleting and renaming a session file from the ``/resume`` picker (pi 0.73.1 session-selector, issue 12).

* Delete: pi tries the ``trash`` command first (the file can be restored) and removes the file when that is
  missing or fails. A session another live pi-tui holds (its ``.lock``, ``lock.py``) is refused: deleting the
  file under a running writer would lose what it writes next. The caller refuses the session that is open in
  this process (this process's own lock does not stop it).
* Rename: pi appends a ``session_info`` entry with the new name to the file (``SessionManager.open(path)
  .appendSessionInfo(name)``); the name is one line (``names.one_line``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

from pi_tui.coding.session.lock import live_holder, lock_path_for
from pi_tui.coding.session.names import one_line


class SessionFileBusyError(RuntimeError):
    """The session file is open in another live pi-tui (the message names its pid)."""


def holder_of(path: str | os.PathLike[str]) -> str | None:
    """``pid N`` of the other live pi-tui holding ``path``'s lock, or ``None`` (no lock, a stale one, or this
    process: it keeps the lock of the session it left until it writes the next one, ``lock.SessionOwnership``)."""
    holder = live_holder(Path(path))
    if holder is None or (holder.pid == os.getpid() and holder.host == socket.gethostname()):
        return None
    return holder.describe() if holder.pid else "another process"


def delete_session_file(path: str | os.PathLike[str], *, use_trash: bool = True) -> str:
    """Delete a session file: ``"trash"`` when the ``trash`` command moved it, ``"unlink"`` when it was removed.

    A stale ``.lock`` next to it goes too. Raises :class:`SessionFileBusyError` when another live pi-tui holds
    it, ``OSError`` when it cannot be removed (the message is the system's).
    """
    target = Path(path)
    busy = holder_of(target)
    if busy is not None:
        raise SessionFileBusyError(f"it is open in another pi-tui ({busy})")
    method = "unlink"
    trash = shutil.which("trash") if use_trash else None
    if trash is not None:
        try:
            subprocess.run([trash, "--", str(target)], capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            pass
        if not target.exists():
            method = "trash"
    if target.exists():
        target.unlink()
    lock_file = lock_path_for(target)
    if lock_file.exists():
        lock_file.unlink(missing_ok=True)
    return method


def rename_session_file(path: str | os.PathLike[str], name: str) -> str:
    """Append a ``session_info`` entry naming the session ``name`` (made one line) to the file at ``path``;
    returns the stored name. Raises ``ValueError`` for an empty name, :class:`SessionFileBusyError` when another
    live pi-tui writes the file (its entries would fork the file), ``OSError`` when it cannot be written."""
    stored = one_line(name)
    if not stored:
        raise ValueError("The name is empty")
    busy = holder_of(path)
    if busy is not None:
        raise SessionFileBusyError(f"it is open in another pi-tui ({busy})")
    from pi_tui.coding.session.session_manager import SessionManager

    manager = SessionManager.open(path)
    manager.append_session_info(stored)
    return stored
