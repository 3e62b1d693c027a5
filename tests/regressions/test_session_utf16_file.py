"""A session file re-encoded as UTF-16 is read, not replaced by an empty session (found by a new-user run).

Windows PowerShell 5's ``>`` and ``Out-File`` write UTF-16LE with a byte-order mark and CRLF line ends
(``Get-Content s.jsonl > backup.jsonl``), and Notepad's "Unicode" save does the same. pi-tui took every byte of
such a file for damage: the session opened empty under a made-up header, with the content only in side files.
Now it is decoded, every entry loads, the file is rewritten as UTF-8 (so later appends stay readable) and the
original is kept next to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.coding.session.session_manager import SessionManager


def _session(tmp_path: Path) -> tuple[Path, list[str]]:
    manager = SessionManager.create(str(tmp_path), str(tmp_path / "sessions"))
    texts = ["first é", "second 👍", "third"]
    for text in texts:
        manager.append_message(UserMessage(content=text))
    manager.append_message(AssistantMessage(content=[TextContent(text="ok")], api="x", provider="x", model="x"))
    path = manager.get_session_file()
    assert path is not None
    return Path(path), texts


def _texts(manager: SessionManager) -> list[str]:
    return [e.message.content for e in manager.get_entries()  # type: ignore[attr-defined]
            if getattr(e, "type", "") == "message" and e.message.role == "user"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_session_loads_and_is_rewritten_as_utf8(tmp_path: Path, encoding: str) -> None:
    path, texts = _session(tmp_path)
    original = path.read_text(encoding="utf-8")
    data = original.replace("\n", "\r\n").encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path.write_bytes(data)
    manager = SessionManager.open(str(path))
    assert _texts(manager) == texts
    assert path.read_bytes().startswith(b'{"type":"session"')  # UTF-8 again
    backups = list(path.parent.glob(path.name + ".utf16"))
    assert backups and backups[0].read_bytes() == data
    manager.append_message(UserMessage(content="fourth"))
    assert _texts(SessionManager.open(str(path))) == [*texts, "fourth"]
    assert not list(path.parent.glob(path.name + ".damaged"))
