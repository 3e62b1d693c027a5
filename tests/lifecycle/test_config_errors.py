"""Issue 9 item 12: a configuration file that cannot be used is an error you see, never a silent fallback.

``pi-tui -p`` with a broken models.json used to exit 0 with the offline demo's canned answer. Now every config
file that fails to parse (settings.json global/project, models.json, auth.json, keybindings.json) stops print and
JSON mode with exit 1 and a message naming the file on stderr, and is a visible warning in the app (where the
offline model no longer answers in place of a broken models.json). A refused connection names the provider and
its URL once the retries are over.
"""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from tests.coding.modes.helpers import CLI, clean_env
from tests.tui.helpers import make_app, settle, transcript_text

BROKEN = '{"providers": {\n'

FILES = {
    "settings.json": lambda root: root / "agent" / "settings.json",
    "project settings.json": lambda root: root / "project" / ".pi-tui" / "settings.json",
    "models.json": lambda root: root / "agent" / "models.json",
    "auth.json": lambda root: root / "agent" / "auth.json",
    "keybindings.json": lambda root: root / "agent" / "keybindings.json",
}


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=root / "project", env=clean_env(root), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", list(FILES))
@pytest.mark.parametrize("mode", [["-p", "hello"], ["--mode", "json", "-p", "hello"]], ids=["print", "json"])
def test_broken_config_file_fails_print_and_json_mode(tmp_path: Path, name: str, mode: list[str]) -> None:
    clean_env(tmp_path)  # creates home/agent/project
    path = FILES[name](tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BROKEN)
    trusted = ["--trust-project"] if name.startswith("project") else []  # an untrusted folder's file is not read
    run = _run(tmp_path, "--no-session", *trusted, *mode)
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert str(path) in run.stderr and "Error" in run.stderr
    assert "offline demo model" not in run.stdout and '"type":"session"' not in run.stdout


def test_connection_refused_names_provider_and_url(tmp_path: Path) -> None:
    clean_env(tmp_path)
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    models = {"providers": {"mybox": {"baseUrl": url, "api": "openai-completions", "apiKey": "none",
                                      "models": [{"id": "m1"}]}}}
    (tmp_path / "agent" / "models.json").write_text(json.dumps(models))
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"retry": {"baseDelayMs": 1, "maxRetries": 1}}))
    run = _run(tmp_path, "--no-session", "-p", "hello")
    assert run.returncode == 1
    assert '"mybox"' in run.stderr and url in run.stderr, run.stderr


@pytest.mark.anyio
@pytest.mark.parametrize("name", ["models.json", "settings.json", "auth.json"])
async def test_broken_config_file_is_a_visible_warning_in_the_app(tmp_path: Path, name: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    (agent / name).write_text(BROKEN)
    app = make_app(session=None, session_factory=lambda: create_agent_session(str(tmp_path), no_session=True))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        text = " ".join(transcript_text(app).split())
        assert str(agent / name) in text
        if name != "settings.json":  # something is configured: the demo model does not answer in its place
            assert not app.session.is_offline_model
