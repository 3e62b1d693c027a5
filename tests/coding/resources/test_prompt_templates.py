"""Prompt templates (pi 0.73 docs/prompt-templates.md, core/prompt-templates): argument parsing, every
placeholder, descriptions, discovery order, clashes, malformed files. The expansion of
``/rev one 'two three' four $5`` was checked against the real pi 0.73.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.resources.loader import ResourceLoader, ResourceOptions
from pi_tui.coding.resources.prompt_templates import (
    PromptTemplate,
    expand_prompt_template,
    load_template_file,
    parse_command_args,
    substitute_args,
)
from tests.coding.resources.helpers import write


def test_parse_command_args_like_pi() -> None:
    assert parse_command_args("a  'b c'\t\"d e\" f") == ["a", "b c", "d e", "f"]
    assert parse_command_args("it's") == ["its"]  # an unclosed quote runs to the end
    assert parse_command_args("'' x") == ["x"]
    assert parse_command_args("a'b c'd") == ["ab cd"]
    assert parse_command_args("") == []


@pytest.mark.parametrize(("template", "expected"), [
    ("$1|$2|$3", "one|two three|four"),
    ("$9.", "."),  # a missing argument is empty
    ("$0", ""),  # $0 is index -1: nothing
    ("$@", "one two three four"),
    ("$ARGUMENTS", "one two three four"),
    ("${@:2}", "two three four"),
    ("${@:0}", "one two three four"),  # 0 counts as 1 (bash)
    ("${@:2:1}", "two three"),
    ("${@:5}", ""),
    ("$10", ""),
    ("cost: $$1", "cost: $one"),
    ("${@}", "${@}"),  # not a placeholder pi knows
])
def test_each_placeholder(template: str, expected: str) -> None:
    assert substitute_args(template, ["one", "two three", "four"]) == expected


def test_arguments_are_not_substituted_again() -> None:
    assert substitute_args("$1 / $@", ["$2", "x $ARGUMENTS"]) == "$2 / $2 x $ARGUMENTS"


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab$@1{}:ARGUMENTS")), max_size=6), max_size=4))
def test_plain_text_is_left_alone(args: list[str]) -> None:
    assert substitute_args("no placeholders here", args) == "no placeholders here"
    assert substitute_args("$@", args) == " ".join(args)


def test_expand_matches_pi() -> None:
    rev = PromptTemplate("rev", "review", "Review $1 then ${@:2} all=$@ args=$ARGUMENTS", "/p/rev.md")
    assert expand_prompt_template("/rev one 'two three' four $5", [rev]) == (
        "Review one then two three four $5 all=one two three four $5 args=one two three four $5")
    assert expand_prompt_template("/rev", [rev]) == "Review  then  all= args="
    assert expand_prompt_template("/other x", [rev]) == "/other x"
    assert expand_prompt_template("say /rev", [rev]) == "say /rev"


def test_description_front_matter_or_first_line(tmp_path: Path) -> None:
    with_front, _ = load_template_file(write(tmp_path / "a.md", "---\ndescription: Review\nargument-hint: <pr>\n---\nBody"))
    assert with_front is not None and (with_front.description, with_front.argument_hint) == ("Review", "<pr>")
    assert with_front.content == "Body"
    long_line = "x" * 70
    fallback, _ = load_template_file(write(tmp_path / "b.md", f"\n\n{long_line}\nmore"))
    assert fallback is not None and fallback.description == "x" * 60 + "..." and fallback.name == "b"


def test_malformed_template_is_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.md", "---\ndescription: [x\n---\nbody")
    template, diagnostics = load_template_file(path)
    assert template is None and diagnostics[0].path == str(path)
    assert diagnostics[0].message.startswith("invalid YAML front matter")


def _loader(tmp: Path, *, trusted: bool = True, options: ResourceOptions | None = None,
            global_settings: dict | None = None) -> ResourceLoader:
    return ResourceLoader(str(tmp / "proj"), tmp / "agent", settings=SettingsManager(None, None, global_settings or {}, {}),
                          options=options, project_trusted=trusted, home=str(tmp / "home"))


def test_discovery_order_clash_and_trust(tmp_path: Path) -> None:
    kept = write(tmp_path / "proj" / ".pi-tui" / "prompts" / "same.md", "project")
    write(tmp_path / "proj" / ".pi-tui" / "prompts" / "p.md", "p")
    write(tmp_path / "proj" / ".pi-tui" / "prompts" / "sub" / "deep.md", "not read: discovery is flat")
    skipped = write(tmp_path / "agent" / "prompts" / "same.md", "global")
    write(tmp_path / "agent" / "prompts" / "g.md", "g")
    write(tmp_path / "agent" / "prompts" / "notes.txt", "not markdown")
    cli = write(tmp_path / "cli" / "c.md", "c")
    loader = _loader(tmp_path, options=ResourceOptions(prompt_template_paths=[str(cli)]))
    assert [t.name for t in loader.prompt_templates] == ["p", "same", "g", "c"]
    assert [t.content for t in loader.prompt_templates if t.name == "same"] == ["project"]
    assert loader.warnings() == [f'Prompt template "/same" collision: keeping {kept}, skipped {skipped}']
    assert [t.name for t in _loader(tmp_path, trusted=False).prompt_templates] == ["g", "same"]


def test_no_prompt_templates_and_settings_folders(tmp_path: Path) -> None:
    write(tmp_path / "agent" / "prompts" / "g.md", "g")
    write(tmp_path / "shared" / "sub" / "s.md", "settings folders are read recursively")
    missing = tmp_path / "missing.md"
    only_cli = _loader(tmp_path, options=ResourceOptions(no_prompt_templates=True,
                                                          prompt_template_paths=[str(missing)]))
    assert only_cli.prompt_templates == []
    assert only_cli.warnings() == [f"Prompt template {missing}: prompt template path does not exist"]
    with_settings = _loader(tmp_path, global_settings={"prompts": ["../shared"]})
    assert [t.name for t in with_settings.prompt_templates] == ["s", "g"]
