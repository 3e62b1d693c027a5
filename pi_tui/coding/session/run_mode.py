"""Which kind of run made a session: the header's ``runMode`` (issue 12: ``/resume`` hides one-shot ``-p`` runs).

pi 0.73.1 writes nothing that tells a session started by ``pi -p`` (or ``--mode json``) from an interactive one,
so its ``/resume`` list fills up with scripted runs. pi-tui's print and JSON modes add ``"runMode": "print"`` to
the header of a session they create (never to one they continue with ``-c``/``--session``: that session is the
user's). pi ignores unknown header fields and keeps them when it rewrites a file (header objects are kept as
read), so the file stays a valid pi session (DIFFERENCES.md). Files without the field are interactive.
"""

from __future__ import annotations

from typing import Any

RUN_MODE_KEY = "runMode"
"""The header field (camelCase, like pi's own header fields)."""

PRINT_RUN = "print"
"""Its value for a session created by print or JSON mode."""


def mark_print_run(manager: Any) -> bool:
    """Record in ``manager``'s header that a print/JSON-mode run created it; True when marked.

    Only a session whose file does not exist yet is marked (``is_flushed()`` false: nothing written, so the
    header goes out with the first write). ``manager``: a ``SessionManager``.
    """
    if manager.is_flushed() or not manager.is_persisted():
        return False
    setattr(manager.get_header(), RUN_MODE_KEY, PRINT_RUN)
    return True


def is_print_run(header: dict[str, Any] | None) -> bool:
    """True for a header (JSON object) written by :func:`mark_print_run`."""
    return isinstance(header, dict) and header.get(RUN_MODE_KEY) == PRINT_RUN
