"""Read an image (or, failing that, text) from the system clipboard: pi's ``readClipboardImage``.

pi 0.73.1 ``utils/clipboard-image.js``, with the tools found on ``PATH`` at run time:

* Linux, Wayland (``WAYLAND_DISPLAY`` or ``XDG_SESSION_TYPE=wayland``) or WSL: ``wl-paste --list-types``, the
  preferred image type (PNG, JPEG, WebP, GIF, then any ``image/*``), ``wl-paste --type T --no-newline``; then
  ``xclip``.
* Linux, X11 (``DISPLAY``): ``xclip -selection clipboard -t TARGETS -o``, then ``-t <type> -o`` for the preferred
  type and every supported one. (pi uses a native clipboard module here; xclip is what a Python app has.)
* WSL without an image so far: PowerShell saves the Windows clipboard image to a temporary PNG.
* macOS: ``pngpaste -`` when installed, else ``osascript`` writes the clipboard's PNG data to a temporary file.
* Termux: no clipboard image (pi).

Other image types (BMP from WSLg, TIFF from macOS) are converted to PNG with Pillow. Every tool runs with a
timeout (1 s to list, 3 s to read, 5 s for PowerShell; output capped at 50 MB) in the caller's thread:
:func:`read_clipboard` is meant for ``asyncio.to_thread``.

When there is no image, :func:`read_clipboard` also tries the clipboard's text (``wl-paste --no-newline``,
``xclip -o``, ``pbpaste``), so Ctrl+V pastes text too (pi's Ctrl+V does nothing then; the terminal's own paste
is unchanged). The result says which case it was, so the app can tell the user (no tool, empty clipboard).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from pi_tui.coding.images import SUPPORTED_IMAGE_MIME_TYPES, extension_for_mime

LIST_TIMEOUT_S = 1.0
READ_TIMEOUT_S = 3.0
POWERSHELL_TIMEOUT_S = 5.0
MAX_BUFFER_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class ClipboardContent:
    """What the clipboard held: ``image`` bytes with ``mime_type``, or ``text``; ``tool`` that read it.

    ``tools_found`` is False when no clipboard tool exists on this system (then both are None); ``no_display``
    when on Linux neither ``DISPLAY`` nor ``WAYLAND_DISPLAY`` is set (an SSH session: no clipboard to read)."""

    image: bytes | None = None
    mime_type: str | None = None
    text: str | None = None
    tool: str | None = None
    tools_found: bool = True
    no_display: bool = False


def _run(cmd: list[str], timeout: float = READ_TIMEOUT_S) -> bytes | None:
    """stdout of ``cmd`` when it exits 0 (None on any failure, a timeout or more than 50 MB)."""
    if shutil.which(cmd[0]) is None:
        return None
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0 or len(proc.stdout) > MAX_BUFFER_BYTES:
        return None
    return proc.stdout


def _base(mime: str) -> str:
    return mime.split(";")[0].strip().lower()


def preferred_image_type(types: list[str]) -> str | None:
    """pi's ``selectPreferredImageMimeType``: the first of PNG, JPEG, WebP, GIF offered, else any ``image/*``."""
    offered = [t.strip() for t in types if t.strip()]
    for preferred in SUPPORTED_IMAGE_MIME_TYPES:
        for raw in offered:
            if _base(raw) == preferred:
                return raw
    return next((raw for raw in offered if _base(raw).startswith("image/")), None)


def _lines(out: bytes | None) -> list[str]:
    return [line.strip() for line in (out or b"").decode("utf-8", "replace").splitlines() if line.strip()]


def _wl_paste() -> tuple[bytes, str] | None:
    listed = _run(["wl-paste", "--list-types"], LIST_TIMEOUT_S)
    chosen = preferred_image_type(_lines(listed)) if listed is not None else None
    if chosen is None:
        return None
    data = _run(["wl-paste", "--type", chosen, "--no-newline"])
    return (data, _base(chosen)) if data else None


def _xclip() -> tuple[bytes, str] | None:
    targets = _run(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"], LIST_TIMEOUT_S)
    if targets is None and shutil.which("xclip") is None:
        return None
    chosen = preferred_image_type(_lines(targets))
    tries = list(dict.fromkeys([*( [chosen] if chosen else []), *SUPPORTED_IMAGE_MIME_TYPES]))
    for mime in tries:
        data = _run(["xclip", "-selection", "clipboard", "-t", mime, "-o"])
        if data:
            return data, _base(mime)
    return None


def _powershell() -> tuple[bytes, str] | None:
    path = os.path.join(tempfile.gettempdir(), f"pi-wsl-clip-{uuid.uuid4()}.png")
    try:
        win = _run(["wslpath", "-w", path], LIST_TIMEOUT_S)
        win_path = (win or b"").decode("utf-8", "replace").strip()
        if not win_path:
            return None
        quoted = win_path.replace("'", "''")
        script = "; ".join([
            "Add-Type -AssemblyName System.Windows.Forms", "Add-Type -AssemblyName System.Drawing",
            f"$path = '{quoted}'", "$img = [System.Windows.Forms.Clipboard]::GetImage()",
            "if ($img) { $img.Save($path, [System.Drawing.Imaging.ImageFormat]::Png); Write-Output 'ok' } "
            "else { Write-Output 'empty' }",
        ])
        return _png_written(_run(["powershell.exe", "-NoProfile", "-Command", script], POWERSHELL_TIMEOUT_S), path)
    finally:
        _remove(path)


def _macos() -> tuple[bytes, str] | None:
    data = _run(["pngpaste", "-"])
    if data:
        return data, "image/png"
    path = os.path.join(tempfile.gettempdir(), f"pi-mac-clip-{uuid.uuid4()}.png")
    script = (f'set f to POSIX file "{path}"\n'
              'try\n set png to (the clipboard as «class PNGf»)\non error\n return "empty"\nend try\n'
              'set fh to open for access f with write permission\nwrite png to fh\nclose access fh\nreturn "ok"')
    try:
        return _png_written(_run(["osascript", "-e", script]), path)
    finally:
        _remove(path)


def _png_written(out: bytes | None, path: str) -> tuple[bytes, str] | None:
    """The PNG a clipboard script wrote to ``path`` when it printed ``ok``, else None (also when unreadable)."""
    if (out or b"").decode("utf-8", "replace").strip() != "ok":
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return (data, "image/png") if data else None


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def is_wsl(env: Mapping[str, str]) -> bool:
    """pi's ``isWSL``: ``WSL_DISTRO_NAME``/``WSLENV``, or ``microsoft``/``wsl`` in /proc/version."""
    if env.get("WSL_DISTRO_NAME") or env.get("WSLENV"):
        return True
    try:
        with open("/proc/version", encoding="utf-8") as f:
            release = f.read().lower()
    except OSError:
        return False
    return "microsoft" in release or "wsl" in release


def _tools(env: Mapping[str, str], platform: str) -> list[str]:
    """The clipboard tools this system has, in the order they are tried."""
    names = ["pngpaste", "osascript", "pbpaste"] if platform == "darwin" else ["wl-paste", "xclip", "powershell.exe"]
    return [n for n in names if shutil.which(n)]


def _read_text(env: Mapping[str, str], platform: str) -> tuple[str, str] | None:
    wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
    cmds = ([["pbpaste"]] if platform == "darwin"
            else [*([["wl-paste", "--no-newline"]] if wayland or is_wsl(env) else []),
                  ["xclip", "-selection", "clipboard", "-o"]])
    for cmd in cmds:
        out = _run(cmd)
        if out:
            return out.decode("utf-8", "replace"), cmd[0]
    return None


def to_png(data: bytes) -> bytes | None:
    """An image of another type (BMP, TIFF) as PNG bytes (pi's ``convertToPng``); None when it cannot be read."""
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            out = io.BytesIO()
            image.save(out, "PNG")
            return out.getvalue()
    except Exception:
        return None


def read_clipboard(env: Mapping[str, str] | None = None, platform: str | None = None) -> ClipboardContent:
    """The clipboard's image (pi's order, module docstring), else its text; blocking (run it in a thread)."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    if env.get("TERMUX_VERSION"):
        return ClipboardContent(tools_found=False)
    if not _tools(env, platform):
        return ClipboardContent(tools_found=False)
    if (platform.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY")
            and env.get("XDG_SESSION_TYPE") != "wayland" and not is_wsl(env)):
        return ClipboardContent(no_display=True)
    found: tuple[bytes, str] | None = None
    tool = None
    if platform == "darwin":
        found, tool = _macos(), "macOS clipboard"
    else:
        wsl = is_wsl(env)
        wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
        if wayland or wsl:
            found, tool = _wl_paste(), "wl-paste"
            if found is None:
                found, tool = _xclip(), "xclip"
        if found is None and wsl:
            found, tool = _powershell(), "powershell.exe"
        if found is None and not wayland:
            found, tool = _xclip(), "xclip"
    if found is not None:
        data, mime = found
        if mime not in SUPPORTED_IMAGE_MIME_TYPES or extension_for_mime(mime) is None:
            png = to_png(data)
            if png is None:
                return ClipboardContent(tool=tool)
            data, mime = png, "image/png"
        return ClipboardContent(image=data, mime_type=mime, tool=tool)
    text = _read_text(env, platform)
    if text is not None:
        return ClipboardContent(text=text[0], tool=text[1])
    return ClipboardContent()


def save_clipboard_image(data: bytes, mime_type: str, directory: str | None = None) -> str:
    """Write a clipboard image to ``pi-clipboard-<uuid>.<ext>`` in the temp folder (pi's name); its path.
    Raises ``OSError`` when it cannot be written."""
    ext = extension_for_mime(mime_type) or "png"
    path = os.path.join(directory or tempfile.gettempdir(), f"pi-clipboard-{uuid.uuid4()}.{ext}")
    with open(path, "wb") as f:
        f.write(data)
    return path
