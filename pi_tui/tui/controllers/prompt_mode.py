"""``prompt_mode``: the editor's border title (what the next Enter does) and colour (the thinking level), pi."""

from __future__ import annotations

from pi_tui.tui.keymap import Keymap
from pi_tui.tui.theme_loader import PiTheme

_THINKING_TOKENS = {"off": "thinkingOff", "minimal": "thinkingMinimal", "low": "thinkingLow",
                    "medium": "thinkingMedium", "high": "thinkingHigh", "xhigh": "thinkingXhigh"}


def prompt_mode(km: Keymap, theme: PiTheme, text: str, *, working: bool, compacting: bool, bash_running: bool,
                retry_countdown: bool, thinking_level: str, read_only: bool = False) -> tuple[str, str | None]:
    """``(title, colour)`` for the editor holding ``text``: bash mode for ``!``/``!!``, else queue-after-compaction,
    steer/follow-up (cancel the retry during a retry countdown, else abort), or send/newline; while a user
    ``!cmd`` runs and the agent is idle, Enter queues the text until the command ends and Escape cancels it. ``read_only`` (another pi-tui owns the session file, so
    nothing from this window is saved) starts the title with ``read-only: not saved`` in the warning colour (issue 9
    new-user run). ``colour`` is a hex string or None."""
    esc = km.first("app.interrupt")
    submit = km.first("tui.input.submit")
    thinking = theme.hex(_THINKING_TOKENS.get(thinking_level, "border")) or theme.hex("border")
    colour: str | None = thinking
    if text.startswith("!"):
        title = f"{submit}: run bash" + (" (not in context)" if text.startswith("!!") else "")
        colour = theme.hex("bashMode")
    elif compacting:
        title = f"{submit}: queue for after compaction · {esc}: cancel compaction"
    elif working and retry_countdown:
        title = f"{submit}: steer · {km.display('app.message.followUp')}: follow-up · {esc}: cancel the retry"
    elif working:
        title = f"{submit}: steer · {km.display('app.message.followUp')}: follow-up · {esc}: abort"
    elif bash_running:  # a prompt waits for the command, so the model gets its output first (tester2 #10)
        title = f"{submit}: send after the command · {esc}: cancel the running command"
    else:
        title = f"{submit}: send · {km.first('tui.input.newLine')}: newline"
    if read_only:
        title = f"read-only: not saved (/new starts your own session) · {title}"
        colour = theme.hex("warning") or colour
    return title, colour
