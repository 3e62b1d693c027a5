"""An HTML export of a session with thousands of entries is not blank (pi 1.5.0).

pi's export builds the page in the browser from embedded data; with thousands of entries that script failed and
the page stayed blank. pi-tui writes every entry as HTML and its small script only switches branches, walking
the tree without recursion. Checked in headless Chromium (skipped with the reason when it is not installed): the
script finishes, the last entry of a 4,000-entry session is on the page and shown.
"""

from __future__ import annotations

import re
from pathlib import Path

from pi_tui.coding.export_html import render_page
from pi_tui.coding.export_html.data import build_export_data
from pi_tui.coding.session.messages import message_from_json
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.export_html.chromium import chromium_or_skip, dump_dom

USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def test_a_four_thousand_entry_session_exports_a_page_that_shows_its_last_entry(tmp_path: Path) -> None:
    binary = chromium_or_skip()
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    last = ""
    for i in range(2000):
        manager.append_message(message_from_json({"role": "user", "content": [{"type": "text", "text": f"question {i}"}],
                                                  "timestamp": 1764590000000 + i}))
        last = manager.append_message(message_from_json({
            "role": "assistant", "content": [{"type": "text", "text": f"answer number {i}"}], "api": "x",
            "provider": "faux", "model": "faux-1", "stopReason": "stop", "usage": USAGE,
            "timestamp": 1764590000000 + i}))
    data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id())
    page = tmp_path / "big.html"
    page.write_text(render_page(data, "dark"), encoding="utf-8")
    dom = dump_dom(binary, page.as_uri())
    assert 'data-ready="1"' in dom  # the script ran to its end
    section = re.search(rf'<[^>]*id="entry-{re.escape(last)}"[^>]*>', dom)
    assert section is not None and "hidden" not in section.group(0)
    assert "answer number 1999" in dom and "question 0" in dom
