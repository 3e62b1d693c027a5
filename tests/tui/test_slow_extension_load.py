"""tester2 #11 in the app: while an extension's plain ``activate`` blocks, the app goes on (keys reach the editor),
the status line names the extension, and a prompt typed meanwhile is pending and sent once it has loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.extensions import activation

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for

pytestmark = pytest.mark.anyio


async def test_a_blocking_activate_is_named_and_the_app_goes_on(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(activation, "SLOW_NOTICE_S", 0.2)
    go = tmp_path / "go"
    ext = tmp_path / "slow_activate.py"
    ext.write_text("import os, time\n"
                   "def activate(pi):\n"
                   "    start = time.monotonic()\n"
                   f"    while not os.path.exists({str(go)!r}) and time.monotonic() - start < 8:\n"
                   "        time.sleep(0.02)\n")
    session, _ = make_session(tmp_path, [faux_assistant_message("answered after loading")],
                              extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: "Loading extension slow_activate" in app.status_line.message)
        await pilot.press(*keys_for("typed during slow activate"), "enter")
        await wait_until(pilot, lambda: "Pending: typed during slow activate" in app.queue_view.render().plain)
        go.write_text("")
        await wait_until(pilot, lambda: "answered after loading" in transcript_text(app))
        assert "Loading extension" not in app.status_line.message
