"""The end of a session file read before the whole file (issue 15, ``pi_tui.coding.session.tail``): the entries
it gives are exactly the end of the branch a full open gives, whatever the tree and the number of bytes read;
it gives up (``None``) at what only the full reader handles."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session.tail import read_session_tail
from tests.coding.session.helpers import assistant, tool_call, tool_result, user


def _session(directory: Path, steps: list[tuple[str, int]]) -> Path:
    """A session built by ``steps``: ("turn", size) appends a prompt and a reply of ``size`` characters,
    ("branch", back) moves the leaf ``back`` entries up the branch (the next append starts a new branch),
    ("label", back) labels the entry ``back`` entries up the branch."""
    manager = SessionManager.create(str(directory), directory)
    manager.append_model_change("mock", "mock-model")
    for k, (kind, n) in enumerate(steps):
        branch = manager.get_branch()
        if kind == "turn":
            manager.append_message(user(f"question {k}"))
            manager.append_message(tool_call("read", {"path": f"f{k}.py"}, call_id=f"c{k}"))
            manager.append_message(tool_result("x" * n, call_id=f"c{k}"))
            manager.append_message(assistant(f"answer {k} " + "y" * n))
        elif kind == "branch" and len(branch) > n:
            manager.branch(branch[-1 - n].id)
        elif kind == "label" and len(branch) > n:
            manager.append_label_change(branch[-1 - n].id, f"label {k}")
    path = manager.get_session_file()
    assert path is not None
    return path


def _ids(entries: list[object]) -> list[str]:
    return [getattr(e, "id") for e in entries]  # noqa: B009


STEPS = st.lists(st.tuples(st.sampled_from(["turn", "turn", "turn", "branch", "label"]), st.integers(0, 900)),
                 min_size=1, max_size=25)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(steps=STEPS, max_bytes=st.integers(1, 40_000))
def test_the_tail_is_the_end_of_the_branch_a_full_open_gives(tmp_path_factory: object, steps: list[tuple[str, int]],
                                                              max_bytes: int) -> None:
    directory = tmp_path_factory.mktemp("tail")  # type: ignore[attr-defined]
    path = _session(directory, [("turn", 10), *steps])
    full = SessionManager.open(path)
    branch = _ids(full.get_branch())
    tail = read_session_tail(path, max_bytes=max_bytes)
    assert tail is not None
    got = _ids(tail.entries)
    assert got, "the last entry is always read, however long"
    assert branch[len(branch) - len(got):] == got
    if tail.whole:
        assert got == branch
    for entry_id in got:  # a label the tail knows is the label the full open has
        label = tail.get_label(entry_id)
        if label is not None:
            assert full.get_label(entry_id) == label


def test_reading_the_whole_file_gives_the_whole_branch_and_its_labels(tmp_path: Path) -> None:
    path = _session(tmp_path, [("turn", 5), ("label", 2), ("turn", 5), ("branch", 3), ("turn", 7)])
    full = SessionManager.open(path)
    tail = read_session_tail(path, max_bytes=10**9)
    assert tail is not None and tail.whole
    assert _ids(tail.entries) == _ids(full.get_branch())
    assert {e.id: full.get_label(e.id) for e in full.get_branch() if full.get_label(e.id)} == tail.labels


def test_a_torn_last_line_is_left_out(tmp_path: Path) -> None:
    path = _session(tmp_path, [("turn", 5), ("turn", 5)])
    entries = _ids(SessionManager.open(path).get_branch())
    with path.open("ab") as handle:
        handle.write(b'{"type":"message","id":"torn","parentId":"')
    tail = read_session_tail(path)
    assert tail is not None
    assert _ids(tail.entries) == entries


def test_gives_up_at_what_only_the_full_reader_handles(tmp_path: Path) -> None:
    path = _session(tmp_path, [("turn", 5), ("turn", 5)])
    good = path.read_bytes()
    lines = good.split(b"\n")
    cases = {
        "byte-order mark": b"\xef\xbb\xbf" + good,
        "old version": json.dumps({**json.loads(lines[0]), "version": 2}).encode() + b"\n" + b"\n".join(lines[1:]),
        "damaged line": b"\n".join([*lines[:3], b'{"type": "mess', *lines[3:]]),
        "NUL bytes": b"\n".join([*lines[:3], b"\x00\x00\x00", *lines[3:]]),
        "extra header": b"\n".join([*lines[:3], lines[0], *lines[3:]]),
        "not an entry": b"\n".join([*lines[:3], b'{"no": "type"}', *lines[3:]]),
        "no header": b"\n".join(lines[1:]),
    }
    for name, content in cases.items():
        path.write_bytes(content)
        assert read_session_tail(path, max_bytes=10**9) is None, name
    assert read_session_tail(tmp_path / "missing.jsonl") is None


def test_a_header_alone_gives_no_entries(tmp_path: Path) -> None:
    path = _session(tmp_path, [("turn", 1)])
    first = path.read_bytes().split(b"\n")[0] + b"\n"
    path.write_bytes(first)
    tail = read_session_tail(path)
    assert tail is not None and tail.entries == [] and tail.whole
