"""The session list skips ``.jsonl`` files that are not sessions, and leaves no file open (pi 1.6.0).

pi's session picker threw an uncaught AbortError after skipping a non-session ``.jsonl`` in the sessions folder
and left such files open. pi-tui's listing reads each file whole and closes it, and a file without a session
header (another tool's JSON Lines, an empty file, binary data) is left out without an error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pi_tui.coding.session.listing import list_all_sessions, list_sessions_in_dir

HEADER = {"type": "session", "version": 3, "id": "0199aaaa-0000-7000-8000-000000000001",
          "timestamp": "2026-11-01T10:00:00.000Z", "cwd": "/work/project"}
MESSAGE = {"type": "message", "id": "a1", "parentId": None, "timestamp": "2026-11-01T10:00:01.000Z",
           "message": {"role": "user", "content": [{"type": "text", "text": "hello there"}], "timestamp": 1}}


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def test_foreign_jsonl_files_are_skipped_and_closed(tmp_path: Path) -> None:
    folder = tmp_path / "sessions" / "--work-project--"
    folder.mkdir(parents=True)
    (folder / "real.jsonl").write_text(json.dumps(HEADER) + "\n" + json.dumps(MESSAGE) + "\n", encoding="utf-8")
    (folder / "events.jsonl").write_text('{"event": "click", "x": 1}\n{"event": "key"}\n', encoding="utf-8")
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "binary.jsonl").write_bytes(bytes(range(256)) * 40)
    (folder / "array.jsonl").write_text("[1, 2, 3]\n", encoding="utf-8")
    before = _open_files()
    for _ in range(20):
        infos = list_sessions_in_dir(folder)
        every = list_all_sessions(tmp_path / "sessions")
    assert [i.id for i in infos] == [HEADER["id"]] and [i.id for i in every] == [HEADER["id"]]
    assert infos[0].first_message == "hello there"
    assert _open_files() <= before
