"""Short deterministic hash for ids (pi-reference §1.20 ``shortHash``).

Same algorithm as pi (two 32-bit multiply-xor lanes over UTF-16 code units, printed base36), so ids derived
from the same input match pi's.
"""

from __future__ import annotations

_MASK = 0xFFFFFFFF
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _imul(a: int, b: int) -> int:
    return (a * b) & _MASK


def _base36(n: int) -> str:
    if n == 0:
        return "0"
    out = []
    while n:
        n, r = divmod(n, 36)
        out.append(_DIGITS[r])
    return "".join(reversed(out))


def short_hash(text: str) -> str:
    """Stable short hash of ``text`` as a base36 string (at most 14 chars, ``[0-9a-z]``)."""
    h1 = 0xDEADBEEF
    h2 = 0x41C6CE57
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        ch = data[i] | (data[i + 1] << 8)
        h1 = _imul(h1 ^ ch, 2654435761)
        h2 = _imul(h2 ^ ch, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507) ^ _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507) ^ _imul(h1 ^ (h1 >> 13), 3266489909)
    return _base36(h2 & _MASK) + _base36(h1 & _MASK)
