"""Provider errors in one line, for status lines and notices (issue 9: retries printed raw JSON bodies).

Providers write ``error_message`` as ``"<status> <body>"`` (DESIGN.md "Providers"); the body is often the
server's JSON. :func:`summarize_error` keeps the status and the provider's own message; the full text stays in
the session.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_STATUS_PREFIX = re.compile(r"^\s*(\d{3})\b[\s:]*(.*)$", re.DOTALL)
_RATE_LIMIT = re.compile(r"rate.?limit|too many requests", re.IGNORECASE)


@dataclass(frozen=True)
class ErrorSummary:
    """A provider error in one line: the HTTP ``status`` (None when the text has none) and the provider's
    ``message`` (the ``error.message``/``message``/``detail`` of a JSON body, else the text itself), with
    newlines and runs of spaces collapsed."""

    status: int | None
    message: str

    @property
    def rate_limited(self) -> bool:
        """True for HTTP 429 or a message that says so."""
        return self.status == 429 or _RATE_LIMIT.search(self.message) is not None

    def one_line(self) -> str:
        """``"<status> <message>"`` (or just the message)."""
        return f"{self.status} {self.message}" if self.status is not None else self.message


def _json_message(body: str) -> str | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    for _ in range(3):  # {"error": {"message": ...}}, {"message": ...}, {"error": "..."}, {"detail": ...}
        if isinstance(data, str):
            return data
        if not isinstance(data, dict):
            return None
        for key in ("message", "detail", "error_description"):
            if isinstance(data.get(key), str) and data[key].strip():
                return str(data[key])
        data = data.get("error")
    return None


def summarize_error(error: str | None, limit: int = 300) -> ErrorSummary:
    """One-line summary of an ``error_message`` as the providers write it (``"<status> <body>"``, DESIGN.md
    "Providers"): the status and the provider's own message out of a JSON body; cut to ``limit`` characters
    with an ellipsis. The full text stays in the session; this is what status lines and notices show."""
    text = (error or "").strip() or "Unknown error"
    match = _STATUS_PREFIX.match(text)
    status = int(match.group(1)) if match else None
    body = match.group(2).strip() if match else text
    message = _json_message(body) if body[:1] in "{[\"" else None
    line = " ".join((message or body or text).split())
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return ErrorSummary(status, line)
