"""Invalid ``models.json`` syntax is one readable message, not a parse trace (pi 0.79.1).

A stray comma or a cut-off file gives ``Failed to parse models.json: <what, line, column>`` and the file's path;
the built-in models stay usable. Already right in pi-tui: pinned, for several kinds of damage.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.config.auth import AuthStorage, clear_command_cache
from pi_tui.coding.config.model_registry import ModelRegistry


@pytest.mark.parametrize("text", [
    '{"providers": {"x": {"baseUrl": "http://127.0.0.1:1/v1",, }}',
    '{"providers": {"x": {"baseUrl": "http://127.0.0.1:1/v1"',
    '{"providers": {"x": "unterminated}}',
    "\x00\x00\x00",
])
def test_a_syntax_error_is_one_message_with_the_position(tmp_path: Path, text: str) -> None:
    path = tmp_path / "models.json"
    path.write_text(text)
    clear_command_cache()
    registry = ModelRegistry(AuthStorage.in_memory(), path)
    error = registry.error or ""
    assert error.startswith("Failed to parse models.json: "), error
    assert "line 1 column" in error and str(path) in error
    assert "Traceback" not in error and "File \"" not in error
    assert registry.find("anthropic", "claude-opus-4-7") is not None
