"""Tree navigation and branch summaries (pi 0.73.1 agent-session-tree-navigation suite; docs/sessions.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.coding.compaction.branch_summary import BRANCH_SUMMARY_PREAMBLE, branch_summary_prompt
from pi_tui.coding.session.entries import BranchSummaryEntry, LabelEntry, MessageEntry

from .helpers import EchoTool, Recorder, make_session

pytestmark = pytest.mark.anyio


def _ids(session: Any) -> dict[str, str]:
    """``{"<role>:<text>": entry id}`` for the session's message entries."""
    out: dict[str, str] = {}
    for entry in session.session_manager.get_entries():
        if isinstance(entry, MessageEntry):
            message = entry.message
            text = "".join(getattr(b, "text", "") for b in message.content) if hasattr(message, "content") else ""
            out[f"{message.role}:{text}"] = entry.id
    return out


async def _two_turns(tmp_path: Path, faux: FauxProvider, *extra: Any) -> Any:
    faux.set_responses([faux_assistant_message("answer 1"), faux_assistant_message("answer 2"), *extra])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("first")
    await session.prompt("second")
    return session


async def test_navigating_to_a_user_message_puts_its_text_in_the_editor_and_the_leaf_on_its_parent(
    tmp_path: Path, faux: FauxProvider
) -> None:
    session = await _two_turns(tmp_path, faux, faux_assistant_message("answer 3"))
    ids = _ids(session)
    events = Recorder(session)
    result = await session.navigate_tree(ids["user:second"])
    assert result == {"cancelled": False, "editorText": "second"}
    assert session.session_manager.get_leaf_id() == ids["assistant:answer 1"]
    assert [m.role for m in session.messages if m.role in ("user", "assistant")] == ["user", "assistant"]
    tree_events = events.of("session_tree")
    assert tree_events == [{"type": "session_tree", "newLeafId": ids["assistant:answer 1"],
                            "oldLeafId": ids["assistant:answer 2"]}]
    await session.prompt("second, again")  # the next prompt continues from there: a new branch
    children = session.session_manager.get_children(ids["assistant:answer 1"])
    assert len([c for c in children if isinstance(c, MessageEntry)]) == 2


async def test_navigating_to_an_assistant_message_moves_the_leaf_there_and_the_root_resets(
    tmp_path: Path, faux: FauxProvider
) -> None:
    session = await _two_turns(tmp_path, faux)
    ids = _ids(session)
    assert await session.navigate_tree(ids["assistant:answer 1"]) == {"cancelled": False}
    assert session.session_manager.get_leaf_id() == ids["assistant:answer 1"]
    assert await session.navigate_tree(ids["assistant:answer 1"]) == {"cancelled": False}  # same place: no-op
    result = await session.navigate_tree(ids["user:first"])
    assert result["editorText"] == "first"
    root = session.session_manager.get_entry(ids["user:first"])
    assert session.session_manager.get_leaf_id() == root.parent_id  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="Entry nope not found"):
        await session.navigate_tree("nope")


async def test_a_summary_of_the_branch_left_is_attached_at_the_new_position(
    tmp_path: Path, faux: FauxProvider
) -> None:
    seen: list[str] = []

    def summariser(context: Any, *_: Any) -> Any:
        seen.append(context.messages[0].content[0].text)
        return faux_assistant_message("## Goal\nsecond try")

    session = await _two_turns(tmp_path, faux, summariser)
    ids = _ids(session)
    events = Recorder(session)
    result = await session.navigate_tree(ids["assistant:answer 1"], summarize=True,
                                         custom_instructions="focus on tests", label="left-B")
    summary = result["summaryEntry"]
    assert summary["type"] == "branch_summary" and summary["parentId"] == ids["assistant:answer 1"]
    assert summary["fromId"] == ids["assistant:answer 1"]
    assert summary["summary"].startswith(BRANCH_SUMMARY_PREAMBLE + "## Goal\nsecond try")
    assert seen and "[User]: second" in seen[0] and "[Assistant]: answer 2" in seen[0]
    assert seen[0].endswith("Additional focus: focus on tests") and "[User]: first" not in seen[0]
    manager = session.session_manager
    assert manager.get_label(summary["id"]) == "left-B"
    assert isinstance(manager.get_leaf_entry(), LabelEntry)
    assert session.messages[-1].role == "branchSummary"
    assert [e["type"] for e in events.events] == ["branch_summary_start", "branch_summary_end", "session_tree"]
    assert events.of("session_tree")[0]["summaryEntry"]["id"] == summary["id"]
    assert events.of("session_tree")[0]["fromExtension"] is False


async def test_no_summary_unless_asked_and_none_when_nothing_is_left(tmp_path: Path, faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    ids = _ids(session)
    assert session.branch_entries_to_summarize(ids["assistant:answer 1"]) == 2
    await session.navigate_tree(ids["assistant:answer 1"])
    assert not any(isinstance(e, BranchSummaryEntry) for e in session.session_manager.get_entries())
    # going forward again to the old leaf leaves nothing behind: no summary entry even when asked
    assert session.branch_entries_to_summarize(ids["assistant:answer 2"]) == 0
    result = await session.navigate_tree(ids["assistant:answer 2"], summarize=True)
    assert "summaryEntry" not in result
    assert not any(isinstance(e, BranchSummaryEntry) for e in session.session_manager.get_entries())


async def test_aborting_the_summary_cancels_the_navigation(tmp_path: Path, faux: FauxProvider) -> None:
    started = asyncio.Event()

    async def slow(context: Any, options: Any, *_: Any) -> Any:
        started.set()
        await options.signal.wait()  # the request runs until the navigation is aborted
        return faux_assistant_message("never")

    session = await _two_turns(tmp_path, faux, slow)
    ids = _ids(session)
    leaf = session.session_manager.get_leaf_id()
    task = asyncio.ensure_future(session.navigate_tree(ids["assistant:answer 1"], summarize=True))
    await asyncio.wait_for(started.wait(), 5)
    assert session.is_summarizing_branch
    session.abort_branch_summary()
    assert await asyncio.wait_for(task, 5) == {"cancelled": True, "aborted": True}
    assert session.session_manager.get_leaf_id() == leaf


async def test_a_failed_summary_raises_and_keeps_the_leaf(tmp_path: Path, faux: FauxProvider) -> None:
    failing = faux_assistant_message("", stop_reason="error", error_message="400 Bad Request: boom")  # not retried (a 500 is)
    session = await _two_turns(tmp_path, faux, failing)
    ids = _ids(session)
    leaf = session.session_manager.get_leaf_id()
    with pytest.raises(RuntimeError, match="Summarization failed: 400 Bad Request: boom"):
        await session.navigate_tree(ids["assistant:answer 1"], summarize=True)
    assert session.session_manager.get_leaf_id() == leaf


async def test_hooks_may_cancel_or_supply_the_summary(tmp_path: Path, faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    ids = _ids(session)
    session.hooks.session_before_tree = lambda prep, signal: {"cancel": True}
    assert await session.navigate_tree(ids["assistant:answer 1"]) == {"cancelled": True}
    seen: list[Any] = []
    session.hooks.session_before_tree = lambda prep, signal: {"summary": {"summary": "from ext", "details": {"k": 1}}}
    session.hooks.session_tree = seen.append
    result = await session.navigate_tree(ids["assistant:answer 1"], summarize=True)
    assert result["summaryEntry"]["summary"] == "from ext" and result["summaryEntry"]["fromHook"] is True
    assert seen[0].from_extension is True


async def test_tool_calls_of_the_left_branch_become_file_lists(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([
        faux_assistant_message("ok"),
        faux_assistant_message([faux_tool_call("read", {"text": "x", "path": "src/a.py"})], stop_reason="toolUse"),
        faux_assistant_message("done"),
        faux_assistant_message("SUM"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool(name="read")])
    await session.prompt("one")
    await session.prompt("two")
    ids = _ids(session)
    result = await session.navigate_tree(ids["assistant:ok"], summarize=True)
    assert result["summaryEntry"]["details"] == {"readFiles": ["src/a.py"], "modifiedFiles": []}
    assert result["summaryEntry"]["summary"].endswith("<read-files>\nsrc/a.py\n</read-files>")


def test_the_prompt_can_replace_pi_instructions() -> None:
    assert branch_summary_prompt("C", "only this", replace_instructions=True) == (
        "<conversation>\nC\n</conversation>\n\nonly this")


async def test_a_transient_failure_of_the_summary_request_is_retried(tmp_path: Path, faux: FauxProvider) -> None:
    """pi 0.81.1 (as compaction, main's summary_retry): a 503 on the branch summary request is retried with the
    session's retry policy and the summarization_retry_* events; the summary is then written."""
    from .helpers import SleepRecorder

    failing = faux_assistant_message("", stop_reason="error", error_message="503 Service Unavailable")
    faux.set_responses([faux_assistant_message("answer 1"), faux_assistant_message("answer 2"), failing,
                        faux_assistant_message("## Goal\nretried")])
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder())
    await session.prompt("first")
    await session.prompt("second")
    ids = _ids(session)
    events = Recorder(session)
    result = await session.navigate_tree(ids["assistant:answer 1"], summarize=True)
    assert "retried" in result["summaryEntry"]["summary"]
    kinds = [e["type"] for e in events.events]
    assert kinds == ["branch_summary_start", "summarization_retry_scheduled", "summarization_retry_attempt_start",
                     "summarization_retry_finished", "branch_summary_end", "session_tree"]
    assert events.of("summarization_retry_attempt_start")[0]["source"] == "branchSummary"
