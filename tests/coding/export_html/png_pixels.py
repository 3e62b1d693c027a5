"""Read pixels of an 8-bit RGB/RGBA, non-interlaced PNG (what Chromium's --screenshot writes), without Pillow."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


class Png:
    """Decoded image: ``width``, ``height``, ``pixel(x, y) -> (r, g, b)``."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, chunks = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos : pos + 8])
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
                assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
                self.channels = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                chunks += body
            pos += 12 + length
        raw = zlib.decompress(chunks)
        stride = self.width * self.channels
        rows: list[bytearray] = []
        previous = bytearray(stride)
        for y in range(self.height):
            start = y * (stride + 1)
            kind = raw[start]
            row = bytearray(raw[start + 1 : start + 1 + stride])
            for i in range(stride):
                left = row[i - self.channels] if i >= self.channels else 0
                up = previous[i]
                corner = previous[i - self.channels] if i >= self.channels else 0
                if kind == 1:
                    row[i] = (row[i] + left) & 255
                elif kind == 2:
                    row[i] = (row[i] + up) & 255
                elif kind == 3:
                    row[i] = (row[i] + (left + up) // 2) & 255
                elif kind == 4:
                    row[i] = (row[i] + _paeth(left, up, corner)) & 255
            rows.append(row)
            previous = row
        self._rows = rows

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        """The ``(r, g, b)`` at column ``x``, row ``y``."""
        offset = x * self.channels
        r, g, b = self._rows[y][offset : offset + 3]
        return r, g, b
