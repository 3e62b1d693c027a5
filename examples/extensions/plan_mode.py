"""Plan mode: explore with read-only tools until the user approves a plan.

``/plan`` (or ``--plan``) turns it on: the model keeps only ``read, grep, find, ls`` and ``bash`` limited to
read-only commands, and is asked to end with a numbered list under ``Plan:``. When it has written one,
the user picks "Execute the plan" (all tools come back, the steps are shown above the editor and the
model is told to carry them out), "Stay in plan mode" or "Refine" (type what to change).
``pi-tui -e examples/extensions/plan_mode.py``
"""

import re

PLAN_TOOLS = ("read", "grep", "find", "ls", "bash")
SAFE_BASH = re.compile(r"^\s*(cat|head|tail|less|wc|ls|pwd|tree|grep|rg|find|fd|file|stat|du|df|which|echo|date|"
                       r"git\s+(status|log|diff|show|branch|blame))\b")
UNSAFE_BASH = re.compile(r"[>;&|`]|\$\(|\b(rm|mv|cp|mkdir|touch|sudo|tee|sed\s+-i)\b")
PROMPT = ("\n\nPLAN MODE: you may only read and explore (no edits, no commands that change anything). "
          "End your reply with a numbered list of steps under a line 'Plan:'.")
EXECUTE, STAY, REFINE = "Execute the plan", "Stay in plan mode", "Refine the plan"


def plan_steps(text):
    """The numbered steps after a ``Plan:`` line of ``text``."""
    _, found, after = text.partition("Plan:")
    return [m.group(1).strip() for m in re.finditer(r"^\s*\d+[.)]\s+(.+)$", after, re.MULTILINE)] if found else []


def activate(pi):
    state = {"on": False, "tools": None}
    pi.register_flag("plan", "Start in plan mode")

    def enter(ctx):
        state["on"], state["tools"] = True, pi.get_active_tools()
        pi.set_active_tools([t for t in PLAN_TOOLS if t in {x["name"] for x in pi.get_all_tools()}])
        ctx.ui.set_status("plan", "⏸ plan mode")

    def leave(ctx):
        state["on"] = False
        pi.set_active_tools(state["tools"] or pi.get_active_tools())
        ctx.ui.set_status("plan", None)

    def toggle(args, ctx):
        (leave if state["on"] else enter)(ctx)
        ctx.ui.notify("Plan mode on: read-only tools" if state["on"] else "Plan mode off: all tools")

    def start(event, ctx):
        if pi.get_flag("plan") and not state["on"]:
            enter(ctx)

    def block_writes(event, ctx):
        if not state["on"]:
            return None
        if event.tool_name not in PLAN_TOOLS:
            return {"block": True, "reason": f"Plan mode: {event.tool_name} is not allowed until the plan is approved"}
        command = str(event.input.get("command", "")) if event.tool_name == "bash" else ""
        if command and (not SAFE_BASH.match(command) or UNSAFE_BASH.search(command)):
            return {"block": True, "reason": f"Plan mode: only read-only commands may run ({command!r} is not one)"}
        return None

    def add_prompt(event, ctx):
        return {"system_prompt": event.system_prompt + PROMPT} if state["on"] else None

    async def review(event, ctx):
        if not state["on"] or not ctx.has_ui:
            return
        replies = [m for m in event.messages if getattr(m, "role", None) == "assistant"]
        text = "".join(getattr(b, "text", "") for b in replies[-1].content) if replies else ""
        steps = plan_steps(text)
        if not steps:
            return
        choice = await ctx.ui.select(f"Plan with {len(steps)} steps ready", [EXECUTE, STAY, REFINE])
        if choice == EXECUTE:
            leave(ctx)
            ctx.ui.set_widget("plan", [f"☐ {i}. {step}" for i, step in enumerate(steps, 1)])
            pi.send_message({"custom_type": "plan-execute", "display": True,
                             "content": "The plan is approved. Carry it out step by step:\n"
                             + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))}, trigger_turn=True)
        elif choice == REFINE:
            change = await ctx.ui.input("What should change in the plan?")
            if change:
                pi.send_user_message(change)

    pi.register_command("plan", toggle, "Toggle plan mode (read-only tools until a plan is approved)")
    pi.on("session_start", start)
    pi.on("tool_call", block_writes)
    pi.on("before_agent_start", add_prompt)
    pi.on("agent_end", review)
