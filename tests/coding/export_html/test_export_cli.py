"""``pi-tui --export <session.jsonl> [out.html]`` (pi's flag): writes the page, prints the path, exits 0; a
missing file is ``Error: File not found: ...`` and exit 1. Keys from the environment are redacted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.secret_redaction import clear_secrets
from pi_tui.cli import main

from .sample import sample_file

KEY = "sk-env-CLIexport0987654321"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    clear_secrets()
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.chdir(tmp_path)
    yield
    clear_secrets()


def test_export_flag_writes_the_page_to_the_given_path(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    manager, ids = sample_file(tmp_path, secret=KEY)  # written before the key is known: it is in the file
    assert KEY in Path(str(manager.get_session_file())).read_text(encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    out = tmp_path / "page.html"
    assert main(["--export", str(manager.get_session_file()), str(out), "--theme", "light"]) == 0
    assert capsys.readouterr().out.strip() == f"Exported to: {out}"
    page = out.read_text(encoding="utf-8")
    assert ids["leaf"] in page and "--exportPageBg:#f8f8f8;" in page
    assert KEY not in page and "[REDACTED]" in page


def test_export_flag_default_path_and_settings_theme(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "settings.json").write_text('{"theme": "nord"}', encoding="utf-8")
    manager, _ = sample_file(tmp_path)
    session_file = Path(str(manager.get_session_file()))
    assert main(["--export", str(session_file)]) == 0
    written = tmp_path / f"pi-tui-session-{session_file.stem}.html"
    assert capsys.readouterr().out.strip() == f"Exported to: pi-tui-session-{session_file.stem}.html"
    assert "--exportPageBg:#2e3440;" in written.read_text(encoding="utf-8")


def test_export_flag_with_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--export", str(tmp_path / "nope.jsonl")]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"Error: File not found: {tmp_path / 'nope.jsonl'}"


def test_export_flag_into_a_missing_folder_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manager, _ = sample_file(tmp_path)
    assert main(["--export", str(manager.get_session_file()), str(tmp_path / "no" / "x.html")]) == 1
    assert "Cannot write" in capsys.readouterr().err
