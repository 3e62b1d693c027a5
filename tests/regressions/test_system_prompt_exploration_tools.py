"""The system prompt's tool-selection guidance names only active exploration tools (pi 0.77.0, #5132: with
only some of grep/find/ls active, the prompt still told the model to prefer grep/find/ls over bash, and models
called the missing tools)."""

from __future__ import annotations

import re

import pytest

from pi_tui.coding.system_prompt import build_system_prompt


def _guidance(prompt: str) -> list[str]:
    return [line for line in prompt.splitlines() if "file exploration" in line or "file operations" in line]


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        (["read", "bash", "grep", "find", "ls"],
         ["- Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)"]),
        (["read", "bash", "grep"], ["- Prefer grep tool over bash for file exploration (faster, respects .gitignore)"]),
        (["read", "bash", "find", "ls"],
         ["- Prefer find/ls tools over bash for file exploration (faster, respects .gitignore)"]),
        (["read", "bash"], ["- Use bash for file operations like ls, rg, find"]),
        (["read", "grep"], []),
    ],
)
def test_guidance_names_only_active_exploration_tools(tools: list[str], expected: list[str]) -> None:
    prompt = build_system_prompt(cwd="/p", tools=tools)
    lines = _guidance(prompt)
    assert lines == expected
    for missing in {"grep", "find", "ls"} - set(tools):
        assert not any(re.search(rf"\b{missing}\b", line) for line in lines if line.startswith("- Prefer"))
