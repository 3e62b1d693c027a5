"""Session persistence: pi's v3 JSONL session files (pi-reference §3.4).

Public API: :class:`SessionManager` (create/open/continue_recent/in_memory, appends, tree, branching,
forking, export, listing), :func:`build_session_context`, the entry models of :mod:`.entries`.

Importing the package imports none of its modules: each name below loads its module on first use
(``pi_tui.lazy_exports``; issue 15, the first paint must not pay for modules it does not use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
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

_EXPORTS = {
    "SessionContext": ".context", "build_session_context": ".context", "ARTIFACT_CUSTOM_TYPE": ".entries",
    "CURRENT_SESSION_VERSION": ".entries", "NOTIFICATION_CUSTOM_TYPE": ".entries", "BranchSummaryEntry": ".entries",
    "CompactionEntry": ".entries", "CustomEntry": ".entries", "CustomMessageEntry": ".entries",
    "EntryNotFoundError": ".entries", "LabelEntry": ".entries", "MessageEntry": ".entries",
    "ModelChangeEntry": ".entries", "SessionEntry": ".entries", "SessionHeader": ".entries",
    "SessionInfoEntry": ".entries", "ThinkingLevelChangeEntry": ".entries", "UnknownEntry": ".entries",
    "SessionInfo": ".listing", "register_message_role": ".messages", "SessionFileError": ".session_manager",
    "SessionManager": ".session_manager", "SessionTreeNode": ".tree",
}
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

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
