"""``SubmitController``: what submitted editor text does (pi's onSubmit, pi-reference §3.14 submit flow).

Slash commands run locally (unknown ones are refused, ``commands.classify_submit``); ``!cmd``/``!!cmd`` run
user bash; while the agent works Enter queues a steering message and the follow-up key a follow-up; while a
compaction runs, or a user ``!cmd`` runs with the agent idle, the text waits in the compaction queue (shown
``Pending:``, sent when it ends: the model gets the command's output first, tester2 #10); idle text is sent with
``session.prompt`` in a worker (errors shown as ``Error: …``), shown as pending above the editor until its run
starts (tester2 #5: the first prompt's wait for MCP servers left it invisible).

Before the session exists (start-up) nothing typed is lost: prompts, slash commands (typed, picked in the F1
palette, or run by a key such as Ctrl+L) and the keys whose actions need the session are held in that queue in
order, shown as pending, and run once the session is attached and its extensions loaded (a command an
extension registers is known only then). Only the commands that need no session run at once
(:data:`SESSIONLESS_COMMANDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pi_tui.tui.commands import SubmitKind
from pi_tui.tui.controllers.host import AppHost, need_session
from pi_tui.tui.controllers.user_bash import BashRunner
from pi_tui.tui.keymap import DESCRIPTIONS
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await

SESSIONLESS_COMMANDS = frozenset({"quit", "hotkeys", "changelog", "tools", "theme"})
"""Built-in commands that need no session: they run at once during start-up; every other one is held."""

HELD_COMMAND = "command"
"""The compaction queue's mode of a slash command typed or picked before the session existed."""

HELD_ACTION = "action"
"""Its mode of a key action (an action id) pressed before the session existed."""


class PromptImages(Protocol):
    """The pending images a submitted prompt takes (``controllers.images.ImageAttachments``)."""

    async def claim(self, typed: str, paths: Sequence[str] = ()) -> None:
        """Attach the images named in ``typed`` and ``paths`` (absolute) before the prompt goes."""

    async def take(self, text: str) -> tuple[str, list[Any]]:
        """``(text with pi's file lines, image blocks)`` of the pending images; empties the list."""

    def give_back(self) -> None:
        """Put the images of the last :meth:`take` back (the prompt was refused)."""


class SubmitController:
    """The submit flow and the compaction queue (which also holds what is typed before the session exists:
    ``flush_compaction_queue`` sends it once the session is attached).

    ``classify(text)`` says what submitted text is (``commands.classify_submit`` over the app's commands);
    ``run_slash(text)`` runs a known command; ``bash`` runs ``!cmd``; ``session_changed`` is set by the app after
    every session event and worker state change (``wait_for_session`` waits on it).
    """

    def __init__(self, host: AppHost, classify: Callable[[str], SubmitKind], run_slash: Callable[[str], bool],
                 bash: BashRunner, session_changed: asyncio.Event,
                 images: PromptImages | None = None) -> None:
        self.host = host
        self._images = images  # the pending images join a message sent to the session
        self._classify = classify
        self._run_slash = run_slash
        self._bash = bash
        self.session_changed = session_changed
        self.compaction_queue: list[tuple[str, str]] = []  # (behaviour, text) typed while compacting
        self.run_action: Callable[[str], None] | None = None  # runs a held key action (the app's dispatch)
        self.starting = True
        """Start-up is under way (``StartupFlow`` clears it once the session is attached and its extensions are
        loaded): what is typed meanwhile is held, so a prompt does not pass the extensions' hooks by."""
        self._sending: list[str] = []  # prompts given to the session whose run has not started yet

    def hold_until_session(self, mode: str, text: str) -> bool:
        """Hold ``text`` (a slash command: ``HELD_COMMAND``; an action id: ``HELD_ACTION``) until the session
        is attached, shown as pending; False (not held) when there is a session or it failed to start."""
        if not self.before_session():
            return False
        self.compaction_queue.append((mode, text))
        self.show_local_queue()
        return True

    def before_session(self) -> bool:
        """True while start-up is under way and has not failed (what is submitted now is held)."""
        return self.starting and not self.host.session_error

    def hold_command(self, text: str) -> bool:
        """Hold the slash command ``text`` until the session exists (``SlashRunner`` asks first); commands of
        :data:`SESSIONLESS_COMMANDS` are not held."""
        name = text.strip()[1:].split(None, 1)[0] if text.strip().startswith("/") else ""
        return name not in SESSIONLESS_COMMANDS and self.hold_until_session(HELD_COMMAND, text)

    def submit(self, text: str, behaviour: str) -> None:
        """Submit ``text`` taken at key time in a worker. Reading the editor later lost keys: in a fast burst
        (``q1`` Enter ``q2`` Ctrl+F) it already held ``q1q2`` and the follow-up key found it empty."""
        if text.strip():
            self.host.run_worker(self.submit_text(text, behaviour))

    async def submit_text(self, text: str, behaviour: str = "steer", as_message: bool = False,
                          attached: str = "") -> None:
        """pi's onSubmit: slash command, bash, queue (while working) or prompt (idle). ``as_message``: ``text``
        was classified already (typed during compaction) and is sent as it is. ``attached``: text put in front
        of the message and never searched for mentions or paths (the CLI's ``@file`` blocks)."""
        host = self.host
        slash = self._classify(text) if not as_message and text.strip() else None
        text = slash.text if slash is not None else text.strip()
        if not text and not attached:
            return
        if slash is not None and slash.kind == "command":
            if getattr(slash.command, "source", "") in ("template", "skill") and self._after_bash(behaviour, text):
                return  # a template is a prompt: it waits for the running !cmd too (the session expands it)
            self._run_slash(text)
            return
        if slash is not None and slash.kind == "unknown":
            if not self.hold_until_session(HELD_COMMAND, text):  # an extension's command is known once loaded
                self._refuse_unknown_command(slash.name, slash.suggestion, text)
            return
        if slash is not None and text.startswith("!") and len(text.lstrip("!").strip()) > 0:
            exclude = text.startswith("!!")
            await self._bash.run(text[2:].strip() if exclude else text[1:].strip(), exclude)
            if self.compaction_queue and host.session is not None and not (host.compacting or host.working):
                await self.flush_compaction_queue()  # what was typed while it ran, now after its output
            return
        typed = text  # what the user typed (before attachments): given back if the prompt is refused
        if not as_message:
            text, mentioned_images = self._attach_mentions(text)
            if self._images is not None:  # only what was typed is searched for image paths, not attached files
                await self._images.claim(typed, mentioned_images)
        text = attached + text
        if self.before_session():
            # Typed before the session exists (start-up): held and sent once it is ready, shown as pending
            # (issue 9: Enter in the first seconds was lost or told to try again).
            self.compaction_queue.append((behaviour, text))
            self.show_local_queue()
            return
        session = need_session(host)
        if session is None:
            host.prompt_input.set_text(text)
            return
        if host.compacting or session.is_compacting:
            self.compaction_queue.append((behaviour, text))
            self.show_local_queue()
            host.add_notice("status", "Queued message for after compaction")
            return
        if self._after_bash(behaviour, text):
            return
        host.check_ownership()  # taken over by another window: said before this prompt runs, not after
        count = len(getattr(session, "messages", []) or [])
        try:
            images: list[Any] = []
            if self._images is not None:
                text, images = await self._images.take(text)
            if host.working or session.is_streaming:
                if behaviour == "follow_up":
                    await maybe_await(session.follow_up(text, images) if images else session.follow_up(text))
                else:
                    await maybe_await(session.steer(text, images) if images else session.steer(text))
                return
            host.transcript.scroll_end_now()
            host.set_working(True)
            try:
                await self._prompt_shown_pending(session, typed, text, images)
            finally:
                if not session.is_streaming:
                    host.set_working(False)
        except Exception as exc:
            log.warning("submitting a prompt failed", exc_info=exc)
            host.add_notice("error", str(exc))
            # Refused before it reached the session (no model, no key): the text goes back to an empty editor,
            # so it is not lost (new-user run: only Up brought it back).
            refused = len(getattr(session, "messages", []) or []) == count
            if refused and not host.prompt_input.text.strip():
                host.prompt_input.set_text(typed)
            if refused and self._images is not None:
                self._images.give_back()  # and its images back to the bar

    def _after_bash(self, behaviour: str, text: str) -> bool:
        """Hold ``text`` until the user's running ``!cmd`` ends when the agent is idle (True: held). It is sent
        then, after the command's output: the screen, the session file and the model all have the command first
        (tester2 #10: the prompt went at once, drawn below the box but saved and sent above it)."""
        host = self.host
        session = host.session
        if session is None or not host.bash_running or host.working or session.is_streaming:
            return False
        self.compaction_queue.append((behaviour, text))
        self.show_local_queue()
        return True

    async def _prompt_shown_pending(self, session: Any, typed: str, text: str, images: list[Any]) -> None:
        """``session.prompt(text, images)``; until its run starts (the first prompt may wait up to 10 s for MCP
        servers still connecting, ``McpSessionLink.before_prompt``) ``typed`` is shown as pending above the
        editor (tester2 #5: the prompt was invisible then). Escape gives such a prompt back to the editor and
        a quit keeps it unsent (``coding.agent_session.unstarted``). The prompt runs in this task, as before;
        a watcher task shows and clears the pending line."""
        watcher = asyncio.ensure_future(self._pending_until_started(session, typed, text))
        try:
            await maybe_await(session.prompt(text, images) if images else session.prompt(text))
        finally:
            watcher.cancel()

    async def _pending_until_started(self, session: Any, typed: str, text: str) -> None:
        unstarted = getattr(session, "unstarted_prompts", None)
        if unstarted is None or text not in unstarted.texts:
            return
        self._sending.append(typed)
        self.show_local_queue()
        try:
            await self.wait_for_session(lambda: text not in unstarted.texts)
        finally:
            self._sending.remove(typed)
            self.show_local_queue()

    def _attach_mentions(self, text: str) -> tuple[str, list[str]]:
        """``text`` with the text files it mentions as ``@path`` in front of it, as pi's CLI ``@file``
        arguments (``coding.file_args.attach_mentions``), and the absolute paths of the images it mentions (they
        join the pending images: ``claim``); what cannot be attached is a warning, the rest is sent."""
        from pi_tui.coding.file_args import attach_mentions

        try:
            expanded, files = attach_mentions(text, self.host.cwd, load_images=False)
        except Exception as exc:  # a mention never stops the message
            log.warning("attaching mentioned files failed", exc_info=exc)
            return text, []
        for problem in files.problems:
            self.host.add_notice("warning", f"Not attached: {problem}")
        return expanded, files.image_paths

    def _refuse_unknown_command(self, name: str, suggestion: str | None, text: str) -> None:
        """``/exprot``: say so, suggest the nearest command, and give the text back to the editor to fix."""
        hint = f" Did you mean /{suggestion}?" if suggestion else " /hotkeys lists the commands."
        self.host.add_notice("warning", f"Unknown command: /{name}.{hint} Start with // (or a space) to send a "
                                        "message that begins with a slash.")
        if not self.host.prompt_input.text.strip():
            self.host.prompt_input.set_text(text)

    def show_local_queue(self) -> None:
        """Show the texts queued during compaction in the queue area (with the session's own queues); before
        the session exists they are pending prompts and commands, while a user ``!cmd`` runs pending prompts,
        and a prompt given to the session whose run has not started is pending too."""
        if self.before_session():
            self.host.queue_view.set_local([], [], pending=[DESCRIPTIONS.get(t, t) if mode == HELD_ACTION else t
                                                            for mode, t in self.compaction_queue])
            return
        if self.host.bash_running and not self.host.compacting:
            from pi_tui.tui.widgets.queue_view import AFTER_COMMAND_NOTE

            self.host.queue_view.set_local([], [], pending=[t for _, t in self.compaction_queue],
                                           pending_note=AFTER_COMMAND_NOTE)
            return
        steering = [t for mode, t in self.compaction_queue if mode != "follow_up"]
        follow = [t for mode, t in self.compaction_queue if mode == "follow_up"]
        self.host.queue_view.set_local(steering, follow, pending=self._sending,
                                       pending_note="waiting to be sent · Esc takes it back")

    def take_compaction_queue(self) -> list[str]:
        """Empty the compaction queue and return its texts (Alt+Up moves them into the editor); held key
        actions are dropped (they are keys, not text)."""
        texts = [text for mode, text in self.compaction_queue if mode != HELD_ACTION]
        self.compaction_queue.clear()
        self.show_local_queue()
        return texts

    async def flush_compaction_queue(self, will_retry: bool = False) -> None:
        """Send what was typed during compaction (pi's ``flushCompactionQueue``, pi-reference §3.14 submit
        flow 3): the first text as a prompt, the rest as steering/follow-up of that run; when the run
        continues by itself after compaction (``will_retry``) or the agent works, everything is queued."""
        queued = list(self.compaction_queue)
        self.compaction_queue.clear()
        self.show_local_queue()
        session = self.host.session
        if not queued or session is None:
            return
        # The session clears its compacting flag right after emitting compaction_end.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5.0):  # a safety bound only: events end the wait
                await self.wait_for_session(lambda: not session.is_compacting)
        busy = will_retry or self.host.working or session.is_streaming
        worker: Any = None
        waited = False
        for mode, text in queued:
            if mode in (HELD_COMMAND, HELD_ACTION):  # held at start-up: run now, in the order typed
                await self._run_held(mode, text)
            elif busy:
                await self._queue_to_session(text, mode)
            elif worker is None:  # the first text is the prompt; the rest joins its run once it streams
                worker = self.host.run_worker(self.submit_text(text, as_message=True), group="prompt")
            else:
                if not waited:  # (or is sent on its own if the run never starts)
                    waited = True
                    await self._wait_streaming_or_done(session, worker)
                if session.is_streaming:
                    await self._queue_to_session(text, mode)
                else:
                    await self.submit_text(text, mode, as_message=True)

    async def _wait_streaming_or_done(self, session: Any, worker: Any) -> None:
        await self.wait_for_session(lambda: session.is_streaming or worker.is_finished)

    async def _run_held(self, mode: str, text: str) -> None:
        """Run a command or key action held during start-up (a command is classified again: an extension's
        is known now, a misspelt one is refused and given back to the editor)."""
        if mode == HELD_ACTION:
            if self.run_action is not None:
                self.run_action(text)
            return
        await self.submit_text(text)

    async def wait_for_session(self, predicate: Callable[[], bool]) -> None:
        """Wait until ``predicate()`` holds, checking it again after every session event and worker state
        change (``session_changed``; the app sets it). Callers bound the wait with ``asyncio.timeout``."""
        while not predicate():
            self.session_changed.clear()
            await self.session_changed.wait()

    async def _queue_to_session(self, text: str, mode: str) -> None:
        session = self.host.session
        if session is None:
            return
        try:
            if mode == "follow_up":
                await maybe_await(session.follow_up(text))
            else:
                await maybe_await(session.steer(text))
        except Exception as exc:
            log.warning("queueing a message failed", exc_info=exc)
            self.host.add_notice("error", str(exc))
