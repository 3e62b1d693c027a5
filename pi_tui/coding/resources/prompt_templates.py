"""Prompt templates: ``/name args`` expands a markdown file (pi 0.73 docs/prompt-templates.md, ``core/prompt-templates``).

A template is a ``*.md`` file; its name is the file name without ``.md``. Front matter is optional:
``description`` (else the first non-empty body line, cut to 60 characters plus ``...``) and ``argument-hint``.
Folders are read non-recursively. Arguments are split like a shell line (``"..."`` or ``'...'`` quote, spaces and
tabs separate) and substituted in this order, each on the template text only (an argument containing ``$1`` is
not expanded again): ``$1``, ``$2``, ... (missing ones become empty); ``${@:N}`` / ``${@:N:L}`` (arguments from
the N-th, 1-based, ``0`` counts as 1; at most L of them); ``$ARGUMENTS``; ``$@`` (all arguments joined by one
space).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pi_tui.coding.resources.diagnostics import ResourceDiagnostic
from pi_tui.coding.resources.frontmatter import FrontmatterError, parse_frontmatter

DESCRIPTION_FALLBACK_LENGTH = 60


@dataclass(frozen=True)
class PromptTemplate:
    """A loaded template: ``content`` is the body after the front matter; ``source``: ``user``, ``project``,
    ``settings`` or ``cli``."""

    name: str
    description: str
    content: str
    file_path: str
    argument_hint: str | None = None
    source: str = "path"


def parse_command_args(text: str) -> list[str]:
    """Split ``text`` into arguments (pi's ``parseCommandArgs``): quotes group and are removed, an unclosed
    quote runs to the end, empty quotes give no argument."""
    args: list[str] = []
    current = ""
    quote: str | None = None
    for char in text:
        if quote is not None:
            if char == quote:
                quote = None
            else:
                current += char
        elif char in ('"', "'"):
            quote = char
        elif char in (" ", "\t"):
            if current:
                args.append(current)
                current = ""
        else:
            current += char
    if current:
        args.append(current)
    return args


_POSITIONAL = re.compile(r"\$(\d+)")
_SLICE = re.compile(r"\$\{@:(\d+)(?::(\d+))?\}")


def substitute_args(content: str, args: Sequence[str]) -> str:
    """``content`` with the placeholders of the module docstring replaced (pi's ``substituteArgs``)."""

    def positional(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return args[index] if 0 <= index < len(args) else ""

    def sliced(match: re.Match[str]) -> str:
        start = max(int(match.group(1)) - 1, 0)
        if match.group(2) is not None:
            return " ".join(args[start : start + int(match.group(2))])
        return " ".join(args[start:])

    result = _POSITIONAL.sub(positional, content)
    result = _SLICE.sub(sliced, result)
    joined = " ".join(args)
    result = result.replace("$ARGUMENTS", joined)
    return result.replace("$@", joined)


def load_template_file(
    path: str | os.PathLike[str], source: str = "path"
) -> tuple[PromptTemplate | None, list[ResourceDiagnostic]]:
    """``(template or None, warnings)`` for one file; never raises. pi skips an unreadable file or invalid
    front matter silently; pi-tui says so (DIFFERENCES.md)."""
    file_path = os.path.abspath(path)
    try:
        text = Path(file_path).read_text(encoding="utf-8")
        parsed = parse_frontmatter(text)
    except (OSError, UnicodeDecodeError) as error:
        return None, [ResourceDiagnostic("warning", f"cannot read prompt template: {error}", file_path, "prompt")]
    except FrontmatterError as error:
        return None, [ResourceDiagnostic("warning", str(error), file_path, "prompt")]
    name = os.path.basename(file_path).removesuffix(".md")
    description = parsed.data.get("description")
    description = description if isinstance(description, str) else ""
    if not description:
        first = next((line for line in parsed.body.split("\n") if line.strip()), None)
        if first:
            description = first[:DESCRIPTION_FALLBACK_LENGTH] + ("..." if len(first) > DESCRIPTION_FALLBACK_LENGTH else "")
    hint = parsed.data.get("argument-hint")
    template = PromptTemplate(
        name=name,
        description=description,
        content=parsed.body,
        file_path=file_path,
        argument_hint=str(hint) if hint else None,
        source=source,
    )
    return template, []


def expand_prompt_template(text: str, templates: Iterable[PromptTemplate]) -> str:
    """``/name args`` → the template's content with the arguments substituted; other text (and an unknown
    name) unchanged (pi's ``expandPromptTemplate``)."""
    if not text.startswith("/"):
        return text
    space = text.find(" ")
    name = text[1:] if space == -1 else text[1:space]
    args_text = "" if space == -1 else text[space + 1 :]
    template = next((t for t in templates if t.name == name), None)
    if template is None:
        return text
    return substitute_args(template.content, parse_command_args(args_text))
