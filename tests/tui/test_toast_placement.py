"""An extension's toast (``ctx.ui.notify``) and the app's own notifications never cover the editor or the footer
(new-user run, issue 12 leftover: Textual's toasts sit at the bottom right, over the editor's border). They are
shown at the top right of the transcript, under the header, at every size."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._toast import Toast

from pi_tui.tui.extension_ui import TextualExtensionUI

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 16)])
async def test_an_extension_toast_leaves_the_editor_and_footer_alone(tmp_path: Path, size: tuple[int, int]) -> None:
    session, _ = make_session(tmp_path)
    app = make_app(session)
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("line one\nline two\nline three")
        TextualExtensionUI(app).notify("Saved a checkpoint of the working tree before the edit", "warning")
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause(0.2)
        toast = app.screen.query(Toast).first()
        editor = app.prompt_input.region
        assert not toast.region.overlaps(editor), (toast.region, editor)
        footer_top = editor.bottom
        assert toast.region.bottom <= footer_top
        header = app.header_widget.region
        assert not toast.region.overlaps(header), (toast.region, header)
