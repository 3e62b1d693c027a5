"""Front matter parsing (pi 0.73 utils/frontmatter): pi's split rule, YAML 1.2 scalars, errors never crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.resources.frontmatter import FrontmatterError, parse_frontmatter, split_frontmatter
from pi_tui.coding.resources.skills import load_skill_file


def test_split_follows_pis_rule() -> None:
    assert split_frontmatter("---\na: 1\n---\n\n body \n") == ("a: 1", "body")
    assert split_frontmatter("no front matter\n") == (None, "no front matter\n")
    assert split_frontmatter("---\nunclosed: 1\n") == (None, "---\nunclosed: 1\n")
    assert split_frontmatter("---\r\na: 1\r\n---\r\nx") == ("a: 1", "x")


def test_yaml_12_scalars_stay_strings() -> None:
    data = parse_frontmatter("---\ndescription: yes\nwhen: 2024-01-01\nflag: true\nother: on\n---\n").data
    assert data == {"description": "yes", "when": "2024-01-01", "flag": True, "other": "on"}


def test_non_mapping_yaml_is_no_front_matter() -> None:
    assert parse_frontmatter("---\n- a\n- b\n---\nbody").data == {}


def test_invalid_yaml_names_the_line() -> None:
    with pytest.raises(FrontmatterError, match=r"line 2"):
        parse_frontmatter("---\na: b: c\n---\n")


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}'\"\n\t #&*!|>%@`,?yes0")), max_size=60))
def test_any_front_matter_loads_or_warns(tmp_path_factory: pytest.TempPathFactory, yaml_text: str) -> None:
    """Whatever is between the markers, loading a skill returns a skill or warnings naming the file; no raise."""
    folder = tmp_path_factory.mktemp("fm") / "some-skill"
    folder.mkdir()
    path = folder / "SKILL.md"
    path.write_text(f"---\n{yaml_text}\n---\nbody\n", encoding="utf-8")
    skill, diagnostics = load_skill_file(path)
    assert skill is not None or diagnostics
    assert all(d.path == str(path) for d in diagnostics)
    if skill is not None:
        assert isinstance(skill.name, str) and isinstance(skill.description, str)
