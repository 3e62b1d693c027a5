"""Content blocks a user message gets for what its text mentions (issue 13: ``@server:uri`` MCP resources).

:class:`PromptAttachers` is a list of ``attacher(text) -> blocks`` callables (async), run in order on the text
of every prompt, steering and follow-up message after templates and skills were expanded; their blocks go
after the message's text and images. An attacher that raises is logged and skipped: a mention never stops
or loses a message (each attacher reports its own failures to the user, e.g. as a notification).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from pi_tui.ai.types import UserContent

log = logging.getLogger(__name__)

Attacher = Callable[[str], Awaitable[Sequence[UserContent]]]


class PromptAttachers:
    """The session's attachers (module docstring)."""

    def __init__(self) -> None:
        self._attachers: list[Attacher] = []

    def add(self, attacher: Attacher) -> Callable[[], None]:
        """Run ``attacher`` for every message from now on; returns the function that removes it."""
        self._attachers.append(attacher)

        def remove() -> None:
            if attacher in self._attachers:
                self._attachers.remove(attacher)

        return remove

    async def blocks(self, text: str) -> list[UserContent]:
        """The blocks every attacher gives for ``text``, in order (``[]`` without attachers)."""
        out: list[UserContent] = []
        for attacher in list(self._attachers):
            try:
                out.extend(await attacher(text))
            except Exception:  # a mention never stops a message
                log.exception("a prompt attacher failed")
        return out
