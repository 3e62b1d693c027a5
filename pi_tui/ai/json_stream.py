"""Incremental parsing of streamed tool-call arguments: each delta is parsed once (pi 1.5.0's fix, issue #9265).

:class:`StreamingJsonParser` is fed the argument text piece by piece; after every :meth:`~StreamingJsonParser.feed`
its result equals :func:`pi_tui.ai.json_parse.parse_streaming_json` of all the text so far (pi-reference §1.17:
complete JSON, else the longest meaningful prefix, with the string repairs of ``repair_json``), but the work per
piece is proportional to the piece, not to the whole text. Re-parsing the accumulated text on every delta (what
pi 0.73 does) is quadratic: a 43 KB ``write`` argument in 12-character deltas took 3,628 full parses.

What the prefix rules come to (checked against ``parse_streaming_json`` by a property test,
tests/regressions/test_incremental_tool_args.py):

* an unterminated string value is included as far as it goes; an unterminated key is left out, and so is a key
  whose value has not begun;
* an unfinished number (``1.``, ``-``, ``1e+``) or literal (``tr``) is left out; a number that may still grow
  (``12``) is included as it stands;
* open objects and arrays are included with what they hold;
* raw control characters inside strings are kept, a backslash that starts no valid escape is a literal
  backslash; an escape cut off at the end of the text is left out, unless the text already needed such a repair
  (then the repaired text's rule applies: the cut-off escape is kept as literal characters);
* after the top-level object closes, anything else is ignored;
* a top level that is not an object gives ``{}``.

Anything outside those rules (a syntax error, ``NaN``, a lone surrogate escape, a number with a leading zero, a
BOM) switches the parser to re-parsing the whole text on every feed, which is exact by construction.
"""

from __future__ import annotations

import re
from typing import Any

from .json_parse import parse_streaming_json

_WS = frozenset(" \t\n\r")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]+')
_NUMBER_RUN = re.compile(r"[-+.eE0-9]+")
_LETTERS = re.compile(r"[a-zA-Z]+")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = {"true": True, "false": False, "null": None}
_MAX_NUMBER_CHARS = 4000  # int() refuses longer digit strings; leave those to the full parser

# Parser states between tokens.
_ROOT = 0  # before the top-level value
_OBJ_FIRST = 1  # after "{": a key or "}"
_OBJ_KEY = 2  # after ",": a key
_OBJ_COLON = 3  # after a key: ":"
_OBJ_VALUE = 4  # after ":": a value
_OBJ_NEXT = 5  # after a member: "," or "}"
_ARR_FIRST = 6  # after "[": a value or "]"
_ARR_VALUE = 7  # after ",": a value
_ARR_NEXT = 8  # after an element: "," or "]"
_DONE = 9  # the top-level object closed
# Token states.
_STRING = 10
_NUMBER_TOKEN = 11
_LITERAL = 12


class _Unusual(Exception):
    """Input outside the incremental rules: the parser falls back to full re-parsing."""


class _Frame:
    """One open container: its members so far and, for an object, the key whose value is being read."""

    __slots__ = ("obj", "key")

    def __init__(self, obj: dict[str, Any] | list[Any]) -> None:
        self.obj = obj
        self.key: str | None = None


class StreamingJsonParser:
    """Feed streamed JSON text in pieces; :meth:`feed` returns the best-effort object so far (see module doc).

    Each result is a new top-level dict (open containers are copied on the way up, closed ones are shared), so a
    consumer that kept an earlier result sees it unchanged. :attr:`text` is all the text fed so far.
    """

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._text = ""
        self._fallback = False
        self._state = _ROOT
        self._stack: list[_Frame] = []
        self._repaired = False  # a raw control character or invalid escape has been seen inside a string
        self._is_key = False
        self._str_parts: list[str] = []
        self._pending = ""  # raw text of an escape that may be cut off
        self._token = ""  # number or literal characters so far
        self._result: dict[str, Any] = {}

    @property
    def text(self) -> str:
        """All the text fed so far."""
        if self._parts:
            self._text += "".join(self._parts)
            self._parts.clear()
        return self._text

    def feed(self, fragment: str) -> dict[str, Any]:
        """Add ``fragment`` and return the object parsed so far (``parse_streaming_json`` of the whole text)."""
        self._parts.append(fragment)
        if self._fallback:
            return parse_streaming_json(self.text)
        if self._state == _DONE or not fragment:
            return self._result
        try:
            if self._pending:  # an escape cut off by the previous piece: read it again with this piece
                fragment = self._pending + fragment
                self._pending = ""
            self._scan(fragment)
            self._result = self._build()
        except _Unusual:
            self._fallback = True
            self._result = parse_streaming_json(self.text)
        return self._result

    # ------------------------------------------------------------------ scanning
    def _scan(self, text: str) -> None:
        i = 0
        n = len(text)
        while i < n:
            state = self._state
            if state == _STRING:
                i = self._scan_string(text, i)
                continue
            if state == _NUMBER_TOKEN:
                m = _NUMBER_RUN.match(text, i)
                if m:
                    self._token += m.group()
                    i = m.end()
                    if len(self._token) > _MAX_NUMBER_CHARS:
                        raise _Unusual
                    if i >= n:
                        break
                self._end_number()
                continue
            if state == _LITERAL:
                m = _LETTERS.match(text, i)
                if m:
                    self._token += m.group()
                    i = m.end()
                    if len(self._token) > 5 or not any(w.startswith(self._token) for w in _LITERALS):
                        raise _Unusual
                    if i >= n:
                        break
                self._end_literal()
                continue
            c = text[i]
            if c in _WS:
                i += 1
                continue
            if state == _DONE:
                return
            i += 1
            if state in (_OBJ_VALUE, _ARR_FIRST, _ARR_VALUE, _ROOT):
                if state == _ARR_FIRST and c == "]":
                    self._close()
                    continue
                self._start_value(c, state)
            elif state in (_OBJ_FIRST, _OBJ_KEY):
                if c == '"':
                    self._start_string(is_key=True)
                elif c == "}" and state == _OBJ_FIRST:
                    self._close()
                else:
                    raise _Unusual
            elif state == _OBJ_COLON:
                if c != ":":
                    raise _Unusual
                self._state = _OBJ_VALUE
            elif state == _OBJ_NEXT:
                if c == ",":
                    self._state = _OBJ_KEY
                elif c == "}":
                    self._close()
                else:
                    raise _Unusual
            elif state == _ARR_NEXT:
                if c == ",":
                    self._state = _ARR_VALUE
                elif c == "]":
                    self._close()
                else:
                    raise _Unusual
            else:  # pragma: no cover - every state is handled above
                raise _Unusual

    def _start_value(self, c: str, state: int) -> None:
        if state == _ROOT:
            if c != "{":
                raise _Unusual
            self._stack.append(_Frame({}))
            self._state = _OBJ_FIRST
            return
        if c == '"':
            self._start_string(is_key=False)
        elif c == "{":
            self._stack.append(_Frame({}))
            self._state = _OBJ_FIRST
        elif c == "[":
            self._stack.append(_Frame([]))
            self._state = _ARR_FIRST
        elif c == "-" or "0" <= c <= "9":
            self._token = c
            self._state = _NUMBER_TOKEN
        elif c in "tfn":
            self._token = c
            self._state = _LITERAL
        else:
            raise _Unusual

    def _start_string(self, *, is_key: bool) -> None:
        self._is_key = is_key
        self._str_parts = []
        self._pending = ""
        self._state = _STRING

    def _scan_string(self, text: str, i: int) -> int:
        """Read string characters from ``text[i:]``; returns the index in ``text`` after what was consumed."""
        n = len(text)
        parts = self._str_parts
        while i < n:
            m = _PLAIN.match(text, i)
            if m:
                parts.append(m.group())
                i = m.end()
                continue
            c = text[i]
            if c == '"':
                self._end_string()
                return i + 1
            if c == "\\":
                consumed = self._escape(text, i)
                if consumed == 0:  # cut off at the end of the text
                    self._pending = text[i:]
                    return n
                i += consumed
                continue
            # a raw control character: the repair keeps it as it is
            self._repaired = True
            parts.append(c)
            i += 1
        return n

    def _escape(self, text: str, i: int) -> int:
        """Decode the escape at ``text[i]`` (a backslash) into the string; returns the characters consumed, or 0
        when the text ends before the escape can be decided."""
        n = len(text)
        if i + 1 >= n:
            return 0
        c = text[i + 1]
        simple = _SIMPLE_ESCAPES.get(c)
        if simple is not None:
            self._str_parts.append(simple)
            return 2
        if c == "u":
            hexpart = text[i + 2 : i + 6]
            if len(hexpart) < 4 and (not self._repaired or all(h in _HEX_DIGITS for h in hexpart)):
                # the text ends inside the four hex digits; the strict reading does not look at them yet,
                # the repair already calls non-hex characters an invalid escape
                return 0
            if _HEX4.fullmatch(hexpart):
                code = int(hexpart, 16)
                if 0xD800 <= code <= 0xDBFF:
                    low = text[i + 6 : i + 12]
                    if len(low) < 6:
                        if "\\u".startswith(low[:2]) and all(h in _HEX_DIGITS for h in low[2:]):
                            return 0
                        raise _Unusual
                    if low[:2] != "\\u" or not _HEX4.fullmatch(low[2:]):
                        raise _Unusual
                    low_code = int(low[2:], 16)
                    if not 0xDC00 <= low_code <= 0xDFFF:
                        raise _Unusual
                    self._str_parts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low_code - 0xDC00)))
                    return 12
                if 0xDC00 <= code <= 0xDFFF:
                    raise _Unusual
                self._str_parts.append(chr(code))
                return 6
        # not a valid escape: the repair makes the backslash a literal one; the next character is read as usual
        self._repaired = True
        self._str_parts.append("\\")
        return 1

    def _end_string(self) -> None:
        value = "".join(self._str_parts)
        self._str_parts = []
        if self._is_key:
            self._stack[-1].key = value
            self._state = _OBJ_COLON
        else:
            self._add(value)

    def _end_number(self) -> None:
        token = self._token
        if not _NUMBER.match(token):
            raise _Unusual
        self._add(float(token) if any(ch in token for ch in ".eE") else int(token))

    def _end_literal(self) -> None:
        if self._token not in _LITERALS:
            raise _Unusual
        self._add(_LITERALS[self._token])

    def _add(self, value: Any) -> None:
        """Store a finished value in the innermost open container."""
        frame = self._stack[-1]
        if isinstance(frame.obj, dict):
            assert frame.key is not None
            frame.obj[frame.key] = value
            frame.key = None
            self._state = _OBJ_NEXT
        else:
            frame.obj.append(value)
            self._state = _ARR_NEXT

    def _close(self) -> None:
        frame = self._stack.pop()
        if not self._stack:
            self._state = _DONE
            self._result = frame.obj  # type: ignore[assignment]
            return
        self._add(frame.obj)

    # ------------------------------------------------------------------ result
    def _pending_value(self) -> tuple[bool, Any]:
        """The value being read at the end of the text: (present, value)."""
        state = self._state
        if state == _STRING and self._pending and self._repaired and len(self._pending) >= 6:
            raise _Unusual  # a high surrogate waiting for its pair in a repaired text: leave it to the full parser
        if state == _STRING and not self._is_key:
            value = "".join(self._str_parts)
            self._str_parts = [value] if value else []
            if self._pending and self._repaired:
                value += self._pending  # the repair makes a cut-off escape literal characters
            return True, value
        if state == _NUMBER_TOKEN:
            token = self._token
            if _NUMBER.match(token):
                return True, float(token) if any(ch in token for ch in ".eE") else int(token)
            if not _NUMBER.match(token + "0"):
                raise _Unusual
            return False, None
        if state == _LITERAL:
            if self._token in _LITERALS:
                return True, _LITERALS[self._token]
            return False, None
        return False, None

    def _build(self) -> dict[str, Any]:
        if self._state == _DONE:
            return self._result
        if not self._stack:
            return {}
        present, value = self._pending_value()
        for depth in range(len(self._stack) - 1, -1, -1):
            frame = self._stack[depth]
            obj = frame.obj
            if isinstance(obj, dict):
                copy_d = dict(obj)
                if present and frame.key is not None:
                    copy_d[frame.key] = value
                value = copy_d
            else:
                copy_l = list(obj)
                if present:
                    copy_l.append(value)
                value = copy_l
            present = True
        assert isinstance(value, dict)
        return value


__all__ = ["StreamingJsonParser"]
