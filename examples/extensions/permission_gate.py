"""Permission gate: ask before a dangerous bash command or a write outside the project.

Claude-Code-style approvals. For a risky call the user picks:
  * "Allow once": this call runs;
  * "Allow for this session": this call runs, and the same command (or any write into the same folder)
    is not asked about again until the session ends;
  * "Deny": the call is blocked; the user may give a reason, which the model is told.
Without a UI (print and JSON mode) a risky call is blocked. Try: ``pi-tui -e examples/extensions/permission_gate.py``
"""

import os
import re

DANGEROUS = [re.compile(p, re.IGNORECASE) for p in (
    r"\brm\s+(-[a-z]*[rf][a-z]*|--recursive|--force)\b",
    r"\bsudo\b",
    r"\b(chmod|chown)\b.*\b777\b",
    r"\bgit\s+(push\s.*--force|reset\s+--hard|clean\s+-[a-z]*f)",
    r"\b(mkfs|shutdown|reboot)\b|\bdd\s+if=",
)]
ALLOW_ONCE, ALLOW_SESSION, DENY = "Allow once", "Allow for this session", "Deny"


def risk(tool_name, args, cwd):
    """``(question, key remembered by "Allow for this session")`` for a risky call, else None."""
    if tool_name == "bash":
        command = str(args.get("command", ""))
        if any(pattern.search(command) for pattern in DANGEROUS):
            return f"Run this command?\n\n  {command}", f"bash:{command}"
    elif tool_name in ("write", "edit"):
        path = os.path.realpath(os.path.join(cwd, os.path.expanduser(str(args.get("path", "")))))
        root = os.path.realpath(cwd)
        if os.path.commonpath([path, root]) != root:
            return f"{tool_name.capitalize()} outside the project?\n\n  {path}", f"dir:{os.path.dirname(path)}"
    return None


def activate(pi):
    allowed = set()

    async def gate(event, ctx):
        found = risk(event.tool_name, event.input, ctx.cwd)
        if found is None or found[1] in allowed:
            return None
        question, key = found
        if not ctx.has_ui:
            return {"block": True, "reason": "Blocked: this call needs the user's approval and there is no UI"}
        choice = await ctx.ui.select(question, [ALLOW_ONCE, ALLOW_SESSION, DENY])
        if choice == ALLOW_SESSION:
            allowed.add(key)
        if choice in (ALLOW_ONCE, ALLOW_SESSION):
            return None
        reason = await ctx.ui.input("Denied. Tell the agent why? (optional)", "reason")
        return {"block": True, "reason": f"Denied by the user: {reason}" if reason else "Denied by the user"}

    pi.on("tool_call", gate)
    pi.on("session_start", lambda event: allowed.clear())
