"""Custom footer: ``/footer`` swaps the built-in footer for a one-line one (pi's ``ctx.ui.set_footer``):
token totals and cost of the branch on the left, the model and git branch on the right; ``/footer`` again
restores the built-in footer. It also sets the working row's text while the agent runs
(``ctx.ui.set_working_message``). ``pi-tui -e examples/extensions/custom_footer.py``
"""


def fmt(n):
    return str(n) if n < 1000 else f"{n / 1000:.1f}k"


def footer_line(ctx, theme, branch, width):
    """The footer's one line at ``width`` (tokens from the session, the model from ``ctx``)."""
    tokens_in = tokens_out = 0
    cost = 0.0
    for entry in ctx.session_manager.get_branch():
        message = getattr(entry, "message", None)
        if getattr(entry, "type", "") == "message" and getattr(message, "role", "") == "assistant":
            tokens_in += message.usage.input
            tokens_out += message.usage.output
            cost += message.usage.cost.total
    left = f"↑{fmt(tokens_in)} ↓{fmt(tokens_out)} ${cost:.3f}"
    model = ctx.model.id if ctx.model is not None else "no-model"
    right = model + (f" ({branch})" if branch else "")
    pad = " " * max(1, width - len(left) - len(right))
    return theme.fg("dim", left) + pad + theme.fg("dim", right)


def activate(pi):
    state = {"on": False}

    def toggle(args, ctx):
        state["on"] = not state["on"]
        if state["on"]:
            def factory(tui, theme, footer_data):
                def render(width):
                    return [footer_line(ctx, theme, footer_data.get_git_branch(), width)]

                return render

            ctx.ui.set_footer(factory)
            ctx.ui.notify("Custom footer enabled", "info")
        else:
            ctx.ui.set_footer(None)
            ctx.ui.notify("Default footer restored", "info")

    pi.register_command("footer", toggle, description="Toggle the custom footer")

    def started(event, ctx):
        ctx.ui.set_working_message("Thinking it over...")

    pi.on("agent_start", started)
    pi.on("agent_end", lambda event, ctx: ctx.ui.set_working_message(None))
