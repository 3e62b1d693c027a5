"""Messages and @file arguments may come before and after flags, as in pi (found by H11:
``pi-tui @notes.txt -p "summarise"`` failed with "unrecognized arguments: summarise", exit 2)."""

from __future__ import annotations

from pi_tui.cli import parse_args


def test_messages_before_and_after_flags() -> None:
    args = parse_args(["@notes.txt", "-p", "summarise", "--provider", "local", "and more", "-c"])
    assert args.file_args == ["notes.txt"]
    assert args.messages == ["summarise", "and more"]
    assert args.print_mode and args.continue_recent and args.provider == "local"


def test_flag_values_are_not_messages() -> None:
    args = parse_args(["--model", "m", "hello", "--tools", "read,bash", "world", "--list-models", "gpt"])
    assert args.messages == ["hello", "world"]
    assert args.model == "m" and args.tools == ["read", "bash"] and args.list_models == "gpt"
