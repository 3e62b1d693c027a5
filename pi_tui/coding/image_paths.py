"""Which pasted or typed text names image files to attach (issue 12; pi's ``@file`` images, pi-reference §3.18).

A terminal "drops" a file by pasting its path. :func:`pasted_image_paths` takes a paste that is nothing but
one or more paths of existing image files, in the forms terminals use: plain (``/a/b.png``), quoted
(``'/a/my shot.png'``, GNOME), backslash-escaped (``/a/my\\ shot.png``, iTerm2, kitty), ``file://`` URIs
(percent-encoded), several separated by spaces or newlines. Anything else is ordinary text (None).

:func:`typed_image_paths` finds paths typed in a prompt: tokens ending in an image extension (``.png``,
``.jpg``, ``.jpeg``, ``.gif``, ``.webp``, ``.bmp``; an ``@`` prefix or quotes allowed) that name an existing file whose
first bytes are an image. Both resolve paths like the ``read`` tool (``~``, the cwd, macOS screenshot
spaces; :func:`pi_tui.coding.tools.path_utils.resolve_read_path`) and check the bytes, never the name alone.
"""

from __future__ import annotations

import os
import re
import shlex
from urllib.parse import unquote, urlparse

from pi_tui.coding.images import HEAD_BYTES, detect_image_mime
from pi_tui.coding.tools.path_utils import resolve_read_path

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp")
MAX_PATHS = 20
"""At most this many paths are taken from one paste or prompt."""
_TOKEN = re.compile(r"""'[^'\n]+'|"[^"\n]+"|(?:\\.|[^\s'"])+""")
_TRAILING = ",;:!?)]}>'\""


def is_image_file(path: str) -> bool:
    """True when ``path`` is a regular file whose first bytes are a supported image."""
    try:
        if not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            return detect_image_mime(f.read(HEAD_BYTES)) is not None
    except OSError:
        return False


def _from_token(token: str, cwd: str) -> str | None:
    if token.startswith("file://"):
        parsed = urlparse(token)
        if parsed.netloc not in ("", "localhost"):
            return None
        token = unquote(parsed.path)
    path = resolve_read_path(token, cwd)
    return path if is_image_file(path) else None


def pasted_image_paths(text: str, cwd: str) -> list[str] | None:
    """Absolute paths when the whole paste ``text`` is image file paths (module docstring), else None."""
    stripped = text.strip()
    if not stripped or len(stripped) > 8192:
        return None
    try:
        tokens = shlex.split(stripped.replace("\n", " "), posix=True)
    except ValueError:  # an unbalanced quote: text, not paths
        return None
    if not tokens or len(tokens) > MAX_PATHS:
        return None
    paths = []
    for token in tokens:
        path = _from_token(token, cwd)
        if path is None:
            return None
        paths.append(path)
    return list(dict.fromkeys(paths))


def typed_image_paths(text: str, cwd: str) -> list[str]:
    """Absolute paths of the image files named in a typed prompt (module docstring), in order, once each."""
    found: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token[:1] in "'\"" and token[-1:] == token[:1]:
            token = token[1:-1]
        else:
            token = token.rstrip(_TRAILING).rstrip(".").replace("\\ ", " ")
        if token.startswith("@"):
            token = token[1:]
        if not token.lower().endswith(IMAGE_EXTENSIONS):
            continue
        path = _from_token(token, cwd)
        if path is not None and path not in found:
            found.append(path)
            if len(found) >= MAX_PATHS:
                break
    return found
