"""Pulling every complete record out of a session file damaged by a crash (issue 10, class 3).

A session file is JSONL, one record per ``\\n``-terminated line. Crashes and other writers leave four kinds of
damage, all seen in real reports; none of them may cost more than the damaged record itself:

- a torn append glued onto the next record (the writer died before its ``\\n``; the next append started on the
  same line): ``{"type":"message",..."te{"type":"message",...}`` (QwenLM/qwen-code#3606);
- NUL runs from an interrupted write (ext4 delayed allocation extends the file before the data lands), as a line
  of their own or in the middle of one (anthropics/claude-code#49876, neilberkman/ccrider#11);
- a raw newline inside a record, which splits one record over several lines (github/copilot-cli#2649);
- a torn tail: the last record cut short.

:func:`parse_records` reads line by line. A line that parses is kept as it is. A line that does not is, in order:
joined with the lines after it when that makes one record again (the raw newline was inside a string, between
tokens or inside a token, the first reading that still validates wins; at most :data:`MAX_JOIN` lines, and never
swallowing a line that is a record on its own);
otherwise searched for complete records: it is cut at NUL runs and every ``{"type"`` (or another first key of
an entry) is tried as the start of one (``json.JSONDecoder.raw_decode``). Only objects whose ``type`` is a session entry type are taken from damaged
bytes (so a content block inside a torn record is not mistaken for an entry). Everything else is a
:class:`DamagedSpan`: its bytes, byte offset, line and reason, for the warnings and the side file
(:func:`damaged_side_file`). Reading never stops at a bad line (anthropics/claude-code#50347).
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pi_tui.agent.messages import UnknownAgentMessage
from pi_tui.coding.session.messages import message_from_json

MAX_JOIN = 64
"""Most physical lines one record broken by raw newlines is joined from."""

ENTRY_TYPES = frozenset(
    {
        "session",
        "message",
        "thinking_level_change",
        "model_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
"""``type`` values of records recovered from damaged bytes (pi-reference §3.4 entry types and the header)."""

_NUL_RUN = re.compile(rb"\x00+")
# Where a record can start inside damaged bytes: an object whose first key is one entries start with (pi and
# pi-tui write ``type`` first; hand-written files ``id``/``parentId``/``timestamp``). Inside a JSON string the
# quote would be escaped, so content text never matches; trying only these keeps a multi-megabyte torn line
# linear (every failed parse costs a scan of the text before it, in ``json``'s error message).
_RECORD_START = re.compile(r'\{\s*"(?:type|id|parentId|timestamp|version)"')
_BOM = b"\xef\xbb\xbf"
_JOINERS = (b"\\n", b"", b" ")  # the raw newline was inside a string / inside a token / between tokens
_DECODER = json.JSONDecoder()


@dataclass
class DamagedSpan:
    """Bytes that held no complete record: ``offset`` (bytes from the file start), ``line`` (1-based physical
    line), ``data`` (the bytes; NUL runs are kept as their length only), ``reason`` (human-readable)."""

    offset: int
    line: int
    data: bytes
    reason: str
    length: int = 0

    def __post_init__(self) -> None:
        if not self.length:
            self.length = len(self.data)


@dataclass
class ParsedRecords:
    """``objects``: every record, in file order; ``damaged``: what was dropped; ``repairs``: one note per
    damaged line that still gave records back (joined or salvaged)."""

    objects: list[Any] = field(default_factory=list)
    damaged: list[DamagedSpan] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


def _loads(raw: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(raw.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False, None


def is_entry_like(obj: Any) -> bool:
    """True for a JSON object whose ``type`` is a session entry type or ``session``."""
    return isinstance(obj, dict) and obj.get("type") in ENTRY_TYPES


def _keys_clean(obj: Any) -> bool:
    """No object key contains a line break (keys never do; a join that put one there guessed wrong)."""
    if isinstance(obj, dict):
        return all("\n" not in k and "\r" not in k and _keys_clean(v) for k, v in obj.items())
    if isinstance(obj, list):
        return all(_keys_clean(v) for v in obj)
    return True


def _plausible(obj: dict[str, Any]) -> bool:
    """A joined record that still reads as what it was: ids without line breaks and, for a message entry, a
    message that validates as its role's model (a newline joined into ``"role"`` or ``"stopReason"`` does not)."""
    for key in ("id", "parentId"):
        value = obj.get(key)
        if isinstance(value, str) and ("\n" in value or "\r" in value):
            return False
    if obj.get("type") == "message":
        return not isinstance(message_from_json(obj.get("message")), dict | UnknownAgentMessage)
    return True


def _clean(raw: bytes) -> bytes:
    return raw.strip(b"\x00").strip()


def _parses_alone(raw: bytes) -> bool:
    ok, obj = _loads(_clean(raw)) if _clean(raw) and b"\x00" not in _clean(raw) else (False, None)
    return ok and is_entry_like(obj)


def _may_continue(candidate: bytes) -> bool | None:
    """``None`` when ``candidate`` parses; else whether more text appended could still make it parse (the error
    is at its very end, or an unterminated string). An error before the end can never be fixed by appending."""
    try:
        json.loads(candidate.decode("utf-8"))
    except UnicodeDecodeError:
        return True  # a multi-byte character may have been split by the newline
    except json.JSONDecodeError as error:
        return error.msg.startswith("Unterminated string") or len(candidate) - error.pos <= 8
    return None


def _try_join(lines: list[tuple[int, bytes]], index: int) -> tuple[Any, int] | None:
    """``(record, lines used)`` when line ``index`` and the next ones form one record again, else ``None``.

    Each way of joining (:data:`_JOINERS`) is dropped as soon as its text has an error before its end, so a run
    of damaged lines costs a few parses per line, not :data:`MAX_JOIN` of them."""
    first = _clean(lines[index][1])
    if not first.startswith(b"{") or b"\x00" in first or not _may_continue(first):
        return None
    pieces = [lines[index][1].lstrip(b"\x00")]
    alive = list(_JOINERS)
    for extra in range(1, MAX_JOIN):
        if index + extra >= len(lines) or not alive:
            return None
        piece = lines[index + extra][1]
        if b"\x00" in piece or _parses_alone(piece):
            return None
        pieces.append(piece)
        usable: list[Any] = []
        for joiner in list(alive):
            candidate = joiner.join(pieces).strip()
            state = _may_continue(candidate)
            if state is None:
                ok, obj = _loads(candidate)
                if ok and is_entry_like(obj) and _keys_clean(obj):
                    usable.append(obj)
                alive.remove(joiner)  # complete: more lines would only add junk after it
            elif not state:
                alive.remove(joiner)
        if usable:
            return next((obj for obj in usable if _plausible(obj)), usable[0]), extra + 1
    return None


def _byte_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def _salvage_segment(segment: bytes, offset: int, line: int, out: ParsedRecords, tail: bool) -> int:
    """Complete records inside ``segment`` (no NULs); the rest becomes damaged spans. Returns records found."""
    text = segment.decode("utf-8", "surrogateescape")
    found = 0
    junk_start = 0
    position = 0
    while True:
        match = _RECORD_START.search(text, position)
        if match is None:
            break
        start = match.start()
        try:
            obj, end = _DECODER.raw_decode(text, start)
            text[start:end].encode("utf-8")  # a record with bytes that are not UTF-8 is not taken
        except ValueError:
            position = start + 1
            continue
        if not is_entry_like(obj):
            position = start + 1
            continue
        if text[junk_start:start].strip():
            _add_junk(out, text, junk_start, start, offset, line, "a torn record glued onto the next one")
        out.objects.append(obj)
        found += 1
        junk_start = position = end
    if text[junk_start:].strip():
        reason = "a torn record (the file ends inside it)" if tail else "a damaged record (not valid JSON)"
        if found:
            reason = "a torn record after the last complete one on the line"
        _add_junk(out, text, junk_start, len(text), offset, line, reason)
    return found


def _add_junk(out: ParsedRecords, text: str, start: int, end: int, offset: int, line: int, reason: str) -> None:
    data = text[start:end].encode("utf-8", "surrogateescape")
    lead = len(data) - len(data.lstrip())
    data = data.strip()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        reason += ", not valid UTF-8"
    out.damaged.append(DamagedSpan(offset + _byte_len(text[:start]) + lead, line, data, reason))


def _salvage_line(raw: bytes, offset: int, line: int, out: ParsedRecords, tail: bool) -> int:
    found = 0
    position = 0
    for match in _NUL_RUN.finditer(raw):
        if match.start() > position:
            found += _salvage_segment(raw[position : match.start()], offset + position, line, out, False)
        out.damaged.append(
            DamagedSpan(offset + match.start(), line, b"", "NUL bytes from an interrupted write", match.end() - match.start())
        )
        position = match.end()
    if position < len(raw):
        found += _salvage_segment(raw[position:], offset + position, line, out, tail)
    return found


def parse_records(data: bytes) -> ParsedRecords:
    """Every complete record of JSONL ``data`` and every damaged span (module docstring). Never raises."""
    out = ParsedRecords()
    lines: list[tuple[int, bytes]] = []
    offset = 0
    if data.startswith(_BOM):  # saved by an editor: not damage
        data = data[len(_BOM) :]
        offset = len(_BOM)
    for raw in data.split(b"\n"):
        lines.append((offset, raw))
        offset += len(raw) + 1
    index = 0
    while index < len(lines):
        start, raw = lines[index]
        number = index + 1
        stripped = raw.strip()
        if not stripped:
            index += 1
            continue
        if b"\x00" not in raw:
            ok, obj = _loads(stripped)
            if ok:
                out.objects.append(obj)
                index += 1
                continue
        joined = _try_join(lines, index)
        if joined is not None:
            obj, used = joined
            out.objects.append(obj)
            out.repairs.append(f"line {number}: one record broken over {used} lines by raw newlines was joined")
            index += used
            continue
        before = len(out.damaged)
        found = _salvage_line(raw, start, number, out, tail=index == len(lines) - 1)
        if found:
            dropped = sum(s.length for s in out.damaged[before:])
            out.repairs.append(f"line {number}: {found} complete record(s) recovered from a damaged line "
                               f"({dropped} damaged bytes dropped)")
        index += 1
    return out


def describe(span: DamagedSpan) -> str:
    """``line N (byte O): dropped L bytes: <reason> (<preview>)``."""
    preview = f" starting {span.data[:40].decode('utf-8', 'replace')!r}" if span.data else ""
    return f"line {span.line} (byte {span.offset}): dropped {span.length} bytes: {span.reason}{preview}"


def damaged_side_file(spans: list[DamagedSpan]) -> bytes:
    """The side file's content: one JSON line per span, ``{offset, line, length, reason, base64}``."""
    return b"".join(
        (
            json.dumps(
                {
                    "offset": s.offset,
                    "line": s.line,
                    "length": s.length,
                    "reason": s.reason,
                    "base64": base64.b64encode(s.data).decode("ascii"),
                },
                separators=(",", ":"),
            )
            + "\n"
        ).encode("ascii")
        for s in spans
    )
