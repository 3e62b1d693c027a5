"""``--list-models`` loads extensions first (pi 0.73 lists after its runtime exists), so providers an
extension registers with ``pi.register_provider`` are listed; a broken extension is one stderr line and the
listing goes on; ``--no-extensions`` leaves discovered ones out."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pi_tui.cli import main

from .conftest import Env

PROVIDER = textwrap.dedent("""
    def activate(pi):
        pi.register_provider("proxy", {
            "baseUrl": "http://127.0.0.1:9/v1", "apiKey": "literal-key", "api": "openai-completions",
            "models": [{"id": "big-one", "name": "Big One", "contextWindow": 1000, "maxTokens": 100}],
        })
""")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_list_models_shows_an_extensions_provider(env: Env, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(env.project)
    extension = write(env.root / "proxy_ext.py", PROVIDER)
    assert main(["--list-models", "-e", str(extension)]) == 0
    out = capsys.readouterr().out
    assert "proxy/big-one" in out and "Big One" in out
    assert "pi-tui-offline" not in out  # the stand-in demo model is not a configured model


def test_list_models_search_and_a_broken_extension(env: Env, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(env.project)
    good = write(env.root / "proxy_ext.py", PROVIDER)
    bad = write(env.root / "broken_ext.py", "def activate(pi):\n    raise RuntimeError('boom at load')\n")
    assert main(["--list-models", "big", "-e", str(bad), "-e", str(good)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip().splitlines() == ["proxy/big-one  Big One"]
    assert captured.err.count("boom at load") == 1 and "Extension error" in captured.err


def test_discovered_extensions_are_listed_unless_no_extensions(env: Env, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(env.project)
    write(env.agent_dir / "extensions" / "proxy_ext.py", PROVIDER)
    assert main(["--list-models", "proxy"]) == 0
    assert "proxy/big-one" in capsys.readouterr().out
    assert main(["--list-models", "proxy", "--no-extensions"]) == 0
    assert "proxy/big-one" not in capsys.readouterr().out


def test_a_broken_extension_is_one_stderr_line_in_a_real_process(env: Env) -> None:
    """As a real process (no pytest log capture): the runner's log line is not printed as well."""
    import os
    import subprocess
    import sys

    bad = write(env.root / "broken_ext.py", "def activate(pi):\n    raise RuntimeError('boom at load')\n")
    done = subprocess.run([sys.executable, "-c", "import sys; from pi_tui.cli import main; sys.exit(main())",
                           "--list-models", "-e", str(bad)], cwd=env.project,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PI_TUI_DIR": str(env.agent_dir)})
    assert done.returncode == 0 and done.stderr.count("boom at load") == 1, done.stderr
