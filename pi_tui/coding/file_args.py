"""Files attached to a prompt: pi's CLI ``@file`` arguments (pi 0.73.1 ``cli/file-processor.js``
``processFileArguments``, README "File Arguments": ``pi -p @screenshot.png "What's in this image?"``) and the files
mentioned with ``@`` in the editor, which pi-tui attaches the same way (DIFFERENCES.md ED1: pi 0.73 leaves a
mention as text for the model to read). One reader, :func:`read_file_args`, serves both.

For each path (resolved like the ``read`` tool: ``~``, a leading ``@``, the cwd, macOS screenshot spaces:
``tools.path_utils.resolve_read_path``), each path once:

* missing: ``File not found: <abs>`` (pi prints ``Error: …`` and exits 1); a directory: ``Not a file: …``;
* empty: skipped (pi);
* an image (JPEG, PNG, GIF, WebP, or BMP converted to PNG with pi's ``[Image converted from image/bmp to
  image/png.]`` hint, pi 0.80.3; by its bytes, never its name): resized to pi's limits when ``auto_resize``
  (pi's ``images.autoResize``; :mod:`pi_tui.coding.images`) and attached, referenced in the text as
  ``<file name="<abs>"><dimension note></file>``; one that cannot be brought under the limit is
  ``<file name="<abs>">[Image omitted: could not be resized below the inline image size limit.]</file>``
  (pi); a corrupt one: ``Could not read image <abs>: …``. With ``load_images=False`` images are not read at
  all but listed in ``image_paths``, for a caller that attaches them its own way (the app's attachment bar);
* anything else: ``<file name="<abs>">\\n<content>\\n</file>\\n`` (UTF-8; a file that is not UTF-8 text or
  cannot be read is a problem: ``Could not read file <abs>: …``).

What cannot be attached is a problem line, never an exception from :func:`read_file_args`: the CLI exits with
the first (:func:`process_file_arguments` raises :class:`FileArgError` with it, pi's behaviour), the editor
warns and sends the message without that file.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pi_tui.ai.types import ImageContent
from pi_tui.coding.images import (
    HEAD_BYTES,
    IMAGE_OMITTED_NOTE,
    MAX_FILE_BYTES,
    ImageError,
    conversion_hint,
    detect_image_mime,
    format_dimension_note,
    load_image_bytes,
    normalize_image,
    resize_image,
)
from pi_tui.coding.tools.path_utils import resolve_read_path

# An @-mention: at the start or after whitespace, ``@"path with spaces"`` or ``@path`` (pi's completion inserts
# both forms: autocomplete.js buildCompletionValue).
_MENTION = re.compile(r'(?:^|(?<=\s))@(?:"([^"\n]+)"|([^\s"]+))')
_TRAILING_PUNCTUATION = ".,;:!?)]}'"


class FileArgError(Exception):
    """An ``@file`` argument that cannot be used; ``str(error)`` is pi's message (without ``Error: ``)."""


@dataclass
class FileArgs:
    """What :func:`read_file_args` found.

    ``text``: the ``<file>`` blocks to put before the message; ``images``: the image blocks to send with it (pi's
    ``initialImages``); ``attached``: the absolute paths attached (text files and images); ``image_paths``: with
    ``load_images=False``, the absolute paths of the image files left to the caller; ``problems``: one line per
    path that could not be attached (``File not found: /abs/x``)."""

    text: str = ""
    images: list[ImageContent] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)
    image_paths: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _read_head(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(HEAD_BYTES)


def _add_image(result: FileArgs, absolute: str, mime: str, auto_resize: bool) -> None:
    """Read, resize and attach one image file (module docstring); a failure is a problem line."""
    if os.path.getsize(absolute) > MAX_FILE_BYTES:
        result.problems.append(f"Could not read image {absolute}: too large to attach")
        return
    with open(absolute, "rb") as handle:
        raw = handle.read()
    try:
        raw, mime, converted_from = normalize_image(raw, mime)  # a BMP becomes a PNG (pi 0.80.3)
        if not auto_resize:  # pi: sent as it is, without a note (it must still decode)
            as_is = load_image_bytes(raw, absolute, auto_resize=False)
            result.attached.append(absolute)
            result.images.append(ImageContent(data=as_is.data, mime_type=as_is.mime_type))
            result.text += f'<file name="{absolute}">{conversion_hint(converted_from, mime) or ""}</file>\n'
            return
        resized = resize_image(base64.b64encode(raw).decode("ascii"), mime)
    except ImageError as exc:
        result.problems.append(f"Could not read image {absolute}: {exc}")
        return
    result.attached.append(absolute)
    if resized is None:
        result.text += f'<file name="{absolute}">{IMAGE_OMITTED_NOTE}</file>\n'
        return
    result.images.append(ImageContent(data=resized.data, mime_type=resized.mime_type))
    hints = [h for h in (conversion_hint(converted_from, resized.mime_type), format_dimension_note(resized)) if h]
    result.text += f'<file name="{absolute}">{chr(10).join(hints)}</file>\n'


def read_file_args(paths: Sequence[str], cwd: str, *, auto_resize: bool = True,
                   load_images: bool = True) -> FileArgs:
    """Read ``paths`` (as typed, relative to ``cwd``) into ``<file>`` blocks and image blocks (module
    docstring: pi's ``processFileArguments`` rules). Never raises; what fails is in ``problems``."""
    result = FileArgs()
    seen: set[str] = set()
    for path in paths:
        absolute = os.path.abspath(resolve_read_path(path, cwd))
        if absolute in seen:
            continue
        seen.add(absolute)
        if not os.path.exists(absolute):
            result.problems.append(f"File not found: {absolute}")
            continue
        if os.path.isdir(absolute):
            result.problems.append(f"Not a file: {absolute} is a directory")
            continue
        try:
            if os.path.getsize(absolute) == 0:
                continue  # pi skips empty files
            mime = detect_image_mime(_read_head(absolute))
            if mime is not None:
                if load_images:
                    _add_image(result, absolute, mime, auto_resize)
                else:
                    result.image_paths.append(absolute)
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


def process_file_arguments(paths: Sequence[str], cwd: str, *, auto_resize: bool = True) -> FileArgs:
    """pi's ``processFileArguments``: :func:`read_file_args` with images read, raising :class:`FileArgError`
    with the first problem (pi prints ``Error: <it>`` and exits 1)."""
    result = read_file_args(paths, cwd, auto_resize=auto_resize)
    if result.problems:
        raise FileArgError(result.problems[0])
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


_PATH_LIKE = re.compile(r"[/\\]|^~|\.[A-Za-z0-9]{1,8}$")


def missing_mentions(text: str, cwd: str) -> list[str]:
    """The mentions of ``text`` that look like a file path but name no file: quoted ones (``@"my notes.md"``)
    and bare ones with a folder separator or a file extension (``@src/x.py``, ``@notes.md``), trailing punctuation
    left out; not ``@team`` (prose) and not ``@server:uri`` (an MCP resource). As typed, in order, each once
    (new-user run #2: a mistyped ``@src/nothere.py`` was sent as plain text without a word)."""
    missing: list[str] = []
    for match in _MENTION.finditer(text):
        quoted, bare = match.group(1), match.group(2)
        candidate = quoted or (bare or "").rstrip(_TRAILING_PUNCTUATION)
        if not candidate or os.path.exists(resolve_read_path(candidate, cwd)):
            continue
        if not quoted and (":" in candidate or not _PATH_LIKE.search(candidate)):
            continue
        if bare and os.path.isfile(resolve_read_path(bare, cwd)):
            continue
        if candidate not in missing:
            missing.append(candidate)
    return missing


def attach_mentions(text: str, cwd: str, *, auto_resize: bool = True,
                    load_images: bool = True) -> tuple[str, FileArgs]:
    """``text`` with the files it mentions (:func:`mentioned_paths`) attached in front of it as pi's CLI
    ``@file`` arguments are, and what was attached or not (images in ``images``, or with ``load_images=False``
    in ``image_paths`` for the caller to attach). A path-like mention that names no file
    (:func:`missing_mentions`) is a problem line ``@x: no such file``; the text is sent as typed."""
    files = read_file_args(mentioned_paths(text, cwd), cwd, auto_resize=auto_resize, load_images=load_images)
    files.problems.extend(f"@{name}: no such file" for name in missing_mentions(text, cwd))
    return files.text + text, files
