"""SessionManager: a session as an append-only tree of entries in a JSONL file (pi-reference §3.4).

Every append makes the new entry a child of the current leaf and moves the leaf to it; ``branch`` moves the
leaf back to an earlier entry (the next append starts a new branch), ``reset_leaf`` puts it before the first
entry. Nothing is written until the session holds an assistant message; then the header and buffered entries
are written, and from then on each entry is appended at once as one whole line (see
:mod:`pi_tui.coding.session.session_file` for the write/crash rules). ``in_memory`` sessions never write.

Loading never loses good entries: bad lines are skipped and listed in :attr:`SessionManager.warnings`, and
the file stays appendable. A file whose first JSON object is not a valid header is, when opened explicitly,
rewritten with a fresh header at the same path, as pi does; pi-tui first copies the old bytes to
``<file>.corrupt-<ts>`` so nothing is destroyed (deviation from pi, which only truncates).

All methods are synchronous. An append is one small ``os.write`` (about 45 µs measured, see
``bench/session_io.py``), cheap enough to call from the event loop; opening a large file or listing many
sessions should run in a worker thread (``anyio.to_thread.run_sync``) from async code.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_tui.ai.types import now_ms
from pi_tui.coding.config.paths import get_default_session_dir, get_sessions_dir
from pi_tui.coding.session import listing
from pi_tui.coding.session.branching import export_branch_jsonl, path_with_labels
from pi_tui.coding.session.context import UNSET, SessionContext, build_session_context
from pi_tui.coding.session.entries import (
    ARTIFACT_CUSTOM_TYPE,
    NOTIFICATION_CUSTOM_TYPE,
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    EntryNotFoundError,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionEntryBase,
    SessionHeader,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
    generate_entry_id,
)
from pi_tui.coding.session.loader import (
    LoadedSession,
    load_session_entries,
    new_session_id,
    session_file_name,
)
from pi_tui.coding.session.messages import AgentMessage, message_role, message_to_json
from pi_tui.coding.session.names import one_line
from pi_tui.coding.session.open_file import SessionFileError, open_session_file
from pi_tui.coding.session.session_file import AppendWriter, rewrite_file
from pi_tui.coding.session.tree import SessionTreeNode, build_tree

UI_ROLES = {"notification": NOTIFICATION_CUSTOM_TYPE, "artifact": ARTIFACT_CUSTOM_TYPE}
SAVED_FROM = frozenset({"assistant", "bashExecution"})
"""Roles whose first message has a new session file written (pi: assistant only; a user ``!cmd`` too, so a session
of only commands is not lost on quit: tester3 #11, DIFFERENCES L-rows)."""


class SessionManager:
    """One session: header, entries (a tree), the leaf pointer, labels and the file it persists to.

    Construct with :meth:`create`, :meth:`open`, :meth:`continue_recent`, :meth:`in_memory` or :meth:`fork_from`
    (``open`` raises :class:`SessionFileError` for an unreadable path).
    Entry-appending methods return the new entry id. Errors: ``KeyError`` subclass :class:`EntryNotFoundError`
    (message ``Entry <id> not found``) for unknown ids; ``OSError`` if the file cannot be written.
    """

    def __init__(
        self, cwd: str, session_dir: Path | None, session_file: Path | None, persist: bool,
        loaded: LoadedSession | None = None,
    ) -> None:
        """``loaded``: ``session_file`` as already read by :func:`load_session_entries` (not read again)."""
        self.cwd = cwd
        self.session_dir = session_dir
        self.persist = persist
        self.warnings: list[str] = []
        self._header = SessionHeader(id=new_session_id(), cwd=cwd)
        self._session_file: Path | None = None
        self._entries: list[SessionEntry] = []
        self._epoch = 0  # +1 whenever _entries is replaced (entries_version)
        self._name_entry: SessionInfoEntry | None = None  # the latest session_info entry
        self._by_id: dict[str, SessionEntry] = {}
        self._labels: dict[str, str] = {}
        self._label_timestamps: dict[str, str] = {}
        self._leaf_id: str | None = None
        self._flushed = False
        self._worth_saving = False
        self._writer: AppendWriter | None = None
        self.write_guard: Callable[[Path], bool] | None = None  # session/lock.py: False = another writer owns it
        if session_file is not None:
            self._set_session_file(session_file, loaded)
        else:
            self.new_session()

    # ------------------------------------------------------------------ constructors

    @classmethod
    def create(cls, cwd: str, session_dir: str | os.PathLike[str] | None = None) -> SessionManager:
        """New persisted session in ``session_dir`` (default ``<agentDir>/sessions/--<cwd>--``)."""
        directory = Path(session_dir) if session_dir is not None else get_default_session_dir(cwd)
        return cls(cwd, directory, None, True)

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        session_dir: str | os.PathLike[str] | None = None,
        cwd_override: str | None = None,
    ) -> SessionManager:
        """Open ``path`` (created on first write if missing). cwd = override > header cwd > process cwd.
        The file is read once (pi fix 0.81.0: the header was read on its own first)."""
        loaded = load_session_entries(Path(path).resolve())
        header = loaded.header if not loaded.header_recovered else None
        header_cwd = header.cwd if header is not None else None
        cwd = cwd_override or (header_cwd if isinstance(header_cwd, str) and header_cwd else os.getcwd())
        directory = Path(session_dir) if session_dir is not None else Path(path).resolve().parent
        return cls(cwd, directory, Path(path), True, loaded=loaded)

    @classmethod
    def continue_recent(cls, cwd: str, session_dir: str | os.PathLike[str] | None = None) -> SessionManager:
        """Open the most recently modified valid session of ``cwd``'s session dir, else create a new one."""
        directory = Path(session_dir) if session_dir is not None else get_default_session_dir(cwd)
        recent = listing.find_most_recent_session(directory, listing.folder_scope(directory, cwd))
        if recent is not None:
            return cls(cwd, directory, recent, True)
        return cls(cwd, directory, None, True)

    @classmethod
    def in_memory(cls, cwd: str | None = None) -> SessionManager:
        """A session that is never written (``--no-session``)."""
        return cls(cwd or os.getcwd(), None, None, False)

    @classmethod
    def fork_from(
        cls,
        source_path: str | os.PathLike[str],
        target_cwd: str,
        session_dir: str | os.PathLike[str] | None = None,
    ) -> SessionManager:
        """Copy every entry of another session (maybe another project) into a new session of ``target_cwd``.

        Raises ``ValueError`` (``Cannot fork: source session file is empty or invalid: <path>``).
        """
        loaded = load_session_entries(source_path)
        if loaded.header is None:
            raise ValueError(f"Cannot fork: source session file is empty or invalid: {source_path}")
        directory = Path(session_dir) if session_dir is not None else get_default_session_dir(target_cwd)
        header = SessionHeader(id=new_session_id(), cwd=target_cwd, parent_session=str(source_path))
        path = directory / session_file_name(header.timestamp, header.id)
        rewrite_file(path, [header.to_json_dict(), *(e.to_json_dict() for e in loaded.entries)])
        return cls(target_cwd, directory, path, True)

    # ------------------------------------------------------------------ file handling

    def new_session(self, session_id: str | None = None, parent_session: str | None = None) -> Path | None:
        """Start an empty session (new id, new file name when persisting); returns the new file path."""
        self._header = SessionHeader(
            id=session_id or new_session_id(), cwd=self.cwd, parent_session=parent_session
        )
        self._reset_index([])
        self._flushed = False
        self._writer = None
        if self.persist and self.session_dir is not None:
            self._session_file = self.session_dir / session_file_name(self._header.timestamp, self._header.id)
        return self._session_file

    def _set_session_file(self, path: Path, loaded: LoadedSession | None = None) -> None:
        """Adopt the file at ``path`` (``open_file.open_session_file`` decides how); raises SessionFileError."""
        opened = open_session_file(path, loaded)
        self.warnings.extend(opened.warnings)
        if opened.start_fresh:
            self.new_session()
            self._session_file = opened.path
            if opened.rewrite:
                self._rewrite_file()
                self._flushed = True
            return
        header = opened.loaded.header
        assert header is not None  # only a fresh start has none
        if opened.loaded.header_recovered and not header.cwd:
            header = header.model_copy(update={"cwd": self.cwd})
        self._header = header
        self._session_file = opened.path
        self._reset_index(opened.loaded.entries)
        if opened.rewrite:
            self._rewrite_file()
        self._flushed = True

    def _reset_index(self, entries: list[SessionEntry]) -> None:
        self._epoch += 1
        self._name_entry = None
        self._entries = list(entries)
        self._by_id = {}
        self._labels = {}
        self._label_timestamps = {}
        self._leaf_id = None
        self._worth_saving = False
        for entry in self._entries:
            self._index(entry)

    def _index(self, entry: SessionEntry) -> None:
        self._by_id[entry.id] = entry
        self._leaf_id = entry.id
        if isinstance(entry, SessionInfoEntry):
            self._name_entry = entry
        if isinstance(entry, MessageEntry) and message_role(entry.message) in SAVED_FROM:
            self._worth_saving = True
        if isinstance(entry, LabelEntry):
            if entry.label:
                self._labels[entry.target_id] = entry.label
                self._label_timestamps[entry.target_id] = entry.timestamp
            else:
                self._labels.pop(entry.target_id, None)
                self._label_timestamps.pop(entry.target_id, None)

    def _may_write(self) -> bool:
        if not self.persist or self._session_file is None:
            return False
        return self.write_guard is None or self.write_guard(self._session_file)

    def _rewrite_file(self) -> None:
        if not self._may_write():
            return
        assert self._session_file is not None
        rewrite_file(
            self._session_file, [self._header.to_json_dict(), *(e.to_json_dict() for e in self._entries)]
        )
        self._writer = None

    def _writer_for_file(self) -> AppendWriter:
        assert self._session_file is not None
        if self._writer is None or self._writer.path != self._session_file:
            self._writer = AppendWriter(self._session_file)
        return self._writer

    def _persist(self, entry: SessionEntry) -> None:
        if not self.persist or self._session_file is None:
            return
        if not self._flushed:
            if not self._worth_saving or not self._may_write():
                return
            # the first write of a new file is published whole or not at all (a failed one left a header and a
            # torn line, and the next attempt appended a second header): temp file, fsync, rename
            self._rewrite_file()
            self._flushed = True
            return
        if self._may_write():
            self._writer_for_file().append(entry.to_json_dict())

    def _append_entry(self, entry: SessionEntry) -> str:
        """Add ``entry`` as the new leaf and write it; raises ``OSError`` when the write fails, and then the
        entry is not kept either (pi 1.5.0, #11460: an entry in memory but not on disk became the parent of
        later entries, so the file held entries whose parent was missing and a resume lost the history)."""
        labels = (dict(self._labels), dict(self._label_timestamps)) if isinstance(entry, LabelEntry) else None
        leaf, worth_saving, name_entry = self._leaf_id, self._worth_saving, self._name_entry
        self._entries.append(entry)
        self._index(entry)
        try:
            self._persist(entry)
        except OSError:
            self._entries.pop()
            self._by_id.pop(entry.id, None)
            self._leaf_id, self._worth_saving, self._name_entry = leaf, worth_saving, name_entry
            self._epoch += 1  # figures cached over the entries (entries_version) start over
            if labels is not None:
                self._labels, self._label_timestamps = labels
            raise
        return entry.id

    def _new_id(self) -> str:
        return generate_entry_id(self._by_id)

    # ------------------------------------------------------------------ accessors

    @property
    def session_file(self) -> Path | None:
        """Path of the session file (``None`` for in-memory sessions); may not exist yet."""
        return self._session_file if self.persist else None

    @property
    def session_id(self) -> str:
        """The session's UUIDv7 (header ``id``)."""
        return self._header.id

    @property
    def session_name(self) -> str | None:
        """Name from the latest ``session_info`` entry (an empty name clears it); kept up to date by appends, not
        searched for (the footer asks on every refresh; issue 15)."""
        entry = self._name_entry
        return (one_line(entry.name or "") or None) if entry is not None else None

    @property
    def header(self) -> SessionHeader:
        """The session header (not part of the tree)."""
        return self._header

    def is_persisted(self) -> bool:
        """False for in-memory sessions."""
        return self.persist

    def is_flushed(self) -> bool:
        """True once the file holds the header (a first assistant message arrived, or the file was opened)."""
        return self._flushed

    def get_cwd(self) -> str:
        return self.cwd

    def get_session_dir(self) -> Path | None:
        return self.session_dir

    def get_session_id(self) -> str:
        return self.session_id

    def get_session_file(self) -> Path | None:
        return self.session_file

    def get_session_name(self) -> str | None:
        return self.session_name

    def get_header(self) -> SessionHeader:
        return self._header

    def get_entries(self) -> list[SessionEntry]:
        """All entries in file order (header excluded); a new list."""
        return list(self._entries)

    def entries_version(self) -> tuple[int, int]:
        """``(epoch, count)``: the epoch changes when the entry list is replaced (a new or branched session);
        within an epoch entries are only appended, so a cache of figures over the first ``count`` entries
        stays valid and only :meth:`entries_since` that count need adding (the footer's totals, issue 15)."""
        return self._epoch, len(self._entries)

    def entries_since(self, start: int) -> list[SessionEntry]:
        """Entries from index ``start`` on, in file order (a new list)."""
        return self._entries[start:]

    def get_entry(self, entry_id: str) -> SessionEntry | None:
        return self._by_id.get(entry_id)

    def get_leaf_id(self) -> str | None:
        return self._leaf_id

    def get_leaf_entry(self) -> SessionEntry | None:
        return self._by_id.get(self._leaf_id) if self._leaf_id else None

    def get_children(self, parent_id: str | None) -> list[SessionEntry]:
        """Direct children of ``parent_id`` (``None`` → roots), in file order."""
        return [entry for entry in self._by_id.values() if entry.parent_id == parent_id]

    def get_label(self, entry_id: str) -> str | None:
        return self._labels.get(entry_id)

    def get_branch(self, from_id: str | None = None) -> list[SessionEntry]:
        """Path root → ``from_id`` (default: the leaf); ``[]`` if the id is unknown or the leaf is ``None``."""
        start = from_id if from_id is not None else self._leaf_id
        path: list[SessionEntry] = []
        seen: set[str] = set()
        current = self._by_id.get(start) if start else None
        while current is not None and current.id not in seen:
            seen.add(current.id)
            path.append(current)
            current = self._by_id.get(current.parent_id) if current.parent_id else None
        path.reverse()
        return path

    def get_tree(self) -> list[SessionTreeNode]:
        """Roots of the entry tree; children sorted by timestamp; orphans/self-parented entries are roots."""
        return build_tree(self._entries, self._labels, self._label_timestamps)

    def build_session_context(self, include_ui: bool = False, close_interrupted: bool = False) -> SessionContext:
        """Context of the current branch (pi-reference §3.4); ``include_ui`` adds notification/artifact messages;
        ``close_interrupted`` orders batch results by call and answers unfinished calls (:mod:`.tool_results`)."""
        return build_session_context(
            self._entries, self._leaf_id, self._by_id, include_ui=include_ui, close_interrupted=close_interrupted
        )

    # ------------------------------------------------------------------ appends

    def append_message(self, message: AgentMessage) -> str:
        """Append a ``message`` entry. UI-only roles (notification/artifact) go to a custom entry instead."""
        if message_role(message) in UI_ROLES:
            return self.append_ui_message(message)
        return self._append_entry(
            MessageEntry.new(id=self._new_id(), parent_id=self._leaf_id, message=message)
        )

    def append_thinking_level_change(self, thinking_level: str) -> str:
        return self._append_entry(
            ThinkingLevelChangeEntry.new(
                id=self._new_id(), parent_id=self._leaf_id, thinking_level=thinking_level
            )
        )

    def append_model_change(self, provider: str, model_id: str) -> str:
        return self._append_entry(
            ModelChangeEntry.new(
                id=self._new_id(), parent_id=self._leaf_id, provider=provider, model_id=model_id
            )
        )

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str | None,
        tokens_before: int,
        details: Any = None,
        from_hook: bool | None = None,
    ) -> str:
        return self._append_entry(
            CompactionEntry.new(
                id=self._new_id(),
                parent_id=self._leaf_id,
                summary=summary,
                first_kept_entry_id=first_kept_entry_id,
                tokens_before=tokens_before,
                details=details,
                from_hook=from_hook,
            )
        )

    def append_custom_entry(self, custom_type: str, data: Any = None) -> str:
        """Extension/app state; never in the LLM context."""
        return self._append_entry(
            CustomEntry.new(id=self._new_id(), parent_id=self._leaf_id, custom_type=custom_type, data=data)
        )

    def append_custom_message_entry(
        self, custom_type: str, content: Any, display: bool = True, details: Any = None
    ) -> str:
        """A custom message that IS part of the LLM context (role ``custom``)."""
        return self._append_entry(
            CustomMessageEntry.new(
                id=self._new_id(),
                parent_id=self._leaf_id,
                custom_type=custom_type,
                content=content,
                display=display,
                details=details,
            )
        )

    def append_ui_message(self, message: AgentMessage) -> str:
        """Persist a UI-only ``notification``/``artifact`` message as a ``pi-tui.*`` custom entry.

        Raises ``ValueError`` for other roles.
        """
        role = message_role(message)
        if role not in UI_ROLES:
            raise ValueError(f"not a UI-only message role: {role!r}")
        data = message_to_json(message)
        if not isinstance(data, dict):
            raise ValueError("UI message must serialise to a JSON object")
        data.pop("role", None)
        return self.append_custom_entry(UI_ROLES[role], data)

    def append_notification(self, level: str, text: str, timestamp: int | None = None) -> str:
        """Persist a UI-only notification ``{level: info|warning|error, text, timestamp (ms)}``."""
        return self.append_ui_message(
            {"role": "notification", "level": level, "text": text, "timestamp": timestamp or now_ms()}
        )

    def append_artifact(
        self,
        title: str,
        kind: str,
        content: str,
        language: str | None = None,
        path: str | None = None,
        timestamp: int | None = None,
    ) -> str:
        """Persist a UI-only artifact ``{title, kind: markdown|code|diff|text|image, content, language?, path?}``."""
        data: dict[str, Any] = {"role": "artifact", "title": title, "kind": kind, "content": content}
        if language is not None:
            data["language"] = language
        if path is not None:
            data["path"] = path
        data["timestamp"] = timestamp or now_ms()
        return self.append_ui_message(data)

    def append_label_change(self, target_id: str, label: str | None) -> str:
        """Set (or clear with ``None``/``""``) the label of ``target_id``; raises :class:`EntryNotFoundError`."""
        if target_id not in self._by_id:
            raise EntryNotFoundError(target_id)
        return self._append_entry(
            LabelEntry.new(
                id=self._new_id(), parent_id=self._leaf_id, target_id=target_id, label=one_line(label or "") or None
            )
        )

    def append_session_info(self, name: str) -> str:
        """Set the session name (one line: line breaks become spaces, pi 0.80.0; trimmed; empty clears it)."""
        return self._append_entry(
            SessionInfoEntry.new(id=self._new_id(), parent_id=self._leaf_id, name=one_line(name))
        )

    # ------------------------------------------------------------------ branching

    def branch(self, branch_from_id: str) -> None:
        """Move the leaf to ``branch_from_id``; raises :class:`EntryNotFoundError`."""
        if branch_from_id not in self._by_id:
            raise EntryNotFoundError(branch_from_id)
        self._leaf_id = branch_from_id

    def reset_leaf(self) -> None:
        """Leaf → ``None``: the next append becomes a new root."""
        self._leaf_id = None

    def branch_with_summary(
        self, branch_from_id: str | None, summary: str, details: Any = None, from_hook: bool | None = None
    ) -> str:
        """Move the leaf to ``branch_from_id`` (``None`` = before the root) and append a ``branch_summary``."""
        if branch_from_id is not None and branch_from_id not in self._by_id:
            raise EntryNotFoundError(branch_from_id)
        self._leaf_id = branch_from_id
        return self._append_entry(
            BranchSummaryEntry.new(
                id=self._new_id(),
                parent_id=branch_from_id,
                from_id=branch_from_id if branch_from_id is not None else "root",
                summary=summary,
                details=details,
                from_hook=from_hook,
            )
        )

    def create_branched_session(self, leaf_id: str) -> Path | None:
        """Replace this session by a new one holding only the root → ``leaf_id`` path (plus its labels).

        The new session has a new id and ``parentSession`` = the old file; its file is written now only if the
        path contains an assistant message. Returns the new file path (``None`` in memory).
        Raises :class:`EntryNotFoundError` for an unknown id.
        """
        path = self.get_branch(leaf_id)
        if not path:
            raise EntryNotFoundError(leaf_id)
        previous_file = self._session_file if self.persist else None
        header = SessionHeader(
            id=new_session_id(), cwd=self.cwd, parent_session=str(previous_file) if previous_file else None
        )
        kept = path_with_labels(path, self._labels, self._label_timestamps)
        self._header = header
        self._reset_index(kept)
        self._writer = None
        if not self.persist or self.session_dir is None:
            return None
        self._session_file = self.session_dir / session_file_name(header.timestamp, header.id)
        if self._worth_saving:
            self._rewrite_file()
            self._flushed = True
        else:
            self._flushed = False
        return self._session_file

    def export_to_jsonl(self, output_path: str | os.PathLike[str] | None = None) -> Path:
        """Write header + the current branch, ``parentId``s re-chained linearly; returns the absolute path.

        Default path: ``session-<ts>.jsonl`` in the process cwd.
        """
        return export_branch_jsonl(self.session_id, self.cwd, self.get_branch(), output_path)

    # ------------------------------------------------------------------ listing

    @staticmethod
    def list_sessions(
        cwd: str, session_dir: str | os.PathLike[str] | None = None
    ) -> list[listing.SessionInfo]:
        """Sessions of ``cwd`` in its session dir (a custom one holds every folder's: only ``cwd``'s are listed),
        most recently active first (lazy metadata)."""
        directory = Path(session_dir) if session_dir is not None else get_default_session_dir(cwd)
        return listing.list_sessions_in_dir(directory, listing.folder_scope(directory, cwd))

    @staticmethod
    def list_all_sessions(sessions_dir: str | os.PathLike[str] | None = None) -> list[listing.SessionInfo]:
        """Sessions of every project directory under ``<agentDir>/sessions``, most recent first."""
        return listing.list_all_sessions(
            Path(sessions_dir) if sessions_dir is not None else get_sessions_dir()
        )


__all__ = [
    "UNSET",
    "EntryNotFoundError",
    "LoadedSession",
    "SessionContext",
    "SessionEntryBase",
    "SessionFileError",
    "SessionManager",
    "load_session_entries",
    "new_session_id",
    "session_file_name",
]
