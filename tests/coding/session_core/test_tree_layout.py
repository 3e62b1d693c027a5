"""pi's ``/tree`` layout (``tree_layout``; pi 0.73.1 tree-selector ``flattenTree``/``render``): a plain chain stays
in one column without connectors, and only a real branch point draws ``├─``/``└─`` (new-user run #33: every entry
of a sequence had its own ``├─``, so "hugebash" looked like a sibling of "[read: src/main.py]")."""

from __future__ import annotations

from pi_tui.coding.session.tree_layout import segment_start, tree_rows
from pi_tui.coding.session.tree_view import TreeViewNode


def _node(entry_id: str, *children: TreeViewNode) -> TreeViewNode:
    node = TreeViewNode(entry_id, None, None, "message", "user", None, "", entry_id, "user", "")
    node.children = list(children)
    return node


def _lines(rows: list) -> list[str]:
    return [row.prefix + row.fold_marker + row.node.id for row in rows]


def _tester_tree() -> TreeViewNode:
    """The tester's session: a reply with two branches; the first a long chain with a branch summary."""
    chain = _node("readfile", _node("[read]", _node("finished", _node("hugebash", _node("[bash]", _node(
        "finished2", _node("[branch summary]", _node("[compaction]"))))))))
    return _node("hello", _node("echo", chain, _node("other branch", _node("its answer"))))


def test_a_chain_stays_in_one_column_and_only_a_branch_point_has_connectors() -> None:
    assert _lines(tree_rows([_tester_tree()])) == [
        "hello",
        "echo",
        "├⊟ readfile",
        "│     [read]",
        "│     finished",
        "│     hugebash",
        "│     [bash]",
        "│     finished2",
        "│     [branch summary]",  # no deeper than the rest of its chain
        "│     [compaction]",
        "└⊟ other branch",
        "      its answer",
    ]


def test_nested_branches_keep_the_gutter_of_the_branch_above() -> None:
    tree = _node("a", _node("b1", _node("c", _node("d1"), _node("d2", _node("e")))), _node("b2"))
    assert _lines(tree_rows([tree])) == [
        "a",
        "├⊟ b1",
        "│     c",
        "│     ├─ d1",
        "│     └⊟ d2",
        "│           e",
        "└─ b2",
    ]


def test_several_roots_are_branches_of_a_virtual_root_without_connectors() -> None:
    assert _lines(tree_rows([_node("r1", _node("x")), _node("r2")])) == ["r1", "   x", "r2"]


def test_a_folded_branch_hides_its_entries_and_shows_the_fold_mark() -> None:
    rows = tree_rows([_tester_tree()], folded={"readfile"})
    assert _lines(rows) == ["hello", "echo", "├⊞ readfile", "└⊟ other branch", "      its answer"]
    root_folded = tree_rows([_tester_tree()], folded={"hello"})
    assert _lines(root_folded) == ["⊞ hello"]


def test_branch_starts_up_and_down_follow_pi() -> None:
    rows = tree_rows([_tester_tree()])
    ids = [row.node.id for row in rows]
    assert ids[segment_start(rows, ids.index("hello"), "down")] == "readfile"  # first child of the branch point
    assert ids[segment_start(rows, ids.index("hugebash"), "up")] == "readfile"
    assert ids[segment_start(rows, ids.index("readfile"), "up")] == "hello"  # no branch start above: the root
    assert ids[segment_start(rows, ids.index("hugebash"), "down")] == "[compaction]"  # the chain's end
