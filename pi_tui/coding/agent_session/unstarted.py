"""Prompts that were asked for and whose run has not started yet (tester2 #5).

``AgentSession.prompt`` does work before the user message exists: the ``input`` hook, template expansion, the
prompt attachers (the first prompt waits up to 10 s there for MCP servers still connecting), a pending retry's
end and the pre-prompt compaction check. A quit in that time settled an idle session and exited while the
prompt still waited: the text was in no session file and never sent. :class:`UnstartedPrompts` records each
prompt from the call until its run starts; :meth:`UnstartedPrompts.take` hands their texts to whoever needs them
(the exit keeps them unsent, ``shutdown.keep_unsent``; Escape gives them back to the editor) and marks them
dropped, so they end without a run and without a user message: a text is either sent or given back, never both.
"""

from __future__ import annotations

import itertools


class UnstartedPrompts:
    """The texts of prompts between ``AgentSession.prompt`` and the start of their run, oldest first."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._dropped: set[int] = set()
        self._ids = itertools.count(1)

    def begin(self, text: str) -> int:
        """A prompt of ``text`` began; returns its token (for :meth:`dropped` and :meth:`end`)."""
        token = next(self._ids)
        self._texts[token] = text
        return token

    def end(self, token: int) -> None:
        """The prompt of ``token`` started its run, was queued, or ended: it is no longer unstarted."""
        self._texts.pop(token, None)
        self._dropped.discard(token)

    def dropped(self, token: int) -> bool:
        """True when :meth:`take` took the prompt of ``token``: it must end without starting a run."""
        return token in self._dropped

    @property
    def texts(self) -> list[str]:
        """The unstarted prompts' texts, oldest first (taken ones are no longer listed)."""
        return [text for token, text in self._texts.items() if token not in self._dropped]

    def take(self) -> list[str]:
        """The unstarted prompts' texts, oldest first; each is dropped (it will end without a run)."""
        texts = []
        for token, text in self._texts.items():
            if token not in self._dropped:
                self._dropped.add(token)
                texts.append(text)
        return texts
