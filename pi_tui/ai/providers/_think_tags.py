"""Reasoning left inside ``delta.content`` as ``<think>…</think>`` (openai-completions servers' dialect).

LM Studio's local server (lmstudio-bug-tracker#1569), llama.cpp without a reasoning format (llama.cpp#11325)
and R1-style models behind other servers stream the model's thinking in the content, wrapped in tags, instead
of ``reasoning_content``/``reasoning``. :class:`ThinkTagSplitter` turns that into thinking and text.
"""

from __future__ import annotations

OPEN_THINK = "<think>"
CLOSE_THINK = "</think>"


class ThinkTagSplitter:
    """Splits streamed content into thinking and text when it starts with ``<think>`` (tags may arrive in
    pieces: ``"<thi"`` + ``"nk>"``). Only a tag at the very start (after whitespace) opens thinking, so an
    answer that mentions ``<think>`` later stays text; the newlines after ``</think>`` are dropped. Content
    that does not start with the tag passes through unchanged (DIFFERENCES.md P6; pi keeps the tags as text).
    """

    def __init__(self) -> None:
        self.state = "start"  # start -> thinking -> text, or start -> text
        self.pending = ""

    def feed(self, content: str) -> list[tuple[str, str]]:
        """``[(kind, text)]`` ready to emit for this piece of content (kind ``"thinking"`` or ``"text"``)."""
        if self.state == "text":
            return [("text", content)]
        self.pending += content
        out: list[tuple[str, str]] = []
        if self.state == "start":
            head = self.pending.lstrip()
            if len(head) < len(OPEN_THINK) and OPEN_THINK.startswith(head):
                return out  # only whitespace or part of the tag so far: wait
            if not head.startswith(OPEN_THINK):
                self.state = "text"
                text, self.pending = self.pending, ""
                return [("text", text)]
            self.state = "thinking"
            self.pending = head[len(OPEN_THINK):]
        if self.state == "thinking":
            end = self.pending.find(CLOSE_THINK)
            if end >= 0:
                thought, rest = self.pending[:end], self.pending[end + len(CLOSE_THINK):]
                self.pending = ""
                self.state = "after"
                if thought:
                    out.append(("thinking", thought))
                self.pending = rest
            else:
                keep = _partial_suffix(self.pending, CLOSE_THINK)
                thought = self.pending[: len(self.pending) - keep]
                self.pending = self.pending[len(self.pending) - keep:]
                if thought:
                    out.append(("thinking", thought))
                return out
        if self.state == "after":
            rest = self.pending.lstrip("\r\n")
            if not rest:
                self.pending = ""
                return out
            self.state = "text"
            self.pending = ""
            out.append(("text", rest))
        return out

    def flush(self) -> list[tuple[str, str]]:
        """What is still held back when the stream ends (an unclosed thought stays thinking)."""
        rest, self.pending = self.pending, ""
        if not rest:
            return []
        if self.state == "thinking":
            return [("thinking", rest)]
        if self.state == "after":
            return []
        return [("text", rest)]


def _partial_suffix(text: str, tag: str) -> int:
    """Length of the longest end of ``text`` that is a proper prefix of ``tag``."""
    for n in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:n]):
            return n
    return 0
