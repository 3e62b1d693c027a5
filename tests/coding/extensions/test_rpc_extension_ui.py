"""RPC mode's extension-UI sub-protocol (pi docs/rpc.md "Extension UI Protocol"): requests on stdout,
responses matched by id, pi's defaults for cancel and timeout."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pi_tui.coding.modes.rpc_extension_ui import RpcExtensionUI

from .fakes import make_runtime


def test_dialogs_write_requests_and_resolve_from_responses() -> None:
    written: list[dict[str, Any]] = []
    ui = RpcExtensionUI(written.append)

    async def scenario() -> list[Any]:
        confirm = asyncio.ensure_future(ui.confirm("Clear session?", "All messages will be lost."))
        select = asyncio.ensure_future(ui.select("Allow?", ["Allow", "Block"]))
        text = asyncio.ensure_future(ui.input("Name", "type"))
        editor = asyncio.ensure_future(ui.editor("Edit", "a\nb"))
        await asyncio.sleep(0)
        by_method = {r["method"]: r for r in written}
        assert by_method["confirm"] == {"type": "extension_ui_request", "id": by_method["confirm"]["id"],
                                        "method": "confirm", "title": "Clear session?",
                                        "message": "All messages will be lost."}
        assert by_method["select"]["options"] == ["Allow", "Block"]
        assert by_method["input"]["placeholder"] == "type" and by_method["editor"]["prefill"] == "a\nb"
        assert not ui.handle_response({"type": "extension_ui_response", "id": "unknown", "value": "x"})
        ui.handle_response({"type": "extension_ui_response", "id": by_method["confirm"]["id"], "confirmed": True})
        ui.handle_response({"type": "extension_ui_response", "id": by_method["select"]["id"], "value": "Block"})
        ui.handle_response({"type": "extension_ui_response", "id": by_method["input"]["id"], "cancelled": True})
        ui.handle_response({"type": "extension_ui_response", "id": by_method["editor"]["id"], "value": "edited"})
        return [await confirm, await select, await text, await editor]

    assert asyncio.run(scenario()) == [True, "Block", None, "edited"]


def test_fire_and_forget_methods_write_pi_field_names() -> None:
    written: list[dict[str, Any]] = []
    ui = RpcExtensionUI(written.append)
    ui.notify("Command blocked", "warning")
    ui.set_status("my-ext", "Turn 3")
    ui.set_status("my-ext", None)
    ui.set_widget("w", ["l1"], "belowEditor")
    ui.set_title("pi - project")
    ui.set_editor_text("prefill")
    stripped = [{k: v for k, v in r.items() if k not in ("id", "type")} for r in written]
    assert stripped == [
        {"method": "notify", "message": "Command blocked", "notifyType": "warning"},
        {"method": "setStatus", "statusKey": "my-ext", "statusText": "Turn 3"},
        {"method": "setStatus", "statusKey": "my-ext"},
        {"method": "setWidget", "widgetKey": "w", "widgetPlacement": "belowEditor", "widgetLines": ["l1"]},
        {"method": "setTitle", "title": "pi - project"},
        {"method": "set_editor_text", "text": "prefill"},
    ]
    assert all(r["type"] == "extension_ui_request" and r["id"] for r in written)


def test_a_timed_dialog_sends_the_timeout_and_resolves_to_the_default(tmp_path: Path) -> None:
    written: list[dict[str, Any]] = []
    runtime, _ = make_runtime(tmp_path, ui=RpcExtensionUI(written.append))
    ctx = runtime.context()

    async def scenario() -> tuple[bool, str | None]:
        return (await ctx.ui.confirm("Timed", "auto-cancel", timeout_ms=30),
                await ctx.ui.select("Pick", ["a"], timeout_ms=30))

    assert asyncio.run(scenario()) == (False, None)
    assert [r["timeout"] for r in written] == [30, 30]
    assert ctx.has_ui


def test_rpc_mode_gives_pis_defaults_for_components_and_themes(tmp_path: Path) -> None:
    """pi docs/rpc.md: ``custom()`` → None, ``set_editor_component`` a no-op, ``get_all_themes()`` → [],
    ``get_theme()`` → None, ``set_theme()`` → failure; none of them writes a request line."""
    written: list[dict[str, Any]] = []
    runtime, _ = make_runtime(tmp_path, ui=RpcExtensionUI(written.append))
    ui = runtime.guarded_ui
    assert asyncio.run(ui.custom(lambda tui, theme, kb, done: object(), overlay=True)) is None
    ui.set_editor_component(lambda tui, theme, kb: object())
    ui.add_autocomplete_provider(lambda current: current)
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None
    assert ui.set_theme("dark") == {"success": False, "error": "UI not available"}
    assert ui.theme.bold("x") == "x" and ui.has_ui
    assert written == []
