"""``pi-tui --mode acp``: pi-tui as an Agent Client Protocol agent (issue 14; DESIGN.md "Extensibility and the
outside world"), one more front end over ``AgentSession`` like print, json and rpc, built on the official
``agent-client-protocol`` SDK.

Parts: :mod:`.server` (stdio, run loop), :mod:`.transport` (NDJSON with JSON-RPC errors for bad lines),
:mod:`.agent` (the ACP methods), :mod:`.session_state` (one session: updates, prompt, cancel, modes,
config options), :mod:`.updates` and :mod:`.tool_calls` (events → updates), :mod:`.permissions`
(``session/request_permission`` gate and the ACP ``ExtensionUI``), :mod:`.prompt_content` (content blocks,
slash commands).
"""

from pi_tui.coding.modes.acp.server import run_acp_mode

__all__ = ["run_acp_mode"]
