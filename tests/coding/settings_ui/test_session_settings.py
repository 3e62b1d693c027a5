"""A running session acts on settings and saves what is toggled, as pi 0.73.1's AgentSession does:
RPC ``set_auto_compaction`` / ``set_auto_retry`` are saved (``setAutoCompactionEnabled``/``setAutoRetryEnabled``
call the settings manager; issue 9 leftover: pi-tui changed only the live session), ``apply_settings`` makes a
session use new thresholds at once, and the ``--models`` / ``enabledModels`` scope limits Ctrl+P cycling."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.agent_session.live_settings import apply_settings
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer


async def _rpc(session: Any, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    for command in commands:
        server.handle_line(json.dumps(command).encode())
    await asyncio.sleep(0)
    await server.drain()
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    return [line for line in lines if line.get("type") == "response"]


@pytest.mark.anyio
async def test_auto_compaction_and_retry_set_over_rpc_are_saved(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    responses = await _rpc(session, [{"id": "1", "type": "set_auto_compaction", "enabled": False},
                                     {"id": "2", "type": "set_auto_retry", "enabled": False}])
    assert [r["success"] for r in responses] == [True, True]
    assert not session.settings.compaction.enabled and not session.settings.retry.enabled
    saved = json.loads((home / "settings.json").read_text())
    assert saved["compaction"]["enabled"] is False and saved["retry"]["enabled"] is False
    again = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    assert not again.settings.compaction.enabled and not again.settings.retry.enabled
    await _rpc(again, [{"id": "3", "type": "set_auto_compaction", "enabled": True}])
    assert json.loads((home / "settings.json").read_text())["compaction"]["enabled"] is True


def test_apply_settings_changes_the_running_session_in_place(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    compaction, retry = session.settings.compaction, session.settings.retry
    manager = SettingsManager.in_memory({"compaction": {"reserveTokens": 1234, "keepRecentTokens": 99},
                                         "retry": {"maxRetries": 7, "baseDelayMs": 10},
                                         "steeringMode": "all", "images": {"blockImages": True}})
    apply_settings(session, manager)
    assert session.settings.compaction is compaction and session.settings.retry is retry  # parts hold these
    assert (compaction.reserve_tokens, compaction.keep_recent_tokens) == (1234, 99)
    assert (retry.max_retries, retry.base_delay_ms) == (7, 10)
    assert session.agent.steering_mode == "all" and session.settings.block_images


def test_queue_modes_set_on_the_session_are_saved(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    session.set_queue_mode("follow_up", "all")
    assert session.agent.follow_up_mode == "all"
    assert json.loads((home / "settings.json").read_text())["followUpMode"] == "all"


def _ids(session: Any) -> list[str]:
    return [s.model.id for s in session.scoped_models]


def test_enabled_models_limit_cycling_to_the_scope(home: Path, tmp_path: Path) -> None:
    (home / "settings.json").write_text(json.dumps({"enabledModels": ["local/gamma", "local/alpha:high"]}))
    session = create_agent_session(str(tmp_path), no_session=True, persist_settings=True)
    assert _ids(session) == ["gamma", "alpha"]
    assert session.model is not None and session.model.id == "gamma"  # a new session starts on the first
    seen = []
    for _ in range(4):
        result = session.cycle_model()
        assert result is not None and result["is_scoped"]
        seen.append(result["model"].id)
    assert seen == ["alpha", "gamma", "alpha", "gamma"]  # beta is never reached
    session.set_model(session.models.find("local", "gamma"))  # type: ignore[arg-type]
    result = session.cycle_model()
    assert result is not None and result["model"].id == "alpha" and result["thinking_level"] == "high"
    backward = session.cycle_model("backward")
    assert backward is not None and backward["model"].id == "gamma"


def test_cli_models_win_over_enabled_models_and_the_saved_default_in_scope_is_kept(home: Path,
                                                                                     tmp_path: Path) -> None:
    (home / "settings.json").write_text(json.dumps({"enabledModels": ["local/gamma"], "defaultProvider": "local",
                                                    "defaultModel": "beta"}))
    session = create_agent_session(str(tmp_path), no_session=True, models=["local/alpha", "local/b*"])
    assert _ids(session) == ["alpha", "beta"]
    assert session.model is not None and session.model.id == "beta"  # the saved default, in the scope


def test_a_pattern_matching_nothing_is_a_warning_and_one_model_does_not_cycle(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True, models=["local/alpha", "nothing*"])
    assert any('No models match pattern "nothing*"' in w for w in session.startup_warnings)
    assert session.cycle_model() is None  # a scope of one model
    session.set_scoped_models([])
    assert session.cycle_model() is not None  # every available model again


def test_the_models_flag_is_parsed_like_pis() -> None:
    from pi_tui.cli import parse_args

    args = parse_args(["--models", "claude-*, gpt-4o:high,,"])
    assert args.models == ["claude-*", "gpt-4o:high"]
    assert args.session_options("/tmp")["models"] == ["claude-*", "gpt-4o:high"]
    assert parse_args([]).session_options("/tmp")["models"] is None
