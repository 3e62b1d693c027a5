"""pi-tui's own directories (pi-reference §3.4 "Location", §3.17 env)."""

from __future__ import annotations

from pathlib import Path

from pi_tui.coding.config.paths import (
    encode_cwd,
    get_agent_dir,
    get_default_session_dir,
    get_project_settings_path,
    resolve_session_dir,
)


def test_agent_dir_default_and_env_override() -> None:
    assert get_agent_dir({}) == Path.home() / ".pi-tui" / "agent"
    assert get_agent_dir({"PI_TUI_DIR": "~/custom"}) == Path.home() / "custom"


def test_cwd_encoding_matches_pi() -> None:
    assert encode_cwd("/home/me/project") == "--home-me-project--"
    assert encode_cwd("C:\\Users\\me\\proj") == "--C--Users-me-proj--"
    assert encode_cwd("\\\\server\\share") == "---server-share--"


def test_session_dir_precedence(tmp_path: Path) -> None:
    env = {"PI_TUI_DIR": str(tmp_path)}
    default = resolve_session_dir("/w/p", env=env)
    assert default == tmp_path / "sessions" / "--w-p--" == get_default_session_dir("/w/p", tmp_path)
    assert resolve_session_dir("/w/p", settings_session_dir="/s", env=env) == Path("/s")
    env_dir = {**env, "PI_TUI_SESSION_DIR": "/e"}
    assert resolve_session_dir("/w/p", settings_session_dir="/s", env=env_dir) == Path("/e")
    assert resolve_session_dir("/w/p", cli_session_dir="/c", settings_session_dir="/s", env=env_dir) == Path(
        "/c"
    )


def test_project_settings_path() -> None:
    assert get_project_settings_path("/w/p") == Path("/w/p/.pi-tui/settings.json")
