"""Session listing for ``/resume``, ``-r`` and ``-c`` with lazy metadata (pi-reference §3.4, §5 item 8).

pi parses every line of every file and builds the full text of all messages for each listed session. Here a
listing reads each file's bytes once and JSON-parses only what it needs: the header, ``session_info`` lines,
the first user message and the last user/assistant message (for the "last activity" time). Other lines are
classified by their prefix (pi and pi-tui write ``{"type":"<type>"`` first) and only counted; a line with
another key order is parsed. The full searchable text is built on demand (:meth:`SessionInfo.all_messages_text`).

Order: most recent activity first (last user/assistant message timestamp, else header timestamp, else mtime).
Files whose first line is not a valid header are left out.

Current-folder lookups (``-c``, ``/resume``'s first list) in a custom session directory (``--session-dir``,
``sessionDir``, ``$PI_TUI_SESSION_DIR``: every folder's sessions in one place) keep only the sessions whose
header ``cwd`` is the current folder (:func:`folder_scope`; pi 0.77.0: ``-c`` in project B resumed project A's
newest session). The cwd's own per-folder directory (``--<cwd>--``) is not filtered.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_tui.coding.session.entries import iso_to_ms
from pi_tui.coding.session.names import one_line
from pi_tui.coding.session.run_mode import is_print_run
from pi_tui.coding.session.session_file import read_session_file

_MESSAGE_PREFIX = b'{"type":"message"'
_INFO_PREFIX = b'{"type":"session_info"'
_TYPED_PREFIX = b'{"type":"'


def _text_of(message: Any) -> str:
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            str(block.get("text", ""))
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        )
    return ""


def _ms_to_datetime(ms: float) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


@dataclass
class SessionInfo:
    """Metadata of one session file: ``path, id, cwd, name, parent_session_path, created, modified,
    message_count, first_message`` (``"(no messages)"`` if none); times are aware UTC datetimes.
    ``print_run``: a one-shot ``-p``/``--mode json`` run made it (``run_mode.is_print_run``)."""

    path: Path
    id: str
    cwd: str
    name: str | None
    parent_session_path: str | None
    created: datetime
    modified: datetime
    message_count: int
    first_message: str
    print_run: bool = False
    _all_text: str | None = field(default=None, repr=False)

    def all_messages_text(self) -> str:
        """Text of every user/assistant message joined by spaces (read from the file on first call)."""
        if self._all_text is None:
            texts: list[str] = []
            for obj in read_session_file(self.path).objects:
                if isinstance(obj, dict) and obj.get("type") == "message":
                    message = obj.get("message")
                    if isinstance(message, dict) and message.get("role") in ("user", "assistant"):
                        text = _text_of(message)
                        if text:
                            texts.append(text)
            self._all_text = " ".join(texts)
        return self._all_text


def read_header(path: Path) -> dict[str, Any] | None:
    """The JSON header (first line) of a session file, or ``None`` if missing/invalid. Reads one line only."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
    except OSError:
        return None
    try:
        header = json.loads(first.strip(b"\x00").strip() or b"null")
    except ValueError:
        return None
    if isinstance(header, dict) and header.get("type") == "session" and isinstance(header.get("id"), str):
        return header
    return None


def is_foreign_file(path: Path) -> bool:
    """True when ``path`` has content (beyond whitespace and NUL runs) with no trace of a session record (no
    ``"type"`` key, and not a torn start of a header): another file, not a damaged session. Reads at most 64 KB."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    head = head.replace(b"\x00", b"").lstrip(b"\xef\xbb\xbf").strip()
    marker = b'{"type":"session"'
    return bool(head) and b'"type"' not in head and not marker.startswith(head[: len(marker)])


def is_valid_session_file(path: str | os.PathLike[str]) -> bool:
    """True if the file's first line is a JSON session header with a string id."""
    return read_header(Path(path)) is not None


_ROLE_MARK = b'"message":{"role":"'


def _role_of_line(line: bytes) -> str | None:
    """Role of a message-entry line: read after ``"message":{"role":"`` when present, else parse the line."""
    start = line.find(_ROLE_MARK)
    if start >= 0:
        start += len(_ROLE_MARK)
        end = line.find(b'"', start)
        return line[start:end].decode("utf-8", errors="replace") if end > start else None
    entry = _parse(line)
    message = entry.get("message") if isinstance(entry, dict) else None
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else None


def _parse(line: bytes) -> Any:
    try:
        return json.loads(line.strip(b"\x00"))
    except ValueError:
        return None


def build_session_info(path: str | os.PathLike[str]) -> SessionInfo | None:
    """Lazy metadata of one file, or ``None`` if it is unreadable or has no valid header."""
    target = Path(path)
    try:
        data = target.read_bytes()
        mtime = target.stat().st_mtime
    except OSError:
        return None
    lines = data.split(b"\n")
    header = _parse(lines[0]) if lines else None
    if not (
        isinstance(header, dict) and header.get("type") == "session" and isinstance(header.get("id"), str)
    ):
        return None
    message_count = 0
    first_message = ""
    name: str | None = None
    last_activity_line: bytes | None = None
    for line in lines[1:]:
        kind: Any
        if line.startswith(_MESSAGE_PREFIX):
            kind = "message"
        elif line.startswith(_INFO_PREFIX):
            kind = "session_info"
        elif line.startswith(_TYPED_PREFIX) or not line.strip():
            continue
        else:
            obj = _parse(line)
            kind = obj.get("type") if isinstance(obj, dict) else None
            if kind not in ("message", "session_info"):
                continue
        if kind == "session_info":
            info = _parse(line)
            if isinstance(info, dict):
                raw_name = info.get("name")
                name = one_line(raw_name) or None if isinstance(raw_name, str) else None
            continue
        role = _role_of_line(line)
        if role in ("user", "assistant"):
            last_activity_line = line
            if not first_message and role == "user":
                entry = _parse(line)
                message = entry.get("message") if isinstance(entry, dict) else None
                if isinstance(message, dict) and message.get("role") == "user":
                    first_message = _text_of(message)
        message_count += 1
    modified_ms = 0.0
    if last_activity_line is not None:
        entry = _parse(last_activity_line)
        message = entry.get("message") if isinstance(entry, dict) else None
        if isinstance(message, dict) and isinstance(message.get("timestamp"), int | float):
            modified_ms = float(message["timestamp"])
        elif isinstance(entry, dict):
            modified_ms = float(iso_to_ms(entry.get("timestamp")))
    created_ms = iso_to_ms(header.get("timestamp"))
    if modified_ms <= 0:
        modified_ms = float(created_ms) if created_ms > 0 else mtime * 1000
    parent = header.get("parentSession")
    cwd = header.get("cwd")
    return SessionInfo(
        path=target,
        id=header["id"],
        cwd=cwd if isinstance(cwd, str) else "",
        name=name,
        parent_session_path=parent if isinstance(parent, str) else None,
        created=_ms_to_datetime(created_ms if created_ms > 0 else mtime * 1000),
        modified=_ms_to_datetime(modified_ms),
        message_count=message_count,
        first_message=first_message or "(no messages)",
        print_run=is_print_run(header),
    )


def folder_scope(directory: Path, cwd: str) -> str | None:
    """The folder a current-folder lookup in ``directory`` is limited to: None for ``cwd``'s own per-folder
    directory (``.../--<cwd>--``: all of it is that folder's), else ``cwd`` (module docstring)."""
    from pi_tui.coding.config.paths import encode_cwd

    return None if directory.name == encode_cwd(cwd) else cwd


def _same_folder(a: str, b: str) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _header_cwd(path: Path) -> str:
    header = read_header(path)
    value = header.get("cwd") if header else None
    return value if isinstance(value, str) else ""


def _session_files(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.iterdir() if p.name.endswith(".jsonl") and p.is_file())
    except OSError:
        return []


def list_sessions_in_dir(directory: Path, cwd: str | None = None) -> list[SessionInfo]:
    """Every valid session of one directory (of folder ``cwd`` only, when given), most recent activity first."""
    infos = [info for info in map(build_session_info, _session_files(directory)) if info is not None]
    if cwd is not None:
        infos = [info for info in infos if _same_folder(info.cwd, cwd)]
    infos.sort(key=lambda info: info.modified, reverse=True)
    return infos


def list_all_sessions(sessions_dir: Path) -> list[SessionInfo]:
    """Every valid session under every project directory of ``sessions_dir``, most recent first."""
    infos: list[SessionInfo] = []
    try:
        directories = sorted(p for p in sessions_dir.iterdir() if p.is_dir())
    except OSError:
        return []
    for directory in directories:
        infos.extend(list_sessions_in_dir(directory))
    infos.sort(key=lambda info: info.modified, reverse=True)
    return infos


def find_most_recent_session(directory: Path, cwd: str | None = None, *,
                             skip_print_runs: bool = False) -> Path | None:
    """The valid session file of ``directory`` (of folder ``cwd`` only, when given) with the newest mtime
    (pi's ``-c`` rule), or ``None``. ``skip_print_runs`` (the app's ``-c``): one-shot ``-p``/``--mode json`` runs
    (``runMode: "print"``) are passed over, as ``/resume`` hides them (new-user run #39)."""
    best: tuple[float, Path] | None = None
    for path in _session_files(directory):
        if not is_valid_session_file(path):
            continue
        if cwd is not None and not _same_folder(_header_cwd(path), cwd):
            continue
        if skip_print_runs and is_print_run(read_header(path)):
            continue
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        if best is None or mtime > best[0]:
            best = (mtime, path)
    return best[1] if best else None
