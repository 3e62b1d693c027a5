"""Extension events of tree navigation: ``session_before_tree`` and ``session_tree`` (pi docs/extensions.md
"session_before_tree / session_tree", docs/compaction.md "session_before_tree").

:func:`install_tree_hooks` fills the session's two tree seams (``SessionHooks.session_before_tree`` /
``session_tree``, called by ``TreeNavigator.navigate``) with dispatchers over the extension runner. A
``session_before_tree`` handler gets :class:`~pi_tui.coding.extensions.events.SessionBeforeTreeEvent`
(``preparation``: ``target_id``, ``old_leaf_id``, ``common_ancestor_id``, ``entries_to_summarize``,
``user_wants_summary``, ``custom_instructions``, ``replace_instructions``, ``label``; ``signal``) and may return
``{"cancel": True}`` (the first cancel wins), ``{"summary": {"summary", "details"?}}`` (used when the user asked
for a summary; the first one wins) and ``custom_instructions`` / ``replace_instructions`` / ``label`` overrides
(pi's camelCase names work too; later handlers override earlier ones). Anything else is reported as the
extension's error and ignored. ``session_tree`` handlers get the navigation's
:class:`~pi_tui.coding.agent_session.tree_navigation.SessionTreeEvent`.
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.extensions.events import SessionBeforeTreeEvent

OVERRIDES = (("custom_instructions", "customInstructions"), ("replace_instructions", "replaceInstructions"),
             ("label", "label"))


def install_tree_hooks(hooks: Any, runner: Any) -> None:
    """Set ``hooks.session_before_tree`` and ``hooks.session_tree`` to dispatch to ``runner``'s handlers."""

    async def before_tree(preparation: Any, signal: Any) -> dict[str, Any] | None:
        if not runner.has_handlers("session_before_tree"):
            return None
        merged: dict[str, Any] = {}
        for extension, result in await runner.emit("session_before_tree", SessionBeforeTreeEvent(preparation, signal)):
            if not isinstance(result, dict):
                runner.fail(extension, "session_before_tree",
                            f"returned {type(result).__name__}, expected None or a dict")
                continue
            if result.get("cancel"):
                return {"cancel": True}
            summary = result.get("summary")
            if isinstance(summary, dict) and isinstance(summary.get("summary"), str) and "summary" not in merged:
                merged["summary"] = summary
            for snake, camel in OVERRIDES:
                for key in (snake, camel):
                    if key in result:
                        merged[camel] = result[key]
        return merged or None

    async def session_tree(event: Any) -> None:
        if runner.has_handlers("session_tree"):
            await runner.emit("session_tree", event)

    hooks.session_before_tree = before_tree
    hooks.session_tree = session_tree
