"""build_session_context (pi session-manager/build-context tests, pi-reference §3.4)."""

from __future__ import annotations

from pi_tui.coding.session import SessionManager, build_session_context
from pi_tui.coding.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    MessageEntry,
    ModelChangeEntry,
    ThinkingLevelChangeEntry,
)

from .helpers import assistant, texts, user


def _msg(entry_id: str, parent: str | None, message: object) -> MessageEntry:
    return MessageEntry(id=entry_id, parent_id=parent, timestamp="2026-01-01T00:00:00.000Z", message=message)


def test_empty_entries_give_empty_context() -> None:
    context = build_session_context([])
    assert context.messages == []
    assert context.thinking_level == "off"
    assert context.model is None


def test_null_leaf_gives_empty_context_even_with_entries() -> None:
    entries = [_msg("a", None, user("hi"))]
    assert build_session_context(entries, None).messages == []


def test_single_message() -> None:
    context = build_session_context([_msg("a", None, user("hi"))])
    assert texts(context.messages) == ["user:hi"]


def test_thinking_and_model_tracking() -> None:
    entries = [
        ModelChangeEntry(id="m", parent_id=None, provider="p1", model_id="x"),
        ThinkingLevelChangeEntry(id="t", parent_id="m", thinking_level="high"),
        _msg("u", "t", user("q")),
        _msg("a", "u", assistant("r", provider="p2", model="y")),
    ]
    context = build_session_context(entries)
    assert context.thinking_level == "high"
    assert context.model == {"provider": "p2", "modelId": "y"}
    partial = build_session_context(entries, "u")
    assert partial.model == {"provider": "p1", "modelId": "x"}


def test_compaction_summary_first_then_kept_then_after() -> None:
    entries = [
        _msg("1", None, user("one")),
        _msg("2", "1", assistant("two")),
        _msg("3", "2", user("three")),
        _msg("4", "3", assistant("four")),
        CompactionEntry(id="c", parent_id="4", summary="SUM", first_kept_entry_id="3", tokens_before=500),
        _msg("5", "c", user("five")),
    ]
    context = build_session_context(entries)
    assert texts(context.messages) == ["compactionSummary:SUM", "user:three", "assistant:four", "user:five"]
    summary = context.messages[0]
    data = summary if isinstance(summary, dict) else summary.to_json_dict()
    assert data["tokensBefore"] == 500


def test_latest_compaction_wins() -> None:
    entries = [
        _msg("1", None, user("one")),
        CompactionEntry(id="c1", parent_id="1", summary="S1", first_kept_entry_id="1", tokens_before=1),
        _msg("2", "c1", user("two")),
        _msg("3", "2", assistant("three")),
        CompactionEntry(id="c2", parent_id="3", summary="S2", first_kept_entry_id="3", tokens_before=2),
        _msg("4", "c2", user("four")),
    ]
    assert texts(build_session_context(entries).messages) == [
        "compactionSummary:S2",
        "assistant:three",
        "user:four",
    ]


def test_branches_follow_the_leaf_path_only() -> None:
    entries = [
        _msg("1", None, user("root")),
        _msg("2", "1", assistant("left")),
        _msg("3", "1", assistant("right")),
        _msg("4", "3", user("after right")),
    ]
    assert texts(build_session_context(entries, "2").messages) == ["user:root", "assistant:left"]
    assert texts(build_session_context(entries, "4").messages) == [
        "user:root",
        "assistant:right",
        "user:after right",
    ]


def test_branch_summary_and_custom_message_entries_become_messages() -> None:
    entries = [
        _msg("1", None, user("root")),
        BranchSummaryEntry(id="b", parent_id="1", from_id="x", summary="went elsewhere"),
        BranchSummaryEntry(id="e", parent_id="b", from_id="y", summary=""),
        CustomMessageEntry(
            id="c",
            parent_id="e",
            timestamp="2026-01-01T00:00:00.000Z",
            custom_type="ext",
            content="hello",
            display=False,
            details={"k": 1},
        ),
    ]
    messages = build_session_context(entries).messages
    assert texts(messages) == ["user:root", "branchSummary:went elsewhere", "custom:hello"]
    custom = messages[2] if isinstance(messages[2], dict) else messages[2].to_json_dict()
    assert custom["customType"] == "ext" and custom["display"] is False and custom["details"] == {"k": 1}
    assert custom["timestamp"] == 1767225600000


def test_unknown_leaf_falls_back_to_last_entry() -> None:
    entries = [_msg("1", None, user("a")), _msg("2", "1", assistant("b"))]
    assert texts(build_session_context(entries, "nope").messages) == ["user:a", "assistant:b"]


def test_orphans_are_tolerated() -> None:
    entries = [_msg("1", None, user("a")), _msg("2", "missing-parent", assistant("b"))]
    assert texts(build_session_context(entries).messages) == ["assistant:b"]


def test_parent_cycle_does_not_hang() -> None:
    entries = [_msg("1", "2", user("a")), _msg("2", "1", assistant("b"))]
    assert texts(build_session_context(entries).messages) == ["user:a", "assistant:b"]


def test_ui_messages_only_when_asked() -> None:
    session = SessionManager.in_memory("/p")
    session.append_message(user("q"))
    session.append_notification("warning", "disk almost full")
    session.append_message(
        {"role": "artifact", "title": "Plan", "kind": "markdown", "content": "# x", "timestamp": 5}
    )
    session.append_message(assistant("a"))
    assert texts(session.build_session_context().messages) == ["user:q", "assistant:a"]
    shown = session.build_session_context(include_ui=True).messages
    roles = [m["role"] if isinstance(m, dict) else m.role for m in shown]
    assert roles == ["user", "notification", "artifact", "assistant"]
    note = shown[1] if isinstance(shown[1], dict) else shown[1].to_json_dict()
    assert (
        note["level"] == "warning"
        and note["text"] == "disk almost full"
        and isinstance(note["timestamp"], int)
    )
    artifact = shown[2] if isinstance(shown[2], dict) else shown[2].to_json_dict()
    assert artifact["timestamp"] == 5 and artifact["kind"] == "markdown"
    # stored as pi `custom` entries, which pi ignores for its context
    stored = [e.to_json_dict() for e in session.get_entries() if e.type == "custom"]
    assert [e["customType"] for e in stored] == ["pi-tui.notification", "pi-tui.artifact"]
    assert "role" not in stored[0]["data"]
