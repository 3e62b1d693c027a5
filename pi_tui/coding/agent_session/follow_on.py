"""Work an agent run leaves behind (a retry, a compaction and its continuation) and how runs continue.

:class:`FollowOn` holds the one follow-on task of the last ``agent_end``; :meth:`AgentSession.prompt` awaits it so
``prompt()`` resolves only once retries and compactions have settled (pi-reference §3.6 step 9).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from pi_tui.agent import Agent
from pi_tui.coding.messages import UI_ONLY_ROLES, message_role

log = logging.getLogger("pi_tui.coding.agent_session")


class FollowOn:
    """The follow-on task of the last run (chains replace it: a retry may end in a compaction)."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as the new follow-on task (needs a running loop)."""
        self._task = asyncio.get_running_loop().create_task(coro)

    async def wait(self) -> None:
        """Wait until the follow-on tasks settle (chains included); a failing one is logged, never raised."""
        while True:
            task = self._task
            if task is None or task.done():
                if task is self._task:
                    return
                continue
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                if task.cancelled():
                    continue
                raise
            except Exception:
                log.exception("follow-on task failed")


async def continue_agent(agent: Agent) -> None:
    """``agent.continue_()`` with trailing UI-only messages set aside (they never decide the tail role)."""
    messages = agent.state.messages
    cut = len(messages)
    while cut > 0 and message_role(messages[cut - 1]) in UI_ONLY_ROLES:
        cut -= 1
    trailing = messages[cut:]
    if trailing:
        agent.state.messages = messages[:cut]
    try:
        await agent.continue_()
    finally:
        if trailing:
            current = agent.state.messages
            agent.state.messages = current[:cut] + trailing + current[cut:]
