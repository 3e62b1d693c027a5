"""``ctx.ui.set_header``/``set_footer`` and the working-row calls without the app (ui_slots.py): a UI that has
no such parts ignores them (print/JSON/RPC mode, as pi's RPC mode); a factory that is not callable raises
``TypeError`` from the call; a slot's failure is one error naming the extension that defined the factory;
unloading the extensions gives the front end its own parts back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.ui_slots import render_lines

from .fakes import ScriptedUI, make_runtime, sources, write_ext


class PartsUI(ScriptedUI):
    """A scripted UI that also has the app's custom parts (records every call)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def set_footer(self, spec: Any) -> None:
        self.calls.append(("footer", spec))

    def set_header(self, spec: Any) -> None:
        self.calls.append(("header", spec))

    def set_working_message(self, message: Any) -> None:
        self.calls.append(("working_message", message))

    def set_working_visible(self, visible: bool) -> None:
        self.calls.append(("working_visible", visible))

    def set_working_indicator(self, frames: Any, interval_ms: Any) -> None:
        self.calls.append(("working_indicator", (frames, interval_ms)))


BODY = """
class Footer:
    def render(self, width):
        raise RuntimeError("boom")

def activate(pi):
    def start(event, ctx):
        ctx.ui.set_footer(lambda tui, theme, data: Footer())
        ctx.ui.set_working_indicator({"frames": ["a", "b"], "intervalMs": 5})
        ctx.ui.set_working_message("busy")
    pi.on("session_start", start)
"""


def test_custom_parts_reach_a_ui_that_has_them_and_are_taken_back_on_unload(tmp_path: Path) -> None:
    ui = PartsUI()
    runtime, host = make_runtime(tmp_path, ui=ui)
    write_ext(tmp_path / "agent" / "extensions", "footer_ext.py", BODY)
    asyncio.run(runtime.load(sources(tmp_path)))
    asyncio.run(runtime.start())
    kinds = [kind for kind, _ in ui.calls]
    assert kinds == ["footer", "working_indicator", "working_message"]
    spec = ui.calls[0][1]
    assert spec.owner.name == "footer_ext" and spec.slot == "footer"
    assert ui.calls[1][1] == (["a", "b"], 16)  # an interval under 16 ms is raised to 16
    component = spec.factory(None, None, None)
    with pytest.raises(RuntimeError):
        render_lines(component, 80)
    spec.fail(RuntimeError("boom"))
    spec.fail(RuntimeError("boom"))  # once only
    footer_errors = [e for e in host.errors if "ui.footer" in e]
    assert len(footer_errors) == 1 and 'Extension "footer_ext" failed on ui.footer: RuntimeError: boom' in footer_errors[0]
    ui.calls.clear()
    runtime.unload_all()
    assert ui.calls == [("footer", None), ("working_message", None), ("working_visible", True),
                        ("working_indicator", (None, None))]


def test_without_the_parts_the_calls_do_nothing_and_a_bad_factory_raises(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path, ui=ScriptedUI())
    ui = runtime.guarded_ui
    ui.set_footer(lambda tui, theme, data: (lambda width: ["x"]))
    ui.set_header(None)
    ui.set_working_message("busy")
    assert ui.get_tools_expanded() is False
    with pytest.raises(TypeError, match="set_footer needs a factory"):
        ui.set_footer("not a factory")
    assert host.errors == []


@pytest.mark.parametrize(("value", "lines"), [(["a", "b\nc"], ["a", "b", "c"]), ("one\ntwo", ["one", "two"])])
def test_render_lines_accepts_lists_and_strings(value: Any, lines: list[str]) -> None:
    assert render_lines(lambda width: value, 10) == lines


@pytest.mark.parametrize("value", [42, [1, 2], None])
def test_render_lines_refuses_anything_else(value: Any) -> None:
    with pytest.raises(TypeError, match="must return a list of str"):
        render_lines(lambda width: value, 10)
