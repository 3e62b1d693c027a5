"""Custom header: replaces the built-in header with a small banner when the session starts (pi's
``ctx.ui.set_header``); ``/builtin-header`` puts the built-in one back. ``pi-tui -e examples/extensions/custom_header.py``
"""

BANNER = ["  ┏━━━━━━━━┓", "  ┗┓ ┏┓ ┏┛", "   ┃ ┃┃ ┃ "]


class Banner:
    """A component: ``render(width)`` returns the lines; ``invalidate()`` is called before a redraw."""

    def __init__(self, theme, cwd):
        self.theme = theme
        self.cwd = cwd

    def render(self, width):
        lines = [self.theme.fg("accent", line) for line in BANNER]
        return [*lines, self.theme.fg("muted", f"   pi-tui in {self.cwd}")]  # the app cuts lines to the width

    def invalidate(self):
        pass


def activate(pi):
    def started(event, ctx):
        if ctx.has_ui:
            ctx.ui.set_header(lambda tui, theme: Banner(theme, ctx.cwd))

    def builtin(args, ctx):
        ctx.ui.set_header(None)
        ctx.ui.notify("Built-in header restored", "info")

    pi.on("session_start", started)
    pi.register_command("builtin-header", builtin, description="Restore the built-in header")
