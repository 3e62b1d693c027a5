"""Notifier: tell the user when the agent has finished and waits for input, so a long run can be
left alone. After each run that took at least ``--notify-after`` seconds (default 10) and was not
aborted, it sends a desktop notification (``$PI_TUI_NOTIFY_COMMAND``, else ``notify-send`` or
``osascript`` when installed) with the first line of the last reply, and puts it in the window title.
``pi-tui -e examples/extensions/notifier.py --notify-after=0``
"""

import os
import shlex
import shutil
import time


def desktop_command(title, body):
    """The argv that shows a desktop notification, or None when there is no way to."""
    custom = os.environ.get("PI_TUI_NOTIFY_COMMAND")
    if custom:
        return [*shlex.split(custom), title, body]
    if shutil.which("notify-send"):
        return ["notify-send", title, body]
    if shutil.which("osascript"):
        return ["osascript", "-e", f"display notification {body!r} with title {title!r}"]
    return None


def activate(pi):
    started = {"at": time.monotonic()}
    pi.register_flag("notify-after", "Notify when a run took at least this many seconds", type="string", default="10")

    async def finished(event, ctx):
        try:
            threshold = float(pi.get_flag("notify-after") or 10)
        except ValueError:
            threshold = 10.0
        replies = [m for m in event.messages if getattr(m, "role", None) == "assistant"]
        if not replies or getattr(replies[-1], "stop_reason", None) == "aborted":
            return
        if time.monotonic() - started["at"] < threshold:
            return
        lines = "".join(getattr(b, "text", "") for b in replies[-1].content).strip().splitlines()
        body = lines[0][:120] if lines else "Ready for input"
        argv = desktop_command("pi-tui: ready", body)
        if argv is not None:
            result = await pi.exec(argv[0], argv[1:], timeout_ms=5000)
            if result.code != 0:
                ctx.ui.notify(f"Notifier: {argv[0]} failed: {result.stderr.strip()[:200]}", "warning")
        ctx.ui.set_title(f"✓ pi-tui: {body}")

    pi.on("agent_start", lambda event: started.update(at=time.monotonic()))
    pi.on("agent_end", finished)
