"""``Prompter._run_agent`` after a stop mark: it aborts its own run once that run exists, and never an agent run
it did not start (a prompt that fails at once, e.g. "Agent is already processing", left the abort to stop the
run that was going on)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pi_tui.coding.agent_session.prompting import Prompter

pytestmark = pytest.mark.anyio


class _Agent:
    """``prompt`` fails before its first await when ``busy``; else waits until ``abort``."""

    def __init__(self, busy: bool) -> None:
        self.busy = busy
        self.aborts = 0
        self.ran = False
        self.aborted = asyncio.Event()

    async def prompt(self, messages: list[Any]) -> None:
        if self.busy:
            raise RuntimeError("Agent is already processing a prompt")
        self.ran = True
        await self.aborted.wait()

    def abort(self) -> None:
        self.aborts += 1
        self.aborted.set()


def _prompter(agent: _Agent) -> Prompter:
    unused: Any = None
    return Prompter(agent=agent, models=unused, hooks=unused, model=lambda: None,  # type: ignore[arg-type]
                    is_retrying=lambda: False, abort_retry=lambda: None, follow_on=unused, queues=unused,
                    flush_pending_bash=lambda: None, check_compaction=unused)


async def test_a_stopped_prompt_aborts_its_own_run() -> None:
    agent = _Agent(busy=False)
    await _prompter(agent)._run_agent([], stopped=lambda: True)
    assert agent.ran and agent.aborts == 1


async def test_a_prompt_that_fails_at_once_aborts_nothing() -> None:
    agent = _Agent(busy=True)
    with pytest.raises(RuntimeError, match="already processing"):
        await _prompter(agent)._run_agent([], stopped=lambda: True)
    assert agent.aborts == 0  # the run that was going on is not stopped by this failed prompt
