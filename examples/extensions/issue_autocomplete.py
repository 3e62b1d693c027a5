"""Issue references in the editor: typing ``#`` completes issue numbers with their titles (pi's
``ctx.ui.add_autocomplete_provider``, its github-issue-autocomplete example's behaviour, without the network:
the issues come from ``.pi-tui/issues.txt`` in the project, one ``NUMBER TITLE`` a line, or a small demo list).
Anything else goes to the provider below (``/`` commands, ``@`` files still complete as before).
``pi-tui -e examples/extensions/issue_autocomplete.py``, then type ``see #`` and Tab.
"""

import re
from pathlib import Path

DEMO = [("2983", "Extension API for autocomplete"), ("2753", "Reload stale resource settings"),
        ("1024", "Footer wraps on narrow terminals")]
TRIGGER = re.compile(r"(?:^|[ \t])#([^\s#]*)$")


def load_issues(cwd):
    path = Path(cwd) / ".pi-tui" / "issues.txt"
    try:
        rows = [line.split(None, 1) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return DEMO
    return [(r[0].lstrip("#"), r[1] if len(r) > 1 else "") for r in rows]


class IssueProvider:
    """Suggests ``#NUMBER`` after a ``#``; delegates everything else to ``current``."""

    def __init__(self, current, issues):
        self.current = current
        self.issues = issues

    def get_suggestions(self, lines, line, col, options):
        before = lines[line][:col]
        match = TRIGGER.search(before)
        if not match:
            return self.current.get_suggestions(lines, line, col, options)
        typed = match.group(1)
        items = [{"value": f"#{number}", "label": f"#{number}", "description": title}
                 for number, title in self.issues if number.startswith(typed) or typed.lower() in title.lower()]
        return {"prefix": f"#{typed}", "items": items} if items else None

    def apply_completion(self, lines, line, col, item, prefix):
        return self.current.apply_completion(lines, line, col, item, prefix)


def activate(pi):
    def start(event, ctx):
        if ctx.has_ui:
            issues = load_issues(ctx.cwd)
            ctx.ui.add_autocomplete_provider(lambda current: IssueProvider(current, issues))

    pi.on("session_start", start)
