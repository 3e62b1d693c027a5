"""Line geometry of the transcript: one height per item and lazily summed offsets (no Textual here).

``HeightTable`` answers "which item is at transcript line y" in O(log n) after a change at index i costs
re-summing only from i on (done lazily, on the next query past i).
"""

from __future__ import annotations

from bisect import bisect_right


class HeightTable:
    """Heights of the items in order; ``top(i)`` is item i's first line, ``total`` the sum of all heights."""

    def __init__(self) -> None:
        self.heights: list[int] = []
        self._offsets: list[int] = [0]  # _offsets[i] = first line of item i; last entry = total height
        self._valid = 0  # offsets are valid for indices <= this

    def __len__(self) -> int:
        return len(self.heights)

    def _sum_upto(self, i: int) -> None:
        if self._valid >= i:
            return
        offs, heights = self._offsets, self.heights
        for k in range(self._valid, i):
            offs[k + 1] = offs[k] + heights[k]
        self._valid = i

    @property
    def total(self) -> int:
        """Sum of all heights (lines)."""
        self._sum_upto(len(self.heights))
        return self._offsets[len(self.heights)]

    def top(self, i: int) -> int:
        """First line of item ``i`` (``i == len`` gives the total)."""
        self._sum_upto(i)
        return self._offsets[i]

    def set(self, i: int, height: int) -> bool:
        """Set item ``i``'s height; True when it changed."""
        if self.heights[i] == height:
            return False
        self.heights[i] = height
        self._valid = min(self._valid, i)
        return True

    def set_all(self, heights: list[int]) -> None:
        """Replace every height (same number of items)."""
        self.heights[:] = heights
        self._valid = 0

    def append(self, height: int) -> None:
        """Add an item at the end."""
        self.heights.append(height)
        self._offsets.append(0)

    def insert(self, i: int, height: int) -> None:
        """Add an item before item ``i`` (``i == len``: at the end)."""
        self.heights.insert(i, height)
        self._offsets.append(0)
        self._valid = min(self._valid, i)

    def delete(self, i: int) -> None:
        """Remove item ``i``."""
        del self.heights[i]
        del self._offsets[i + 1]
        self._valid = min(self._valid, i)

    def clear(self) -> None:
        """Remove every item."""
        self.heights.clear()
        self._offsets = [0]
        self._valid = 0

    def at_line(self, y: int) -> tuple[int, int] | None:
        """``(item index, line within item)`` for line ``y``, or ``None`` outside ``0 .. total-1``."""
        n = len(self.heights)
        if not n or y < 0 or y >= self.total:
            return None
        i = min(bisect_right(self._offsets, y, 0, n + 1) - 1, n - 1)
        return i, y - self._offsets[i]
