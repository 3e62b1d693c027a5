"""Print (``-p``) and JSON (``--mode json``) modes (pi-reference §3.18).

Each message is sent with ``session.prompt`` in turn. Text mode prints the text blocks of the final
assistant message produced by this run (one per line; a message dropped from the state by overflow recovery
still counts, so its error is reported instead of an older answer); when that message ended with an error or abort its ``errorMessage`` (or
``Request <reason>``) goes to stderr and the exit code is 1; a reply cut off at the output token limit is
printed, followed by :data:`LENGTH_WARNING` on stderr and exit code 1 (pi 1.2.0). JSON mode writes the session header, then every
session event as one line. Extensions load with pi's no-UI defaults (``pi_tui.coding.extensions.modes``). SIGTERM → exit 143, SIGHUP → 129; a closed stdout (``| head -1``) → 141, no traceback (JSON mode also aborts the run).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from pi_tui.agent.terminal_text import sanitize_display_text
from pi_tui.coding.modes.json_mode import JsonLineWriter, session_header_json

EXIT_BROKEN_PIPE = 141
"""Exit code when stdout is closed before the answer is written (128 + SIGPIPE, like a killed ``cat``)."""
LENGTH_WARNING = (
    "Warning: the reply was cut off at the model's output token limit; the text above is incomplete."
)
"""stderr line after a reply that stopped at the output token limit (then exit 1)."""


async def _run(options: dict[str, Any], messages: Sequence[str], json_mode: bool, images: list[Any]) -> int:
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.coding.offline_model import register_offline_provider

    if not os.environ.get("PI_TUI_OFFLINE_TPS"):
        register_offline_provider(tokens_per_second=0)  # nobody watches the stream here: answer at once
    try:
        session = create_agent_session(**options)
    except Exception as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    for warning in session.startup_warnings:
        print(f"Warning: {warning}", file=sys.stderr)
    exit_code: list[int] = []

    def on_signal(code: int) -> None:
        exit_code.append(code)
        session.agent.abort()
        session.abort_bash()

    writer = (
        JsonLineWriter(on_closed=lambda: on_signal(EXIT_BROKEN_PIPE)) if json_mode else None
    )  # reader left
    if writer is not None:
        sys.stdout = sys.stderr  # stdout carries only protocol lines; stray prints go to stderr
        writer.write(session_header_json(session))
        session.subscribe(writer.write)
    from pi_tui.coding.session.run_mode import mark_print_run

    mark_print_run(session.session_manager)  # after the JSON header line: pi's header shape there (issue 12)
    answers: list[Any] = []  # assistant messages finished by this run, even ones later dropped from the state

    def on_event(event: Any) -> None:
        kind = getattr(event, "type", None)
        message = getattr(event, "message", None)
        if kind == "message_end" and getattr(message, "role", None) == "assistant":
            answers.append(message)
        elif kind == "agent_end":  # also a run that failed before streaming (no message_end, as in pi)
            ended = [m for m in getattr(event, "messages", []) if getattr(m, "role", None) == "assistant"]
            if ended:
                answers.append(ended[-1])

    session.subscribe(on_event)
    loop = asyncio.get_running_loop()
    from pi_tui.coding.extensions.modes import (
        extension_error_event,
        print_error,
        start_mode_extensions,
        stop_mode_extensions,
    )

    await start_mode_extensions(  # no UI: pi's defaults; failures on stderr / as extension_error lines
        session, on_error=(lambda e: writer.write(extension_error_event(e))) if writer is not None else print_error
    )
    if getattr(session, "model_error", None):  # a --model no extension's provider matched (pending_model.py)
        print(f"Error: {session.model_error}", file=sys.stderr)
        await stop_mode_extensions(session)
        return 1

    for signum, code in ((signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
            loop.add_signal_handler(signum, on_signal, code)
    try:
        mcp = getattr(session, "mcp", None)
        if mcp is not None:
            # one-shot: wait for every server's connection attempt (no later prompt would get its tools)
            await mcp.before_prompt(wait_all=True)
            for row in mcp.state():
                if row["state"] in ("failed", "disconnected", "connecting"):
                    print(f"Warning: MCP server {row['name']} {row['state']}: {row.get('error') or 'no reason given'}; "
                          "its tools are not available in this run", file=sys.stderr)
        for index, text in enumerate(messages):
            if exit_code:
                break
            if index == 0 and images:
                _warn_if_not_sent(session, len(images))
                await session.prompt(text, images)
            else:
                await session.prompt(text)
            if exit_code:
                break
    except Exception as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    finally:
        await stop_mode_extensions(session)
    if exit_code:
        return exit_code[0]
    # The answer is the last assistant message of THIS run, not the last one in the state: overflow recovery
    # drops the failed message from the state, and an older answer must never be printed in its place.
    last = answers[-1] if answers else None
    if json_mode:  # the events carry the error; the exit code tells a script (DIFFERENCES D23, new-user run #37)
        return 1 if last is not None and last.stop_reason in ("error", "aborted") else 0
    if last is None:
        return 0
    if last.stop_reason in ("error", "aborted"):
        from pi_tui.coding.config_check import connection_hint

        error = last.error_message or f"Request {last.stop_reason}"
        print(error + connection_hint(error, session.model), file=sys.stderr)  # which server was down
        return 1
    try:
        on_terminal = sys.stdout.isatty()  # a terminal is not driven by the model's text (tester2 #7); a pipe gets it raw
        for block in last.content:
            if block.type == "text":
                print(sanitize_display_text(block.text) if on_terminal else block.text)
        sys.stdout.flush()
    except BrokenPipeError:  # `pi-tui -p … | head -1`: the reader left; no traceback (Python docs' recipe)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    if last.stop_reason == "length":  # a truncated answer must not look finished to a script (pi 1.2.0)
        print(LENGTH_WARNING, file=sys.stderr)
        return 1
    return 0


def _warn_if_not_sent(session: Any, count: int) -> None:
    """One stderr line when the model takes no images (or ``images.blockImages``): the ``@file`` images are
    kept in the session but replaced by a placeholder in the request (pi is silent about it)."""
    model = getattr(session, "model", None)
    blocked = bool(getattr(getattr(session, "settings_manager", None), "block_images", False))
    if model is not None and "image" in (getattr(model, "input", None) or []) and not blocked:
        return
    what = f"{count} image{'s' if count > 1 else ''}"
    why = "images are blocked (setting images.blockImages)" if blocked else (
        f"{getattr(model, 'id', 'the model')} does not accept images")
    print(f"Warning: {why}: {what} not sent to the model (the text was).", file=sys.stderr)


def run_print_mode(options: dict[str, Any], messages: Sequence[str], json_mode: bool = False,
                   images: Sequence[Any] | None = None) -> int:
    """Run the prompts and return the exit code (see module docstring); ``images`` (``@file`` images) go with
    the first message, as pi's ``initialImages``."""
    try:
        return asyncio.run(_run(options, messages, json_mode, list(images or [])))
    except KeyboardInterrupt:
        return 130
