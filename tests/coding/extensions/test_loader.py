"""Extension discovery and loading (pi docs/extensions.md "Extension Locations"; issue 11): order, trust,
-e, --no-extensions, settings paths, separate module namespaces, and one clear error per failing file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pi_tui.coding.extensions.loader import discover_extensions

from .fakes import make_runtime, sources, write_ext

HELLO = """
def activate(pi):
    pi.register_command("hello-{n}", lambda args, ctx: None, "Say hello")
"""


def test_discovery_order_cli_project_global_settings(tmp_path: Path) -> None:
    agent_ext = tmp_path / "agent" / "extensions"
    project_ext = tmp_path / "project" / ".pi-tui" / "extensions"
    write_ext(agent_ext, "b_global.py", HELLO)
    write_ext(agent_ext, "a_global.py", HELLO)
    write_ext(agent_ext / "pkg", "__init__.py", HELLO)
    write_ext(agent_ext / "not_a_package", "helper.py", HELLO)  # a folder without __init__.py is not one
    write_ext(agent_ext, "_private.py", HELLO)
    (agent_ext / "notes.txt").write_text("x")
    write_ext(project_ext, "proj.py", HELLO)
    cli = write_ext(tmp_path / "cli", "cli_ext.py", HELLO)
    extra = write_ext(tmp_path / "extra", "from_settings.py", HELLO)
    found = discover_extensions(sources(
        tmp_path, project_trusted=True, cli_paths=[str(cli)], settings_paths=[str(extra.parent), str(cli)]
    ))
    names = [p.name if p.name != "__init__.py" else p.parent.name for p in found.paths]
    assert names == ["cli_ext.py", "proj.py", "a_global.py", "b_global.py", "pkg", "from_settings.py"]
    assert found.problems == []


def test_untrusted_project_extensions_do_not_load_and_no_extensions_keeps_only_cli(tmp_path: Path) -> None:
    write_ext(tmp_path / "project" / ".pi-tui" / "extensions", "proj.py", HELLO)
    write_ext(tmp_path / "agent" / "extensions", "glob.py", HELLO)
    cli = write_ext(tmp_path / "cli", "cli_ext.py", HELLO)
    untrusted = discover_extensions(sources(tmp_path, project_trusted=False))
    assert [p.name for p in untrusted.paths] == ["glob.py"]
    only_cli = discover_extensions(sources(tmp_path, project_trusted=True, cli_paths=[str(cli)], no_extensions=True))
    assert [p.name for p in only_cli.paths] == ["cli_ext.py"]


def test_a_missing_cli_path_is_one_error_naming_it(tmp_path: Path) -> None:
    runtime, host = make_runtime(tmp_path)
    errors = asyncio.run(runtime.load(sources(tmp_path, cli_paths=["nope/missing.py"])))
    assert len(errors) == 1 and "Extension path does not exist: nope/missing.py" in errors[0].text
    assert host.errors == [errors[0].text]


def test_two_extensions_with_the_same_file_name_do_not_clash(tmp_path: Path) -> None:
    body = """
    VALUE = {value!r}
    def activate(pi):
        pi.register_command("which-" + VALUE, lambda args, ctx: None, VALUE)
    """
    one = write_ext(tmp_path / "one", "same.py", body.format(value="one"))
    two = write_ext(tmp_path / "two", "same.py", body.format(value="two"))
    runtime, host = make_runtime(tmp_path)
    asyncio.run(runtime.load(sources(tmp_path, cli_paths=[str(one), str(two)])))
    assert host.errors == []
    assert [e.module.VALUE for e in runtime.extensions] == ["one", "two"]  # type: ignore[union-attr]
    assert runtime.commands.names() == ["which-one", "which-two"]


def test_a_package_extension_imports_its_own_modules(tmp_path: Path) -> None:
    pkg = tmp_path / "agent" / "extensions" / "multi"
    write_ext(pkg, "helpers.py", "GREETING = 'hi from helper'\n")
    write_ext(pkg, "__init__.py", """
    from .helpers import GREETING
    def activate(pi):
        pi.register_command("greet", lambda args, ctx: None, GREETING)
    """)
    runtime, host = make_runtime(tmp_path)
    asyncio.run(runtime.load(sources(tmp_path)))
    assert host.errors == []
    assert runtime.commands.get("greet").description == "hi from helper"  # type: ignore[union-attr]


def test_async_activate_is_awaited(tmp_path: Path) -> None:
    write_ext(tmp_path / "agent" / "extensions", "slow.py", """
    import asyncio
    async def activate(pi):
        await asyncio.sleep(0)
        pi.register_command("late", lambda args, ctx: None, "registered after an await")
    """)
    runtime, host = make_runtime(tmp_path)
    asyncio.run(runtime.load(sources(tmp_path)))
    assert runtime.commands.names() == ["late"] and host.errors == []


BROKEN = {
    "syntax.py": ("def activate(pi):\n    return (\n", "load", "SyntaxError"),
    "import_error.py": ("import no_such_module_for_pi_tui\ndef activate(pi): pass\n", "load", "ModuleNotFoundError"),
    "top_level_raise.py": ("raise RuntimeError('bad top level')\n", "load", "RuntimeError: bad top level"),
    "sys_exit.py": ("import sys\nsys.exit(3)\n", "load", "SystemExit"),
    "no_activate.py": ("X = 1\n", "activate", "no activate(pi) function"),
    "activate_raises.py": (
        "def activate(pi):\n"
        "    pi.register_command('half', lambda a, c: None, 'registered before the failure')\n"
        "    pi.register_tool('half_tool', 'd', {'type': 'object', 'properties': {}}, lambda i, p: 'x')\n"
        "    pi.register_shortcut('ctrl+k', lambda ctx: None)\n"
        "    pi.on('input', lambda e, c: None)\n"
        "    raise ValueError('activate broke')\n",
        "activate", "ValueError: activate broke",
    ),
    "async_activate_raises.py": (
        "async def activate(pi):\n    raise KeyError('k')\n", "activate", "KeyError",
    ),
    "bad_event.py": ("def activate(pi):\n    pi.on('no_such_event', lambda e: None)\n", "activate", "Unknown event"),
}


def test_each_failure_point_gives_one_error_naming_the_file_and_the_rest_loads(tmp_path: Path) -> None:
    folder = tmp_path / "agent" / "extensions"
    for name, (body, _, _) in BROKEN.items():
        write_ext(folder, name, body)
    write_ext(folder, "zz_good.py", """
    def activate(pi):
        pi.register_command("good", lambda args, ctx: None, "works")
    """)
    runtime, host = make_runtime(tmp_path)
    errors = asyncio.run(runtime.load(sources(tmp_path)))
    assert len(errors) == len(BROKEN) == len(host.errors)
    by_file = {Path(e.path).name: e for e in errors}
    for name, (_, stage, text) in BROKEN.items():
        error = by_file[name]
        assert error.event == stage, name
        assert text in error.error, (name, error.error)
        assert name in error.text and error.extension == name[:-3]
    # nothing of a failed extension stays registered; the good one works
    assert runtime.commands.names() == ["good"]
    assert "half_tool" not in host.tools and runtime.shortcuts.all() == []
    assert not runtime.runner.has_handlers("input")
    assert [e.name for e in runtime.extensions] == ["zz_good"]


def test_reload_runs_shutdown_unloads_and_loads_the_new_code(tmp_path: Path) -> None:
    folder = tmp_path / "agent" / "extensions"
    log = tmp_path / "log.txt"
    body = """
    LOG = {log!r}
    def activate(pi):
        pi.register_command("version", lambda args, ctx: None, "{version}")
        pi.on("session_shutdown", lambda e, c: open(LOG, "a").write("shutdown:" + e.reason + "\\n"))
        pi.on("session_start", lambda e, c: open(LOG, "a").write("start:" + e.reason + "\\n"))
    """
    write_ext(folder, "ver.py", body.format(log=str(log), version="v1"))
    runtime, host = make_runtime(tmp_path)
    called: list[str] = []
    runtime.reload_hooks.append(lambda: called.append("resources"))

    async def scenario() -> None:
        await runtime.load(sources(tmp_path))
        await runtime.start()
        write_ext(folder, "ver.py", body.format(log=str(log), version="v2"))
        await runtime.reload()

    asyncio.run(scenario())
    assert runtime.commands.get("version").description == "v2"  # type: ignore[union-attr]
    assert len(runtime.extensions) == 1 and called == ["resources"]
    assert log.read_text().split() == ["start:startup", "shutdown:reload", "start:reload"]
