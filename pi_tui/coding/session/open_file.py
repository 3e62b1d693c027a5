"""Opening an existing session file: what to keep, what to rewrite, and which old bytes to save first.

``open_session_file`` reads (or takes) a file's :class:`LoadedSession` and decides, without touching the
manager's state, how :class:`~pi_tui.coding.session.session_manager.SessionManager` adopts it (pi-reference §3.4):

- a missing file is a new session at that path (written once it holds an assistant message);
- a file with content but no session record at all is some other file: :class:`SessionFileError`, never
  overwritten (pi 0.80.3);
- a file without a valid header starts afresh at the same path; its old bytes are copied to
  ``<file>.corrupt-<ts>`` first (pi only truncates: a deliberate difference);
- a recovered header, a UTF-16 file or an older version is rewritten, with the original bytes copied aside.

Every copy is made before the caller rewrites anything, so nothing is destroyed.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from pi_tui.coding.session import listing
from pi_tui.coding.session.entries import iso_now
from pi_tui.coding.session.loader import LoadedSession, load_session_entries, save_damaged_bytes


class SessionFileError(OSError):
    """A session file that exists but cannot be read (permissions, a directory) or is not a session at all (non-empty,
    without one session record); nothing is written to it."""


@dataclass
class OpenedFile:
    """How to adopt a session file: ``path`` (resolved), what was read, and the two decisions.

    ``start_fresh``: no usable header, so a new session at ``path`` (``loaded.entries`` are not used);
    ``rewrite``: the caller writes the whole file again now (and then it counts as flushed);
    ``warnings``: what the user is told (skipped lines, where the old bytes went).
    """

    path: Path
    loaded: LoadedSession
    start_fresh: bool = False
    rewrite: bool = False
    warnings: list[str] = field(default_factory=list)


def _copy_aside(path: Path, suffix: str) -> Path:
    backup = path.with_name(f"{path.name}.{suffix}")
    shutil.copyfile(path, backup)
    return backup


def open_session_file(path: Path, loaded: LoadedSession | None = None) -> OpenedFile:
    """Read ``path`` (unless ``loaded`` is its reading already) and decide how to adopt it (module docstring).

    Raises :class:`SessionFileError` for a file that cannot be read or holds no session record; ``OSError``
    when a side copy cannot be written.
    """
    resolved = path.resolve()
    if loaded is None:
        loaded = load_session_entries(resolved)
    if loaded.read_error:
        raise SessionFileError(loaded.read_error)
    opened = OpenedFile(resolved, loaded, warnings=list(loaded.warnings))
    if loaded.damaged:
        opened.warnings.append(save_damaged_bytes(resolved, loaded.damaged))
    if not loaded.exists:
        opened.start_fresh = True
        return opened
    if loaded.header is None:
        if listing.is_foreign_file(resolved):
            # Nothing in it is or was a session record: some other file (a typo in --session, a notes file).
            # It is never overwritten (pi 0.80.3), and needs no side file of "damaged" bytes either.
            if loaded.damaged:
                resolved.with_name(f"{resolved.name}.damaged").unlink(missing_ok=True)
            raise SessionFileError(
                f"Not a session file: {resolved} (it has content but no session record); it was left unchanged"
            )
        if not loaded.empty or resolved.stat().st_size > 0:
            backup = _copy_aside(resolved, f"corrupt-{iso_now().replace(':', '-')}")
            opened.warnings.append(f"{resolved}: no valid session header; old content saved to {backup}")
        opened.start_fresh = opened.rewrite = True
        return opened
    if loaded.header_recovered:
        backup = _copy_aside(resolved, f"corrupt-{iso_now().replace(':', '-')}")
        opened.warnings.append(f"{resolved}: rewritten with a header; the old bytes are in {backup}")
        opened.rewrite = True
    elif loaded.reencoded:
        # Appending UTF-8 lines to a UTF-16 file would make it unreadable: rewrite it, keep the original.
        backup = _copy_aside(resolved, loaded.reencoded.lower().replace("-", ""))
        opened.warnings.append(f"{resolved}: was {loaded.reencoded}, rewritten as UTF-8; the original is in {backup}")
        opened.rewrite = True
    elif loaded.migrated:
        if loaded.warnings:
            backup = _copy_aside(resolved, "pre-migration")
            opened.warnings.append(f"{resolved}: original kept in {backup} (it had unreadable lines)")
        opened.rewrite = True
    return opened
