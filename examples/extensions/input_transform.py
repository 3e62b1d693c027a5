"""Input transform: rewrite or answer what the user types before the model sees it.

* ``?quick <question>`` is sent as "Answer briefly, in one or two sentences: <question>";
* ``ping`` is answered ``pong`` at once, without the model;
* ``#tag`` words at the start become a line the model reads: ``#tests fix it`` → "[Focus: tests] fix it".
Messages that extensions send are left alone. ``pi-tui -e examples/extensions/input_transform.py``
"""

import re


def activate(pi):
    def transform(event, ctx):
        if event.source == "extension":
            return None
        text = event.text
        if text.strip().lower() == "ping":
            ctx.ui.notify("pong")
            return {"action": "handled"}
        if text.startswith("?quick"):
            question = text[len("?quick"):].strip()
            if not question:
                ctx.ui.notify("Usage: ?quick <question>", "warning")
                return {"action": "handled"}
            return {"action": "transform", "text": f"Answer briefly, in one or two sentences: {question}"}
        tags = re.match(r"^((?:#\w+\s+)+)(.*)$", text, re.DOTALL)
        if tags:
            focus = ", ".join(t.lstrip("#") for t in tags.group(1).split())
            return {"action": "transform", "text": f"[Focus: {focus}] {tags.group(2)}"}
        return None

    pi.on("input", transform)
