"""``/resume`` search does not match scattered letters in ids and message text (pi 1.5.0, pi #11220/#11024).

pi matched every field fuzzily, so ``1024`` matched a session whose UUID holds a 1, a 0, a 2 and a 4 in that
order, and short words matched almost every long first message. pi 1.5.0: names and working directories still
match fuzzily, ids and message text only as substrings. pi-tui's picker already scored them that way.
"""

from __future__ import annotations

from dataclasses import dataclass

from pi_tui.tui.modals.resume_rows import ResumeFilters, resume_rows


@dataclass
class _Info:
    path: str
    id: str
    cwd: str
    name: str | None
    first_message: str
    modified: float = 0.0
    message_count: int = 2
    parent_session_path: str | None = None
    print_run: bool = False


SESSIONS = [
    _Info("/s/a.jsonl", "3f1a0c2e-94b4-4d11-8a2b-6c0d5e7f9a10", "/home/u/web", None, "fix the login page"),
    _Info("/s/b.jsonl", "77aa88bb-0000-4ccc-8ddd-eeeeffff1024", "/home/u/api", None, "tune the buffer size"),
    _Info("/s/c.jsonl", "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", "/home/u/scripts", "release notes",
          "write the changelog for version 2"),
]


def _found(query: str) -> list[str]:
    return [row.info.path for row in resume_rows(SESSIONS, ResumeFilters(sort="recent", query=query))]


def test_ids_and_messages_match_only_as_substrings() -> None:
    assert _found("1024") == ["/s/b.jsonl"]  # a.jsonl's id has 1…0…2…4 scattered: not a match
    assert _found("login") == ["/s/a.jsonl"]
    assert _found("lgn") == []  # scattered letters of "login" in the first message
    assert _found("buffer size") == ["/s/b.jsonl"]


def test_names_and_folders_still_match_fuzzily() -> None:
    assert "/s/c.jsonl" in _found("rlsnotes")  # the name, fuzzily
    assert "/s/c.jsonl" in _found("scrpts")  # the folder, fuzzily
