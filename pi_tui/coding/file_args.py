"""Files attached to a prompt: pi's CLI ``@file`` arguments (pi 0.73.1 ``cli/file-processor.js``) and the files
mentioned with ``@`` in the editor, which pi-tui attaches the same way (DIFFERENCES.md: pi 0.73 leaves a mention
as text for the model to read).

Each readable text file becomes ``<file name="/absolute/path">\\n<content>\\n</file>\\n`` in front of the message,
as pi's; an empty file is skipped (pi). Paths resolve as the ``read`` tool's (``~``, a leading ``@``, macOS
screenshot names: ``tools.path_utils.resolve_read_path``). What cannot be attached (missing, a directory, not
UTF-8 text, unreadable) is a problem, never an exception: the CLI exits with it (pi: ``Error: File not found``),
the editor warns and sends the message without that file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pi_tui.coding.tools.path_utils import resolve_read_path

_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")
# An @-mention: at the start or after whitespace, ``@"path with spaces"`` or ``@path`` (pi's completion inserts
# both forms: autocomplete.js buildCompletionValue).
_MENTION = re.compile(r'(?:^|(?<=\s))@(?:"([^"\n]+)"|([^\s"]+))')
_TRAILING_PUNCTUATION = ".,;:!?)]}'"


@dataclass
class FileArgs:
    """``text``: the ``<file>`` blocks to put before the message; ``attached``: the absolute paths attached;
    ``problems``: one line per path that could not be (``File not found: /abs/x``)."""

    text: str = ""
    attached: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _is_image(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(12)
    except OSError:
        return False
    return head.startswith(_IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def read_file_args(paths: Sequence[str], cwd: str) -> FileArgs:
    """Read ``paths`` (as typed, relative to ``cwd``) into ``<file>`` blocks (module docstring). Each path once."""
    result = FileArgs()
    for path in paths:
        absolute = os.path.abspath(resolve_read_path(path, cwd))
        if absolute in result.attached:
            continue
        if not os.path.exists(absolute):
            result.problems.append(f"File not found: {absolute}")
            continue
        if os.path.isdir(absolute):
            result.problems.append(f"Not a file: {absolute} is a directory")
            continue
        try:
            if os.path.getsize(absolute) == 0:
                continue  # pi skips empty files
            if _is_image(absolute):
                result.problems.append(f"Could not attach {absolute}: images are not attached as @file here yet")
                continue
            with open(absolute, encoding="utf-8") as handle:
                content = handle.read()
        except UnicodeDecodeError:
            result.problems.append(f"Could not read file {absolute}: not a UTF-8 text file")
            continue
        except OSError as exc:
            result.problems.append(f"Could not read file {absolute}: {exc.strerror or exc}")
            continue
        result.text += f'<file name="{absolute}">\n{content}\n</file>\n'
        result.attached.append(absolute)
    return result


def mentioned_paths(text: str, cwd: str) -> list[str]:
    """The ``@path`` / ``@"path"`` mentions of ``text`` that name an existing file under ``cwd`` (or anywhere,
    for an absolute or ``~`` path), as typed, in order, each once. A mention that names nothing is left alone
    (``@team`` in prose); trailing punctuation (``@notes.md,``) is tried without it."""
    found: list[str] = []
    for match in _MENTION.finditer(text):
        quoted, bare = match.group(1), match.group(2)
        candidates = [quoted] if quoted else [bare, bare.rstrip(_TRAILING_PUNCTUATION)]
        for candidate in candidates:
            if candidate and os.path.isfile(resolve_read_path(candidate, cwd)):
                if candidate not in found:
                    found.append(candidate)
                break
    return found


def attach_mentions(text: str, cwd: str) -> tuple[str, FileArgs]:
    """``text`` with the files it mentions (:func:`mentioned_paths`) attached in front of it as pi's CLI
    ``@file`` arguments are, and what was attached or not."""
    files = read_file_args(mentioned_paths(text, cwd), cwd)
    return files.text + text, files
