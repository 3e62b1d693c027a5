"""Issue 9 item 4 at the builder level: the whole branch becomes items, compacted parts folded under summaries.

Collapsed, the visible items render exactly like the items of the LLM context (pi's view); each unfolding step
brings back the conversation a compaction removed, in branch order. Nested compactions nest their folds.
"""

from __future__ import annotations

from types import SimpleNamespace

from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.transcript_builder import items_for_session, items_from_branch, items_from_messages
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import SummaryItem, TranscriptItem

WIDTH = 70


def lines(items: list[TranscriptItem], ctx: RenderContext) -> list[str]:
    return [s.text.rstrip() for item in items for s in item.strips(ctx, WIDTH)]


def exchange(manager: SessionManager, k: int) -> str:
    user_id = manager.append_message(UserMessage(content=f"question {k}"))
    manager.append_message(AssistantMessage(content=[TextContent(text=f"answer {k}")]))
    return user_id


def two_compactions() -> SessionManager:
    manager = SessionManager.in_memory("/tmp")
    exchange(manager, 1)
    exchange(manager, 2)
    kept3 = exchange(manager, 3)
    exchange(manager, 4)
    manager.append_compaction("first summary", kept3, 1000)
    manager.append_notification("info", "a notice after the first compaction")
    kept5 = exchange(manager, 5)
    exchange(manager, 6)
    manager.append_compaction("second summary", kept5, 2000)
    exchange(manager, 7)
    return manager


def test_collapsed_branch_renders_like_the_context_and_unfolds_in_order() -> None:
    manager = two_compactions()
    ctx = RenderContext(find_theme("dark"), show_timing=False)
    items = items_from_branch(manager.get_branch())
    context = manager.build_session_context(include_ui=True).messages
    # Collapsed: line for line the context's items (second summary, kept 5..6, 7); the summary line also says
    # how many messages it folds.
    assert [line.split(" · ")[0] for line in lines(items, ctx)] == [
        line.replace(" (Ctrl+O to expand)", "") for line in lines(items_from_messages(context), ctx)]
    text = "\n".join(lines(items, ctx))
    assert "question 1" not in text and "question 4" not in text and "question 5" in text
    assert "Compacted from 2,000 tokens · 8 earlier messages" in text  # 1..4, nested fold included
    second, first = [i for i in items if isinstance(i, SummaryItem)]
    assert second.tokens_before == 2000 and first.tokens_before == 1000 and first.fold_owner is second
    second.toggle()
    text = "\n".join(lines(items, ctx))
    assert "first summary" not in text and "Compacted from 1,000 tokens" in text  # nested fold still collapsed
    order = ["second summary", "Compacted from 1,000", "question 3", "answer 4", "a notice after",
             "question 5", "question 7"]
    assert [text.index(s) for s in order] == sorted(text.index(s) for s in order)
    assert "question 1" not in text
    first.toggle()
    text = "\n".join(lines(items, ctx))
    order = ["second summary", "first summary", "question 1", "answer 2", "question 3", "question 5", "answer 7"]
    assert [text.index(s) for s in order] == sorted(text.index(s) for s in order)
    ctx.expand_tools = True  # Ctrl+O unfolds everything; collapsing the summaries again folds nothing
    first.toggle()
    second.toggle()
    assert "question 1" in "\n".join(lines(items, ctx))


def test_session_without_compaction_is_its_messages_and_context_is_untouched() -> None:
    manager = SessionManager.in_memory("/tmp")
    exchange(manager, 1)
    messages = manager.build_session_context(include_ui=True).messages
    session = SimpleNamespace(messages=list(messages), session_manager=manager)
    ctx = RenderContext(find_theme("dark"))
    assert lines(items_for_session(session), ctx) == lines(items_from_messages(messages), ctx)
    compacted = two_compactions()
    context = compacted.build_session_context(include_ui=True).messages
    live = [*context, UserMessage(content="not persisted yet")]
    session = SimpleNamespace(messages=list(live), session_manager=compacted)
    items = items_for_session(session)
    assert session.messages == live  # display only: the context is read, never changed
    assert "not persisted yet" in "\n".join(lines(items, ctx))
    assert "question 1" not in "\n".join(lines(items, ctx))
    assert any(isinstance(i, SummaryItem) and i.folded_items for i in items)


def test_first_kept_entry_off_the_branch_folds_everything_before_the_compaction() -> None:
    manager = SessionManager.in_memory("/tmp")
    exchange(manager, 1)
    manager.append_compaction("summary", "not-an-entry", 10)
    exchange(manager, 2)
    ctx = RenderContext(find_theme("dark"))
    text = "\n".join(lines(items_from_branch(manager.get_branch()), ctx))
    assert "question 1" not in text and "question 2" in text and "[compaction]" in text


def test_a_split_turn_keeps_its_prompt_in_view_above_the_kept_reply() -> None:
    """tester3 #7: a compaction that cut a turn in two (the first kept entry is the reply) folded the turn's prompt,
    so the kept reply read as an answer to nothing; the prompt stays in view (display only, the context has the
    turn's prompt in the summary), the earlier turns stay folded."""
    manager = SessionManager.in_memory("/tmp")
    exchange(manager, 1)
    manager.append_message(UserMessage(content="question 2"))
    reply_id = manager.append_message(AssistantMessage(content=[TextContent(text="answer 2")]))
    manager.append_compaction("split summary", reply_id, 3000)
    exchange(manager, 3)
    ctx = RenderContext(find_theme("dark"), show_timing=False)
    items = items_from_branch(manager.get_branch())
    text = "\n".join(lines(items, ctx))
    assert "question 1" not in text and "answer 1" not in text  # folded
    assert text.index("[compaction]") < text.index("question 2") < text.index("answer 2") < text.index("question 3")
    assert "Compacted from 3,000 tokens · 2 earlier messages" in text  # question 1, answer 1
    summary = next(i for i in items if isinstance(i, SummaryItem))
    summary.toggle()
    unfolded = "\n".join(lines(items, ctx))
    assert unfolded.index("question 1") < unfolded.index("question 2")
    assert unfolded.count("question 2") == 1
