"""examples/extensions/git_checkpoint.py in a temporary git repository: the first edit of each turn takes
a snapshot (tracked and untracked files; the branch, index and stashes untouched), ``/checkpoints`` lists
them, ``/rollback n`` puts the files back (new files removed, ignored ones kept), and the list survives
a resume (session entries)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.coding.extensions.events import SessionStartEvent
from tests.coding.extensions.fakes import ScriptedUI

from .conftest import errors, role, started


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "T")
    (repo / "app.py").write_text("print('v1')\n")
    (repo / ".gitignore").write_text("*.log\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    (repo / "draft.txt").write_text("user's own untracked draft\n")  # not committed: must survive
    return repo


def _write(path: str, content: str, n: str) -> object:
    return faux_assistant_message([faux_tool_call("write", {"path": path, "content": content}, id=n)],
                                  stop_reason="toolUse")


@pytest.mark.anyio
async def test_checkpoint_each_editing_turn_and_roll_back(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    steps = [faux_assistant_message("Nothing to change."),                       # run 1: no edit, no checkpoint
             _write("app.py", "print('v2')\n", "w1"), _write("new.py", "x = 1\n", "w2"),
             faux_assistant_message("v2 written"),                                # run 2: two editing turns
             _write("app.py", "print('v3')\n", "w3"), faux_assistant_message("v3 written")]
    session, ui = await started(repo, "git_checkpoint", steps, ScriptedUI([True, True]))
    head, index, stashes = git(repo, "rev-parse", "HEAD"), git(repo, "ls-files", "-s"), git(repo, "stash", "list")
    for prompt in ("look", "make v2", "make v3"):
        await session.prompt(prompt)
        await session.wait_for_idle()
    (repo / "run.log").write_text("ignored\n")
    assert errors(session) == []
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/pi-tui/checkpoints").splitlines()
    assert refs == [f"refs/pi-tui/checkpoints/{n}" for n in (1, 2, 3)]
    assert (git(repo, "rev-parse", "HEAD"), git(repo, "ls-files", "-s"), git(repo, "stash", "list")) == (
        head, index, stashes)
    await session.prompt("/checkpoints")
    listing = role(session, "artifact")[-1].content.splitlines()
    assert len(listing) == 3 and listing[0].startswith("1. turn ")

    await session.prompt("/rollback 3")  # before the v3 edit
    assert (repo / "app.py").read_text() == "print('v2')\n" and (repo / "new.py").exists()
    await session.prompt("/rollback 1")  # before anything: new.py goes, the user's draft and the log stay
    assert (repo / "app.py").read_text() == "print('v1')\n" and not (repo / "new.py").exists()
    assert (repo / "draft.txt").read_text() == "user's own untracked draft\n"
    assert (repo / "run.log").exists()
    assert git(repo, "ls-files", "-s") == index
    assert [kind for kind, _ in ui.asked] == ["confirm", "confirm"]
    assert ui.notices[-1][1].startswith("Rolled back to checkpoint 1")


@pytest.mark.anyio
async def test_checkpoints_survive_a_resume_and_rollback_can_be_declined(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    session, ui = await started(repo, "git_checkpoint",
                                [_write("app.py", "print('v2')\n", "w1"), faux_assistant_message("ok")],
                                ScriptedUI([False]))
    await session.prompt("edit")
    await session.wait_for_idle()
    await session.extensions.runtime.runner.emit("session_start", SessionStartEvent(reason="resume"))
    await session.prompt("/rollback")
    assert (repo / "app.py").read_text() == "print('v2')\n"  # declined
    await session.prompt("/rollback 5")
    assert ui.notices[-1] == ("warning", "No checkpoint 5 (1-1)")


@pytest.mark.anyio
async def test_outside_a_repository_nothing_happens(tmp_path: Path) -> None:
    session, ui = await started(tmp_path, "git_checkpoint",
                                [_write("a.txt", "a", "w1"), faux_assistant_message("ok")])
    await session.prompt("edit")
    await session.wait_for_idle()
    assert errors(session) == [] and (tmp_path / "a.txt").read_text() == "a"
    await session.prompt("/rollback")
    assert ui.notices[-1] == ("warning", "No checkpoint to roll back to")
