"""examples/extensions/protected_paths.py and tool_override.py in a real session: writes to ``.env``,
``.git/`` and listed paths are blocked with a warning; the overriding ``read`` refuses secrets, logs every
access and reads other files through the built-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call

from .conftest import errors, role, started, tool_results


def _calls(*calls: tuple[str, dict[str, str]]) -> list[object]:
    return [faux_assistant_message([faux_tool_call(n, a, id=f"c{i}")], stop_reason="toolUse")
            for i, (n, a) in enumerate(calls)] + [faux_assistant_message("done")]


@pytest.mark.anyio
async def test_protected_paths_are_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "config").mkdir()
    (project / ".env").write_text("KEY=1\n")
    monkeypatch.setenv("PI_TUI_PROTECTED_PATHS", "config")
    steps = _calls(("write", {"path": ".env", "content": "KEY=2"}),
                   ("edit", {"path": ".git/config", "edits": [{"oldText": "a", "newText": "b"}]}),  # type: ignore[dict-item]
                   ("write", {"path": "config/app.toml", "content": "x"}),
                   ("write", {"path": "src/.env.local", "content": "x"}),
                   ("write", {"path": "src/main.py", "content": "print(1)"}))
    session, ui = await started(project, "protected_paths", steps, tools=["read", "write", "edit"])
    await session.prompt("change things")
    await session.wait_for_idle()
    assert errors(session) == []
    results = tool_results(session)
    assert [r[1] for r in results] == [True, True, True, True, False]
    assert "'.env' is protected" in results[0][2]
    assert (project / ".env").read_text() == "KEY=1\n" and not (project / "config" / "app.toml").exists()
    assert (project / "src" / "main.py").read_text() == "print(1)"
    assert [level for level, _ in ui.notices] == ["warning"] * 4


@pytest.mark.anyio
async def test_read_override_refuses_secrets_logs_and_delegates(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.md").write_text("one\ntwo\n")
    (project / ".env").write_text("TOKEN=secret\n")
    (project / "id_rsa").write_text("KEY\n")
    steps = _calls(("read", {"path": "notes.md"}), ("read", {"path": ".env"}), ("read", {"path": "id_rsa"}))
    session, _ = await started(project, "tool_override", steps)
    assert session.tools.all["read"].owner == "tool_override"
    await session.prompt("look around")
    await session.wait_for_idle()
    results = tool_results(session)
    assert results[0] == ("read", False, "one\ntwo\n")
    assert results[1][1] and "looks like a secret" in results[1][2] and "secret\n" not in results[1][2]
    assert results[2][1]
    log = (tmp_path / "agent-dir" / "read-access.log").read_text().splitlines()
    assert [line.split()[1:] for line in log] == [
        ["ALLOWED", str(project / "notes.md")], ["BLOCKED", str(project / ".env")], ["BLOCKED", str(project / "id_rsa")]]
    warnings = [m.text for m in role(session, "notification") if m.level == "warning"]
    assert any("overrides the built-in tool read" in w for w in warnings)
    assert errors(session) == []
