"""pi's autocomplete rules ported to pi_tui.coding.autocomplete and pi_tui.coding.fuzzy (pi-tui 0.73.1
autocomplete.js, fuzzy.js)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.autocomplete import (
    CompletionItem,
    Suggestions,
    apply_completion,
    argument_context,
    argument_suggestions,
    best_match_index,
    build_completion_value,
    command_prefix,
    command_suggestions,
    extract_at_prefix,
    normalise_items,
    parse_path_prefix,
)
from pi_tui.coding.fuzzy import fuzzy_filter, fuzzy_match


@dataclass(frozen=True)
class Cmd:
    name: str
    description: str = ""
    usage: str = ""


def test_fuzzy_match_scores_like_pi() -> None:
    assert fuzzy_match("", "anything").matches
    assert not fuzzy_match("abc", "ab").matches
    assert not fuzzy_match("ba", "ab").matches
    # consecutive and word-boundary matches beat scattered ones
    assert fuzzy_match("mod", "model").score < fuzzy_match("mod", "my-old-dog").score
    assert fuzzy_match("model", "model").score < fuzzy_match("model", "models").score  # exact -100
    # letters/digits swapped: "v2" finds "2v"
    assert fuzzy_match("abc12", "12abc").matches
    assert fuzzy_match("abc12", "12abc").score == fuzzy_match("12abc", "12abc").score + 5


def test_fuzzy_filter_orders_best_first_and_needs_every_token() -> None:
    names = ["session", "resume", "name", "new", "mcp"]
    assert fuzzy_filter(names, "", str) == names
    assert fuzzy_filter(names, "ses", str)[0] == "session"
    assert fuzzy_filter(names, "n e", str) == [n for n in fuzzy_filter(names, "n e", str) if "n" in n and "e" in n]
    assert fuzzy_filter(names, "zzz", str) == []


def test_command_suggestions_show_hint_and_description() -> None:
    commands = [Cmd("model", "Select a model", "[search]"), Cmd("new", "Start a new session"), Cmd("hotkeys")]
    found = command_suggestions("mo", commands)
    assert found is not None and found.prefix == "/mo" and found.kind == "command"
    assert found.items[0] == CompletionItem("model", "model", "[search] — Select a model")
    every = command_suggestions("", commands)
    assert every is not None and [i.value for i in every.items] == ["model", "new", "hotkeys"]
    assert every.items[2].description == ""
    assert command_suggestions("xyz", commands) is None


def test_contexts() -> None:
    assert command_prefix("/mo", 0) == "mo"
    assert command_prefix("/model x", 0) is None
    assert command_prefix("/mo", 1) is None  # only the first line
    assert command_prefix(" /mo", 0) is None
    assert argument_context("/deploy st", 0) == ("deploy", "st")
    assert argument_context("/deploy", 0) is None
    assert extract_at_prefix("see @src/ma") == "@src/ma"
    assert extract_at_prefix('see @"my fi') == '@"my fi'
    assert extract_at_prefix("me@host") is None
    assert extract_at_prefix("@") == "@"
    assert extract_at_prefix("x=@a") == "@a"
    assert extract_at_prefix("done") is None
    assert parse_path_prefix('@"my fi') == ("my fi", True)
    assert parse_path_prefix("@src") == ("src", False)
    assert build_completion_value("src/a.py", False) == "@src/a.py"
    assert build_completion_value("my file.txt", False) == '@"my file.txt"'
    assert build_completion_value("a.txt", True) == '@"a.txt"'


def test_apply_completion_like_pi() -> None:
    command = Suggestions([CompletionItem("model")], "/mo", "command")
    assert apply_completion(["/mo"], 0, 3, CompletionItem("model"), command) == (["/model "], 0, 7)
    file = Suggestions([], "@sr", "file")
    assert apply_completion(["see @sr rest"], 0, 7, CompletionItem("@src/main.py", "main.py"), file) == (
        ["see @src/main.py  rest"], 0, 17)
    assert apply_completion(["@sr"], 0, 3, CompletionItem("@src/", "src/"), file) == (["@src/"], 0, 5)
    quoted = Suggestions([], '@"my', "file")
    # the closing quote typed already is not doubled
    assert apply_completion(['@"my"'], 0, 4, CompletionItem('@"my notes.md"', "my notes.md"), quoted) == (
        ['@"my notes.md" '], 0, 15)
    argument = Suggestions([], "st", "argument")
    assert apply_completion(["/deploy st", "two"], 0, 10, CompletionItem("staging"), argument) == (
        ["/deploy staging", "two"], 0, 15)


def test_best_match_index() -> None:
    items = [CompletionItem("alpha"), CompletionItem("beta"), CompletionItem("be")]
    assert best_match_index(items, "be") == 2  # exact wins
    assert best_match_index(items, "b") == 1
    assert best_match_index(items, "z") == 0
    assert best_match_index(items, "") == 0


def test_argument_completions_sync_async_and_shapes() -> None:
    def sync(prefix: str) -> list[object]:
        return ["dev", {"value": "prod", "label": "Prod", "description": "live"}, {"label": "no value"}, 3]

    async def later(prefix: str) -> list[str]:
        return [prefix + "!"]

    commands = [type("C", (), {"name": "a", "get_argument_completions": staticmethod(sync)})(),
                type("C", (), {"name": "b", "get_argument_completions": staticmethod(later)})(),
                type("C", (), {"name": "c", "get_argument_completions": None})()]
    found = asyncio.run(argument_suggestions("a", "", commands))
    assert found is not None and found.items == [CompletionItem("dev", "dev"), CompletionItem("prod", "Prod", "live")]
    later_found = asyncio.run(argument_suggestions("b", "x", commands))
    assert later_found is not None and later_found.items[0].value == "x!" and later_found.prefix == "x"
    assert asyncio.run(argument_suggestions("c", "", commands)) is None
    assert asyncio.run(argument_suggestions("zz", "", commands)) is None
    assert normalise_items(None) == []


@settings(max_examples=200, derandomize=True)
@given(st.text(alphabet="ab/@\" .x", max_size=12), st.text(alphabet="ab/ .x", min_size=1, max_size=8))
def test_applying_a_file_item_keeps_the_text_around_it(before: str, value: str) -> None:
    line = before + "@"
    prefix = extract_at_prefix(line)
    if prefix is None:
        return
    suggestions = Suggestions([], prefix, "file")
    item = CompletionItem(build_completion_value(value, False), value)
    lines, row, col = apply_completion([line + "TAIL"], 0, len(line), item, suggestions)
    assert lines[0].startswith(line[: len(line) - len(prefix)])
    assert lines[0].endswith("TAIL")
    assert 0 <= col <= len(lines[0])
