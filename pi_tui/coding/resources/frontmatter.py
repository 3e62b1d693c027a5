"""YAML front matter of skills and prompt templates (pi 0.73 ``utils/frontmatter``).

A file starts with front matter when its text (newlines normalised to ``\\n``) starts with ``---``; the YAML runs
from the fifth character to the next ``\\n---``, and the body is everything after that marker, stripped. Without
the closing marker the whole text is the body and there is no front matter. Empty front matter is ``{}``.

YAML is read with PyYAML's safe loader adjusted to YAML 1.2's core schema, as pi's ``yaml`` package reads it:
only ``true``/``false`` are booleans (``yes``/``no``/``on``/``off`` stay strings) and dates stay strings. YAML
that is not a mapping counts as no front matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

_BOOL_TAG = "tag:yaml.org,2002:bool"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


class _Yaml12Loader(yaml.SafeLoader):
    """Safe loader with YAML 1.2 booleans and no implicit timestamps."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_BOOL_TAG, _TIMESTAMP_TAG)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


class FrontmatterError(ValueError):
    """The front matter is not valid YAML; the message says where (line and column of the YAML text)."""


@dataclass(frozen=True)
class Frontmatter:
    """``data``: the parsed mapping (``{}`` when absent); ``body``: the text after it."""

    data: dict[str, Any]
    body: str


def normalize_newlines(text: str) -> str:
    """``\\r\\n`` and lone ``\\r`` become ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """``(yaml text or None, body)`` by pi's rule (module docstring)."""
    normalized = normalize_newlines(text)
    if not normalized.startswith("---"):
        return None, normalized
    end = normalized.find("\n---", 3)
    if end == -1:
        return None, normalized
    return normalized[4:end], normalized[end + 4 :].strip()


def parse_frontmatter(text: str) -> Frontmatter:
    """Front matter and body of ``text``. Raises :class:`FrontmatterError` when the YAML is invalid."""
    yaml_text, body = split_frontmatter(text)
    if not yaml_text:
        return Frontmatter({}, body)
    try:
        data = yaml.load(yaml_text, Loader=_Yaml12Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as error:
        raise FrontmatterError(_describe(error)) from None
    return Frontmatter(data if isinstance(data, dict) else {}, body)


def _describe(error: yaml.YAMLError) -> str:
    """``invalid YAML front matter: <problem> (line N, column M)``; N counts from the file's first line."""
    if isinstance(error, yaml.MarkedYAMLError):
        problem = error.problem or error.context or "syntax error"
        mark = error.problem_mark or error.context_mark
        where = f" (line {mark.line + 2}, column {mark.column + 1})" if mark is not None else ""
        return f"invalid YAML front matter: {problem}{where}"
    return f"invalid YAML front matter: {' '.join(str(error).split())}"


def strip_frontmatter(text: str) -> str:
    """The body of ``text`` without its front matter (invalid YAML still counts as front matter)."""
    return split_frontmatter(text)[1]
