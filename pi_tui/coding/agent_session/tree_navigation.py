"""AgentSession tree navigation: move the leaf to any entry, optionally summarising the branch left
(pi 0.73.1 ``AgentSession.navigateTree``; pi docs/sessions.md "Selection Behavior", docs/compaction.md
"Branch Summarization"). The TUI's ``/tree`` and RPC ``navigate_tree`` both call :meth:`TreeNavigator.navigate`.

Rules (pi's):

* the target is the leaf already: nothing happens (``{cancelled: false}``);
* a ``user`` message or a ``custom_message`` target: the leaf moves to its *parent* (before the root: the
  leaf is reset) and its text is returned as ``editorText``, to be edited and sent again as a new branch;
  any other target: the leaf moves to the target itself;
* ``summarize``: the entries from the old leaf back to the common ancestor are summarised by the session's
  model (``session_before_tree`` hook may cancel or supply the summary) and a ``branch_summary`` entry is
  appended at the new position, which becomes the leaf; with nothing to summarise no entry is written;
* ``label``: set on the summary entry, else on the target;
* afterwards the agent's messages are the new branch's context and a :class:`SessionTreeEvent` is emitted
  (``newLeafId``, ``oldLeafId``, ``summaryEntry``, ``fromExtension``).

Errors: ``ValueError`` ``Entry <id> not found``; ``RuntimeError`` ``No model available for summarization``,
``No API key found for <provider>``, ``Cannot navigate while the agent is working`` (pi-tui: pi leaves
that to its UI) and ``Summarization failed: …``. An abort (:meth:`TreeNavigator.abort`) gives
``{cancelled: true, aborted: true}`` and leaves the leaf where it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pi_tui.agent import Agent
from pi_tui.ai.abort import AbortController
from pi_tui.ai.types import PiModel
from pi_tui.coding.agent_session.hooks import SessionHooks, await_hook
from pi_tui.coding.agent_session.settings import ModelAccess
from pi_tui.coding.compaction.branch_summary import (
    BranchCollection,
    collect_entries_for_branch_summary,
    generate_branch_summary,
)
from pi_tui.coding.compaction.summary_retry import SummaryRetry
from pi_tui.coding.messages import message_text
from pi_tui.coding.session.entries import CustomMessageEntry, MessageEntry
from pi_tui.coding.session.messages import message_role
from pi_tui.coding.session.session_manager import SessionManager


class SessionTreeEvent(PiModel):
    """The leaf moved through tree navigation (pi's extension event ``session_tree``, also sent to every
    session listener: the TUI rebuilds its transcript, RPC clients see it as an event line)."""

    type: Literal["session_tree"] = "session_tree"
    new_leaf_id: str | None = None
    old_leaf_id: str | None = None
    summary_entry: dict[str, Any] | None = None
    from_extension: bool | None = None


class BranchSummaryStartEvent(PiModel):
    """pi-tui: a branch summary request started (the TUI shows ``Summarizing branch...``)."""

    type: Literal["branch_summary_start"] = "branch_summary_start"
    target_id: str
    entry_count: int = 0


class BranchSummaryEndEvent(PiModel):
    """pi-tui: the branch summary request ended (``aborted`` or ``error_message`` when it did not finish)."""

    type: Literal["branch_summary_end"] = "branch_summary_end"
    target_id: str
    aborted: bool = False
    error_message: str | None = None


class TreePreparation(PiModel):
    """pi's ``TreePreparation``, what ``session_before_tree`` hooks see (mutable)."""

    target_id: str
    old_leaf_id: str | None = None
    common_ancestor_id: str | None = None
    entries_to_summarize: list[Any] = []
    user_wants_summary: bool = False
    custom_instructions: str | None = None
    replace_instructions: bool | None = None
    label: str | None = None


class TreeNavigator:
    """Tree navigation of one session. ``agent``: its messages become the new branch's context;
    ``session_manager()``: the current SessionManager; ``models``: keys for the summariser;
    ``reserve_tokens()``: ``branchSummary.reserveTokens`` (read live); ``emit``: the session fan-out;
    ``hooks``: ``session_before_tree`` / ``session_tree`` seams; ``summary_retry()``: the retry policy of a
    summary request (``Compactor.summary_retry("branchSummary")``; None: no retry)."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        models: ModelAccess,
        reserve_tokens: Callable[[], int],
        emit: Callable[[Any], None],
        hooks: SessionHooks,
        summary_retry: Callable[[], SummaryRetry | None] = lambda: None,
        is_compacting: Callable[[], bool] = lambda: False,
    ) -> None:
        self._summary_retry = summary_retry
        self._is_compacting = is_compacting
        self._agent = agent
        self._manager = session_manager
        self._models = models
        self._reserve_tokens = reserve_tokens
        self._emit = emit
        self._hooks = hooks
        self._abort: AbortController | None = None

    @property
    def is_summarizing(self) -> bool:
        """True while a branch summary request runs."""
        return self._abort is not None

    def abort(self) -> None:
        """Cancel a running branch summary (pi's ``abortBranchSummary``)."""
        if self._abort is not None:
            self._abort.abort()

    def entries_to_summarize(self, target_id: str) -> BranchCollection:
        """What leaving the current leaf for ``target_id`` would summarise (the UI asks only when non-empty)."""
        manager = self._manager()
        return collect_entries_for_branch_summary(manager, manager.get_leaf_id(), target_id)

    async def navigate(
        self,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
        label: str | None = None,
    ) -> dict[str, Any]:
        """Navigate to ``target_id`` (module docstring). Returns ``{cancelled, aborted?, editorText?,
        summaryEntry?}`` (pi's result; ``summaryEntry`` as JSON)."""
        manager = self._manager()
        old_leaf = manager.get_leaf_id()
        if target_id == old_leaf:
            return {"cancelled": False}
        if self._agent.state.is_streaming:
            raise RuntimeError("Cannot navigate while the agent is working")
        if self._is_compacting():  # the compaction would land on the new branch (new-user run #28)
            raise RuntimeError("Cannot navigate while the context is being compacted")
        model = self._agent.state.model
        if summarize and model is None:
            raise RuntimeError("No model available for summarization")
        target = manager.get_entry(target_id)
        if target is None:
            raise ValueError(f"Entry {target_id} not found")
        collected = collect_entries_for_branch_summary(manager, old_leaf, target_id)
        preparation = TreePreparation(
            target_id=target_id, old_leaf_id=old_leaf, common_ancestor_id=collected.common_ancestor_id,
            entries_to_summarize=collected.entries, user_wants_summary=summarize,
            custom_instructions=custom_instructions, replace_instructions=replace_instructions, label=label,
        )
        controller = AbortController()
        self._abort = controller
        try:
            outcome = await await_hook(self._hooks.session_before_tree, preparation, controller.signal)
            supplied: dict[str, Any] | None = None
            if isinstance(outcome, dict):
                if outcome.get("cancel"):
                    return {"cancelled": True}
                if summarize and isinstance(outcome.get("summary"), dict):
                    supplied = outcome["summary"]
                custom_instructions = outcome.get("customInstructions", custom_instructions)
                replace_instructions = bool(outcome.get("replaceInstructions", replace_instructions))
                label = outcome.get("label", label)
            summary_text: str | None = None
            details: Any = None
            if supplied is not None:
                summary_text, details = str(supplied.get("summary") or ""), supplied.get("details")
            elif summarize and collected.entries:
                assert model is not None
                if not self._models.has_auth(model):
                    raise RuntimeError(f"No API key found for {model.provider}")
                self._emit(BranchSummaryStartEvent(target_id=target_id, entry_count=len(collected.entries)))
                result = await generate_branch_summary(
                    collected.entries, model, self._models.get_api_key(model), signal=controller.signal,
                    custom_instructions=custom_instructions, replace_instructions=replace_instructions,
                    reserve_tokens=self._reserve_tokens(), retry=self._summary_retry(),
                )
                self._emit(BranchSummaryEndEvent(target_id=target_id, aborted=result.aborted,
                                                 error_message=result.error))
                if result.aborted:
                    return {"cancelled": True, "aborted": True}
                if result.error:
                    raise RuntimeError(f"Summarization failed: {result.error}")
                summary_text = result.summary
                details = {"readFiles": result.read_files, "modifiedFiles": result.modified_files}
            editor_text: str | None = None
            if isinstance(target, MessageEntry) and message_role(target.message) == "user":
                new_leaf, editor_text = target.parent_id, message_text(target.message)
            elif isinstance(target, CustomMessageEntry):
                content = target.content
                new_leaf = target.parent_id
                editor_text = content if isinstance(content, str) else "".join(
                    str(b.get("text", "") if isinstance(b, dict) else getattr(b, "text", ""))
                    for b in content or []
                    if (b.get("type") if isinstance(b, dict) else getattr(b, "type", None)) == "text")
            else:
                new_leaf = target_id
            summary_entry: dict[str, Any] | None = None
            if summary_text:
                summary_id = manager.branch_with_summary(new_leaf, summary_text, details, supplied is not None)
                saved = manager.get_entry(summary_id)
                summary_entry = saved.to_json_dict() if saved is not None else None
                if label:
                    manager.append_label_change(summary_id, label)
            elif new_leaf is None:
                manager.reset_leaf()
            else:
                manager.branch(new_leaf)
            if label and not summary_text:
                manager.append_label_change(target_id, label)
            context = manager.build_session_context(include_ui=True, close_interrupted=True)
            self._agent.state.messages = list(context.messages)
            event = SessionTreeEvent(
                new_leaf_id=manager.get_leaf_id(), old_leaf_id=old_leaf, summary_entry=summary_entry,
                from_extension=(supplied is not None) if summary_text else None,
            )
            await await_hook(self._hooks.session_tree, event)
            self._emit(event)
            result_data: dict[str, Any] = {"cancelled": False}
            if editor_text is not None:
                result_data["editorText"] = editor_text
            if summary_entry is not None:
                result_data["summaryEntry"] = summary_entry
            return result_data
        finally:
            self._abort = None
