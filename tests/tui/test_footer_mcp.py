"""Footer: a short MCP state at the end of line 1 when a server failed (issue 13)."""

from __future__ import annotations

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.footer import FooterData, footer_lines


def test_footer_shows_failed_mcp_state_right_aligned_in_error_colour() -> None:
    theme = find_theme("dark")
    a, _ = footer_lines(FooterData(cwd="~/p", branch="main", mcp_state="MCP: git failed"), theme, 60)
    assert a.plain.startswith("~/p (main)") and a.plain.endswith("MCP: git failed") and len(a.plain) == 60
    assert [str(s.style) for s in a.spans if a.plain[s.start:s.end] == "MCP: git failed"] == [str(theme.fg("error"))]
    long, _ = footer_lines(FooterData(cwd="~/" + "x" * 80, mcp_state="MCP: 2 servers failed"), theme, 60)
    assert long.plain.endswith("MCP: 2 servers failed") and "..." in long.plain and len(long.plain) <= 60
    plain, _ = footer_lines(FooterData(cwd="~/p"), theme, 60)
    assert plain.plain == "~/p"
    tiny, _ = footer_lines(FooterData(cwd="~/p", mcp_state="MCP: 2 servers failed"), theme, 20)
    assert tiny.plain == "~/p"  # no room: the location stays
