"""The README's "Writing an extension" example loads and does what the README says."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from .fakes import ScriptedUI, make_runtime, sources

README = Path(__file__).resolve().parents[3] / "README.md"


def _example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Writing an extension", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_readme_example_is_short_and_works(tmp_path: Path) -> None:
    code = _example()
    assert len([line for line in code.splitlines() if line.strip()]) <= 12
    (tmp_path / "agent" / "extensions").mkdir(parents=True)
    (tmp_path / "agent" / "extensions" / "greet.py").write_text(code)
    ui = ScriptedUI()
    runtime, host = make_runtime(tmp_path, ui=ui)

    async def scenario() -> tuple[str, tuple[bool, str | None], tuple[bool, str | None]]:
        from pi_tui.coding.extensions.events import ToolCallEvent

        await runtime.load(sources(tmp_path))
        result = await host.tools["greet"].execute("c", host.tools["greet"].params_model(name="Ann"))  # type: ignore[misc]
        await runtime.commands.get("hello").handler("there", None)  # type: ignore[union-attr]
        blocked = await runtime.runner.emit_tool_call(ToolCallEvent("bash", "c", {"command": "sudo rm"}))
        allowed = await runtime.runner.emit_tool_call(ToolCallEvent("bash", "c", {"command": "ls"}))
        await runtime.runner.emit("turn_end", object())
        return result.content[0].text, blocked, allowed

    text, blocked, allowed = asyncio.run(scenario())
    assert host.errors == []
    assert text == "Hello, Ann!" and blocked == (True, "no sudo") and allowed == (False, None)
    assert ui.notices == [("info", "Hello there!")] and ui.statuses == {"greet": "✓ greeted"}
    assert host.tools["greet"].prompt_snippet == "Greet a person"  # type: ignore[attr-defined]
