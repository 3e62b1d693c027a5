"""No branch or session switch while the session compacts (new-user run #28: a /tree jump during an automatic
compaction mid-run was allowed; the compaction then landed on the new branch and the interrupted turn continued
there). The app refuses the /tree jump while compacting, as it does while the agent streams, and asks before /new,
/fork, /clone and /resume; the session itself refuses to navigate while it compacts (RPC, extensions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_tree_screen import _prompt, _user_ids

pytestmark = pytest.mark.anyio


async def test_a_tree_jump_is_refused_while_the_session_compacts(tmp_path: Path, monkeypatch: Any) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("answer one"), faux_assistant_message("answer two")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first question")
        await _prompt(pilot, "second question")
        leaf = session.session_manager.get_leaf_id()
        target = _user_ids(session)["second question"]
        monkeypatch.setattr(type(session._compactor), "is_compacting", property(lambda self: True))
        await app.builtin_commands.tree_command.navigate(target)
        assert session.session_manager.get_leaf_id() == leaf  # nothing moved
        assert "compacting the context: wait for it" in transcript_text(app)
        with pytest.raises(RuntimeError, match="being compacted"):
            await session.navigate_tree(target)
        assert session.session_manager.get_leaf_id() == leaf
