"""``ImageAttachments``: images that go with the next message (issue 12; pi's Ctrl+V, ``@file`` images).

* Ctrl+V (``app.clipboard.pasteImage``, pi's id and key): the clipboard's image (``image_paste.read_clipboard``
  in a thread) is saved as ``pi-clipboard-<uuid>.<ext>`` in the temp folder (pi) and attached; when the clipboard
  holds text instead, that text is pasted into the editor; no clipboard tool or an empty clipboard is said so.
* A paste that is nothing but image file paths (a file dropped on the terminal) attaches them instead of
  inserting the text (``coding.image_paths.pasted_image_paths``).
* Image paths typed in the prompt, and images mentioned with ``@`` (``coding.file_args``), are attached when it
  is sent (:meth:`ImageAttachments.claim`: only the typed text is searched); the text stays as typed.
* Pending images are listed above the editor (``AttachmentBar``): a click removes one, Backspace on an empty
  editor the last.

Attaching reads and resizes the file in a thread (``coding.images.load_image_file``; pi's limits with
``images.autoResize``); a missing, corrupt or oversized file is one warning, never a crash. When the prompt is
sent, :meth:`take` returns the text with pi's ``<file name="…">dimension note</file>`` line per image before it
(pi's CLI ``@file`` form) and the image blocks. A model whose ``input`` has no ``"image"`` (or the setting
``images.blockImages``) gets no image: the message is still sent and saved with its images, as pi does (its
context converter replaces them with ``(image omitted: model does not support images)`` / ``Image reading is
disabled.``), and a warning says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from typing import Any

from textual import events

from pi_tui.ai.types import ImageContent
from pi_tui.coding.image_paths import pasted_image_paths, typed_image_paths
from pi_tui.coding.images import ImageAttachment, ImageError, file_tag, load_image_file
from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.image_paste import ClipboardContent, read_clipboard, save_clipboard_image
from pi_tui.tui.log_setup import log
from pi_tui.tui.widgets.attachment_bar import AttachmentBar

PASTE_IMAGE_ACTION = "app.clipboard.pasteImage"
NO_TOOL_MESSAGE = ("No clipboard image tool found: install wl-clipboard (Wayland) or xclip (X11); on macOS "
                   "pngpaste or osascript. You can also paste or drop an image file's path.")
EMPTY_MESSAGE = "The clipboard holds no image (and no text)."
NO_DISPLAY_MESSAGE = ("No clipboard to read: DISPLAY and WAYLAND_DISPLAY are not set (over SSH?). The terminal's "
                      "own paste still works, and a pasted image path attaches the image.")


class ImageAttachments:
    """Pending images and how they get there (module docstring). ``bar`` shows them; ``settings`` is the app's
    SettingsManager or None (then ``images.autoResize`` is on and ``images.blockImages`` off)."""

    def __init__(self, host: AppHost, bar: AttachmentBar, settings: Any = None) -> None:
        self.host = host
        self.bar = bar
        self.settings = settings
        self.pending: list[ImageAttachment] = []
        self._taken: list[ImageAttachment] = []  # the last take(), for give_back()
        self.initial_paths: list[str] = []  # ``@file`` images from the command line: attached at mount
        self._loading = 0
        self._loaded = asyncio.Event()  # set while nothing is being read (``take`` waits for a paste in flight)
        self._loaded.set()

    # ------------------------------------------------------------ settings
    @property
    def auto_resize(self) -> bool:
        """pi's ``images.autoResize`` (default on)."""
        return bool(getattr(self.settings, "image_auto_resize", True))

    @property
    def block_images(self) -> bool:
        """pi's ``images.blockImages`` (default off)."""
        return bool(getattr(self.settings, "block_images", False))

    def mount(self) -> None:
        """Once the app is mounted: the editor's paste and Backspace hooks, the bar's click, and image previews
        in the transcript from ``terminal.showImages`` / ``terminal.imageWidthCells`` and the terminal."""
        from pi_tui.tui.widgets.image_card import terminal_shows_pixels

        editor = self.host.prompt_input
        editor.paste_filter = self.paste_filter
        editor.on_empty_backspace = self.remove_last
        self.bar.on_remove = self.remove
        ctx = self.host.ctx
        ctx.image_previews = bool(getattr(self.settings, "show_images", True)) and terminal_shows_pixels()
        ctx.image_width_cells = int(getattr(self.settings, "image_width_cells", 60) or 60)
        if self.initial_paths:
            self._loaded.clear()  # now: the first message (sent once the session starts) waits for them
            self.host.run_worker(self.attach_paths(self.initial_paths), group="image-attach")

    # ------------------------------------------------------------ the pending list
    def _show(self) -> None:
        self.bar.pi_theme = self.host.pi_theme
        self.bar.show(self.pending, self._loading)

    def add(self, attachment: ImageAttachment) -> None:
        """Attach one loaded image (the same file twice is attached once)."""
        if all(a.path != attachment.path for a in self.pending):
            self.pending.append(attachment)
        self._show()

    def remove(self, index: int) -> ImageAttachment | None:
        """Remove entry ``index``; the removed one, or None when there is none."""
        if not 0 <= index < len(self.pending):
            return None
        removed = self.pending.pop(index)
        self._show()
        self.host.add_notice("status", f"Removed {removed.name}")
        return removed

    def remove_last(self) -> bool:
        """Backspace on an empty editor: remove the last pending image; False when there is none."""
        return self.remove(len(self.pending) - 1) is not None

    async def attach_paths(self, paths: list[str]) -> list[ImageAttachment]:
        """Read and resize ``paths`` in a thread and attach them; each failure is one warning."""
        added: list[ImageAttachment] = []
        self._loading += len(paths)
        self._loaded.clear()
        self._show()
        try:
            for path in paths:
                try:
                    attachment = await asyncio.to_thread(load_image_file, path, auto_resize=self.auto_resize)
                except ImageError as exc:
                    self.host.add_notice("warning", f"Image not attached: {exc}")
                    continue
                except Exception as exc:  # never let an image take the app down
                    log.warning("attaching an image failed", exc_info=exc)
                    self.host.add_notice("warning", f"Image not attached: {os.path.basename(path)}: {exc}")
                    continue
                finally:
                    self._loading -= 1
                self.add(attachment)
                added.append(attachment)
        finally:
            if self._loading <= 0:
                self._loaded.set()
            self._show()
        return added

    # ------------------------------------------------------------ inputs
    def dispatch(self, action: str) -> bool:
        """Run ``action`` when it is this part's (Ctrl+V); False otherwise."""
        if action != PASTE_IMAGE_ACTION:
            return False
        self.host.run_worker(self.paste_clipboard(), group="clipboard-image")
        return True

    async def paste_clipboard(self) -> None:
        """Ctrl+V: attach the clipboard's image, else paste its text, else say why nothing happened."""
        try:
            content: ClipboardContent = await asyncio.to_thread(read_clipboard)
        except Exception as exc:
            log.warning("reading the clipboard failed", exc_info=exc)
            self.host.add_notice("warning", f"Could not read the clipboard: {exc}")
            return
        if not content.tools_found:
            self.host.add_notice("warning", NO_TOOL_MESSAGE)
            return
        if content.no_display:
            self.host.add_notice("warning", NO_DISPLAY_MESSAGE)
            return
        if content.image is not None and content.mime_type is not None:
            try:
                path = await asyncio.to_thread(save_clipboard_image, content.image, content.mime_type)
            except OSError as exc:
                self.host.add_notice("warning", f"Could not save the clipboard image: {exc}")
                return
            await self.attach_paths([path])
            return
        if content.text:
            # as if the terminal pasted it: the app hands pastes to the editor (posting to the editor itself
            # inserted it twice: the event bubbles up to the app, which forwards it to the editor again)
            self.host.prompt_input.app.post_message(events.Paste(content.text))
            return
        self.host.add_notice("status", EMPTY_MESSAGE)

    def paste_filter(self, text: str) -> bool:
        """The editor's paste hook: True (taken) when ``text`` is only image file paths, which are attached."""
        paths = pasted_image_paths(text, self.host.cwd)
        if not paths:
            return False
        self.host.run_worker(self.attach_paths(paths), group="image-attach")
        return True

    # ------------------------------------------------------------ sending
    async def claim(self, typed: str, paths: Sequence[str] = ()) -> None:
        """When a prompt is submitted: attach the image files named in what was ``typed`` (``typed_image_paths``)
        and ``paths`` (images mentioned with ``@``, found by ``coding.file_args``), each once. Only the typed
        text is searched: a text file attached in front of it may name images that are not meant."""
        wanted = list(dict.fromkeys([*paths, *typed_image_paths(typed, self.host.cwd)]))
        fresh = [p for p in wanted if all(a.path != p for a in self.pending)]
        if fresh:
            await self.attach_paths(fresh)

    async def take(self, text: str) -> tuple[str, list[ImageContent]]:
        """The text and images to send now: every pending image (those :meth:`claim` found in the prompt too)
        goes (pi's file line before the text) and the list is emptied. Warns when the model gets none."""
        if not self._loaded.is_set():  # Enter pressed while a pasted image is still being read: it goes too
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(30.0):
                    await self._loaded.wait()
        if not self.pending:
            self._taken = []
            return text, []
        images = list(self.pending)
        self._taken = list(images)
        self.pending.clear()
        self._show()
        self._warn_if_refused(images)
        prefix = "".join(f"{file_tag(a)}\n" for a in images)
        return prefix + text, [ImageContent(data=a.data, mime_type=a.mime_type) for a in images]

    def give_back(self) -> None:
        """The prompt the last :meth:`take` went with was refused (no model, no key): its images are pending
        again, before any attached since, so nothing the user attached is lost."""
        taken, self._taken = self._taken, []
        if taken:
            self.pending[:0] = [a for a in taken if all(p.path != a.path for p in self.pending)]
            self._show()

    def _warn_if_refused(self, images: list[ImageAttachment]) -> None:
        names = ", ".join(a.name for a in images)
        if self.block_images:
            self.host.add_notice("warning", f"Images are blocked (setting images.blockImages): {names} kept in "
                                            "the session, not sent to the model.")
            return
        model = getattr(self.host.session, "model", None)
        if model is not None and "image" not in (getattr(model, "input", None) or []):
            label = getattr(model, "name", None) or getattr(model, "id", "This model")
            self.host.add_notice("warning", f"{label} does not accept images: {names} not sent to it (the text "
                                            "was; the images stay in the session). Pick a vision model with "
                                            f"{self.host.keymap.first('app.model.select')} to send images.")
