"""Theme switcher: ships a theme and switches themes from a command (pi's theme management:
``ctx.ui.theme``, ``get_all_themes``, ``get_theme``, ``set_theme``; the theme comes in through
``resources_discover``'s ``theme_paths``, as pi extensions and packages add themes).

* The ``ember`` theme (``themes/ember.json`` next to this file) is listed by ``/theme`` and ``get_all_themes``.
* ``/theme-next`` switches to the next theme in the list (saved as the ``theme`` setting, as ``/theme`` does;
  ``ember`` is not saved: it exists only while this extension is loaded).
* ``/theme-peek NAME`` shows a sample of a theme's colours without switching to it.

``pi-tui -e examples/extensions/theme_switcher.py``
"""

from pathlib import Path

THEMES = Path(__file__).resolve().parent / "themes"


def activate(pi):
    def next_theme(args, ctx):
        names = [t["name"] for t in ctx.ui.get_all_themes()]
        if not names:
            ctx.ui.notify("No themes without a screen", "warning")
            return
        current = ctx.ui.theme.name
        name = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        result = ctx.ui.set_theme(name)
        if result["success"]:
            ctx.ui.notify(f"Theme: {ctx.ui.theme.fg('accent', name)}", "info")
        else:
            ctx.ui.notify(f"Theme {name} failed: {result['error']}", "error")

    def peek(args, ctx):
        theme = ctx.ui.get_theme(args.strip() or "ember")
        if theme is None:
            ctx.ui.notify(f"No theme {args.strip()!r}", "warning")
            return
        sample = " ".join(theme.fg(token, token) for token in ("accent", "success", "warning", "error", "muted"))
        ctx.ui.set_widget("theme-peek", [f"{theme.name}: {sample}"])

    pi.on("resources_discover", lambda event, ctx: {"theme_paths": [str(THEMES)]})
    pi.register_command("theme-next", next_theme, description="Switch to the next theme")
    pi.register_command("theme-peek", peek, description="Show a theme's colours without switching")
