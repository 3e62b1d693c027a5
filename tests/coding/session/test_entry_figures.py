"""The footer's figures (usage totals, the latest compaction on the branch) are kept up to date by appends and
equal the full walks over the entries after any sequence of appends, branches and new sessions (pi fixes 0.99.0,
0.99.2; issue 15)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.types import AssistantMessage, TextContent, Usage, UsageCost
from pi_tui.coding.session.entries import iso_to_ms
from pi_tui.coding.session.entry_figures import EntryFigures, add_usage, empty_totals
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.session.helpers import user


def _reply(k: int) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=f"a{k}")], provider="mock", model="m",
                            usage=Usage(input=k, output=2 * k, cache_read=1, cache_write=k % 3, total_tokens=3 * k,
                                        cost=UsageCost(total=k / 100)))


def _full_totals(manager: SessionManager) -> dict[str, Any]:
    totals = empty_totals()
    for entry in manager.get_entries():
        add_usage(totals, entry)
    return totals


def _full_latest(manager: SessionManager) -> int | None:
    for entry in reversed(manager.get_branch()):
        if entry.type == "compaction":
            return iso_to_ms(entry.timestamp)
    return None


OPS = st.lists(st.sampled_from(["user", "reply", "compact", "branch", "name", "fork", "new"]), max_size=40)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(ops=OPS, picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=40, max_size=40))
def test_figures_equal_the_full_walks_after_any_changes(ops: list[str], picks: list[int]) -> None:
    manager = SessionManager.in_memory("/p")
    figures = EntryFigures()
    for k, op in enumerate(ops):
        entries = manager.get_entries()
        if op == "user":
            manager.append_message(user(f"q{k}"))
        elif op == "reply":
            manager.append_message(_reply(k))
        elif op == "compact" and entries:
            manager.append_compaction(f"summary {k}", entries[0].id, 100)
        elif op == "branch" and entries:
            manager.branch(entries[picks[k] % len(entries)].id)
        elif op == "name":
            manager.append_session_info(f"name {k}")
            assert manager.session_name == f"name {k}"
        elif op == "fork" and manager.get_leaf_id():
            manager.create_branched_session(manager.get_leaf_id())  # type: ignore[arg-type]
        elif op == "new":
            manager.new_session()
            assert manager.session_name is None
        assert figures.totals(manager) == _full_totals(manager)
        assert figures.latest_compaction_ms(manager) == _full_latest(manager)


def test_appends_after_the_first_figures_are_added_one_by_one(monkeypatch: Any) -> None:
    manager = SessionManager.in_memory("/p")
    for k in range(500):
        manager.append_message(user(f"q{k}"))
        manager.append_message(_reply(k))
    figures = EntryFigures()
    figures.totals(manager)
    figures.latest_compaction_ms(manager)
    looked_at: list[int] = []
    real_since = manager.entries_since
    real_get = manager.get_entry
    monkeypatch.setattr(manager, "entries_since", lambda start: looked_at.extend(real_since(start)) or
                        real_since(start))
    walked: list[str | None] = []
    monkeypatch.setattr(manager, "get_entry", lambda entry_id: walked.append(entry_id) or real_get(entry_id))
    for k in range(3):
        manager.append_message(_reply(1000 + k))
        assert figures.totals(manager) == _full_totals(manager)
        assert figures.latest_compaction_ms(manager) is None
    assert len(looked_at) == 3, "only the three new entries were summed"
    assert len(walked) <= 3, "each new leaf walked up one entry to a known one"


def test_a_failed_write_leaves_neither_the_name_nor_the_totals_behind(tmp_path: Any, monkeypatch: Any) -> None:
    from pi_tui.coding.session import session_file

    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(user("one"))
    manager.append_message(_reply(1))
    manager.append_session_info("kept")
    figures = EntryFigures()
    before = figures.totals(manager)

    def fail(*_: Any, **__: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(session_file.AppendWriter, "append", fail)
    for append in (lambda: manager.append_session_info("lost"), lambda: manager.append_message(_reply(5))):
        try:
            append()
        except OSError:
            pass
    monkeypatch.undo()
    assert manager.session_name == "kept"
    assert figures.totals(manager) == before == _full_totals(manager)
    manager.append_message(_reply(7))
    assert figures.totals(manager) == _full_totals(manager)
