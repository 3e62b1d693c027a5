"""Session names and entry labels are one line (pi 0.80.0, earendil-works/pi#5999).

A name set through ``/name`` or RPC ``set_session_name`` with a newline in it (pasted text) broke the one-line
places that show it: the ``/resume`` list, the footer, the terminal title. Runs of line breaks (``\\r\\n``,
``\\n``, ``\\r``) and the blanks around them become one space before the name is stored, and names already stored
that way (older or foreign files) are cleaned when they are read. Other characters (U+2028 included) are kept.
"""

from __future__ import annotations

import re

_BREAKS = re.compile(r"[ \t]*[\r\n]+[ \t]*")


def one_line(text: str) -> str:
    """``text`` with every run of line breaks (and the blanks around it) replaced by one space, then trimmed."""
    return _BREAKS.sub(" ", text).strip()


__all__ = ["one_line"]
