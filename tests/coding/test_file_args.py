"""pi_tui.coding.file_args: the CLI's @file arguments and the editor's @ mentions share one reader
(pi 0.73.1 cli/file-processor.js)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.cli import _read_file_args
from pi_tui.coding.file_args import attach_mentions, mentioned_paths, read_file_args


def test_text_files_become_file_blocks_and_empty_files_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha")
    (tmp_path / "empty.txt").write_text("")
    files = read_file_args(["a.txt", "empty.txt", "a.txt"], str(tmp_path))
    assert files.text == f'<file name="{tmp_path / "a.txt"}">\nalpha\n</file>\n'
    assert files.attached == [str(tmp_path / "a.txt")] and files.problems == []


def test_problems_are_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00bad")
    (tmp_path / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 10)
    (tmp_path / "dir").mkdir()
    files = read_file_args(["missing.txt", "bin.dat", "pic.png", "dir"], str(tmp_path))
    assert files.text == ""
    assert files.problems[0] == f"File not found: {tmp_path / 'missing.txt'}"
    assert "not a UTF-8 text file" in files.problems[1]
    assert files.problems[2].startswith(f"Could not read image {tmp_path / 'pic.png'}: ")  # corrupt
    assert "is a directory" in files.problems[3]


def test_the_cli_exits_with_the_first_problem(tmp_path: Path) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe")
    with pytest.raises(SystemExit, match="Error: Could not read file .*bin.dat: not a UTF-8 text file"):
        _read_file_args(["bin.dat"], str(tmp_path))  # was an uncaught UnicodeDecodeError


def test_mentions(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("A")
    (tmp_path / "my notes.md").write_text("N")
    text = 'look at @src/a.py, @"my notes.md" and @src/a.py again; mail me@src/a.py, @team @src'
    assert mentioned_paths(text, str(tmp_path)) == ["src/a.py", "my notes.md"]
    sent, files = attach_mentions(text, str(tmp_path))
    assert sent == (f'<file name="{tmp_path / "src" / "a.py"}">\nA\n</file>\n'
                    f'<file name="{tmp_path / "my notes.md"}">\nN\n</file>\n' + text)
    assert files.problems == []
    assert attach_mentions("no mentions", str(tmp_path))[0] == "no mentions"


def test_interactive_cli_hands_file_text_and_images_to_the_app(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``pi-tui @shot.png @notes.md "what?"``: the app gets the message as typed, the file blocks apart (sent in
    front of it, never searched for paths) and the image paths (pending attachments of the first message)."""
    import sys
    from types import SimpleNamespace

    from PIL import Image

    import pi_tui.tui.app as app_module
    import pi_tui.tui.early_input as early_input
    from pi_tui.cli import main

    Image.new("RGB", (8, 8)).save(tmp_path / "shot.png")
    (tmp_path / "notes.md").write_text("n")
    seen: list[dict[str, object]] = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(early_input, "hold_typed_keys", lambda: SimpleNamespace(restore=lambda: None,
                                                                                typed_ahead=""))
    monkeypatch.setattr(app_module, "run_app", lambda options: seen.append(options) or 0)
    assert main(["@shot.png", "@notes.md", "what?"]) == 0
    assert seen[0]["initial_messages"] == ["what?"]
    assert seen[0]["initial_file_text"] == f'<file name="{tmp_path / "notes.md"}">\nn\n</file>\n'
    assert seen[0]["initial_images"] == [str(tmp_path / "shot.png")]
    seen.clear()
    assert main(["@notes.md"]) == 0  # no message: pi sends the file blocks as the first message
    assert seen[0]["initial_messages"] == [""] and seen[0]["initial_images"] == []


def test_a_path_like_mention_that_names_no_file_is_a_problem(tmp_path: Path) -> None:
    """New-user run #2: ``@src/nothere.py`` (a typo) was sent as plain text with no warning."""
    from pi_tui.coding.file_args import attach_mentions

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("print(1)\n")
    text, files = attach_mentions(
        'see @src/a.py and @src/nothere.py, ask @team, mail me@x.org, read @srv:notes://x and @"my docs/n.md"',
        str(tmp_path),
    )
    assert files.problems == ["@src/nothere.py: no such file", '@my docs/n.md: no such file']
    assert text.endswith('read @srv:notes://x and @"my docs/n.md"')  # the message goes as typed
    assert "print(1)" in text  # the existing file is attached
