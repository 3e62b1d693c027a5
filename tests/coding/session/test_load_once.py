"""Opening a session reads the file once, parses each line once and never holds it as one string (issue 15;
pi fixes 0.81.0 "sessions read and parsed twice", 0.78.1 "very large JSONL materialised as one string"), and the
one-pass reader gives exactly what the full reader gives."""

from __future__ import annotations

import builtins
import gc
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.session import loader
from pi_tui.coding.session.fast_load import paused_gc
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.session.helpers import assistant, tool_call, tool_result, user


def _session(tmp_path: Path, turns: int = 30) -> Path:
    manager = SessionManager.create(str(tmp_path), tmp_path)
    manager.append_model_change("mock", "mock-model")
    for k in range(turns):
        manager.append_message(user(f"question {k}"))
        manager.append_message(tool_call("read", {"path": f"f{k}.py"}, call_id=f"c{k}"))
        manager.append_message(tool_result(f"line {k}", call_id=f"c{k}"))
        manager.append_message(assistant(f"answer {k}"))
    manager.append_label_change(manager.get_branch()[3].id, "checkpoint")
    path = manager.get_session_file()
    assert path is not None
    return path


class _Reads:
    """Counts opens of one file and JSON documents decoded while active."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
        self.opens = 0
        self.whole_reads = 0
        self.decoded: list[str] = []
        target = str(path.resolve())
        real_open = builtins.open
        real_read_bytes = Path.read_bytes
        decoder = json._default_decoder  # type: ignore[attr-defined]
        real_decode = decoder.decode

        def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, str | Path) and str(Path(file).resolve()) == target:
                self.opens += 1
            return real_open(file, *args, **kwargs)

        def counting_read_bytes(self_path: Path) -> bytes:
            if str(self_path.resolve()) == target:
                self.whole_reads += 1
            return real_read_bytes(self_path)

        def counting_decode(text: str, *args: Any, **kwargs: Any) -> Any:
            self.decoded.append(text)
            return real_decode(text, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", counting_open)
        monkeypatch.setattr(io, "open", counting_open)
        monkeypatch.setattr(Path, "read_bytes", counting_read_bytes)
        monkeypatch.setattr(decoder, "decode", counting_decode)


def test_opening_a_session_reads_the_file_once_and_parses_each_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path)
    lines = [ln for ln in path.read_bytes().split(b"\n") if ln.strip()]
    reads = _Reads(monkeypatch, path)
    manager = SessionManager.open(path)
    monkeypatch.undo()
    assert reads.opens == 1, "the header was read on its own before the whole file (pi 0.81.0)"
    assert reads.whole_reads == 0, "the whole file was held as one bytes string (pi 0.78.1)"
    assert sorted(reads.decoded) == sorted(ln.decode() for ln in lines), "each line is parsed exactly once"
    assert len(manager.get_entries()) == len(lines) - 1
    assert manager.get_header().cwd == str(tmp_path)
    assert manager.get_label(manager.get_branch()[3].id) == "checkpoint"


def test_the_one_pass_reader_gives_what_the_full_reader_gives(tmp_path: Path) -> None:
    path = _session(tmp_path, turns=5)
    with path.open("ab") as handle:  # an extra header and a line that is JSON but no entry: both warned about
        handle.write(json.dumps({"type": "session", "id": "x", "version": 3}).encode() + b"\n")
        handle.write(b"\n   \n42\n")
    fast = loader.load_session_entries(path)
    full = loader._load_full(path, migrate=True)
    assert fast.header == full.header
    assert [e.to_json_dict() for e in fast.entries] == [e.to_json_dict() for e in full.entries]
    assert fast.warnings == full.warnings and len(fast.warnings) == 2
    assert (fast.exists, fast.empty, fast.migrated, fast.damaged, fast.header_recovered, fast.reencoded) == (
        full.exists, full.empty, full.migrated, full.damaged, full.header_recovered, full.reencoded)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(cut=st.integers(min_value=0, max_value=4000), junk=st.sampled_from([b"", b"\x00\x00", b"{\"type\":", b"\n\n"]))
def test_a_damaged_or_old_file_falls_back_to_the_full_reader(tmp_path_factory: pytest.TempPathFactory,
                                                              cut: int, junk: bytes) -> None:
    """Whatever the damage (a torn or NUL-padded tail, a torn line glued in the middle), opening gives what
    the full reader (recovery, warnings, damaged spans) gives."""
    base = tmp_path_factory.mktemp("damaged")
    data = _session(base, turns=6).read_bytes()
    path = base / "2026-01-01T00-00-00-000Z_damaged-id.jsonl"  # a made-up header takes its id from the name
    cut = min(cut, len(data))
    path.write_bytes(data[:cut] + junk + data[cut:])
    fast = loader.load_session_entries(path)
    full = loader._load_full(path, migrate=True)
    made_up = {"timestamp"} if full.header_recovered else set()  # a made-up header is stamped "now"
    assert (fast.header and fast.header.model_dump(exclude=made_up)) == (
        full.header and full.header.model_dump(exclude=made_up))
    assert [e.to_json_dict() for e in fast.entries] == [e.to_json_dict() for e in full.entries]
    assert fast.warnings == full.warnings
    assert fast.damaged == full.damaged and fast.header_recovered == full.header_recovered


def test_a_v2_file_is_still_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    lines = [{"type": "session", "version": 2, "id": "s1", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/p"},
             {"type": "message", "id": "a1", "parentId": None, "timestamp": "2026-01-01T00:00:01.000Z",
              "message": {"role": "hookMessage", "customType": "x", "content": "hi", "display": True,
                          "timestamp": 1}}]
    path.write_text("".join(json.dumps(o) + "\n" for o in lines))
    loaded = loader.load_session_entries(path)
    assert loaded.migrated and loaded.header is not None and loaded.header.version == 3


def test_paused_gc_restores_the_collector() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled(), "a collector that was off stays off"
    finally:
        gc.enable()


def test_loaded_messages_share_field_sets_and_still_write_back_what_was_read(tmp_path: Path) -> None:
    """RSS (issue 15): one fields-set per combination of field names, short strings interned; the entries
    write back exactly the lines they were read from, and a changed message is still written as changed."""
    path = _session(tmp_path, turns=8)
    lines = [json.loads(ln) for ln in path.read_bytes().split(b"\n") if ln.strip()]
    manager = SessionManager.open(path)
    entries = manager.get_entries()
    assert [e.to_json_dict() for e in entries] == lines[1:]
    answers = [e.message for e in entries if getattr(getattr(e, "message", None), "role", None) == "assistant"]
    assert len({id(m.__pydantic_fields_set__) for m in answers}) <= 2  # tool-call and text replies
    assert len({id(m.usage.__pydantic_fields_set__) for m in answers}) == 1
    assert len({id(m.provider) for m in answers}) == 1, "the provider string is interned"
    first, second = answers[0], answers[1]
    first.error_message = "changed"
    assert first.to_json_dict()["errorMessage"] == "changed"
    assert "errorMessage" not in second.to_json_dict()
    assert first.model_copy().__pydantic_fields_set__ is not first.__pydantic_fields_set__
