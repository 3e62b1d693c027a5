"""pi's ``/tree`` layout as flat rows: indentation, branch connectors, gutters and folding (no Textual).

A port of pi 0.73.1's tree selector drawing (``dist/modes/interactive/components/tree-selector.js``:
``flattenTree``, ``recalculateVisualStructure``, ``render``, ``isFoldable``, ``findBranchSegmentStart``), run on
the already-filtered :class:`~pi_tui.coding.session.tree_view.SessionTreeView` roots:

* a chain of single children stays in one column, with no connector (new-user run #33: every entry of a plain
  sequence got its own ``├─``, so a descendant looked like a sibling);
* at a branch point (an entry with several children) each child gets ``├─`` / ``└─`` (the last one) and is
  indented one level; the first generation after a branch is indented one more level, then the chain is flat;
* a ``│`` gutter continues under a connector that has siblings below it;
* several roots are branches of a virtual root that shows no connector;
* a foldable entry (one with children that is a root or the first entry of a branch) shows ``⊟`` in its
  connector, a folded one ``⊞`` (``⊞ `` before the text when it has no connector); a folded entry's
  descendants are not listed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pi_tui.coding.session.tree_view import TreeViewNode


@dataclass
class TreeRow:
    """One line: the ``node``, its ``prefix`` (gutters and connector, ``3 * level`` cells), whether it is
    ``foldable`` and ``folded``, whether the prefix ends in a ``connector``, its ``parent_id`` (the node's
    parent in the view) and ``child_ids`` (the node's children in the view, listed or folded away)."""

    node: TreeViewNode
    prefix: str
    foldable: bool
    folded: bool
    connector: bool
    parent_id: str | None
    child_ids: list[str] = field(default_factory=list)

    @property
    def fold_marker(self) -> str:
        """``⊞ `` for a folded entry without a connector (pi's fold mark of a root), else ""."""
        return "⊞ " if self.folded and not self.connector else ""


@dataclass
class _Gutter:
    position: int
    show: bool


def _is_foldable(node: TreeViewNode, parent: TreeViewNode | None) -> bool:
    return bool(node.children) and (parent is None or len(parent.children) > 1)


def tree_rows(roots: Sequence[TreeViewNode], folded: Collection[str] = ()) -> list[TreeRow]:
    """The rows of ``roots`` in display order (module docstring); ``folded``: entry ids whose descendants are
    hidden. Iterative: a 10,000-entry chain needs no recursion."""
    multiple_roots = len(roots) > 1
    rows: list[TreeRow] = []
    # node, parent, indent, just branched, shows a connector, is last, gutters, child of the virtual root
    stack: list[tuple[TreeViewNode, TreeViewNode | None, int, bool, bool, bool, list[_Gutter], bool]] = []
    for i in range(len(roots) - 1, -1, -1):
        stack.append((roots[i], None, 1 if multiple_roots else 0, multiple_roots, multiple_roots,
                      i == len(roots) - 1, [], multiple_roots))
    while stack:
        node, parent, indent, just_branched, show_connector, is_last, gutters, virtual_child = stack.pop()
        foldable = _is_foldable(node, parent)
        is_folded = node.id in folded and bool(node.children)
        display_indent = max(0, indent - 1) if multiple_roots else indent
        connector = show_connector and not virtual_child
        chars: list[str] = []
        for i in range(display_indent * 3):
            level, pos = divmod(i, 3)
            gutter = next((g for g in gutters if g.position == level), None)
            if gutter is not None:
                chars.append(("│" if gutter.show else " ") if pos == 0 else " ")
            elif connector and level == display_indent - 1:
                if pos == 0:
                    chars.append("└" if is_last else "├")
                elif pos == 1:
                    chars.append("⊞" if is_folded else "⊟" if foldable else "─")
                else:
                    chars.append(" ")
            else:
                chars.append(" ")
        rows.append(TreeRow(node, "".join(chars), foldable, is_folded, connector, parent.id if parent else None,
                            [c.id for c in node.children]))
        if is_folded:
            continue
        kids = node.children
        several = len(kids) > 1
        child_indent = indent + 1 if several or (just_branched and indent > 0) else indent
        connector_position = max(0, display_indent - 1)
        child_gutters = [*gutters, _Gutter(connector_position, not is_last)] if connector else gutters
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], node, child_indent, several, several, i == len(kids) - 1, child_gutters, False))
    return rows


def segment_start(rows: Sequence[TreeRow], index: int, direction: Literal["up", "down"]) -> int:
    """pi's ``findBranchSegmentStart``: the row of the next branch start (the first entry after a branch point)
    from ``rows[index]``: "down" follows first children to a branch point's first child (or the chain's
    end); "up" walks the ancestors to the nearest branch start above the row (or the root)."""
    if not 0 <= index < len(rows):
        return index
    by_id = {row.node.id: n for n, row in enumerate(rows)}
    current = rows[index]
    if direction == "down":
        while True:
            kids = [k for k in current.child_ids if k in by_id]
            if not kids:
                return by_id[current.node.id]
            if len(kids) > 1:
                return by_id[kids[0]]
            current = rows[by_id[kids[0]]]
    while True:
        parent_id = current.parent_id
        if parent_id is None or parent_id not in by_id:
            return by_id[current.node.id]
        parent = rows[by_id[parent_id]]
        if len(parent.child_ids) > 1 and by_id[current.node.id] < index:
            return by_id[current.node.id]
        current = parent
