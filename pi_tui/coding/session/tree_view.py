"""The session tree as the ``/tree`` screen, RPC ``get_session_tree`` and the HTML export show it.

Front-end neutral (no Textual): a port of pi 0.73.1's tree selector model
(``dist/modes/interactive/components/tree-selector.js``, pi ``docs/sessions.md`` "Branching with /tree").

Use :func:`build_tree_view` on a :class:`~pi_tui.coding.session.session_manager.SessionManager` (or on
entries, labels and a leaf id with :func:`tree_view_of_entries`). It returns a :class:`SessionTreeView`:

* ``roots``: :class:`TreeViewNode` s, each with ``children`` — the *visible* entries only. An entry hidden
  by the filter lends its place to its visible descendants: they hang under the nearest visible ancestor
  (``parent_id``; ``entry_parent_id`` keeps the entry's own ``parentId``). Children are in timestamp order
  with the one on the active path (root → leaf) first, as pi orders them.
* each node: ``id``, ``type`` (entry type), ``role`` (for ``message`` entries), ``tool_name`` (a
  ``toolResult``'s tool), ``prefix`` + ``text`` (pi's one-line display: ``"user: "`` + the text,
  ``""`` + ``"[read: src/a.py]"``; ``text`` at most :data:`PREVIEW_CHARS` characters, line breaks made
  spaces), ``style`` (a colour role: user, assistant, tool, bash, custom, compaction, branch_summary, meta,
  error, muted), ``timestamp`` (ISO-8601), ``label``/``label_timestamp``, ``on_active_path``, ``is_leaf``
  (the session's leaf itself) and ``is_current`` (the deepest *visible* entry of the active path: where the
  screen puts its ``← active`` mark, also when the leaf itself is filtered out, e.g. a ``label`` entry).
* :meth:`SessionTreeView.flat` lists the visible nodes in display order (pre-order);
  :func:`display_tree` gives pi's compact layout (a chain of single children stays at one level; a
  branch point nests each of its branches, see its docstring) for widgets that draw nested levels.

Filter modes (:data:`FILTER_MODES`, pi's ``treeFilterMode`` setting, cycled in pi's order):

* ``default``: everything but bookkeeping entries (``label``, ``custom``, ``model_change``,
  ``thinking_level_change``, ``session_info``);
* ``no-tools``: ``default`` without tool results; ``user-only``: user messages only;
* ``labeled-only``: labelled entries only; ``all``: every entry.

In every mode an assistant message with no text (tool calls only) is hidden unless it is the leaf or
ended in an error/abort (pi). ``search`` keeps entries whose text contains every whitespace-separated token
(case-insensitive; pi's type-to-search).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pi_tui.agent.terminal_text import sanitize_display_text
from pi_tui.coding.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntryBase,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
)
from pi_tui.coding.session.messages import message_field, message_role
from pi_tui.coding.session.tree import SessionTreeNode, build_tree

if TYPE_CHECKING:
    from pi_tui.coding.session.session_manager import SessionManager

TreeFilterMode = Literal["default", "no-tools", "user-only", "labeled-only", "all"]
FILTER_MODES: tuple[TreeFilterMode, ...] = ("default", "no-tools", "user-only", "labeled-only", "all")
"""pi's filter modes, in the order Ctrl+O cycles them."""

FILTER_TAGS: dict[str, str] = {
    "default": "", "no-tools": "[no-tools]", "user-only": "[user]", "labeled-only": "[labeled]", "all": "[all]",
}
"""pi's status-line tag per mode (none for ``default``)."""

PREVIEW_CHARS = 200
"""Longest ``text`` of a node (pi's ``extractContent`` limit)."""

SETTINGS_TYPES = frozenset({"label", "custom", "model_change", "thinking_level_change", "session_info"})
"""Entry types ``default`` (and ``no-tools``) hide: bookkeeping, not conversation."""


@dataclass
class TreeViewNode:
    """One visible entry of a :class:`SessionTreeView` (fields: see the module docstring)."""

    id: str
    parent_id: str | None
    entry_parent_id: str | None
    type: str
    role: str | None
    tool_name: str | None
    prefix: str
    text: str
    style: str
    timestamp: str
    label: str | None = None
    label_timestamp: str | None = None
    on_active_path: bool = False
    is_leaf: bool = False
    is_current: bool = False
    children: list[TreeViewNode] = field(default_factory=list)
    entry: SessionEntryBase | None = field(default=None, repr=False, compare=False)

    @property
    def display_text(self) -> str:
        """``prefix + text``: the line pi shows (without markers)."""
        return self.prefix + self.text

    def to_json_dict(self) -> dict[str, Any]:
        """pi-style JSON of this node without its children (RPC ``get_session_tree``): ``id``, ``parentId``,
        ``entryParentId``, ``timestamp``, ``type``, ``role?``, ``toolName?``, ``text`` (the display line),
        ``label?``, ``labelTimestamp?``, ``onActivePath``, ``isLeaf``, ``childIds``."""
        data: dict[str, Any] = {
            "id": self.id,
            "parentId": self.parent_id,
            "entryParentId": self.entry_parent_id,
            "timestamp": self.timestamp,
            "type": self.type,
        }
        if self.role is not None:
            data["role"] = self.role
        if self.tool_name is not None:
            data["toolName"] = self.tool_name
        data["text"] = self.display_text
        if self.label is not None:
            data["label"] = self.label
            if self.label_timestamp is not None:
                data["labelTimestamp"] = self.label_timestamp
        data["onActivePath"] = self.on_active_path
        data["isLeaf"] = self.is_leaf
        data["childIds"] = [child.id for child in self.children]
        return data


@dataclass
class SessionTreeView:
    """The filtered tree: ``roots``, the session ``leaf_id``, ``current_id`` (the node carrying the active
    mark, or None), the ``filter_mode`` and ``search`` used, ``total`` (entries in the session) and
    ``parents`` (every entry's own ``parentId``, hidden ones included)."""

    roots: list[TreeViewNode]
    leaf_id: str | None
    current_id: str | None
    filter_mode: TreeFilterMode
    search: str = ""
    total: int = 0
    parents: dict[str, str | None] = field(default_factory=dict)

    def flat(self) -> list[TreeViewNode]:
        """Visible nodes in display order (pre-order, active branch first)."""
        result: list[TreeViewNode] = []
        stack = list(reversed(self.roots))
        while stack:
            node = stack.pop()
            result.append(node)
            stack.extend(reversed(node.children))
        return result

    def find(self, entry_id: str) -> TreeViewNode | None:
        """The visible node of ``entry_id`` (None when hidden or unknown)."""
        return next((node for node in self.flat() if node.id == entry_id), None)

    def nearest_visible(self, entry_id: str | None) -> str | None:
        """``entry_id`` if shown, else its nearest shown ancestor, else the last shown node (pi's
        ``findNearestVisibleIndex``); None when nothing is shown."""
        flat = self.flat()
        shown = {node.id for node in flat}
        seen: set[str] = set()
        current = entry_id
        while current is not None and current not in seen:
            if current in shown:
                return current
            seen.add(current)
            current = self.parents.get(current)
        return flat[-1].id if flat else None


@dataclass
class DisplayNode:
    """One row of pi's compact layout (:func:`display_tree`): a view ``node`` and the rows nested under it."""

    node: TreeViewNode
    children: list[DisplayNode] = field(default_factory=list)


def display_tree(roots: Sequence[TreeViewNode]) -> list[DisplayNode]:
    """pi's layout as nested rows: a chain of single children is one level (the rows follow each other);
    at a branch point each child becomes a row nested under the branching entry, and its own chain is
    nested under that child (pi: "first generation after a branch: +1"). Several roots are branches of a
    virtual root. Iterative: a 10,000-entry chain needs no recursion."""
    top: list[DisplayNode] = []
    # (node, the list its chain is appended to, whether node heads a branch)
    stack: list[tuple[TreeViewNode, list[DisplayNode], bool]] = []
    branching = len(roots) > 1
    for root in reversed(roots):
        stack.append((root, top, branching))
    while stack:
        node, target, heads_branch = stack.pop()
        row = DisplayNode(node)
        target.append(row)
        chain_target = row.children if heads_branch else target
        kids = node.children
        if len(kids) == 1:
            stack.append((kids[0], chain_target, False))
        elif kids:
            for kid in reversed(kids):
                stack.append((kid, row.children, True))
    return top


# ---------------------------------------------------------------------- describing one entry


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if (block.get("type") if isinstance(block, dict) else getattr(block, "type", None)) == "text":
            text = block.get("text") if isinstance(block, dict) else getattr(block, "text", "")
            parts.append(str(text or ""))
    return "".join(parts)


def _one_line(text: str) -> str:
    """One line of a preview without terminal control sequences (an entry's text is the model's: tester2 #7)."""
    return " ".join(sanitize_display_text(text).replace("\t", " ").split("\n")).strip()[:PREVIEW_CHARS]


def _shorten_path(path: str) -> str:
    home = os.environ.get("HOME") or os.environ.get("USERPROFILE") or ""
    return "~" + path[len(home):] if home and path.startswith(home) else path


def format_tool_call(name: str, args: Mapping[str, Any] | None) -> str:
    """pi's one-line tool summary: ``[read: path:1-20]``, ``[write: path]``, ``[edit: path]``,
    ``[bash: cmd…]`` (50 chars), ``[grep: /pat/ in path]``, ``[find: pat in path]``, ``[ls: path]``, else
    ``[name: <json args, 40 chars>…]``."""
    import json

    a = dict(args or {})
    path = _shorten_path(str(a.get("path") or a.get("file_path") or ""))
    if name == "read":
        offset, limit = a.get("offset"), a.get("limit")
        if offset is not None or limit is not None:
            start = offset if isinstance(offset, int) else 1
            end = f"-{start + limit - 1}" if isinstance(limit, int) else ""
            path += f":{start}{end}"
        return f"[read: {path}]"
    if name in ("write", "edit"):
        return f"[{name}: {path}]"
    if name == "bash":
        raw = str(a.get("command") or "")
        cmd = raw.replace("\n", " ").replace("\t", " ").strip()[:50]
        return f"[bash: {cmd}{'...' if len(raw) > 50 else ''}]"
    if name in ("grep", "find"):
        where = _shorten_path(str(a.get("path") or "."))
        pattern = str(a.get("pattern") or "")
        return f"[grep: /{pattern}/ in {where}]" if name == "grep" else f"[find: {pattern} in {where}]"
    if name == "ls":
        return f"[ls: {_shorten_path(str(a.get('path') or '.'))}]"
    rendered = json.dumps(a, ensure_ascii=False, separators=(",", ":"), default=str)
    return f"[{name}: {rendered[:40]}{'...' if len(rendered) > 40 else ''}]"


def tool_calls_by_id(entries: Iterable[SessionEntryBase]) -> dict[str, tuple[str, dict[str, Any]]]:
    """``{toolCallId: (name, arguments)}`` over every assistant message of ``entries``."""
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    for entry in entries:
        if not isinstance(entry, MessageEntry) or message_role(entry.message) != "assistant":
            continue
        for block in message_field(entry.message, "content") or []:
            kind = block.get("type") if isinstance(block, dict) else getattr(block, "type", None)
            if kind != "toolCall":
                continue
            get = block.get if isinstance(block, dict) else lambda k, b=block: getattr(b, k, None)
            args = get("arguments")
            calls[str(get("id"))] = (str(get("name") or "tool"), dict(args) if isinstance(args, dict) else {})
    return calls


def describe_entry(
    entry: SessionEntryBase, tool_calls: Mapping[str, tuple[str, dict[str, Any]]] | None = None
) -> tuple[str, str, str]:
    """``(prefix, text, style)`` of pi's tree line for ``entry`` (``getEntryDisplayText``); ``tool_calls``
    from :func:`tool_calls_by_id` names a tool result by its call."""
    tool_calls = tool_calls or {}
    if isinstance(entry, MessageEntry):
        message = entry.message
        role = message_role(message) or "message"
        if role == "user":
            return "user: ", _one_line(_text_of(message_field(message, "content"))), "user"
        if role == "assistant":
            text = _one_line(_text_of(message_field(message, "content")))
            if text:
                return "assistant: ", text, "assistant"
            if message_field(message, "stopReason", "stop_reason") == "aborted":
                return "assistant: ", "(aborted)", "muted"
            error = message_field(message, "errorMessage", "error_message")
            if error:
                return "assistant: ", _one_line(str(error))[:80], "error"
            return "assistant: ", "(no content)", "muted"
        if role == "toolResult":
            call_id = message_field(message, "toolCallId", "tool_call_id")
            call = tool_calls.get(str(call_id)) if call_id else None
            if call is not None:
                return "", format_tool_call(call[0], call[1]), "tool"
            return "", f"[{message_field(message, 'toolName', 'tool_name') or 'tool'}]", "tool"
        if role == "bashExecution":
            return "", f"[bash]: {_one_line(str(message_field(message, 'command') or ''))}", "bash"
        return "", f"[{role}]", "meta"
    if isinstance(entry, CustomMessageEntry):
        return f"[{entry.custom_type}]: ", _one_line(_text_of(entry.content)), "custom"
    if isinstance(entry, CompactionEntry):
        return "", f"[compaction: {round(entry.tokens_before / 1000)}k tokens]", "compaction"
    if isinstance(entry, BranchSummaryEntry):
        return "[branch summary]: ", _one_line(entry.summary), "branch_summary"
    if isinstance(entry, ModelChangeEntry):
        return "", f"[model: {entry.model_id}]", "meta"
    if isinstance(entry, ThinkingLevelChangeEntry):
        return "", f"[thinking: {entry.thinking_level}]", "meta"
    if isinstance(entry, CustomEntry):
        return "", f"[custom: {entry.custom_type}]", "meta"
    if isinstance(entry, LabelEntry):
        return "", f"[label: {entry.label if entry.label else '(cleared)'}]", "meta"
    if isinstance(entry, SessionInfoEntry):
        return "", f"[title: {entry.name or 'empty'}]", "meta"
    return "", f"[{entry.type}]", "meta"


def search_text(entry: SessionEntryBase, label: str | None) -> str:
    """What type-to-search matches against (pi's ``getSearchableText``): label, role/type words, content."""
    parts: list[str] = [label] if label else []
    if isinstance(entry, MessageEntry):
        message = entry.message
        parts.append(message_role(message) or "")
        parts.append(_text_of(message_field(message, "content"))[:PREVIEW_CHARS])
        if message_role(message) == "bashExecution":
            parts.append(str(message_field(message, "command") or ""))
    elif isinstance(entry, CustomMessageEntry):
        parts += [entry.custom_type, _text_of(entry.content)]
    elif isinstance(entry, CompactionEntry):
        parts.append("compaction")
    elif isinstance(entry, BranchSummaryEntry):
        parts += ["branch summary", entry.summary]
    elif isinstance(entry, SessionInfoEntry):
        parts += ["title", entry.name or ""]
    elif isinstance(entry, ModelChangeEntry):
        parts += ["model", entry.model_id]
    elif isinstance(entry, ThinkingLevelChangeEntry):
        parts += ["thinking", entry.thinking_level]
    elif isinstance(entry, CustomEntry):
        parts += ["custom", entry.custom_type]
    elif isinstance(entry, LabelEntry):
        parts += ["label", entry.label or ""]
    return " ".join(parts)


# ---------------------------------------------------------------------- filtering


def _has_text(content: Any) -> bool:
    return bool(_text_of(content).strip())


def passes_filter(entry: SessionEntryBase, label: str | None, mode: str, leaf_id: str | None) -> bool:
    """Whether ``entry`` is shown in filter ``mode`` (module docstring; an unknown mode acts as default)."""
    if isinstance(entry, MessageEntry) and message_role(entry.message) == "assistant" and entry.id != leaf_id:
        stop = message_field(entry.message, "stopReason", "stop_reason")
        if not _has_text(message_field(entry.message, "content")) and stop in (None, "stop", "toolUse"):
            return False
    role = message_role(entry.message) if isinstance(entry, MessageEntry) else None
    if mode == "user-only":
        return role == "user"
    if mode == "labeled-only":
        return label is not None
    if mode == "all":
        return True
    if entry.type in SETTINGS_TYPES:
        return False
    return not (mode == "no-tools" and role == "toolResult")


def next_filter_mode(mode: str, step: int = 1) -> TreeFilterMode:
    """The mode after ``mode`` in :data:`FILTER_MODES` (``step=-1``: before), wrapping."""
    index = FILTER_MODES.index(mode) if mode in FILTER_MODES else 0  # type: ignore[arg-type]
    return FILTER_MODES[(index + step) % len(FILTER_MODES)]


# ---------------------------------------------------------------------- building


def build_tree_view(
    manager: SessionManager, filter_mode: str = "default", search: str = ""
) -> SessionTreeView:
    """The tree of ``manager``'s session (all branches) for ``filter_mode`` and ``search``."""
    entries = manager.get_entries()
    labels = {e.id: lbl for e in entries if (lbl := manager.get_label(e.id)) is not None}
    return tree_view_of_entries(
        manager.get_tree(), entries, labels, manager.get_leaf_id(), filter_mode=filter_mode, search=search
    )


def tree_view_of_entries(
    roots: Sequence[SessionTreeNode],
    entries: Sequence[SessionEntryBase],
    labels: Mapping[str, str],
    leaf_id: str | None,
    *,
    filter_mode: str = "default",
    search: str = "",
) -> SessionTreeView:
    """The view of a tree already built (``roots`` from :func:`~pi_tui.coding.session.tree.build_tree` or
    ``SessionManager.get_tree``) over ``entries`` (for tool-call names), ``labels`` and the ``leaf_id``."""
    mode: TreeFilterMode = filter_mode if filter_mode in FILTER_MODES else "default"  # type: ignore[assignment]
    by_id = {entry.id: entry for entry in entries}
    active: set[str] = set()
    current_id = leaf_id
    while current_id and current_id not in active:
        active.add(current_id)
        parent = by_id.get(current_id)
        current_id = parent.parent_id if parent is not None else None
    tool_calls = tool_calls_by_id(entries)
    tokens = [token for token in search.lower().split() if token]

    def contains_active(node: SessionTreeNode) -> bool:
        return node.entry.id in active

    view_roots: list[TreeViewNode] = []
    deepest: TreeViewNode | None = None
    deepest_rank = -1
    # (tree node, nearest visible ancestor view node or None, depth in the entry tree)
    stack: list[tuple[SessionTreeNode, TreeViewNode | None, int]] = []
    ordered_roots = sorted(roots, key=lambda n: not contains_active(n))
    for root in reversed(ordered_roots):
        stack.append((root, None, 0))
    while stack:
        node, visible_parent, depth = stack.pop()
        entry = node.entry
        label = labels.get(entry.id, node.label)
        shown = passes_filter(entry, label, mode, leaf_id)
        if shown and tokens:
            haystack = search_text(entry, label).lower()
            shown = all(token in haystack for token in tokens)
        attach_to = visible_parent
        if shown:
            prefix, text, style = describe_entry(entry, tool_calls)
            role = message_role(entry.message) if isinstance(entry, MessageEntry) else None
            tool_name = None
            if role == "toolResult" and isinstance(entry, MessageEntry):
                call = tool_calls.get(str(message_field(entry.message, "toolCallId", "tool_call_id")))
                tool_name = call[0] if call else message_field(entry.message, "toolName", "tool_name")
            view = TreeViewNode(
                id=entry.id,
                parent_id=visible_parent.id if visible_parent is not None else None,
                entry_parent_id=entry.parent_id,
                type=entry.type,
                role=role,
                tool_name=tool_name,
                prefix=prefix,
                text=text,
                style=style,
                timestamp=entry.timestamp,
                label=label,
                label_timestamp=node.label_timestamp if label is not None else None,
                on_active_path=entry.id in active,
                is_leaf=entry.id == leaf_id,
                entry=entry,
            )
            (visible_parent.children if visible_parent is not None else view_roots).append(view)
            if view.on_active_path and depth > deepest_rank:
                deepest, deepest_rank = view, depth
            attach_to = view
        kids = sorted(node.children, key=lambda n: not contains_active(n))  # stable: timestamp order kept
        for kid in reversed(kids):
            stack.append((kid, attach_to, depth + 1))
    if deepest is not None:
        deepest.is_current = True
    return SessionTreeView(
        roots=view_roots,
        leaf_id=leaf_id,
        current_id=deepest.id if deepest is not None else None,
        filter_mode=mode,
        search=search,
        total=len(entries),
        parents={entry.id: entry.parent_id for entry in entries},
    )


def tree_view_from_entries(
    entries: Sequence[SessionEntryBase], leaf_id: str | None, *, filter_mode: str = "default", search: str = ""
) -> SessionTreeView:
    """The view of raw ``entries`` (labels resolved from their ``label`` entries, last one wins), for callers
    without a SessionManager (e.g. an export of a loaded file)."""
    labels: dict[str, str] = {}
    label_times: dict[str, str] = {}
    for entry in entries:
        if isinstance(entry, LabelEntry):
            if entry.label:
                labels[entry.target_id] = entry.label
                label_times[entry.target_id] = entry.timestamp
            else:
                labels.pop(entry.target_id, None)
                label_times.pop(entry.target_id, None)
    roots = build_tree(entries, labels, label_times)
    return tree_view_of_entries(roots, entries, labels, leaf_id, filter_mode=filter_mode, search=search)


__all__ = [
    "FILTER_MODES",
    "FILTER_TAGS",
    "DisplayNode",
    "SessionTreeView",
    "TreeFilterMode",
    "TreeViewNode",
    "build_tree_view",
    "describe_entry",
    "display_tree",
    "format_tool_call",
    "next_filter_mode",
    "passes_filter",
    "search_text",
    "tool_calls_by_id",
    "tree_view_from_entries",
    "tree_view_of_entries",
]
