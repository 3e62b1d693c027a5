"""AgentSession compaction: manual, threshold and overflow (pi-reference §3.9; §5 item 4).

Trigger check after every ``agent_end`` (unless a retry started) and before every prompt. Beyond pi, the
threshold is also checked at turn boundaries through the loop's ``should_stop_after_turn``: when a tool
turn leaves the context above ``contextWindow - reserveTokens`` the run stops after that turn, the session
compacts, then continues the run (so long tool loops cannot overshoot the window).

One compaction at a time (pi 0.84.0, #7370): ``/compact`` cancels a running automatic compaction and waits for
it to end before summarising; no automatic compaction starts while ``/compact`` runs. A stop of the run
(:mod:`~pi_tui.coding.agent_session.stop_fence`, pi 0.86.0 #9340/#9777) keeps an automatic compaction from
starting, cancels it between its steps (after the ``session_before_compact`` hook, before writing) and keeps the
run from being continued afterwards. A complete reply whose usage shows a silent overflow is compacted but kept
and never asked again (pi 0.79.8, #5720).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pi_tui.agent import Agent, ShouldStopAfterTurnContext
from pi_tui.ai.abort import AbortController
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.agent_session.events import (
    CompactionEndEvent,
    CompactionStartEvent,
    SummarizationRetryAttemptStartEvent,
    SummarizationRetryFinishedEvent,
    SummarizationRetryScheduledEvent,
)
from pi_tui.coding.agent_session.hooks import BeforeCompactOutcome, SessionHooks, await_hook
from pi_tui.coding.agent_session.settings import ModelAccess, SessionSettings
from pi_tui.coding.agent_session.stop_fence import StopFence, StopMark
from pi_tui.coding.compaction import (
    calculate_context_tokens,
    compact,
    estimate_context_tokens,
    estimate_tokens,
    prepare_compaction,
    should_compact,
)
from pi_tui.coding.compaction.summarize import CompactionResult
from pi_tui.coding.compaction.summary_retry import SummaryRetry
from pi_tui.coding.messages import UI_ONLY_ROLES, message_role
from pi_tui.coding.session.entries import iso_to_ms
from pi_tui.coding.session.session_manager import SessionManager

log = logging.getLogger(__name__)

OVERFLOW_FAILED = (
    "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching "
    "to a larger-context model."
)
CONTINUE_DELAY_S = 0.1


class CompactionError(RuntimeError):
    """A manual compaction could not run (``Already compacted``, ``Nothing to compact …``, …)."""


class Compactor:
    """Manual, threshold and overflow compaction of one session.

    ``agent``: the session's Agent; ``session_manager()``: the current SessionManager (it changes when the
    session switches); ``models``: keys for the summariser; ``settings``: read live; ``emit``/``notify``: the
    session's fan-out and UI-only notifications; ``sleep``: the pause before continuing; ``abort_retry()``:
    cancels a retry wait before a manual compaction; ``continue_run()``: continues the agent afterwards;
    ``hooks``: the ``session_before_compact``/``session_compact`` seams; ``fence``: the session's stop fence
    (a new one when None).
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        models: ModelAccess,
        settings: SessionSettings,
        emit: Callable[[Any], None],
        notify: Callable[[str, str], Any],
        sleep: Callable[[float], Awaitable[Any]],
        abort_retry: Callable[[], None],
        continue_run: Callable[[], Awaitable[None]],
        hooks: SessionHooks,
        fence: StopFence | None = None,
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._models = models
        self._settings = settings
        self._emit = emit
        self._notify = notify
        self._sleep = sleep
        self._abort_retry = abort_retry
        self._continue_run = continue_run
        self._hooks = hooks
        self._compacting = False
        self._abort: AbortController | None = None
        self._overflow_attempted = False
        self._stop_requested = False
        self._fence = fence if fence is not None else StopFence()
        self._one_at_a_time = asyncio.Lock()  # held by the compaction that runs (auto or manual)
        self._manual_waiting = False  # ``/compact`` was asked for: no automatic compaction starts meanwhile

    @property
    def is_compacting(self) -> bool:
        """True while a compaction runs."""
        return self._compacting

    @property
    def stop_requested(self) -> bool:
        """True when the turn-boundary check stopped the run so the session compacts (then continues)."""
        return self._stop_requested

    def abort(self) -> None:
        """Cancel a running compaction (its summariser call is aborted)."""
        if self._abort is not None:
            self._abort.abort()

    def reset_overflow(self) -> None:
        """A user message or a successful reply: the next overflow may be recovered again (§3.9 step 2)."""
        self._overflow_attempted = False

    # ------------------------------------------------------------------ helpers

    def _branch_without_ui(self) -> list[Any]:
        """The current branch without pi-tui's UI-only ``custom`` entries (they never count for compaction)."""
        return [
            e
            for e in self._manager().get_branch()
            if not (e.type == "custom" and str(getattr(e, "custom_type", "")).startswith("pi-tui."))
        ]

    def refusal(self) -> str | None:
        """Why ``/compact`` now would be refused (``Already compacted``, ``Nothing to compact …``), or None."""
        return self._nothing_to_compact()

    def _nothing_to_compact(self) -> str | None:
        """Why a compaction now would have nothing to do (the branch as stored; a streaming reply is not in it
        yet, and it would be kept as the most recent part), or None."""
        branch = self._branch_without_ui()
        if branch and branch[-1].type == "compaction":
            return "Already compacted"
        context = self._manager().build_session_context()
        preparation = prepare_compaction(branch, self._settings.compaction, context.messages)
        if preparation is None or (not preparation.messages_to_summarize and not preparation.turn_prefix_messages):
            return "Nothing to compact (session too small)"
        return None

    def _latest_compaction_ms(self) -> int | None:
        for entry in reversed(self._manager().get_branch()):
            if entry.type == "compaction":
                return iso_to_ms(entry.timestamp)
        return None

    def should_stop_after_turn(self, ctx: ShouldStopAfterTurnContext) -> bool:
        """Turn-boundary threshold check (beyond pi): stop the run so the session can compact and go on."""
        settings = self._settings.compaction
        if not (settings.enabled and self._settings.turn_boundary_compaction) or not ctx.tool_results:
            return False
        message = ctx.message
        model = self._agent.state.model
        if message.stop_reason in ("error", "aborted") or model is None or model.context_window <= 0:
            return False
        tokens = calculate_context_tokens(message.usage)
        if tokens <= 0:
            return False
        tokens += sum(estimate_tokens(r) for r in ctx.tool_results)
        if should_compact(tokens, model.context_window, settings.reserve_tokens):
            self._stop_requested = True
            return True
        return False

    # ------------------------------------------------------------------ automatic (§3.9 trigger check)

    async def check(self, message: AssistantMessage | None, skip_aborted: bool, mark: StopMark | None = None) -> None:
        """The trigger check after ``agent_end`` and before a prompt (pi's ``_checkCompaction``, §3.9).

        ``mark``: taken when the run started (None: now); once a stop was requested after it, nothing starts.
        Nothing starts either while another compaction runs or ``/compact`` waits for one (pi 0.84.0)."""
        mark = mark if mark is not None else self._fence.mark()
        if self._busy(mark):
            self._stop_requested = False
            return
        settings = self._settings.compaction
        if self._stop_requested:
            self._stop_requested = False
            await self._run_auto_compaction("threshold", will_retry=False, resume=True, mark=mark)
            return
        if message is None or not settings.enabled:
            return
        if skip_aborted and message.stop_reason == "aborted":
            return
        latest = self._latest_compaction_ms()
        if latest is not None and message.timestamp <= latest:
            return
        model = self._agent.state.model
        if model is None:
            return
        window = model.context_window
        same_model = message.provider == model.provider and message.model == model.id
        if same_model and (_is_overflow(message, window) or _filled_the_window(message, model)):
            if message.stop_reason == "stop":  # complete, only its usage overflowed: compact, keep it (pi 0.79.8)
                await self._run_auto_compaction("overflow", will_retry=False, mark=mark)
                return
            if self._overflow_attempted:
                self._emit(CompactionEndEvent(reason="overflow", error_message=OVERFLOW_FAILED))
                self._notify("error", OVERFLOW_FAILED)
                return
            self._overflow_attempted = True
            self._drop_trailing_error(window)
            await self._run_auto_compaction("overflow", will_retry=True, mark=mark)
            return
        if message.stop_reason == "error":
            estimate = estimate_context_tokens(self._agent.state.messages)
            if estimate.last_usage_index is None:
                return
            source = self._agent.state.messages[estimate.last_usage_index]
            if latest is not None and getattr(source, "timestamp", 0) <= latest:
                return
            tokens = estimate.tokens
        else:
            tokens = calculate_context_tokens(message.usage)
            if tokens == 0:  # the provider sent no usage (pi 0.84.3, #8328): estimate the context instead
                tokens = self._estimate_without_usage(latest)
        if should_compact(tokens, window, settings.reserve_tokens):
            await self._run_auto_compaction("threshold", will_retry=False, mark=mark)

    def _busy(self, mark: StopMark) -> bool:
        """True when no automatic compaction may start: the run was stopped, or a compaction runs or waits."""
        return mark.stopped or self._manual_waiting or self._one_at_a_time.locked()

    def _estimate_without_usage(self, latest_compaction_ms: int | None) -> int:
        """Context tokens when the last reply reported no usage: the last usage reported since the latest
        compaction plus estimates of what follows it, else estimates of every message in the context."""
        messages = self._agent.state.messages
        estimate = estimate_context_tokens(messages)
        if estimate.last_usage_index is not None and (
            latest_compaction_ms is None or getattr(messages[estimate.last_usage_index], "timestamp", 0) > latest_compaction_ms
        ):
            return estimate.tokens
        return sum(estimate_tokens(m) for m in messages)

    def _drop_trailing_error(self, window: int) -> None:
        """Drop the overflowed reply before the retry: an error, or a ``length`` stop that is an overflow
        (``model_context_window_exceeded``; a cut-off reply left in place made the retry continue from it)."""
        messages = self._agent.state.messages
        for index in range(len(messages) - 1, -1, -1):
            role = message_role(messages[index])
            if role in UI_ONLY_ROLES:
                continue
            model = self._agent.state.model
            if role == "assistant" and (
                messages[index].stop_reason == "error"
                or _is_overflow(messages[index], window)
                or (model is not None and _filled_the_window(messages[index], model))
            ):
                self._agent.state.messages = messages[:index] + messages[index + 1 :]
            return

    async def _summarise(
        self, custom_instructions: str | None, reason: str, controller: AbortController
    ) -> CompactionResult | None:
        """Prepare, run the hook and the summariser, write the compaction; ``CancelledError`` once
        ``controller`` is aborted (checked after each step that waits, before anything is written)."""
        model = self._agent.state.model
        if model is None:
            raise CompactionError("No model selected")
        api_key = self._models.get_api_key(model)
        if not self._models.has_auth(model):
            raise CompactionError(f"No API key found for {model.provider}")
        branch = self._branch_without_ui()
        manager = self._manager()
        context = manager.build_session_context()
        preparation = prepare_compaction(branch, self._settings.compaction, context.messages)
        if preparation is None or (not preparation.messages_to_summarize and not preparation.turn_prefix_messages):
            return None
        # seam: session_before_compact (may cancel, or supply the summary instead of the summariser)
        outcome = await await_hook(self._hooks.session_before_compact, preparation, custom_instructions, reason)
        if (isinstance(outcome, BeforeCompactOutcome) and outcome.cancel) or controller.signal.aborted:
            raise asyncio.CancelledError("Compaction cancelled")
        supplied = outcome.result if isinstance(outcome, BeforeCompactOutcome) else None
        result = supplied if supplied is not None else await self._run_summariser(
            preparation, model, api_key, custom_instructions, reason, controller
        )
        if controller.signal.aborted:
            raise asyncio.CancelledError("Compaction cancelled")
        manager.append_compaction(result.summary, result.first_kept_entry_id, result.tokens_before, result.details)
        rebuilt = manager.build_session_context(include_ui=True, close_interrupted=True)
        self._agent.state.messages = list(rebuilt.messages)
        await await_hook(self._hooks.session_compact, result, supplied is not None)  # seam: session_compact
        return result

    def summary_retry(self, source: str, reason: str | None = None) -> SummaryRetry:
        """The retry policy of a summary request (pi 0.81.1): the session's ``retry.*`` settings, read now, whose
        steps are emitted as ``summarization_retry_*`` events. ``source``: ``compaction`` or ``branchSummary``;
        ``reason``: the compaction's (manual, threshold, overflow), None for a branch summary."""

        def scheduled(attempt: int, max_attempts: int, delay_ms: int, error_message: str) -> None:
            self._emit(SummarizationRetryScheduledEvent(
                attempt=attempt, max_attempts=max_attempts, delay_ms=delay_ms, error_message=error_message
            ))

        return SummaryRetry(
            settings=self._settings.retry,
            on_scheduled=scheduled,
            on_attempt_start=lambda: self._emit(
                SummarizationRetryAttemptStartEvent(source=source, reason=reason)  # type: ignore[arg-type]
            ),
            on_finished=lambda: self._emit(SummarizationRetryFinishedEvent()),
            sleep=self._sleep,
        )

    async def _run_summariser(
        self, preparation: Any, model: Any, api_key: str | None, custom_instructions: str | None, reason: str,
        controller: AbortController,
    ) -> CompactionResult:
        try:
            result = await compact(
                preparation,
                model,
                api_key,
                custom_instructions=custom_instructions,
                signal=controller.signal,
                thinking_level=self._agent.state.thinking_level,
                retry=self.summary_retry("compaction", reason),
            )
        except Exception:
            if controller.signal.aborted:  # the summary request ended because of the abort: a cancel, not a failure
                raise asyncio.CancelledError("Compaction cancelled") from None
            raise
        if controller.signal.aborted:
            raise asyncio.CancelledError("Compaction cancelled")
        return result

    async def _run_auto_compaction(
        self, reason: str, will_retry: bool, resume: bool = False, mark: StopMark | None = None
    ) -> None:
        """Compact automatically, then continue the run when it was cut short (``resume``), when the
        overflowed request should be retried (``will_retry``, only after a successful compaction) or when
        messages are queued; nothing starts, and nothing continues, once the run was stopped (``mark``)."""
        mark = mark if mark is not None else self._fence.mark()
        if self._busy(mark):
            return
        controller = AbortController()
        async with self._one_at_a_time:
            self._abort = controller
            try:
                compacted = await self._auto_step(reason, will_retry, controller)
            finally:
                if self._abort is controller:
                    self._abort = None
        if compacted is None or mark.stopped:
            return
        retry = will_retry and compacted
        if retry:
            model = self._agent.state.model
            self._drop_trailing_error(model.context_window if model is not None else 0)
        if retry or resume or self._agent.has_queued_messages():
            await self._sleep(CONTINUE_DELAY_S)
            await self._agent.wait_for_idle()
            if mark.stopped or controller.signal.aborted:
                return
            try:
                await self._continue_run()
            except (RuntimeError, ValueError) as exc:
                log.info("no continuation after compaction: %s", exc)

    async def _auto_step(self, reason: str, will_retry: bool, controller: AbortController) -> bool | None:
        """One automatic compaction and its events: True when it compacted, False when it did not (nothing to
        do, missing auth, a failure), None when it was cancelled."""
        self._emit(CompactionStartEvent(reason=reason))  # type: ignore[arg-type]
        self._compacting = True
        try:
            try:
                result = await self._summarise(None, reason, controller)
            except CompactionError:
                result = None  # missing model/auth: silent, as in pi
            if result is None:
                self._emit(CompactionEndEvent(reason=reason))  # type: ignore[arg-type]
                return False
            self._emit(
                CompactionEndEvent(reason=reason, result=result.to_json_dict(), will_retry=will_retry)  # type: ignore[arg-type]
            )
            self._notify("info", f"Context compacted ({reason}); {result.tokens_before} tokens summarised.")
            return True
        except asyncio.CancelledError:
            self._emit(CompactionEndEvent(reason=reason, aborted=True))  # type: ignore[arg-type]
            return None
        except Exception as exc:
            prefix = "Context overflow recovery failed" if reason == "overflow" else "Auto-compaction failed"
            self._emit(CompactionEndEvent(reason=reason, error_message=f"{prefix}: {exc}"))  # type: ignore[arg-type]
            self._notify("error", f"{prefix}: {exc}")
            return False
        finally:
            self._compacting = False

    # ------------------------------------------------------------------ manual

    async def compact(self, custom_instructions: str | None = None) -> dict[str, Any]:
        """Compact now (``/compact``); returns ``{summary, firstKeptEntryId, tokensBefore, details}``.

        Aborts a running turn first (pi 0.73), unless there is nothing to compact: then the run goes on and the
        error is raised at once (pi-tui: a ``/compact`` typed while a reply streamed aborted it for nothing,
        issue 9; DIFFERENCES). A running automatic compaction is cancelled and waited for (pi 0.84.0, #7370).
        Raises :class:`CompactionError` (``Already compacted``, ``Nothing to compact (session too small)``,
        ``Compaction cancelled``, ``Compaction failed: …``).
        """
        if self._agent.state.is_streaming:
            refusal = self._nothing_to_compact()
            if refusal is not None:
                raise CompactionError(refusal)
        self._manual_waiting = True
        try:
            self._abort_retry()
            self._agent.abort()
            self.abort()  # an automatic compaction that runs: cancelled, then waited for below
            await self._agent.wait_for_idle()
            async with self._one_at_a_time:
                self._manual_waiting = False
                controller = AbortController()
                self._abort = controller
                try:
                    return await self._manual_step(custom_instructions, controller)
                finally:
                    if self._abort is controller:
                        self._abort = None
        finally:
            self._manual_waiting = False

    async def _manual_step(self, custom_instructions: str | None, controller: AbortController) -> dict[str, Any]:
        self._emit(CompactionStartEvent(reason="manual"))
        self._compacting = True
        try:
            branch = self._branch_without_ui()
            if branch and branch[-1].type == "compaction":
                raise CompactionError("Already compacted")
            result = await self._summarise(custom_instructions, "manual", controller)
            if result is None:
                raise CompactionError("Nothing to compact (session too small)")
        except asyncio.CancelledError:
            self._emit(CompactionEndEvent(reason="manual", aborted=True, error_message="Compaction cancelled"))
            raise CompactionError("Compaction cancelled") from None
        except CompactionError as exc:
            self._emit(CompactionEndEvent(reason="manual", error_message=str(exc)))
            raise
        except Exception as exc:
            self._emit(CompactionEndEvent(reason="manual", error_message=f"Compaction failed: {exc}"))
            raise CompactionError(f"Compaction failed: {exc}") from exc
        finally:
            self._compacting = False
        self._emit(CompactionEndEvent(reason="manual", result=result.to_json_dict()))
        self._notify("info", f"Context compacted; {result.tokens_before} tokens summarised.")
        return result.to_json_dict()


def _is_overflow(message: AssistantMessage, context_window: int) -> bool:
    from pi_tui.ai.overflow import is_context_overflow

    return bool(is_context_overflow(message, context_window))


def _filled_the_window(message: AssistantMessage, model: Any) -> bool:
    """A reply cut short (``stop_reason == "length"``) below the model's output limit because prompt and reply
    filled the context window (``input + cache_read + output >= 99 %`` of it): llama.cpp, vLLM and Ollama stop
    there. pi 0.84.0 (#7540) treats it as an overflow: compact, then retry once, instead of ending the run with a
    cut-off answer and compacting only for the next prompt. A reply that used the whole output limit is a
    plain ``length`` stop."""
    if message.stop_reason != "length" or not model.context_window:
        return False
    usage = message.usage
    if usage.output <= 0 or (model.max_tokens and usage.output >= model.max_tokens):
        return False
    return usage.input + usage.cache_read + usage.output >= 0.99 * model.context_window
