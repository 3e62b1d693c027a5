"""JSON Lines output shared by ``--mode json`` and ``--mode rpc`` (pi-reference §3.18–§3.19).

One JSON object per line, LF-terminated, UTF-8, written straight to the binary stdout and flushed, so
U+2028/U+2029 inside strings are never line breaks for a reader that splits on LF only. Known secrets
(API keys) are written as ``[REDACTED]`` (:mod:`pi_tui.ai.secret_redaction`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.agent_session.events import event_to_json


class JsonLineWriter:
    """Writes one JSON value per line to ``stream`` (default ``sys.stdout.buffer``)."""

    def __init__(self, stream: BinaryIO | None = None, on_closed: Callable[[], None] | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdout.buffer
        self.on_closed = on_closed
        """Called once when the reader has gone (broken pipe / closed stream): json mode then stops the run,
        instead of running tools for nobody."""
        self.closed = False

    def write(self, value: Any) -> None:
        """Serialise ``value`` (a dict, or a pydantic event/message) as one line; never raises on a closed pipe
        (the first failure calls :attr:`on_closed`; later lines are dropped)."""
        if self.closed:
            return
        data = event_to_json(value) if not isinstance(value, (dict, list)) else value
        line = redact_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) + "\n"
        try:
            self._stream.write(line.encode("utf-8", errors="replace"))
            self._stream.flush()
        except (BrokenPipeError, ValueError, OSError):
            self.closed = True
            if self.on_closed is not None:
                self.on_closed()


def session_header_json(session: Any) -> dict[str, Any]:
    """The session header line (first line of ``--mode json`` output)."""
    header: dict[str, Any] = session.session_manager.get_header().to_json_dict()
    return header
