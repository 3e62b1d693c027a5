"""The /tree model (pi_tui.coding.session.tree_view): filters, previews, active path, layout (pi tree-selector.js)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.tree_view import (
    FILTER_MODES,
    build_tree_view,
    display_tree,
    format_tool_call,
    next_filter_mode,
    tree_view_from_entries,
)

from .helpers import assistant, tool_call, tool_result, user


def branched() -> tuple[SessionManager, dict[str, str]]:
    """u1 → a1 → (u2 → tc → tr → a2) | (u3 → a3, the leaf)."""
    sm = SessionManager.in_memory("/proj")
    ids: dict[str, str] = {}
    sm.append_model_change("mock", "mock-model")
    ids["u1"] = sm.append_message(user("hello there"))
    ids["a1"] = sm.append_message(assistant("hi!"))
    ids["u2"] = sm.append_message(user("approach A\nplease"))
    ids["tc"] = sm.append_message(tool_call("read", {"path": "src/a.py", "offset": 3, "limit": 10}))
    ids["tr"] = sm.append_message(tool_result("file text", name="read"))
    ids["a2"] = sm.append_message(assistant("did A"))
    sm.branch(ids["a1"])
    ids["u3"] = sm.append_message(user("approach B"))
    ids["a3"] = sm.append_message(assistant("did B"))
    return sm, ids


def test_default_view_hides_bookkeeping_and_tool_only_replies_and_puts_the_active_branch_first() -> None:
    sm, ids = branched()
    view = build_tree_view(sm)
    lines = [(n.id, n.display_text) for n in view.flat()]
    assert lines == [
        (ids["u1"], "user: hello there"),
        (ids["a1"], "assistant: hi!"),
        (ids["u3"], "user: approach B"),
        (ids["a3"], "assistant: did B"),
        (ids["u2"], "user: approach A please"),
        (ids["tr"], "[read: src/a.py:3-12]"),
        (ids["a2"], "assistant: did A"),
    ]
    a1 = view.find(ids["a1"])
    assert a1 is not None and [c.id for c in a1.children] == [ids["u3"], ids["u2"]]
    tr = view.find(ids["tr"])
    assert tr is not None and tr.parent_id == ids["u2"] and tr.entry_parent_id == ids["tc"]
    assert tr.role == "toolResult" and tr.tool_name == "read"
    assert view.current_id == ids["a3"] and view.find(ids["a3"]).is_leaf  # type: ignore[union-attr]
    assert {n.id for n in view.flat() if n.on_active_path} == {ids["u1"], ids["a1"], ids["u3"], ids["a3"]}


def test_filter_modes_follow_pi() -> None:
    sm, ids = branched()
    sm.append_label_change(ids["u2"], "try-A")
    kinds = {mode: [n.id for n in build_tree_view(sm, mode).flat()] for mode in FILTER_MODES}
    assert kinds["user-only"] == [ids["u1"], ids["u2"], ids["u3"]] or kinds["user-only"] == [
        ids["u1"], ids["u3"], ids["u2"]]
    assert kinds["labeled-only"] == [ids["u2"]]
    assert ids["tr"] not in kinds["no-tools"] and ids["tr"] in kinds["default"]
    every = build_tree_view(sm, "all").flat()
    assert any(n.type == "model_change" and n.text == "[model: mock-model]" for n in every)
    assert any(n.type == "label" and n.text == "[label: try-A]" for n in every)
    assert ids["tc"] not in [n.id for n in every]  # a tool-call-only reply is hidden in every mode (pi)
    labelled = build_tree_view(sm).find(ids["u2"])
    assert labelled is not None and labelled.label == "try-A" and labelled.label_timestamp


def test_the_current_mark_goes_to_the_deepest_visible_entry_when_the_leaf_is_hidden() -> None:
    sm, ids = branched()
    sm.append_label_change(ids["u1"], "start")  # the leaf is now this label entry, hidden by default
    view = build_tree_view(sm)
    assert view.leaf_id not in {n.id for n in view.flat()}
    assert view.current_id == ids["a3"]
    assert build_tree_view(sm, "all").current_id == view.leaf_id


def test_search_keeps_entries_with_every_token() -> None:
    sm, ids = branched()
    assert [n.id for n in build_tree_view(sm, search="approach b").flat()] == [ids["u3"]]
    assert [n.id for n in build_tree_view(sm, search="DID").flat()] == [ids["a3"], ids["a2"]]


def test_tool_summaries_match_pi() -> None:
    assert format_tool_call("bash", {"command": "ls -la\n" + "x" * 60}) == "[bash: ls -la " + "x" * 43 + "...]"
    assert format_tool_call("grep", {"pattern": "foo"}) == "[grep: /foo/ in .]"
    assert format_tool_call("find", {"pattern": "*.py", "path": "src"}) == "[find: *.py in src]"
    assert format_tool_call("ls", {}) == "[ls: .]"
    assert format_tool_call("edit", {"path": "a.py"}) == "[edit: a.py]"
    assert format_tool_call("mine", {"k": 1}) == '[mine: {"k":1}]'
    assert next_filter_mode("default") == "no-tools" and next_filter_mode("default", -1) == "all"


def test_display_tree_keeps_chains_flat_and_nests_branches() -> None:
    sm, ids = branched()
    rows = display_tree(build_tree_view(sm).roots)
    assert [r.node.id for r in rows] == [ids["u1"], ids["a1"]]
    branches = rows[1].children
    assert [b.node.id for b in branches] == [ids["u3"], ids["u2"]]
    assert [r.node.id for r in branches[0].children] == [ids["a3"]]
    assert [r.node.id for r in branches[1].children] == [ids["tr"], ids["a2"]]


def test_json_nodes_form_the_tree() -> None:
    sm, ids = branched()
    nodes = [n.to_json_dict() for n in build_tree_view(sm, "all").flat()]
    by_id = {n["id"]: n for n in nodes}
    for node in nodes:
        assert node["parentId"] is None or node["id"] in by_id[node["parentId"]]["childIds"]
    assert by_id[ids["u1"]]["role"] == "user" and by_id[ids["u1"]]["text"] == "user: hello there"


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.sampled_from(["u", "a", "t", "l"])), min_size=1, max_size=30),
       st.sampled_from(FILTER_MODES))
def test_every_visible_entry_appears_once_under_its_nearest_visible_ancestor(
    steps: list[tuple[int, str]], mode: str
) -> None:
    sm = SessionManager.in_memory("/proj")
    made: list[str] = []
    for back, kind in steps:
        if made and back % 3 == 0:
            sm.branch(made[back % len(made)])
        if kind == "u":
            made.append(sm.append_message(user(f"u{len(made)}")))
        elif kind == "a":
            made.append(sm.append_message(assistant(f"a{len(made)}")))
        elif kind == "t":
            made.append(sm.append_message(tool_call("bash", {"command": "ls"})))
        elif made:
            made.append(sm.append_label_change(made[back % len(made)], f"L{back}"))
    view = build_tree_view(sm, mode)
    flat = view.flat()
    visible = {n.id for n in flat}
    assert len(flat) == len(visible)
    entries = {e.id: e for e in sm.get_entries()}
    for node in flat:
        ancestor = entries[node.id].parent_id
        while ancestor is not None and ancestor not in visible:
            ancestor = entries[ancestor].parent_id
        assert node.parent_id == ancestor
    again = tree_view_from_entries(sm.get_entries(), sm.get_leaf_id(), filter_mode=mode)
    assert [n.id for n in again.flat()] == [n.id for n in flat]
    rows: list[str] = []
    stack = list(reversed(display_tree(view.roots)))
    while stack:
        row = stack.pop()
        rows.append(row.node.id)
        stack.extend(reversed(row.children))
    assert rows == [n.id for n in flat]
