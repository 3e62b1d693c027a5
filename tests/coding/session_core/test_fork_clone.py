"""``fork`` and ``clone`` as pi 0.73.1 (``AgentSessionRuntime.fork``, docs/rpc.md, docs/sessions.md).

* fork(entry) = a new session file with root → parent of the user message ``entry``; its header names the old
  file as ``parentSession``; the message text comes back for the editor.
* fork of the first message = an empty new session (``parentSession`` set) that records the model and thinking
  level like every new session (so a clone of it has an entry to copy).
* clone = ``fork(leaf, {position: "at"})``: the whole branch copied, ``session_before_fork`` with position ``at``
  (not ``session_before_switch``), ``{cancelled}`` returned; no entry → ``Cannot clone session: no current entry
  selected``. Both end with ``session_start`` reason ``fork``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.ai.types import UserMessage
from pi_tui.coding.session.session_manager import SessionManager

from .helpers import make_session

pytestmark = pytest.mark.anyio


def _header(path: Any) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return dict(json.loads(handle.readline()))


def _exists(path: Any) -> bool:
    return Path(path).exists()


def _types(path: Any) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line)["type"] for line in handle if line.strip()]


async def _two_turns(tmp_path: Path, faux: FauxProvider) -> Any:
    faux.set_responses([faux_assistant_message("one"), faux_assistant_message("two")])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("first")
    await session.prompt("second")
    return session


async def test_fork_copies_the_path_before_the_message_and_names_the_parent(tmp_path: Path,
                                                                            faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    original = session.session_file
    started: list[str] = []
    session.hooks.session_start = started.append
    second = session.get_fork_messages()[1]["entryId"]
    assert await session.fork(second) == {"text": "second", "cancelled": False}
    assert session.session_file != original and _exists(session.session_file)
    assert _header(session.session_file)["parentSession"] == str(original)
    assert [m.role for m in session.messages] == ["user", "assistant"]
    assert started == ["fork"]
    assert _types(original).count("message") == 4  # the original file is untouched


async def test_fork_of_the_first_message_starts_empty_with_its_settings(tmp_path: Path, faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    original = str(session.session_file)
    first = session.get_fork_messages()[0]["entryId"]
    assert await session.fork(first) == {"text": "first", "cancelled": False}
    assert session.messages == []
    types = [e.type for e in session.session_manager.get_entries()]
    assert types == ["model_change", "thinking_level_change"]  # as every new session (pi's createRuntime)
    assert session.session_manager.get_header().parent_session == original
    assert await session.clone() == {"cancelled": False}  # there is an entry to clone now


async def test_clone_copies_the_branch_through_the_fork_seam(tmp_path: Path, faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    original = session.session_file
    leaf = session.session_manager.get_leaf_id()
    seen: list[tuple[str, str]] = []
    switches: list[str] = []
    started: list[str] = []
    session.hooks.session_before_fork = lambda entry_id, position: seen.append((entry_id, position)) and False
    session.hooks.session_before_switch = lambda reason, target: switches.append(reason) and False
    session.hooks.session_start = started.append
    assert await session.clone() == {"cancelled": False}
    assert seen == [(leaf, "at")] and switches == [] and started == ["fork"]
    assert session.session_file != original
    assert [m.role for m in session.messages] == ["user", "assistant", "user", "assistant"]
    assert _header(session.session_file)["parentSession"] == str(original)
    assert _types(session.session_file).count("message") == 4


async def test_clone_of_an_empty_session_is_an_error(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model(), persist=False)
    session.session_manager.reset_leaf()
    with pytest.raises(ValueError, match="Cannot clone session: no current entry selected"):
        await session.clone()


async def test_fork_messages_of_the_branch_only(tmp_path: Path, faux: FauxProvider) -> None:
    session = await _two_turns(tmp_path, faux)
    first, second = (m["entryId"] for m in session.get_fork_messages())
    manager = session.session_manager
    manager.branch(manager.get_entry(second).parent_id)  # back to after "one", then a new prompt
    faux.set_responses([faux_assistant_message("three")])
    session.agent.state.messages = list(manager.build_session_context().messages)
    await session.prompt("other way")
    assert [m["text"] for m in session.get_fork_messages()] == ["first", "second", "other way"]  # pi: every branch
    assert [m["text"] for m in session.get_fork_messages(branch_only=True)] == ["first", "other way"]
    assert first == session.get_fork_messages(branch_only=True)[0]["entryId"]


async def test_rpc_clone_and_fork_answer_as_pi(tmp_path: Path, faux: FauxProvider) -> None:
    """RPC ``clone``/``fork`` are the same calls: a cancelling ``session_before_fork`` gives ``{cancelled: true}``
    (docs/rpc.md), with the position pi passes (``at`` for clone, ``before`` for fork)."""
    import asyncio
    import io

    from pi_tui.coding.modes.json_mode import JsonLineWriter
    from pi_tui.coding.modes.rpc_mode import RpcServer

    session = await _two_turns(tmp_path, faux)
    seen: list[str] = []
    session.hooks.session_before_fork = lambda entry_id, position: seen.append(position) or True
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    first = session.get_fork_messages()[0]["entryId"]
    for command in ({"id": "c", "type": "clone"}, {"id": "f", "type": "fork", "entryId": first}):
        server.handle_line(json.dumps(command).encode())
        await asyncio.sleep(0)
        await server.drain()
    answers = {x["id"]: x for x in map(json.loads, stream.getvalue().decode().splitlines()) if x.get("id")}
    assert answers["c"]["data"] == {"cancelled": True}
    assert answers["f"]["data"] == {"text": "first", "cancelled": True}
    assert seen == ["at", "before"]


async def test_fork_at_an_entry_copies_the_path_through_it(tmp_path: Path, faux: FauxProvider) -> None:
    """pi's ``ctx.fork(id, {position: "at"})``: any entry, the path through it, no text back."""
    session = await _two_turns(tmp_path, faux)
    first_answer = next(e for e in session.session_manager.get_entries()
                        if getattr(e, "message", None) is not None and e.message.role == "assistant")
    assert await session.fork(first_answer.id, "at") == {"cancelled": False}
    assert [m.role for m in session.messages] == ["user", "assistant"]
    with pytest.raises(ValueError, match="Invalid fork position"):
        await session.fork(first_answer.id, "after")
    with pytest.raises(ValueError, match="Invalid entry ID for forking"):
        await session.fork("nope", "at")


async def test_a_resumed_file_is_written_under_the_runs_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``switch_session`` keeps the lock guard: the resumed file is locked at its first write and the left
    file's lock is released (the fresh SessionManager had no guard: no lock, and the old one stayed)."""
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.coding.session.lock import lock_path_for, release_all

    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    try:
        first = create_agent_session(str(tmp_path))
        await first.prompt("hello")
        left = Path(first.session_file)
        plain = SessionManager.create(str(tmp_path), left.parent)  # another session file, written unlocked
        plain.append_message(UserMessage(content="the other one"))
        plain.append_message(faux_assistant_message("answer"))
        target = Path(plain.get_session_file())
        assert lock_path_for(left).exists() and not lock_path_for(target).exists()
        await first.switch_session(target)
        assert first.session_manager.write_guard is not None
        await first.prompt("written into the resumed file")
        assert lock_path_for(target).exists() and not lock_path_for(left).exists()
    finally:
        release_all()
