"""The HTML export's "Models" line of a session with no messages yet said "unknown" (new-user run, issue 9's
class): the session has a model (its ``model_change`` entries, the live model), so the page names it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.export_html import export_session_to_html, render_page
from pi_tui.coding.export_html.data import build_export_data
from pi_tui.coding.session.session_manager import SessionManager


def _models_line(page: str) -> str:
    found = re.search(r"Models:</span>\s*<span[^>]*>([^<]*)<", page)
    assert found, "no Models line"
    return found.group(1)


def test_an_empty_live_session_names_its_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "cfg"))
    session = create_agent_session(str(tmp_path), no_session=True)  # nothing configured: the offline demo
    page = Path(export_session_to_html(session, str(tmp_path / "out.html"))).read_text()
    assert _models_line(page) == "pi-tui-offline/offline-demo"


def test_a_file_with_model_changes_but_no_messages_names_its_models(tmp_path: Path) -> None:
    manager = SessionManager.in_memory(str(tmp_path))
    manager.append_model_change("anthropic", "claude-a")
    manager.append_model_change("openai", "gpt-b")
    data = build_export_data(manager.get_header().to_json_dict(), manager.get_entries(), manager.get_leaf_id())
    assert _models_line(render_page(data)) == "anthropic/claude-a, openai/gpt-b"
