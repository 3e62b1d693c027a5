"""Session persistence: pi's v3 JSONL session files (pi-reference §3.4).

Public API: :class:`SessionManager` (create/open/continue_recent/in_memory, appends, tree, branching,
forking, export, listing), :func:`build_session_context`, the entry models of :mod:`.entries`.
"""

from pi_tui.coding.session.context import SessionContext, build_session_context
from pi_tui.coding.session.entries import (
    ARTIFACT_CUSTOM_TYPE,
    CURRENT_SESSION_VERSION,
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
    SessionHeader,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
    UnknownEntry,
)
from pi_tui.coding.session.listing import SessionInfo
from pi_tui.coding.session.messages import register_message_role
from pi_tui.coding.session.session_manager import SessionFileError, SessionManager
from pi_tui.coding.session.tree import SessionTreeNode

__all__ = [
    "ARTIFACT_CUSTOM_TYPE",
    "CURRENT_SESSION_VERSION",
    "NOTIFICATION_CUSTOM_TYPE",
    "BranchSummaryEntry",
    "CompactionEntry",
    "CustomEntry",
    "CustomMessageEntry",
    "EntryNotFoundError",
    "LabelEntry",
    "MessageEntry",
    "ModelChangeEntry",
    "SessionContext",
    "SessionEntry",
    "SessionHeader",
    "SessionInfo",
    "SessionFileError",
    "SessionInfoEntry",
    "SessionManager",
    "SessionTreeNode",
    "ThinkingLevelChangeEntry",
    "UnknownEntry",
    "build_session_context",
    "register_message_role",
]
