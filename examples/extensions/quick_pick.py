"""Quick pick: a small list component shown with ``ctx.ui.custom`` (pi's ``ui.custom``, as its
questionnaire/preset examples use it): ``/pick`` asks which kind of change to make next (Up/Down move, Enter
chooses, Esc cancels) and puts a matching request in the editor; ``/pick overlay`` shows it floating over the
transcript instead. ``pi-tui -e examples/extensions/quick_pick.py``
"""

CHOICES = [
    ("fix", "Fix a bug", "Find and fix the bug in "),
    ("test", "Write tests", "Write tests for "),
    ("refactor", "Refactor", "Refactor, keeping behaviour: "),
    ("explain", "Explain code", "Explain how this works: "),
]


class Picker:
    """A component: ``render(width)`` lines and ``handle_input(key)``; calls ``done(value)`` to close."""

    def __init__(self, tui, theme, keybindings, done):
        self.tui, self.theme, self.keybindings, self.done = tui, theme, keybindings, done
        self.index = 0

    def render(self, width):
        lines = [self.theme.bold("What next?"), ""]
        for i, (_key, label, _prompt) in enumerate(CHOICES):
            mark = "›" if i == self.index else " "
            text = f"{mark} {label}"
            lines.append(self.theme.fg("accent", text) if i == self.index else text)
        lines += ["", self.theme.fg("dim", "↑↓ move · Enter choose · Esc cancel")]
        return lines

    def handle_input(self, key):
        if key in ("up", "k"):
            self.index = (self.index - 1) % len(CHOICES)
        elif key in ("down", "j"):
            self.index = (self.index + 1) % len(CHOICES)
        elif key == "enter" or self.keybindings.matches(key, "tui.input.submit"):
            self.done(CHOICES[self.index][0])
        elif key == "escape":
            self.done(None)


def activate(pi):
    async def pick(args, ctx):
        choice = await ctx.ui.custom(Picker, overlay=args.strip() == "overlay")
        if choice is None:
            ctx.ui.notify("Nothing picked", "info")
            return
        prompt = next(p for key, _label, p in CHOICES if key == choice)
        ctx.ui.set_editor_text(prompt)
        ctx.ui.notify(f"Picked: {choice}", "info")

    pi.register_command("pick", pick, description="Pick the kind of change to ask for next")
