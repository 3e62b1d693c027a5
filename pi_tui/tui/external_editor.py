"""Ctrl+G (``app.editor.external``): edit the prompt in ``$VISUAL`` / ``$EDITOR`` (pi 0.73.1
``openExternalEditor``; pi README "Environment": ``VISUAL``, ``EDITOR``).

The editor's text (pastes expanded, as pi's ``getExpandedText``) is written to a temporary ``pi-editor-*.pi.md``
file; the app is suspended (Textual's ``App.suspend``: the terminal is the editor's until it exits) and the
command runs on that file (split like a shell would, so ``code --wait`` and quoted paths work). Exit status 0:
the file's text, less one final newline, replaces the editor's. Anything else leaves the editor's text as it
was and says why: no editor set, the command not found, a non-zero exit, a terminal that cannot be suspended.
The temporary file is always removed.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from textual.app import SuspendNotSupported

from pi_tui.tui.widgets.prompt_input import PromptInput

NO_EDITOR = "No editor configured. Set $VISUAL or $EDITOR environment variable."


def editor_command(env: Mapping[str, str]) -> list[str] | None:
    """The editor command from ``env`` (``VISUAL``, else ``EDITOR``) as argv, None when neither is set or the
    value cannot be split."""
    value = (env.get("VISUAL") or env.get("EDITOR") or "").strip()
    if not value:
        return None
    try:
        return shlex.split(value) or None
    except ValueError:
        return value.split()


def open_external_editor(editor: PromptInput, suspend: Callable[[], AbstractContextManager[Any]],
                         notice: Callable[[str, str], Any], env: Mapping[str, str] | None = None) -> bool:
    """Run the external editor on ``editor``'s text (module docstring); True when the text was replaced.
    ``suspend`` is the app's ``suspend``; ``notice(level, text)`` says what went wrong."""
    command = editor_command(os.environ if env is None else env)
    if command is None:
        notice("warning", NO_EDITOR)
        return False
    try:
        handle, path = tempfile.mkstemp(prefix="pi-editor-", suffix=".pi.md")
    except OSError as exc:
        notice("error", f"Could not create a temporary file for the editor: {exc.strerror or exc}.")
        return False
    try:
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(editor.expanded_text())
            text = _run(command, path, suspend, notice)
        except OSError as exc:
            notice("error", f"Could not pass the text to the editor: {exc.strerror or exc}. The text was not changed.")
            return False
        if text is None:
            return False
        editor.set_text(text[:-1] if text.endswith("\n") else text)
        editor.clear_pastes()
        editor.focus()
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _run(command: list[str], path: str, suspend: Callable[[], AbstractContextManager[Any]],
         notice: Callable[[str, str], Any]) -> str | None:
    """Run ``command path`` with the app suspended; the edited text, or None (said through ``notice``)."""
    if shutil.which(command[0]) is None:  # said before the app is suspended: no blank screen for a typo
        notice("error", f"Could not run the editor {command[0]!r}: command not found. The text was not changed.")
        return None
    failure: OSError | None = None
    result: subprocess.CompletedProcess[bytes] | None = None
    try:
        with suspend():
            # Nothing may escape this block: Textual's App.suspend resumes the app only when the block ends
            # normally, so an exception here left the screen blank for good (new-user run, issue 12).
            try:
                result = subprocess.run([*command, path], check=False)
            except OSError as exc:
                failure = exc
    except SuspendNotSupported:
        notice("error", "Cannot open an external editor here: this terminal cannot be suspended.")
        return None
    if failure is not None or result is None:
        reason = (failure.strerror or str(failure)) if failure is not None else "it did not run"
        notice("error", f"Could not run the editor {command[0]!r}: {reason}. The text was not changed.")
        return None
    if result.returncode != 0:
        notice("warning", f"The editor {command[0]!r} exited with status {result.returncode}; the text was not "
                          "changed.")
        return None
    with open(path, encoding="utf-8", errors="replace") as edited:
        return edited.read()
