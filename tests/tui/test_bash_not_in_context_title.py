"""tester2 #24: a ``!!cmd`` box (kept out of the model's context) looked like a ``!cmd`` box except for its border
colour, so with NO_COLOR, an ``ansi-*`` theme or colour-blind eyes nothing told them apart. Its title now says
``· not sent to the model`` in words (``· not sent`` in a narrow box), at every width (a long command is cut, never
the note)."""

from __future__ import annotations

import pytest

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.tool_items import BashItem


def _drawn(item: BashItem, width: int) -> list[str]:
    ctx = RenderContext(find_theme("dark"))
    return ["".join(seg.text for seg in strip) for strip in item.strips(ctx, width)]


@pytest.mark.parametrize("width", [30, 60, 120])
@pytest.mark.parametrize("command", ["echo SECRET-NOT-FOR-MODEL", "for i in $(seq 1 100); do echo " + "x" * 150 + "; done"])
def test_the_title_says_the_output_is_not_sent(width: int, command: str) -> None:
    hidden = BashItem(command, exclude=True)
    hidden.output, hidden.running, hidden.exit_code = "SECRET\n", False, 0
    shown = BashItem(command, exclude=False)
    shown.output, shown.running, shown.exit_code = "visible\n", False, 0
    top = _drawn(hidden, width)[0]
    assert ("not sent to the model" if width >= 60 else "not sent") in top and top.lstrip().startswith("╭─ $ ")
    assert len(top.rstrip()) <= width
    assert "not sent" not in "\n".join(_drawn(shown, width))
