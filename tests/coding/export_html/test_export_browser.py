"""The exported page in a real browser (headless Chromium): the script runs under the page's CSP, the current
branch is shown with tool calls collapsed, the tree sidebar lists every entry, a link to an entry of another
branch switches to it, markup in messages never runs, nothing is fetched (a loopback server counts requests),
and a screenshot shows the theme's colours. Skipped, with the reason, when Chromium is not installed."""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.export_html import render_page
from pi_tui.coding.export_html.data import build_export_data

from .chromium import chromium_or_skip, dump_dom, screenshot
from .png_pixels import Png
from .sample import sample_file


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        _Counter.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's name)
        return


@pytest.fixture(scope="module")
def loopback() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, loopback: str) -> tuple[Path, dict[str, str], int]:
    chromium_or_skip()
    tmp_path = tmp_path_factory.mktemp("export-browser")
    manager, ids = sample_file(tmp_path)
    # Every way a message could make the page fetch something, pointed at the counting server.
    manager.append_notification("info", f'<link rel="stylesheet" href="{loopback}/notice.css">')
    from pi_tui.coding.session.messages import message_from_json

    ids["leaf"] = manager.append_message(message_from_json({
        "role": "assistant", "api": "x", "provider": "faux", "model": "faux-1", "stopReason": "stop",
        "content": [{"type": "text", "text": f"![remote]({loopback}/img.png) <iframe src=\"{loopback}/frame\"></iframe>"
                                              f" <img src=\"{loopback}/raw.png\"> [a link]({loopback}/link)"}],
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "timestamp": 1764590000000,
    }))
    data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id())
    page = tmp_path / "session.html"
    page.write_text(render_page(data, "dark"), encoding="utf-8")
    return page, ids, len(manager.get_entries())


@pytest.fixture(scope="module")
def default_dom(exported: tuple[Path, dict[str, str], int]) -> tuple[str, list[str]]:
    """The DOM of the page opened without a fragment, and the requests the loopback server saw meanwhile."""
    _Counter.hits.clear()
    dom = dump_dom(chromium_or_skip(), exported[0].as_uri())
    return dom, list(_Counter.hits)


def _sections(dom: str) -> dict[str, bool]:
    """entry id → visible (no ``hidden`` attribute) in a dumped DOM."""
    found = re.findall(r'<section class="entry [^"]*" id="entry-([0-9a-f]+)" data-id="[0-9a-f]+"( hidden="")?', dom)
    return {entry_id: not hidden for entry_id, hidden in found}


def test_the_page_in_chromium_shows_the_current_branch(
    exported: tuple[Path, dict[str, str], int], default_dom: tuple[str, list[str]]
) -> None:
    _, ids, entry_count = exported
    dom = default_dom[0]
    assert 'data-ready="1"' in dom  # the page's own script ran under its CSP
    assert "<title>PWNED</title>" not in dom and "__pwned" in dom  # the injected script is text, not code
    visible = _sections(dom)
    assert visible[ids["leaf"]] and visible[ids["first_user"]] and not visible[ids["old_leaf"]]
    tools = re.findall(r'<details class="tool-call[^"]*"[^>]*>', dom)
    assert tools and all(" open" not in tag for tag in tools)  # collapsed
    rows = re.findall(r'<li class="node[^"]*" data-id="([0-9a-f]+)"', dom)
    assert len(rows) == entry_count
    assert re.search(rf'<li class="node[^"]*\bleaf\b[^"]*" data-id="{ids["leaf"]}"', dom)


def test_a_link_to_an_entry_of_another_branch_switches_to_it(exported: tuple[Path, dict[str, str], int]) -> None:
    page, ids, _ = exported
    dom = dump_dom(chromium_or_skip(), page.as_uri() + f"#entry-{ids['old_leaf']}")
    visible = _sections(dom)
    assert visible[ids["old_leaf"]] and not visible[ids["leaf"]] and visible[ids["first_user"]]
    assert re.search(rf'<li class="node[^"]*\bon-path\b[^"]*" data-id="{ids["old_leaf"]}"', dom)


def test_opening_the_page_fetches_nothing(default_dom: tuple[str, list[str]]) -> None:
    dom, hits = default_dom
    assert 'data-ready="1"' in dom and hits == []  # remote image, <link>, <iframe>, <img> all stayed text


def test_a_screenshot_shows_the_theme_colours(exported: tuple[Path, dict[str, str], int], tmp_path: Path) -> None:
    page, _, _ = exported
    shot = Png(screenshot(chromium_or_skip(), page.as_uri(), tmp_path / "shot.png"))
    assert (shot.width, shot.height) == (1400, 900)
    assert shot.pixel(shot.width - 5, shot.height - 5) == (0x18, 0x18, 0x1E)  # dark's export.pageBg
    assert shot.pixel(5, shot.height - 60) == (0x1E, 0x1E, 0x24)  # the sidebar: export.cardBg
