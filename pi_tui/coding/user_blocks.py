"""What a user message is made of, for showing it: the ``<file>`` blocks of ``@`` mentions and ``@file``
arguments in front of it, a ``/skill:name`` block, and the words the user typed.

The message sent to the model and saved is never changed; only the transcript shows it as the user's own
words with a compact, expandable line per attachment (new-user runs #3 and #13: the raw XML hid what the user
typed). The blocks are pi's: ``<file name="<abs>">\\n<content>\\n</file>\\n`` per text file, ``<file
name="<abs>"><notes></file>\\n`` for an image reference (``coding.file_args``, pi's ``cli/file-processor``),
``<skill name=… location=…>…</skill>`` then a blank line and the arguments (pi's ``parseSkillBlock``,
:func:`pi_tui.coding.resources.skills.parse_skill_block`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pi_tui.coding.resources.skill_block import parse_skill_block

_OPEN = '<file name="'
_CLOSE_TEXT = "\n</file>\n"
_CLOSE = "</file>"


@dataclass(frozen=True)
class FileBlock:
    """One attached file: ``path`` (absolute, as sent), ``content`` (a text file's, else None) and ``note``
    (an image reference's notes, ``[Image omitted: …]``; "" for none)."""

    path: str
    content: str | None
    note: str = ""


@dataclass(frozen=True)
class SkillBlock:
    """A ``/skill:name`` invocation: the skill's ``name``, its file ``location`` and the ``content`` sent."""

    name: str
    location: str
    content: str


@dataclass(frozen=True)
class UserBlocks:
    """A user message's parts: ``files`` (in order), ``skill`` (or None) and ``text``, what the user typed."""

    text: str
    files: list[FileBlock] = field(default_factory=list)
    skill: SkillBlock | None = None


def split_file_blocks(text: str) -> tuple[list[FileBlock], str]:
    """``(blocks, rest)``: the ``<file name=…>`` blocks that start ``text`` and what follows them. A block
    that does not close is left in ``rest`` as it is."""
    blocks: list[FileBlock] = []
    pos = 0
    while text.startswith(_OPEN, pos):
        name_end = text.find('">', pos + len(_OPEN))
        if name_end < 0 or "\n" in text[pos + len(_OPEN):name_end]:
            break
        path = text[pos + len(_OPEN):name_end]
        body = name_end + 2
        if text.startswith("\n", body):  # a text file: its content between two newlines
            end = text.find(_CLOSE_TEXT, body)
            if end < 0 and text.endswith(_CLOSE_TEXT[:-1]):
                end = len(text) - len(_CLOSE_TEXT) + 1
            if end < 0:
                break
            blocks.append(FileBlock(path, text[body + 1:end]))
            pos = min(len(text), end + len(_CLOSE_TEXT))
        else:  # an image reference: notes only
            end = text.find(_CLOSE, body)
            if end < 0:
                break
            blocks.append(FileBlock(path, None, text[body:end].strip()))
            pos = end + len(_CLOSE) + (1 if text.startswith("\n", end + len(_CLOSE)) else 0)
    return blocks, text[pos:]


def split_user_text(text: str) -> UserBlocks:
    """The parts of a user message's text (module docstring); a message with none is all ``text``."""
    files, rest = split_file_blocks(text)
    skill = None
    parsed = parse_skill_block(rest)
    if parsed is not None:
        name, location, content, user = parsed
        skill = SkillBlock(name, location, content)
        more, rest = split_file_blocks(user or "")
        files += more
    return UserBlocks(rest.strip("\n") if (files or skill) else rest, files, skill)
