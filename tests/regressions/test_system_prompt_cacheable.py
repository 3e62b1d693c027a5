"""The system prompt holds nothing that changes from day to day (pi 0.80.7, earendil-works/pi#6621).

Real reports: a session resumed after midnight re-sent its whole history uncached because the ``Current date:``
line of the system prompt changed; on a local server with slow prefill that is 20 minutes at 250k tokens
(pi#6621); the same in opencode (anomalyco/opencode#32622), zeroclaw (zeroclaw-labs/zeroclaw#10858: $3.29 for
one request of a 340k session) and AltimateAI/altimate-code#949.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from pi_tui.coding import system_prompt
from pi_tui.coding.system_prompt import build_system_prompt

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class _Tomorrow(dt.date):
    @classmethod
    def today(cls) -> _Tomorrow:
        return cls(2031, 7, 9)


@pytest.mark.parametrize("custom", [None, "Be brief."])
def test_prompt_has_no_date_and_is_the_same_tomorrow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     custom: str | None) -> None:
    first = build_system_prompt(cwd=str(tmp_path), custom_prompt=custom)
    monkeypatch.setattr(dt, "date", _Tomorrow)
    if hasattr(system_prompt, "_dt"):
        monkeypatch.setattr(system_prompt._dt, "date", _Tomorrow)
    second = build_system_prompt(cwd=str(tmp_path), custom_prompt=custom)
    assert first == second
    assert "Current date" not in first and not DATE.search(first)
    assert first.endswith(f"Current working directory: {tmp_path}")
