"""Append-only JSONL I/O for session files (pi-reference §3.4 "Write policy", §5 item 8).

Reading (:func:`read_session_file`) splits the bytes on ``\\n`` only (never ``str.splitlines``, which also
splits on U+2028) and parses each line on its own; a damaged line (torn append glued onto the next record, NUL
runs, raw newlines inside a record, a torn tail) gives back every complete record in it and costs only the
damaged bytes, which are described in ``warnings`` and listed in ``damaged``
(:mod:`pi_tui.coding.session.recovery`).

Writing: every append is ONE ``os.write`` of the whole encoded line plus ``"\\n"`` on an ``O_APPEND`` file
descriptor. On a local filesystem such a write lands in one piece at the end of the file, so two processes
appending to the same file never interleave partial lines, and a writer killed between writes leaves only whole
lines. Before each append the last byte is read on the same descriptor; if it is not ``"\\n"`` (a torn last
line, maybe from another process that crashed) the new line is written as ``"\\n" + line`` in the same
``os.write`` so it starts clean. (With two live appenders this check can see a line still being copied in and
add a blank line; readers skip blank lines, pi too.) Appends are not fsync'ed: a crashing *process* loses nothing
(the data is in the kernel page cache), only a power loss can drop the last lines, and an fsync per line would
cost milliseconds per message on many disks; whole-file rewrites (migration, recovery, forking) go through a
temp file + fsync + ``os.replace`` so they are atomic.

Files are created with mode 0600 (they hold conversations). JSON is compact, non-ASCII kept literally, like
JavaScript's ``JSON.stringify``; NaN/Infinity become ``null`` as in JavaScript.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.session.recovery import DamagedSpan, describe, parse_records

FILE_MODE = 0o600
MAX_DAMAGE_WARNINGS = 20
"""Damaged spans described one by one in the warnings; the rest are summed up in one line."""


@dataclass
class RawSessionFile:
    """Result of reading a session file without interpreting the entries.

    ``objects``: every line that parsed as JSON, in file order (header included, if valid);
    ``warnings``: one human-readable message per skipped line (``<path>:<line>: <reason>``);
    ``ends_with_newline``: False when the file is non-empty and its last byte is not ``\\n``;
    ``read_error``: set when the file exists but cannot be read (permissions, a directory);
    ``damaged``: the bytes that held no complete record (for the side file);
    ``reencoded``: the encoding the file was read in when it was not UTF-8 (``"UTF-16"``: a copy made by Windows
    PowerShell's ``>`` or saved as "Unicode" by an editor; the caller rewrites the file as UTF-8).
    """

    objects: list[Any] = field(default_factory=list)
    damaged: list[DamagedSpan] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ends_with_newline: bool = True
    exists: bool = True
    reencoded: str | None = None
    read_error: str | None = None


def parse_jsonl_bytes(data: bytes, source: str = "<bytes>") -> RawSessionFile:
    """Parse JSONL bytes; every complete record is kept, damage is described in ``warnings`` and listed in
    ``damaged`` (:mod:`pi_tui.coding.session.recovery` has the rules). Never raises."""
    parsed = parse_records(data)
    result = RawSessionFile(ends_with_newline=(not data) or data.endswith(b"\n"))
    result.objects = parsed.objects
    result.damaged = parsed.damaged
    result.warnings = [f"{source}: {note}" for note in parsed.repairs]
    result.warnings += [f"{source}: {describe(span)}" for span in parsed.damaged[:MAX_DAMAGE_WARNINGS]]
    if len(parsed.damaged) > MAX_DAMAGE_WARNINGS:
        more = parsed.damaged[MAX_DAMAGE_WARNINGS:]
        result.warnings.append(
            f"{source}: and {len(more)} more damaged spans ({sum(s.length for s in more)} bytes) dropped"
        )
    return result


def read_session_file(path: str | os.PathLike[str]) -> RawSessionFile:
    """Read and parse a JSONL file; a missing file gives ``exists=False`` and no objects. Never raises
    for bad content; an unreadable file (permissions, a directory) gives a warning and no objects."""
    target = Path(path)
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        return RawSessionFile(exists=False)
    except OSError as error:
        message = f"{target}: cannot read session file: {error.strerror or error}"
        return RawSessionFile(warnings=[message], exists=True, read_error=message)
    reencoded = None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte-order mark: not damage, another encoding
        data = data.decode("utf-16", "replace").encode("utf-8")
        reencoded = "UTF-16"
    result = parse_jsonl_bytes(data, str(target))
    result.reencoded = reencoded
    return result


def _json_safe(value: Any) -> Any:
    """JavaScript number semantics: NaN/Infinity → ``None``; integral floats → ``int`` (``0.0`` → ``0``)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(item) for item in value]
    return value


def encode_line(obj: Any) -> bytes:
    """One compact JSON line (with trailing ``\\n``) as UTF-8 bytes.

    Known secrets (API keys) in any string are written as ``[REDACTED]``
    (:mod:`pi_tui.ai.secret_redaction`). Lone surrogates (invalid in UTF-8) are written as ``\\udXXX`` escapes; numbers as JavaScript writes them
    (NaN/Infinity → ``null``, ``0.0`` → ``0``).
    Raises ``TypeError`` for objects JSON cannot represent.
    """
    obj = _json_safe(obj)
    text = redact_text(json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        ascii_text = redact_text(json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False))
        return (ascii_text + "\n").encode("ascii")


def file_ends_with_newline(path: str | os.PathLike[str]) -> bool:
    """True if the file is missing, empty or ends with ``\\n``."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                return True
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) == b"\n"
    except FileNotFoundError:
        return True


def _write_all(fd: int, payload: bytes) -> None:
    written = os.write(fd, payload)
    # A regular-file write is complete in practice; finish a short write rather than lose data.
    while written < len(payload):
        written += os.write(fd, payload[written:])


def _ends_with_newline_fd(fd: int, path: Path) -> bool:
    if not hasattr(os, "pread"):  # Windows
        return file_ends_with_newline(path)
    size = os.fstat(fd).st_size
    return size == 0 or os.pread(fd, 1, size - 1) == b"\n"


class AppendWriter:
    """Appends whole lines to one JSONL file (module docstring: one ``os.write`` per line, ``O_APPEND``).

    The parent directory is created on first use. Before each batch the file's last byte is read on the same
    descriptor: if it is not ``"\\n"`` (a torn line, possibly left by another process that crashed), the first
    line of the batch is written as ``"\\n" + line`` in one ``os.write``.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def append(self, obj: Any) -> None:
        """Append one JSON line. Raises ``OSError`` if the file cannot be written."""
        self.append_many([obj])

    def append_many(self, objs: Iterable[Any]) -> None:
        """Append several lines, each with its own ``os.write`` (so each is whole on its own)."""
        lines = [encode_line(obj) for obj in objs]
        if not lines:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, FILE_MODE)
        try:
            if not _ends_with_newline_fd(fd, self.path):
                lines[0] = b"\n" + lines[0]
            for line in lines:
                _write_all(fd, line)
        finally:
            os.close(fd)


def rewrite_file(path: str | os.PathLike[str], objs: Iterable[Any]) -> None:
    """Atomically replace ``path`` with the given JSON lines (temp file in the same dir, fsync, rename)."""
    write_bytes_atomic(path, b"".join(encode_line(obj) for obj in objs))


def write_bytes_atomic(path: str | os.PathLike[str], payload: bytes) -> None:
    """Atomically replace ``path`` with ``payload`` (mode 0600; temp file in the same dir, fsync, rename).
    Raises ``OSError``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        if hasattr(os, "fchmod"):  # not on Windows
            os.fchmod(fd, FILE_MODE)
        _write_all(fd, payload)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temp_name, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
