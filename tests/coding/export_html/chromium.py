"""Drive the system's headless Chromium (Debian's ``chromium`` package) for the export tests: ``--dump-dom``
(the DOM after the page's script ran) and ``--screenshot``. Skips, naming the reason, when it is absent."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
)


def chromium_or_skip() -> str:
    """Path of a Chromium binary, or ``pytest.skip`` with how to get one."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on PATH (apt-get install -y chromium; .ci/run installs it): browser checks skipped")


def _run(binary: str, args: list[str], timeout: float = 90) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="pi-tui-chromium-") as profile:
        return subprocess.run(
            [binary, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=timeout, check=False,
        )


def dump_dom(binary: str, url: str) -> str:
    """The serialised DOM of ``url`` after load (scripts run)."""
    result = _run(binary, ["--dump-dom", url])
    assert result.returncode == 0 and "<html" in result.stdout, result.stderr[-2000:]
    return result.stdout


def screenshot(binary: str, url: str, out: Path, width: int = 1400, height: int = 900) -> Path:
    """A PNG screenshot of ``url`` at ``width`` x ``height`` CSS pixels."""
    result = _run(binary, [f"--window-size={width},{height}", f"--screenshot={out}", url])
    assert result.returncode == 0 and out.is_file(), result.stderr[-2000:]
    return out
