"""The entry tree of a session, as the /tree view shows it (pi-reference §3.4 "Tree").

Each node is ``{entry, children, label?, label_timestamp?}``. An entry whose ``parentId`` is ``None``,
itself, or an id not in the session (an orphan) is a root. Children are sorted by timestamp, oldest first
(stable, so entries with equal timestamps keep file order). Built iteratively: deep trees do not recurse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pi_tui.coding.session.entries import SessionEntryBase, iso_to_ms


@dataclass
class SessionTreeNode:
    """One entry of the tree with its children and resolved label."""

    entry: SessionEntryBase
    children: list[SessionTreeNode] = field(default_factory=list)
    label: str | None = None
    label_timestamp: str | None = None


def build_tree(
    entries: Sequence[SessionEntryBase],
    labels: Mapping[str, str] | None = None,
    label_timestamps: Mapping[str, str] | None = None,
) -> list[SessionTreeNode]:
    """Roots of the tree formed by ``entries`` (file order among roots)."""
    labels = labels or {}
    label_timestamps = label_timestamps or {}
    nodes: dict[str, SessionTreeNode] = {}
    ordered: list[SessionTreeNode] = []
    for entry in entries:
        node = SessionTreeNode(entry, [], labels.get(entry.id), label_timestamps.get(entry.id))
        nodes[entry.id] = node
        ordered.append(node)
    roots: list[SessionTreeNode] = []
    for node in ordered:
        parent_id = node.entry.parent_id
        parent = nodes.get(parent_id) if parent_id and parent_id != node.entry.id else None
        if parent is None or parent is node:
            roots.append(node)
        else:
            parent.children.append(node)
    # A parent cycle (a → b → a) leaves nodes unreachable from any root: make the first of each one a root.
    reachable: set[int] = set()
    stack = list(roots)
    while stack:
        current = stack.pop()
        reachable.add(id(current))
        stack.extend(current.children)
    for node in ordered:
        if id(node) not in reachable:
            roots.append(node)
            stack = [node]
            while stack:
                current = stack.pop()
                reachable.add(id(current))
                stack.extend(child for child in current.children if id(child) not in reachable)
            if node.entry.parent_id in nodes:
                parent = nodes[node.entry.parent_id]
                parent.children = [child for child in parent.children if child is not node]
    stack = list(roots)
    while stack:
        current = stack.pop()
        current.children.sort(key=lambda child: iso_to_ms(child.entry.timestamp))
        stack.extend(current.children)
    return roots
