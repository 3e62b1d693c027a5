"""``/reload`` (issue 11): a built-in registry command that reloads extensions (new code, session_shutdown
then session_start with reason reload) and skills/templates/context files (``resources.commands.
reload_hook``); paths an extension offers in ``resources_discover`` become skills and templates."""

from __future__ import annotations

import textwrap

import pytest

from .conftest import Env

EXTENSION = '''
LOG = []
def activate(pi):
    pi.register_command("version", lambda args, ctx: None, "{version}")
    pi.on("session_start", lambda e: LOG.append("start:" + e.reason))
    pi.on("resources_discover", lambda e: {{"skill_paths": [{skills!r}], "prompt_paths": [{prompt!r}]}})
'''


@pytest.mark.anyio
async def test_reload_reloads_extensions_and_resources(env: Env) -> None:
    skills = env.root / "offered" / "skills" / "lint"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: lint\ndescription: Lint the code\n---\nRun the linter.\n")
    prompt = env.root / "offered" / "fix.md"
    prompt.write_text("---\ndescription: Fix it\n---\nFix $1\n")
    ext = env.agent_dir / "extensions" / "ver.py"
    ext.parent.mkdir(parents=True)
    ext.write_text(textwrap.dedent(EXTENSION.format(version="v1", skills=str(skills.parent), prompt=str(prompt))))
    env.serve([])
    session = env.session()
    await session.start()
    commands = session.commands
    assert commands.get("version").description == "v1"  # type: ignore[union-attr]
    assert "skill:lint" in commands and "fix" in commands
    assert "<name>lint</name>" in session.agent.state.system_prompt
    ext.write_text(textwrap.dedent(EXTENSION.format(version="v2", skills=str(skills.parent), prompt=str(prompt))))
    (env.agent_dir / "prompts").mkdir()
    (env.agent_dir / "prompts" / "late.md").write_text("Late $1")
    await commands.get("reload").handler("", None)  # type: ignore[union-attr]
    assert commands.get("version").description == "v2"  # type: ignore[union-attr]
    assert "late" in commands and "skill:lint" in commands and "fix" in commands
    module = session.extensions.runtime.extensions[0].module
    assert module.LOG == ["start:reload"]  # the new instance; the old one saw startup then shutdown
    notices = [m.text for m in session.messages if getattr(m, "role", None) == "notification"]
    assert notices[-1] == "Reloaded: 1 extension loaded"
