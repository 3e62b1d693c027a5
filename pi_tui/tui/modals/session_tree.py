"""The ``/tree`` screen: the whole session tree (pi 0.73.1 tree selector; pi docs/sessions.md "Branching with
/tree", docs/keybindings.md "Tree Navigation"), one line per entry in a Textual ``Tree`` whose nodes are all
flat: pi's own prefixes (:mod:`pi_tui.coding.session.tree_layout`) draw the shape, so a chain stays in one
column and only a branch point has connectors (Textual's guides gave every entry of a chain a ``├─``).

The model (filters, previews, the active path, the layout) is :mod:`pi_tui.coding.session.tree_view`; this
screen draws it and takes pi's keys (all from the keymap, ``app.tree.*``): ↑/↓ move, ←/→ page, Ctrl/Alt+←/→
fold/unfold a branch (``⊟``/``⊞``) or jump between branch starts, Shift+L edit the label, Shift+T label times, Ctrl+D/T/U/L/A filters
(default, no-tools, user-only, labeled-only, all; the last four toggle back to default), Ctrl+O /
Ctrl+Shift+O cycle them, typing searches (Backspace edits, Escape clears the search, then closes), Enter
selects. Each line: ``▶ `` on the current position, ``• `` on the rest of the active path, ``[label]`` (and its
time with Shift+T), the entry's time, pi's one-line text.

Dismisses with the chosen entry id (str) or ``None``. Labels are changed through ``on_label(entry_id,
label_or_None)`` (the caller writes the ``label`` entry), and the screen redraws from ``build_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from pi_tui.coding.session.entries import iso_to_ms
from pi_tui.coding.session.tree_layout import TreeRow, segment_start, tree_rows
from pi_tui.coding.session.tree_view import (
    FILTER_TAGS,
    SessionTreeView,
    TreeViewNode,
    next_filter_mode,
)
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.theme_loader import PiTheme

STYLE_TOKENS = {
    "user": "accent", "assistant": "success", "tool": "muted", "bash": "dim", "custom": "customMessageLabel",
    "compaction": "borderAccent", "branch_summary": "warning", "meta": "dim", "error": "error", "muted": "muted",
}
"""The pi theme token per :class:`TreeViewNode` ``style`` (pi's tree-selector colours)."""

FIXED_NOW: datetime | None = None
"""Snapshot tests set a fixed, time-zone-aware clock here; None: the real clock."""

TOGGLE_FILTERS = {
    "app.tree.filter.noTools": "no-tools", "app.tree.filter.userOnly": "user-only",
    "app.tree.filter.labeledOnly": "labeled-only", "app.tree.filter.all": "all",
}


def format_time(iso: str, now: datetime | None = None) -> str:
    """pi's short time of an ISO timestamp in local time: ``HH:MM`` today, ``M/D HH:MM`` this year, else
    ``YY/M/D HH:MM`` (pi's ``formatLabelTimestamp``); "" for an unparsable one."""
    ms = iso_to_ms(iso)
    if not ms:
        return ""
    current = (now or datetime.now()).astimezone()  # an aware ``now`` also fixes the time zone (snapshots)
    moment = datetime.fromtimestamp(ms / 1000).astimezone(current.tzinfo)
    time = f"{moment.hour:02d}:{moment.minute:02d}"
    if moment.date() == current.date():
        return time
    if moment.year == current.year:
        return f"{moment.month}/{moment.day} {time}"
    return f"{moment.year % 100:02d}/{moment.month}/{moment.day} {time}"


def node_label(node: TreeViewNode, theme: PiTheme, *, show_label_time: bool, now: datetime | None) -> Text:
    """The Rich text of one tree line (module docstring)."""
    line = Text()
    if node.is_current:
        line.append("▶ ", theme.fg("accent", bold=True))  # at the front: a long line is cut at the right
    elif node.on_active_path:
        line.append("• ", theme.fg("accent"))
    if node.label:
        line.append(f"[{node.label}] ", theme.fg("warning"))
        if show_label_time and node.label_timestamp:
            line.append(f"{format_time(node.label_timestamp, now)} ", theme.fg("muted"))
    stamp = format_time(node.timestamp, now)
    if stamp:
        line.append(f"{stamp} ", theme.fg("dim"))
    token = STYLE_TOKENS.get(node.style, "dim")
    if node.prefix:
        prefix_token = "success" if node.style in ("error", "muted") and node.role == "assistant" else token
        line.append(node.prefix, theme.fg(prefix_token))
        text_style = theme.fg(token) if node.style in ("error", "muted") else Style()
        line.append(node.text, text_style)
    else:
        line.append(node.text, theme.fg(token))
    return line


class SessionTree(Tree[str]):
    """The Tree of the screen; printable keys go to the screen's search instead of Tree's bindings. Long rows
    are cut at the right (no horizontal scrollbar: its thumb showed as a stray block); a resize keeps the
    selected row in view."""

    def __init__(self, on_type: Callable[[events.Key], bool], **kwargs: Any) -> None:
        super().__init__("session", **kwargs)
        self._on_type = on_type
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 3

    async def _on_key(self, event: events.Key) -> None:
        if self._on_type(event):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def on_resize(self, event: events.Resize) -> None:
        """A smaller (or larger) terminal keeps the selected row in view (issue 12 leftover: it scrolled off)."""
        self.call_after_refresh(self._show_cursor)

    def _show_cursor(self) -> None:
        if self.cursor_line >= 0:
            self.scroll_to_line(self.cursor_line, animate=False)


class SessionTreeScreen(ModalScreen[str | None]):
    """``build_view(filter_mode, search)`` gives the :class:`SessionTreeView` to draw; ``keymap`` the keys;
    ``theme`` the colours; ``on_label(entry_id, label)`` stores a label (None clears); ``filter_mode`` the
    start mode (settings ``treeFilterMode``); ``selected_id`` the entry to start on (default: the current
    position); ``now`` fixes the clock (snapshots)."""

    DEFAULT_CSS = """
    SessionTreeScreen { align: center middle; }
    SessionTreeScreen > Vertical {
        width: 100%; height: 100%; border: round $accent; background: $surface; padding: 0 1;
    }
    SessionTreeScreen #tree-title { text-style: bold; height: 1; }
    SessionTreeScreen #tree-hint { color: $text-muted; height: auto; }
    SessionTreeScreen.-short #tree-hint, SessionTreeScreen.-tiny #tree-hint {  /* the entries get the rows */
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    SessionTreeScreen #tree-search { color: $text-muted; height: 1; }
    SessionTreeScreen SessionTree { height: 1fr; background: $surface; overflow-x: hidden; }
    SessionTreeScreen #tree-status { color: $text-muted; height: 1; }
    """

    def __init__(
        self,
        build_view: Callable[[str, str], SessionTreeView],
        keymap: Keymap,
        theme: PiTheme,
        *,
        on_label: Callable[[str, str | None], None] | None = None,
        filter_mode: str = "default",
        selected_id: str | None = None,
        now: datetime | None = None,
    ) -> None:
        super().__init__()
        self._build_view = build_view
        self.keymap = keymap
        self.pi_theme = theme
        self._on_label = on_label
        self.filter_mode = filter_mode
        self.search = ""
        self.show_label_time = False
        self._selected_id = selected_id
        self._now = now or FIXED_NOW
        self.view: SessionTreeView = build_view(filter_mode, "")
        self._tree_nodes: dict[str, TreeNode[str]] = {}
        self.rows: list[TreeRow] = []
        """The lines shown, in order (``tree_layout``: pi's prefixes and folds)."""
        self.folded: set[str] = set()
        """Entries whose branches are folded (pi: any filter change unfolds everything)."""
        self.chosen: str | None = None
        """The entry picked (Enter or a click); from then on keys are kept in :attr:`late_keys`."""
        self.late_keys: list[tuple[str, str | None]] = []
        """``(key, character)`` of the keys that reached the screen after the choice (typed right behind
        Enter): the app replays them into the editor after the jump (issue 9: they went into the search)."""

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        km = self.keymap
        filters = "/".join(km.first(a) for a in (
            "app.tree.filter.default", "app.tree.filter.noTools", "app.tree.filter.userOnly",
            "app.tree.filter.labeledOnly", "app.tree.filter.all"))
        hint = (f"↑/↓ move · ←/→ page · {km.first('app.tree.foldOrUp')}/{km.first('app.tree.unfoldOrDown')} "
                f"fold/branch · {km.first('app.tree.editLabel')} label · {filters} filters "
                f"({km.first('app.tree.filter.cycleForward')}/{km.first('app.tree.filter.cycleBackward')} cycle) · "
                f"{km.first('app.tree.toggleLabelTimestamp')} label time · Enter select · Esc close")
        with Vertical():
            yield Static("Session Tree", id="tree-title", markup=False)
            yield Static(hint, id="tree-hint", markup=False)
            yield Static("Type to search:", id="tree-search", markup=False)
            yield SessionTree(self._typed, id="session-tree")
            yield Static("", id="tree-status", markup=False)

    @property
    def session_tree(self) -> SessionTree:
        """The Tree widget."""
        return self.query_one(SessionTree)

    def on_mount(self) -> None:
        self._populate(self._selected_id or self.view.current_id)
        self.session_tree.focus()

    def _populate(self, select_id: str | None) -> None:
        tree = self.session_tree
        tree.clear()
        self._tree_nodes = {}
        self.rows = tree_rows(self.view.roots, self.folded)
        dim = self.pi_theme.fg("dim")
        for row in self.rows:  # one flat line each: pi's prefix draws the shape (tree_layout)
            label = Text(row.prefix, style=dim)
            if row.fold_marker:
                label.append(row.fold_marker, self.pi_theme.fg("accent"))
            label.append_text(node_label(row.node, self.pi_theme, show_label_time=self.show_label_time,
                                         now=self._now))
            self._tree_nodes[row.node.id] = tree.root.add_leaf(label, data=row.node.id)
        tree.root.expand()
        target = self.view.nearest_visible(select_id)
        while target is not None and target not in self._tree_nodes:  # inside a folded branch: its fold
            target = self.view.parents.get(target)
        if target is not None:
            self.call_after_refresh(self._move_to, target)
        self._update_status()

    def _move_to(self, entry_id: str) -> None:
        node = self._tree_nodes.get(entry_id)
        if node is not None:
            self.session_tree.move_cursor(node)
            self._update_status()

    def _update_status(self) -> None:
        flat = self.view.flat()
        cursor = self.session_tree.cursor_node
        position = 0
        if cursor is not None and cursor.data is not None:
            position = next((i + 1 for i, n in enumerate(flat) if n.id == cursor.data), 0)
        tags = FILTER_TAGS.get(self.filter_mode, "")
        extra = (" " + tags if tags else "") + (" [+label time]" if self.show_label_time else "")
        text = f"({position}/{len(flat)}){extra}" if flat else f"No entries found (0/0){extra}"
        self.query_one("#tree-status", Static).update(text)
        self.query_one("#tree-search", Static).update(f"Type to search: {self.search}")

    def refresh_view(self, keep_id: str | None = None) -> None:
        """Rebuild from the session with the current filter and search, keeping the selection."""
        cursor = self.session_tree.cursor_node
        keep = keep_id or (cursor.data if cursor is not None else None)
        self.view = self._build_view(self.filter_mode, self.search)
        self._populate(keep)

    @property
    def selected_id(self) -> str | None:
        """The entry under the cursor."""
        cursor = self.session_tree.cursor_node
        return cursor.data if cursor is not None else None

    # ------------------------------------------------------------------ keys
    def _typed(self, event: events.Key) -> bool:
        """Every key the Tree gets, handled here in arrival order (Tree's own bindings would run only once the
        key has bubbled up to the app, after later keys: ``Up Up L`` labelled the entry before the moves).
        True when handled."""
        if self.chosen is not None:  # closing: a key typed behind Enter is for the editor, not the search
            self.late_keys.append((event.key, event.character))
            return True
        action = self.keymap.scoped_action_for(event.key, "app.tree.")
        if action is not None:
            self.run_tree_action(action)
            return True
        key = event.key
        tree = self.session_tree
        if key in ("up", "down", "enter", "home", "end"):
            if key == "up":
                tree.action_cursor_up()
            elif key == "down":
                tree.action_cursor_down()
            elif key == "enter":
                cursor = tree.cursor_node
                self.chosen = cursor.data if cursor is not None else None  # before the keys queued behind it
                tree.action_select_cursor()
            else:
                tree.move_cursor_to_line(0 if key == "home" else tree.last_line)
            return True
        if key == "escape":
            if self.search:
                self._search_for("")
            else:
                self.dismiss(None)
            return True
        if key == "backspace":
            if self.search:
                self._search_for(self.search[:-1])
            return True
        if key in ("left", "right", "pageup", "pagedown"):
            self._page(-1 if key in ("left", "pageup") else 1)
            return True
        if event.is_printable and event.character and key != "tab":
            self._search_for(self.search + event.character)
            return True
        return False

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        event.stop()
        self._update_status()

    def on_tree_node_selected(self, event: Tree.NodeSelected[str]) -> None:
        event.stop()
        if event.node.data is not None:
            self.chosen = event.node.data
            self.dismiss(event.node.data)

    def _page(self, direction: int) -> None:
        tree = self.session_tree
        page = max(1, tree.size.height - 1)
        line = max(0, min(tree.last_line, tree.cursor_line + direction * page))
        tree.move_cursor_to_line(line)

    def run_tree_action(self, action: str) -> None:
        """Run one ``app.tree.*`` action (module docstring)."""
        if action == "app.tree.filter.default":
            self._set_filter("default")
        elif action in TOGGLE_FILTERS:
            mode = TOGGLE_FILTERS[action]
            self._set_filter("default" if self.filter_mode == mode else mode)
        elif action == "app.tree.filter.cycleForward":
            self._set_filter(next_filter_mode(self.filter_mode, 1))
        elif action == "app.tree.filter.cycleBackward":
            self._set_filter(next_filter_mode(self.filter_mode, -1))
        elif action == "app.tree.toggleLabelTimestamp":
            self.show_label_time = not self.show_label_time
            self.refresh_view()
        elif action == "app.tree.editLabel":
            self._edit_label()
        elif action == "app.tree.foldOrUp":
            self._fold_or_up()
        elif action == "app.tree.unfoldOrDown":
            self._unfold_or_down()

    def _set_filter(self, mode: str) -> None:
        self.filter_mode = mode
        self.folded.clear()  # pi: a new filter (or search) unfolds everything
        self.refresh_view()

    def _search_for(self, text: str) -> None:
        self.search = text
        self.folded.clear()
        self.refresh_view()

    def _cursor_row(self) -> int:
        entry_id = self.selected_id
        return next((n for n, row in enumerate(self.rows) if row.node.id == entry_id), -1)

    def _fold_or_up(self) -> None:
        """pi's ``app.tree.foldOrUp``: fold the selected branch start (or root), else go to the branch start
        above."""
        index = self._cursor_row()
        if index < 0:
            return
        row = self.rows[index]
        if row.foldable and not row.folded:
            self.folded.add(row.node.id)
            self.refresh_view(row.node.id)
        else:
            self._move_to(self.rows[segment_start(self.rows, index, "up")].node.id)

    def _unfold_or_down(self) -> None:
        """pi's ``app.tree.unfoldOrDown``: unfold the selected entry, else go to the next branch start below."""
        index = self._cursor_row()
        if index < 0:
            return
        row = self.rows[index]
        if row.folded:
            self.folded.discard(row.node.id)
            self.refresh_view(row.node.id)
        else:
            self._move_to(self.rows[segment_start(self.rows, index, "down")].node.id)

    def _edit_label(self) -> None:
        from pi_tui.tui.modals.text_prompt import TextPromptModal

        entry_id = self.selected_id
        if entry_id is None or self._on_label is None:
            return
        node = self.view.find(entry_id)
        current = node.label if node is not None else None
        on_label = self._on_label

        def done(value: str | None) -> None:
            if value is None:
                return
            on_label(entry_id, value.strip() or None)
            self.refresh_view(entry_id)

        self.app.push_screen(TextPromptModal("Label (empty to remove):", prefill=current or ""), done)
