"""Status line: a footer segment with the turn in progress, then the turns and context use of the last
run. ``pi-tui -e examples/extensions/status_line.py``
"""


def activate(pi):
    turns = {"n": 0}

    def context_text(ctx):
        usage = ctx.get_context_usage()
        percent = usage.get("percent") if usage else None
        return f" · {percent:.0f}% context" if isinstance(percent, int | float) else ""

    def turn_start(event, ctx):
        turns["n"] += 1
        ctx.ui.set_status("turns", f"● turn {turns['n']}…")

    def agent_end(event, ctx):
        noun = "turn" if turns["n"] == 1 else "turns"
        ctx.ui.set_status("turns", f"✓ {turns['n']} {noun}{context_text(ctx)}")
        turns["n"] = 0

    pi.on("session_start", lambda event, ctx: ctx.ui.set_status("turns", "ready"))
    pi.on("turn_start", turn_start)
    pi.on("agent_end", agent_end)
