"""The editor's completion list: ``/`` commands (with argument completions), ``@`` files; keys while it is open
and that the editor behaves as before while it is closed (controllers/editor_completion.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.extensions.registries import CommandSpec
from pi_tui.coding.file_index import FileIndex
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until
from tests.tui.test_key_routing import keys_for

pytestmark = pytest.mark.anyio


def _tree(root: Path) -> Path:
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("print('main')\n")
    (root / "src" / "util.py").write_text("x = 1\n")
    (root / "my notes.md").write_text("notes\n")
    (root / "build").mkdir()
    (root / "build" / "out.bin").write_text("ignored\n")
    (root / ".gitignore").write_text("build/\n")
    return root


def _app(tmp_path: Path, steps: list[Any] | None = None) -> Any:
    session, faux = make_session(_tree(tmp_path), steps)
    app = make_app(session, cwd=str(tmp_path))
    return app, session, faux


async def _ready(pilot: Any) -> Any:
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    completion = app.prompt_input.completion
    completion._index_factory = lambda root: FileIndex(root, backend="python")
    return app.completion_list


async def _type(pilot: Any, text: str) -> None:
    """Type ``text`` one key at a time."""
    for key in keys_for(text):
        await pilot.press(key)


def _values(view: Any) -> list[str]:
    return [item.value for item in view.items]


async def test_slash_lists_every_command_and_filters_as_you_type(tmp_path: Path) -> None:
    app, session, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("/")
        await wait_until(pilot, lambda: view.is_open)
        names = [c.name for c in app.slash_commands()]
        assert _values(view) == names  # every command of the registry, in its order
        assert any("Select a model" in item.description for item in view.items)
        await pilot.press("e", "x", "p")
        await wait_until(pilot, lambda: _values(view)[:1] == ["export"])
        await pilot.press("backspace", "backspace", "backspace", "q", "u", "t")
        await wait_until(pilot, lambda: _values(view)[:1] == ["quit"])


async def test_fuzzy_filter_up_down_and_tab_complete(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("/", "s", "e", "s")
        await wait_until(pilot, lambda: view.is_open and "session" in _values(view))
        first = view.selected_item.value
        await pilot.press("down")
        assert view.selected == 1 % len(view.items)
        await pilot.press("up", "up")  # wraps to the last item
        assert view.selected == len(view.items) - 1
        await pilot.press("down")
        assert view.selected_item.value == first
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == f"/{first} "
        assert not view.is_open


async def test_enter_on_a_command_completes_and_runs_it(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("/", "h", "o", "t")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["hotkeys"])
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Edit the prompt in $VISUAL" in transcript_text(app))
        assert app.prompt_input.text == ""


async def test_escape_closes_the_list_and_enter_then_submits_as_before(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("/", "m", "o", "d")
        await wait_until(pilot, lambda: view.is_open)
        await pilot.press("escape")
        assert not view.is_open
        assert app.prompt_input.text == "/mod"  # Escape closed the list only
        await pilot.press("enter")  # list closed: the old path, "did you mean"
        await wait_until(pilot, lambda: "Unknown command: /mod. Did you mean /model?" in transcript_text(app))


async def test_a_typo_with_no_match_keeps_did_you_mean(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "/exprot")
        await pilot.pause()
        assert not view.is_open
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Did you mean /export?" in transcript_text(app))


async def test_history_and_multiline_are_unchanged_while_the_list_is_closed(tmp_path: Path) -> None:
    from pi_tui.ai.providers.faux import faux_assistant_message, faux_text

    app, session, _ = _app(tmp_path, [faux_assistant_message([faux_text("ok")])])
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "hello")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "ok" in transcript_text(app))
        await pilot.press("up")
        assert app.prompt_input.text == "hello" and not view.is_open
        await pilot.press("ctrl+c")
        await pilot.press("a", "shift+enter", "/", "b")
        await pilot.pause()
        assert app.prompt_input.text == "a\n/b"
        assert not view.is_open  # a slash on a later line is no command


async def test_argument_completions_from_the_registry(tmp_path: Path) -> None:
    app, session, _ = _app(tmp_path)
    seen: list[str] = []

    def complete(prefix: str) -> list[Any]:
        seen.append(prefix)
        envs = [{"value": "dev", "label": "dev", "description": "Development"}, "staging", "prod"]
        return [e for e in envs if (e if isinstance(e, str) else e["value"]).startswith(prefix)]

    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        app.app_commands.registry.register(CommandSpec("deploy", "Deploy somewhere", lambda a, c: None,
                                                       source="extension", owner="ext.py",
                                                       get_argument_completions=complete))
        await _type(pilot, "/deploy s")
        await wait_until(pilot, lambda: view.is_open and _values(view) == ["staging"])
        assert seen[-1] == "s"
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "/deploy staging"
        await pilot.press("ctrl+c")
        await _type(pilot, "/deploy ")
        await wait_until(pilot, lambda: _values(view) == ["dev", "staging", "prod"])
        assert view.items[0].description == "Development"
        await pilot.press("enter")  # Enter on an argument inserts it and does not submit
        await pilot.pause()
        assert app.prompt_input.text == "/deploy dev"


async def test_completions_that_raise_are_reported_once_and_typing_goes_on(tmp_path: Path) -> None:
    app, session, _ = _app(tmp_path)
    reported: list[str] = []

    def broken(prefix: str) -> list[str]:
        raise RuntimeError("boom")

    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        app.prompt_input.completion._report = lambda where, exc: reported.append(f"{where}: {exc}")
        app.app_commands.registry.register(CommandSpec("bad", "Broken", lambda a, c: None, source="extension",
                                                       get_argument_completions=broken))
        await _type(pilot, "/bad xy")
        await pilot.pause(0.1)
        assert app.prompt_input.text == "/bad xy" and not view.is_open
        assert reported and reported[0] == "argument completions of /bad: boom"


async def test_templates_and_skills_are_listed(tmp_path: Path) -> None:
    app, session, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        registry = app.app_commands.registry
        registry.register(CommandSpec("review", "Review a PR", lambda a, c: None, usage="<PR-URL>",
                                      source="template"))
        registry.register(CommandSpec("skill:notes", "Writes notes", lambda a, c: None, source="skill"))
        await _type(pilot, "/rev")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["review"])
        assert view.items[0].description == "<PR-URL> — Review a PR"
        await pilot.press("ctrl+c")
        await _type(pilot, "/skill:n")
        await wait_until(pilot, lambda: view.is_open and "skill:notes" in _values(view))


# ------------------------------------------------------------------ @ files
async def test_at_lists_project_files_respecting_gitignore(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("@")
        await wait_until(pilot, lambda: view.is_open and view.items)
        shown = _values(view)
        assert "@src/" in shown and "@src/main.py" in shown
        assert not any("build" in value for value in shown)  # .gitignore'd
        await pilot.press("u", "t", "i")
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/util.py"])
        assert view.items[0].label == "util.py" and view.items[0].description == "src/util.py"
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "@src/util.py "


async def test_a_path_with_spaces_is_quoted_and_a_directory_gets_no_space(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "see @note")
        await wait_until(pilot, lambda: _values(view)[:1] == ['@"my notes.md"'])
        await pilot.press("enter")  # Enter inserts a file; it does not submit
        await pilot.pause()
        assert app.prompt_input.text == 'see @"my notes.md" '
        await pilot.press("ctrl+c")
        await _type(pilot, "@sr")
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/"])
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "@src/"
        await pilot.press("m")  # completion goes on inside the directory
        await wait_until(pilot, lambda: _values(view)[:1] == ["@src/main.py"])


async def test_an_email_address_opens_no_list(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "me@src")
        await pilot.pause(0.1)
        assert not view.is_open


async def test_a_mentioned_file_is_attached_as_cli_file_arguments_are(tmp_path: Path) -> None:
    from pi_tui.ai.providers.faux import faux_assistant_message, faux_text

    app, session, faux = _app(tmp_path, [faux_assistant_message([faux_text("seen")])])
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot)
        app.prompt_input.insert('explain @src/main.py and @"my notes.md", not @nobody')
        await pilot.press("enter")
        await wait_until(pilot, lambda: "seen" in transcript_text(app))
        user = next(m for m in session.agent.state.messages if m.role == "user")
        text = user.content if isinstance(user.content, str) else "".join(
            getattr(block, "text", "") for block in user.content)
        main, notes = tmp_path / "src" / "main.py", tmp_path / "my notes.md"
        assert text == (f'<file name="{main}">\nprint(\'main\')\n\n</file>\n'
                        f'<file name="{notes}">\nnotes\n\n</file>\n'
                        'explain @src/main.py and @"my notes.md", not @nobody')


@pytest.mark.parametrize("size", [(100, 30), (50, 20), (140, 12)])
async def test_resizing_with_the_list_open_keeps_it_under_the_editor(tmp_path: Path, size: tuple[int, int]) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await pilot.press("/")
        await wait_until(pilot, lambda: view.is_open)
        await pilot.resize_terminal(*size)
        await pilot.pause(0.1)
        editor = app.prompt_input.region
        assert view.region.y >= editor.bottom and view.region.bottom <= app.footer.region.y
        assert view.region.width <= size[0] and view.region.height >= 1


async def test_model_and_theme_offer_their_arguments(tmp_path: Path) -> None:
    app, session, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "/model fau")
        await wait_until(pilot, lambda: view.is_open and "faux/faux-1" in _values(view))
        item = next(i for i in view.items if i.value == "faux/faux-1")
        assert (item.label, item.description) == ("faux-1", "faux")
        await pilot.press("ctrl+c")
        await _type(pilot, "/theme nor")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["nord"])
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "/theme nord"


async def test_tab_after_escape_asks_again_in_a_file_token(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "@uti")
        await wait_until(pilot, lambda: view.is_open and view.items)
        await pilot.press("escape")
        assert not view.is_open
        await pilot.press("tab")
        await wait_until(pilot, lambda: view.is_open and _values(view)[:1] == ["@src/util.py"])
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "@src/util.py "


def test_the_index_is_built_in_a_daemon_thread() -> None:
    import asyncio
    import threading

    from pi_tui.tui.controllers.editor_completion import _in_daemon_thread

    seen: list[bool] = []

    def work() -> None:
        seen.append(threading.current_thread().daemon)

    def fail() -> None:
        raise OSError("disk gone")

    asyncio.run(_in_daemon_thread(work))
    assert seen == [True]  # quitting does not wait for it
    with pytest.raises(OSError, match="disk gone"):
        asyncio.run(_in_daemon_thread(fail))


async def test_enter_after_an_argument_typed_in_full_sends_it(tmp_path: Path) -> None:
    app, _, _ = _app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        view = await _ready(pilot)
        await _type(pilot, "/theme light")
        await wait_until(pilot, lambda: view.is_open and view.selected_item.value == "light")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.pi_theme.name == "light")
        assert app.prompt_input.text == ""
