"""Issue 9 item 5: two pi-tui instances on one session. The second one is told (read-only, fork or take over)
instead of appending beside the first with the same parent; a stale lock is recovered silently; a normal exit
never leaves the lock behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.session.lock import (
    SessionLock,
    SessionLockedError,
    SessionOwnership,
    lock_path_for,
    release_all,
)
from pi_tui.coding.session.session_manager import SessionManager
from tests.coding.modes.helpers import CLI, clean_env
from tests.lifecycle.pty_app import PtyApp

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pid liveness checks are POSIX")


@pytest.fixture
def other_process() -> Iterator[subprocess.Popen[bytes]]:
    """A live process that is not this one (its pid stands for another pi-tui)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc
    proc.kill()
    proc.wait()


@pytest.fixture(autouse=True)
def _release() -> Iterator[None]:
    yield
    release_all()


def _hold(session_file: Path, pid: int) -> None:
    lock_path_for(session_file).write_text(json.dumps({"pid": pid, "host": os.uname().nodename, "startedAt": "x"}))


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _parents_form_one_chain(path: Path) -> bool:
    entries = [json.loads(x) for x in path.read_text().splitlines()][1:]
    return all(e["parentId"] == (entries[i - 1]["id"] if i else None) for i, e in enumerate(entries))


def test_live_holder_refuses_stale_lock_is_recovered(tmp_path: Path, other_process: subprocess.Popen[bytes]) -> None:
    session_file = tmp_path / "s.jsonl"
    session_file.write_text("")
    _hold(session_file, other_process.pid)
    with pytest.raises(SessionLockedError, match=rf"pid {other_process.pid}.*--if-locked"):
        SessionLock.acquire(session_file)
    _hold(session_file, _dead_pid())
    lock = SessionLock.acquire(session_file)  # silently
    assert json.loads(lock_path_for(session_file).read_text())["pid"] == os.getpid()
    lock.release()
    assert not lock_path_for(session_file).exists()


def test_take_over_stops_the_old_writer_so_the_file_stays_one_chain(tmp_path: Path) -> None:
    first = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "s"))
    shown: list[str] = []  # a lock problem is about this run: shown, not saved (session.notify persist=False)
    first.subscribe(lambda e: shown.append(getattr(getattr(e, "message", None), "text", "") or "")
                    if getattr(e, "type", None) == "message_end" else None)
    first.session_manager.append_message(_user("one"))
    first.session_manager.append_message(_assistant("answer one"))
    path = Path(first.session_file or "")
    assert path.exists() and lock_path_for(path).exists()
    # what another process would do: take the lock over (a new inode with another pid)
    lock_path_for(path).unlink()
    _hold(path, os.getppid())
    first.session_manager.append_message(_user("lost?"))  # refused: the lock is no longer ours
    second = SessionManager.open(path)
    second.append_message(_user("two"))
    assert "lost?" not in path.read_text() and _parents_form_one_chain(path)
    assert any("took over" in text for text in shown)


def test_stale_lock_from_a_killed_instance_is_taken_silently(tmp_path: Path) -> None:
    first = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "s"))
    first.session_manager.append_message(_user("one"))
    first.session_manager.append_message(_assistant("answer"))
    path = Path(first.session_file or "")
    release_all()
    _hold(path, _dead_pid())  # the holder was killed (SIGKILL, power loss)
    again = create_agent_session(str(tmp_path), session_path=str(path))
    assert not [w for w in again.startup_warnings if "pi-tui" in w]
    assert json.loads(lock_path_for(path).read_text())["pid"] == os.getpid()


def _user(text: str) -> object:
    from pi_tui.ai.types import TextContent, UserMessage

    return UserMessage(content=[TextContent(text=text)], timestamp=1)


def _assistant(text: str) -> object:
    from pi_tui.ai.types import AssistantMessage, TextContent, Usage

    return AssistantMessage(content=[TextContent(text=text)], api="x", provider="x", model="x", usage=Usage(),
                            stop_reason="stop", timestamp=2)


def test_ownership_follows_the_session_to_a_new_file(tmp_path: Path) -> None:
    ownership = SessionOwnership()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert ownership.guard(a) and lock_path_for(a).exists()
    assert ownership.guard(b) and lock_path_for(b).exists() and not lock_path_for(a).exists()
    ownership.release()
    assert not lock_path_for(b).exists()


def _print_run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], cwd=root / "project", env=clean_env(root), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


def test_print_mode_on_a_locked_session(tmp_path: Path, other_process: subprocess.Popen[bytes]) -> None:
    clean_env(tmp_path)
    first = _print_run(tmp_path, "-p", "hello")
    assert first.returncode == 0
    files = sorted((tmp_path / "agent" / "sessions").rglob("*.jsonl"))
    assert len(files) == 1 and not lock_path_for(files[0]).exists()  # a normal exit leaves no lock
    original = files[0].read_text()
    _hold(files[0], other_process.pid)
    refused = _print_run(tmp_path, "-c", "-p", "again")
    assert refused.returncode == 1 and "open in another pi-tui" in refused.stderr and "--if-locked" in refused.stderr
    assert _print_run(tmp_path, "-c", "--if-locked", "read-only", "-p", "look").returncode == 0
    assert files[0].read_text() == original
    forked = _print_run(tmp_path, "-c", "--if-locked", "fork", "-p", "continue in a copy")
    assert forked.returncode == 0 and files[0].read_text() == original
    copies = [f for f in (tmp_path / "agent" / "sessions").rglob("*.jsonl") if f != files[0]]
    assert len(copies) == 1 and "continue in a copy" in copies[0].read_text()
    assert json.loads(lock_path_for(files[0]).read_text())["pid"] == other_process.pid  # never stolen


def test_second_app_on_the_same_session_asks_and_forks(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PI_TUI_DIR": str(home), "PI_TUI_OFFLINE_TPS": "0"})
    with PtyApp([], cwd, env) as first:
        first.wait_for("Enter: send", timeout=60)
        time.sleep(0.5)
        first.type_line("hello there")
        first.wait_for("runs a bash command")
        time.sleep(0.5)
        [original] = list((home / "sessions").rglob("*.jsonl"))
        with PtyApp(["-c"], cwd, env) as second:
            second.wait_for("This session is open in another pi-tui", timeout=60)
            second.send("\x1b[B")  # Down: "Fork to a new session"
            time.sleep(0.3)
            second.send("\r")
            second.wait_for("Forked it to a new session")
            time.sleep(0.3)
            second.type_line("list files")
            second.wait_for("drwx")
            time.sleep(0.5)
            second.send("\x04")
            assert second.wait() == 0
        first.type_line("read the notes")
        time.sleep(2)
        first.send("\x04")
        assert first.wait() == 0
    sessions = sorted((home / "sessions").rglob("*.jsonl"))
    assert len(sessions) == 2 and not list((home / "sessions").rglob("*.lock"))
    fork = next(s for s in sessions if s != original)
    assert "list files" in fork.read_text() and "list files" not in original.read_text()
    assert "read the notes" in original.read_text()
    assert _parents_form_one_chain(original) and _parents_form_one_chain(fork)


@pytest.mark.anyio
async def test_the_old_window_hears_of_a_take_over_before_it_types(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """New-user run (issue 9): after window B took the session over, window A ran its next prompt and only then
    said nothing was saved. Now A says so by itself within a check interval, and before a prompt it runs."""
    from pi_tui.tui import app as app_module
    from tests.tui.helpers import make_app, transcript_text, wait_until

    monkeypatch.setattr(app_module, "OWNERSHIP_CHECK_S", 0.1)
    first = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "s"))
    first.session_manager.append_message(_user("one"))
    first.session_manager.append_message(_assistant("answer one"))
    path = Path(first.session_file or "")
    app = make_app(first)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.3)
        assert "took over" not in transcript_text(app)
        lock_path_for(path).unlink()  # what window B does: take the lock over (a new inode with another pid)
        _hold(path, os.getppid())
        await wait_until(pilot, lambda: "took over" in transcript_text(app))
        assert transcript_text(app).count("took over") == 1
        # ... and its editor title and footer say it is read-only from then on (issue 9 new-user run: only the
        # transcript said so, once, and scrolled away)
        await wait_until(pilot, lambda: str(app.prompt_input.border_title).startswith("read-only: not saved"))
        await wait_until(pilot, lambda: "read-only: not saved" in str(app.footer.render()))
        app.prompt_input.text = "/new"  # a session of its own: saved again, and the marks go
        await pilot.press("enter")
        await wait_until(pilot, lambda: not str(app.prompt_input.border_title).startswith("read-only"))
        await wait_until(pilot, lambda: "read-only" not in str(app.footer.render()))


def test_ownership_saving_follows_the_last_write_check(tmp_path: Path, other_process: subprocess.Popen[bytes]) -> None:
    """``SessionOwnership.saving``: True while this window writes its file, False once a write was refused (held
    by another live pi-tui), True again after a write to a file of its own (``/new``)."""
    ownership = SessionOwnership()
    mine, theirs = tmp_path / "mine.jsonl", tmp_path / "theirs.jsonl"
    assert ownership.saving and ownership.guard(mine) and ownership.saving
    _hold(theirs, other_process.pid)
    assert not ownership.guard(theirs) and not ownership.saving
    assert not ownership.guard(theirs) and not ownership.saving  # still refused, no new warning
    assert not ownership.check(theirs) and not ownership.saving
    assert ownership.check(tmp_path / "new.jsonl") and ownership.saving  # /new: not written yet, not refused
    assert ownership.guard(tmp_path / "new.jsonl") and ownership.saving
    assert not SessionOwnership(read_only=True).saving
