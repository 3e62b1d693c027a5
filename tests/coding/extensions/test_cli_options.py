"""CLI options for extensions: -e/--extension (repeatable), --no-extensions, unknown --flags kept for
extension flags (pi's ``unknownFlags``), anything else still an argparse error."""

from __future__ import annotations

import pytest

from pi_tui.cli import parse_args


def test_extension_options_and_flags_are_collected() -> None:
    args = parse_args(["-e", "a.py", "--plan", "fix it", "--ssh=host", "--extension", "pkg", "-p", "--no-extensions"])
    assert args.extensions == ["a.py", "pkg"] and args.no_extensions and args.print_mode
    assert args.extension_flags == ["--plan", "--ssh=host"] and args.messages == ["fix it"]
    options = args.session_options("/tmp")
    assert (options["extension_paths"], options["no_extensions"], options["extension_flags"]) == (
        ["a.py", "pkg"], True, ["--plan", "--ssh=host"])


def test_unknown_short_options_are_still_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(["-z", "hello"])
    assert exc.value.code == 2 and "unrecognized arguments: -z" in capsys.readouterr().err
