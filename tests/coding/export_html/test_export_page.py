"""The HTML export's page (pi's /export, rendered in Python): content, branches, tree, escaping, secrets,
theme colours, no network references. The browser checks are in test_export_browser.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pi_tui.ai.secret_redaction import REDACTED, clear_secrets, register_secret
from pi_tui.coding.export_html import export_file_to_html, render_page
from pi_tui.coding.export_html.data import build_export_data, export_data_from_file
from pi_tui.coding.export_html.tree import tree_rows
from pi_tui.coding.session.session_manager import SessionManager

from .sample import XSS, sample_file

KEY = "sk-live-EXPORTsecret123456"


@pytest.fixture(autouse=True)
def _fresh_secrets() -> Iterator[None]:
    clear_secrets()
    yield
    clear_secrets()


class Elements(HTMLParser):
    """Every start tag as (tag, attrs) and the text inside each <script> element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self.scripts.append(dict(attrs))


def _parse(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    return parser


def _page(tmp_path: Path, theme: str = "dark") -> tuple[str, dict[str, str], SessionManager]:
    manager, ids = sample_file(tmp_path, secret=KEY)
    data = build_export_data(
        manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id(),
        system_prompt=f"You are helpful. key={KEY}",
    )
    return render_page(data, theme), ids, manager


def _section(page: str, entry_id: str) -> str:
    match = re.search(rf'<section class="entry [^"]*" id="entry-{entry_id}"[^>]*>', page)
    assert match, f"no section for {entry_id}"
    return match.group(0)


def test_every_branch_is_in_the_page_and_only_the_current_one_is_shown(tmp_path: Path) -> None:
    page, ids, manager = _page(tmp_path)
    assert "hidden" not in _section(page, ids["leaf"])
    assert "hidden" not in _section(page, ids["first_user"])
    assert "hidden" in _section(page, ids["old_leaf"])  # the other branch is there, hidden until chosen
    assert "First branch answer." in page and "Done: <em>hello</em> everywhere." in page


def test_the_tree_sidebar_lists_every_entry_and_marks_the_leaf(tmp_path: Path) -> None:
    page, ids, manager = _page(tmp_path)
    tags = _parse(page).tags
    rows = [attrs for tag, attrs in tags if tag == "li" and "node" in str(attrs.get("class"))]
    assert [r["data-id"] for r in rows] == [r.entry["id"] for r in tree_rows(export_data_from_file(str(manager.get_session_file())))]
    assert len(rows) == len(manager.get_entries())
    leaf = [r for r in rows if "leaf" in str(r["class"]).split()]
    assert [r["data-id"] for r in leaf] == [ids["leaf"]]
    old = next(r for r in rows if r["data-id"] == ids["old_leaf"])
    assert "on-path" not in str(old["class"]).split()
    assert '<span class="tree-label">[start-here]</span>' in page  # the label on its entry's row
    assert "├─ " in page and "└─ " in page  # the fork after the first user message is drawn


def test_tool_calls_are_collapsed_with_their_output_and_thinking_has_a_toggle(tmp_path: Path) -> None:
    page, _, _ = _page(tmp_path)
    tags = _parse(page).tags
    tool_blocks = [a for t, a in tags if t == "details" and "tool-call" in str(a.get("class"))]
    assert len(tool_blocks) == 4  # read, bash, edit and the user's !git status
    assert all("open" not in a for a in tool_blocks)
    assert [a.get("data-tool") for a in tool_blocks] == ["read", "bash", "edit", None]
    read_block = page[page.index('data-call-id="call_read"'):page.index('data-call-id="call_bash"')]
    assert "print" in read_block and '<span class="nb">print</span>' in read_block  # its output, as Python
    assert re.search(r'class="tool-call error" data-tool="bash"', page)  # the failed result is marked
    assert '<span class="diff-added">' not in page and '<div class="diff-added">+    print(&#x27;hello&#x27;)</div>' in page
    thinking = [a for t, a in tags if t == "details" and a.get("class") == "thinking"]
    assert len(thinking) == 1 and "open" in thinking[0]
    assert 'id="toggle-thinking"' in page and 'id="toggle-tools"' in page


def test_ui_only_messages_are_shown_as_such(tmp_path: Path) -> None:
    page, _, _ = _page(tmp_path)
    assert page.count("shown to the user only, not sent to the model") == 2
    assert 'class="notification-text level-warning">Retrying in 2 s' in page
    assert "<h1>Notes</h1>" in page  # the markdown artifact is rendered


def test_markdown_and_code_are_rendered_and_highlighted(tmp_path: Path) -> None:
    page, _, _ = _page(tmp_path)
    assert "<strong>hello.py</strong>" in page
    assert '<pre class="code" data-lang="python"><code><span class="k">def</span>' in page
    assert "<table>" in page and "<td>1</td>" in page
    assert "pre .k,pre .kc" in page  # Pygments classes coloured by the theme's syntax tokens


def test_scripts_and_markup_in_messages_and_tool_output_are_escaped(tmp_path: Path) -> None:
    page, _, _ = _page(tmp_path)
    parsed = _parse(page)
    assert len(parsed.scripts) == 2  # the tree data (JSON, not run) and the page's own script
    assert parsed.scripts[0].get("type") == "application/json" and parsed.scripts[1].get("nonce")
    assert not any(t == "img" and "onerror" in a for t, a in parsed.tags)
    assert "window.__pwned" in page  # the text is there, escaped
    assert XSS not in page and "&lt;script&gt;window.__pwned" in page


def test_the_page_fetches_nothing(tmp_path: Path) -> None:
    page, _, _ = _page(tmp_path)
    tags = _parse(page).tags
    for tag, attrs in tags:
        for name in ("src", "href"):
            value = str(attrs.get(name) or "")
            if name == "src" or tag == "link":
                assert value == "" or value.startswith("data:"), (tag, attrs)
    assert "default-src 'none'" in page and "@import" not in page and "url(" not in page


def test_secrets_never_reach_the_page(tmp_path: Path) -> None:
    register_secret(KEY)
    page, _, _ = _page(tmp_path)
    assert KEY not in page
    assert REDACTED in page  # in the bash output and in the system prompt


def test_a_secret_in_highlighted_code_is_redacted_before_highlighting(tmp_path: Path) -> None:
    register_secret(KEY)
    manager = SessionManager.in_memory(str(tmp_path))
    from .sample import _result  # noqa: PLC0415 (test helper)

    manager.append_message(_result("c1", "read", f'API_KEY = "{KEY}"\n'))
    data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id())
    page = render_page(data)
    assert "sk-live" not in page and "EXPORTsecret" not in page


@pytest.mark.parametrize(("theme", "page_bg"), [("dark", "#18181e"), ("light", "#f8f8f8"), ("nord", "#2e3440")])
def test_the_theme_colours_are_used(tmp_path: Path, theme: str, page_bg: str) -> None:
    page, _, _ = _page(tmp_path, theme)
    assert f"--exportPageBg:{page_bg};" in page
    assert "background:var(--exportPageBg)" in page


def test_a_long_chain_and_many_branches_do_not_recurse(tmp_path: Path) -> None:
    manager = SessionManager.in_memory(str(tmp_path))
    first = manager.append_notification("info", "start")
    for i in range(3000):
        manager.append_notification("info", f"n{i}")
    for _ in range(3):
        manager.branch(first)
        manager.append_notification("info", "side")
    data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id())
    rows = tree_rows(data)
    assert len(rows) == 3004
    assert max(len(r.prefix) for r in rows) == 3  # only the fork indents: a chain stays at one level
    assert render_page(data).count('class="entry notification"') == 3004


def test_export_from_file_writes_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manager, ids = sample_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    path = export_file_to_html(str(manager.get_session_file()))
    assert Path(path).name == f"pi-tui-session-{Path(str(manager.get_session_file())).stem}.html"
    page = Path(path).read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and ids["leaf"] in page
    with pytest.raises(FileNotFoundError, match="File not found"):
        export_file_to_html(str(tmp_path / "missing.jsonl"))
