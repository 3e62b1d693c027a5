"""The TUI's log file and how internal failures reach the user (issue 9).

Under Textual, stderr is the screen, so a logger nobody configured loses every record (``logging.lastResort``
writes to stderr). :func:`configure_logging` sends the ``pi_tui`` loggers to ``<PI_TUI_DIR>/pi-tui.log``
(default ``~/.pi-tui/agent/pi-tui.log``): rotated at 1 MB, two old files kept, created owner-only (0600), every
line passed through the secret redaction of ``pi_tui.ai.secret_redaction`` plus patterns for common key
shapes, so API keys never reach it. :class:`FailureReporter` logs a failure with its traceback and shows it
once (per place) as an error notification.
"""

from __future__ import annotations

import logging
import logging.handlers
import re
from collections.abc import Callable
from pathlib import Path

from pi_tui.ai.secret_redaction import REDACTED, redact_text

LOG_FILE = "pi-tui.log"
MAX_BYTES = 1_000_000
BACKUPS = 2

# Key shapes redacted even when the key was never registered (OpenAI/Anthropic ``sk-``, Google ``AIza``,
# Groq ``gsk_``, xAI ``xai-``, GitHub tokens) and the values of auth headers.
_KEY_PATTERNS = re.compile(
    r"\b(?:sk-[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{30,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,})"
    r"|(?i:(?<=authorization: bearer )|(?<=x-api-key: )|(?<=api[_-]key=))[^\s\"',;]{8,}"
)

log = logging.getLogger("pi_tui.tui")


def redact_log_text(text: str) -> str:
    """``text`` with registered secrets and anything shaped like an API key replaced by ``[REDACTED]``."""
    return _KEY_PATTERNS.sub(REDACTED, redact_text(text))


class RedactingFormatter(logging.Formatter):
    """A formatter whose output (message, arguments and traceback) never holds a secret."""

    def format(self, record: logging.LogRecord) -> str:
        """The formatted record, redacted."""
        return redact_log_text(super().format(record))


def log_path(agent_dir: Path | None = None) -> Path:
    """``<agent_dir>/pi-tui.log``; ``agent_dir`` defaults to ``$PI_TUI_DIR`` or ``~/.pi-tui/agent``."""
    if agent_dir is None:
        from pi_tui.coding.config.paths import get_agent_dir

        agent_dir = get_agent_dir()
    return agent_dir / LOG_FILE


def configure_logging(agent_dir: Path | None = None, level: int = logging.INFO) -> Path | None:
    """Send the ``pi_tui`` loggers to the rotated log file; returns its path, or None when it cannot be
    created (the app then runs without a log; never raises). Calling it again replaces the handler."""
    path = log_path(agent_dir)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                                                       encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.set_name("pi-tui-file")
    root = logging.getLogger("pi_tui")
    for old in [h for h in root.handlers if h.get_name() == "pi-tui-file"]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(level)
    root.propagate = False  # never to the root logger's stderr, which is Textual's screen
    return path


class FailureReporter:
    """Log internal failures and tell the user once per place (``where``), via ``notify(message)``."""

    def __init__(self, notify: Callable[[str], None], log_file: Callable[[], Path | None] | None = None) -> None:
        self._notify = notify
        self._log_file = log_file
        self.reported: set[str] = set()

    def log_only(self, where: str, exc: BaseException) -> None:
        """Log ``exc`` with its traceback where the caller already shows the error to the user."""
        log.warning("failure in %s", where, exc_info=exc)

    def report(self, where: str, exc: BaseException, detail: str = "") -> None:
        """Log ``exc`` with its traceback; the first failure at ``where`` is also shown to the user."""
        log.error("failure in %s%s", where, f" ({detail})" if detail else "", exc_info=exc)
        if where in self.reported:
            return
        self.reported.add(where)
        path = self._log_file() if self._log_file is not None else None
        hint = f" Details in {path}." if path is not None else ""
        message = redact_log_text(f"Internal error in the {where}: {type(exc).__name__}: {exc}.{hint}")
        try:
            self._notify(message)
        except Exception:  # the notification itself failed (app shutting down): the log has it
            log.exception("could not show the failure notification")
