"""``pi-tui`` command line (pi-reference §3.17): parse arguments, pick a mode, run it.

Modes: interactive TUI (default; lazily imports ``pi_tui.tui.app.run_app``), print (``-p``), ``--mode json``,
``--mode rpc``, ``--mode acp`` (Agent Client Protocol on stdio). ``--version`` and ``--help`` import nothing heavy (no Textual, no providers) so they answer fast.
Exit codes: 0 ok, 1 failure (message on stderr), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_tui.coding.file_args import FileArgs

THINKING_CHOICES = ("off", "minimal", "low", "medium", "high", "xhigh")


@dataclass
class CliArgs:
    """Parsed command line (field names follow the flags)."""

    messages: list[str] = field(default_factory=list)
    file_args: list[str] = field(default_factory=list)
    print_mode: bool = False
    mode: str | None = None
    provider: str | None = None
    model: str | None = None
    models: list[str] | None = None
    api_key: str | None = None
    thinking: str | None = None
    continue_recent: bool = False
    resume: bool = False
    session: str | None = None
    session_dir: str | None = None
    no_session: bool = False
    if_locked: str | None = None
    tools: list[str] | None = None
    no_tools: bool = False
    no_mcp: bool = False
    system_prompt: str | None = None
    append_system_prompt: list[str] = field(default_factory=list)
    theme: str | None = None
    skills: list[str] = field(default_factory=list)
    no_skills: bool = False
    prompt_templates: list[str] = field(default_factory=list)
    no_prompt_templates: bool = False
    trust_project: bool = False
    list_models: str | None = None
    export: str | None = None
    version: bool = False
    extensions: list[str] = field(default_factory=list)
    no_extensions: bool = False
    extension_flags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def session_options(self, cwd: str) -> dict[str, Any]:
        """Keyword arguments for ``create_agent_session`` (and the TUI's ``run_app``)."""
        tools: list[str] | None = [] if self.no_tools else self.tools
        return {
            "cwd": cwd,
            "provider": self.provider,
            "model": self.model,
            "models": self.models,
            "api_key": self.api_key,
            "thinking": self.thinking,
            "session_path": self.session,
            "continue_recent": self.continue_recent,
            "no_session": self.no_session,
            "session_dir": self.session_dir,
            "tools": tools,
            "no_mcp": self.no_mcp,
            "system_prompt": self.system_prompt,
            "append_system_prompt": "\n\n".join(self.append_system_prompt) or None,
            "if_locked": self.if_locked,
            "skill_paths": list(self.skills),
            "no_skills": self.no_skills,
            "prompt_template_paths": list(self.prompt_templates),
            "no_prompt_templates": self.no_prompt_templates,
            "trust_project": self.trust_project,
            "extension_paths": list(self.extensions),
            "no_extensions": self.no_extensions,
            "extension_flags": list(self.extension_flags),
            "persist_settings": True,  # a model or thinking level the user picks is remembered (pi)
        }


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pi-tui",
        description="A full-screen terminal coding agent (a Python port of pi's agent core).",
        epilog="MCP servers: pi-tui mcp add|list|remove (pi-tui mcp --help). Environment: PI_TUI_DIR (config dir, default ~/.pi-tui/agent), PI_TUI_SESSION_DIR, "
        "provider keys such as ANTHROPIC_API_KEY / OPENAI_API_KEY.",
    )
    parser.add_argument("messages", nargs="*", help="initial message(s); @file arguments are prepended as files")
    parser.add_argument("-p", "--print", dest="print_mode", action="store_true", help="print the answer and exit")
    parser.add_argument("--mode", choices=("text", "json", "rpc", "acp"),
                        help="output mode (text = print; acp = Agent Client Protocol for editors)")
    parser.add_argument("--provider", help="provider name (e.g. anthropic, openai, or a models.json provider)")
    parser.add_argument("--model", help="model id or pattern, optionally with :<thinking>")
    parser.add_argument("--models", help="comma-separated model patterns Ctrl+P cycles through "
                        "(globs and :<thinking> allowed, e.g. 'claude-*,gpt-4o:high'; default: settings enabledModels)")
    parser.add_argument("--api-key", help="API key for this run (never written to disk)")
    parser.add_argument("--thinking", help="thinking level: " + "|".join(THINKING_CHOICES))
    parser.add_argument("-c", "--continue", dest="continue_recent", action="store_true", help="continue the most recent session")
    parser.add_argument("-r", "--resume", action="store_true", help="pick a session to resume")
    parser.add_argument("--session", help="session file path or partial session id")
    parser.add_argument("--session-dir", help="directory for session files")
    parser.add_argument("--no-session", action="store_true", help="do not save the session")
    parser.add_argument("--if-locked", choices=("read-only", "fork", "take-over"),
                        help="when another pi-tui is writing the session: open it read-only, fork it to a new "
                        "session, or take it over (default: ask in the app, fail in -p/json/rpc mode)")
    parser.add_argument("-t", "--tools", help="comma-separated allow-list of tools (read,bash,edit,write,grep,find,ls)")
    parser.add_argument("-nt", "--no-tools", action="store_true", help="disable all tools")
    parser.add_argument("--no-mcp", action="store_true", help="do not start the MCP servers of mcp.json for this run")
    parser.add_argument("--system-prompt", help="replace the default system prompt")
    parser.add_argument("--append-system-prompt", action="append", default=[], help="append text to the system prompt")
    parser.add_argument("--theme", help="UI theme name")
    parser.add_argument("--skill", action="append", default=[], metavar="PATH",
                        help="load a skill file or directory (repeatable; also with --no-skills)")
    parser.add_argument("-ns", "--no-skills", action="store_true", help="disable skill discovery")
    parser.add_argument("--prompt-template", action="append", default=[], metavar="PATH",
                        help="load a prompt template file or directory (repeatable)")
    parser.add_argument("-np", "--no-prompt-templates", action="store_true",
                        help="disable prompt template discovery")
    parser.add_argument("--trust-project", action="store_true",
                        help="trust this folder's .pi-tui settings, skills, templates and extensions for this run")
    parser.add_argument("--list-models", nargs="?", const="", default=None, metavar="SEARCH", help="list models and exit")
    parser.add_argument("-e", "--extension", dest="extensions", action="append", default=[], metavar="PATH",
                        help="load an extension (a .py file or package folder; repeatable)")
    parser.add_argument("--no-extensions", action="store_true",
                        help="do not discover extensions (-e ones still load)")
    parser.add_argument("--export", metavar="FILE", help="export a session file to HTML and exit (output path: the first message)")
    parser.add_argument("-v", "--version", action="store_true", help="print the version and exit")
    return parser


def parse_args(argv: Sequence[str]) -> CliArgs:
    """Parse ``argv`` (without the program name); messages and @files may stand anywhere among the flags, as in
    pi (``pi-tui @notes.md -p "summarise"``). Unknown ``--name``/``--name=value`` items are kept for extension
    flags (``pi.register_flag``; an unclaimed one is a warning once extensions loaded); any other unknown
    item raises ``SystemExit(2)``."""
    parser = _build_parser()
    ns, unknown = parser.parse_known_intermixed_args(list(argv))  # messages before and after flags (pi)
    not_flags = [item for item in unknown if not item.startswith("--") or item == "--"]
    if not_flags:
        parser.error(f"unrecognized arguments: {' '.join(not_flags)}")
    args = CliArgs(
        print_mode=ns.print_mode,
        mode=ns.mode,
        provider=ns.provider,
        model=ns.model,
        api_key=ns.api_key,
        continue_recent=ns.continue_recent,
        resume=ns.resume,
        session=ns.session,
        session_dir=ns.session_dir,
        no_session=ns.no_session,
        if_locked=ns.if_locked,
        no_tools=ns.no_tools,
        no_mcp=ns.no_mcp,
        system_prompt=ns.system_prompt,
        append_system_prompt=list(ns.append_system_prompt),
        theme=ns.theme,
        skills=list(ns.skill),
        no_skills=ns.no_skills,
        prompt_templates=list(ns.prompt_template),
        no_prompt_templates=ns.no_prompt_templates,
        trust_project=ns.trust_project,
        list_models=ns.list_models,
        export=ns.export,
        version=ns.version,
        extensions=list(ns.extensions),
        no_extensions=ns.no_extensions,
        extension_flags=[item for item in unknown if item.startswith("--")],  # --name / --name=value (extensions)
    )
    for item in ns.messages:
        (args.file_args if item.startswith("@") and len(item) > 1 else args.messages).append(
            item[1:] if item.startswith("@") and len(item) > 1 else item
        )
    if ns.models is not None:
        args.models = [m.strip() for m in ns.models.split(",") if m.strip()]
    if ns.tools is not None:
        args.tools = [t.strip() for t in ns.tools.split(",") if t.strip()]
    if ns.thinking is not None:
        if ns.thinking in THINKING_CHOICES:
            args.thinking = ns.thinking
        else:
            args.warnings.append(
                f"Warning: Invalid thinking level \"{ns.thinking}\". Valid values: {', '.join(THINKING_CHOICES)}"
            )
    if args.model and ":" in args.model and args.thinking is None:
        base, _, level = args.model.rpartition(":")
        if level in THINKING_CHOICES and base:
            args.model, args.thinking = base, level
    return args


def _read_file_args(paths: Sequence[str], cwd: str, *, load_images: bool = True) -> FileArgs:
    """pi's ``@file`` arguments (``coding.file_args.read_file_args``, shared with the editor's ``@`` mentions):
    text files inlined, images resized with ``images.autoResize`` and attached (with ``load_images=False`` only
    listed in ``image_paths``, for the app's attachment bar); exits with pi's ``Error: …`` when one cannot be
    used."""
    from pi_tui.coding.file_args import FileArgs, read_file_args

    if not paths:
        return FileArgs()
    from pi_tui.coding.config.paths import get_agent_dir
    from pi_tui.coding.config.settings import SettingsManager

    auto_resize = SettingsManager.create(os.path.abspath(cwd), get_agent_dir()).image_auto_resize
    files = read_file_args(paths, cwd, auto_resize=auto_resize, load_images=load_images)
    if files.problems:
        raise SystemExit(f"Error: {files.problems[0]}")
    return files


def _list_models(search: str, options: dict[str, Any]) -> int:
    from pi_tui.coding.extensions.model_listing import list_models_with_extensions

    try:
        rows = list_models_with_extensions(options, search or None)  # extensions' providers too (pi)
    except Exception as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    if not rows:
        print("No models available." if not search else f"No models match {search!r}.")
        return 0
    width = max(len(r[0]) for r in rows)
    for provider_model, name in rows:
        print(f"{provider_model.ljust(width)}  {name}")
    return 0


def _say_untrusted_once(args: CliArgs, cwd: str) -> None:
    """Print/JSON/RPC modes never ask about project trust: one stderr line says what was not loaded."""
    from pi_tui.coding.resources import trust

    if args.trust_project:
        return
    notice = trust.skipped_notice(trust.resolve(cwd), cwd)
    if notice:
        print(notice, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``pi-tui``; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "mcp":  # `pi-tui mcp add|list|remove` (pi 1.x docs/mcp.md)
        from pi_tui.coding.mcp.cli import main as mcp_main

        return mcp_main(argv[1:])
    if argv and argv[0] in ("-v", "--version"):
        from pi_tui import __version__

        print(__version__)
        return 0
    args = parse_args(argv)
    if args.version:
        from pi_tui import __version__

        print(__version__)
        return 0
    for warning in args.warnings:
        print(warning, file=sys.stderr)
    if args.list_models is not None:
        return _list_models(args.list_models, args.session_options(os.getcwd()))
    if args.export:  # pi: `--export <in> [out]`, the output path being the first message
        from pi_tui.coding.export_html.cli import run_export

        return run_export(args.export, args.messages[0] if args.messages else None, args.theme)
    cwd = os.getcwd()
    mode = args.mode if args.mode in ("rpc", "json", "acp") else None
    if mode is None and (args.print_mode or args.mode == "text"):
        mode = "print"
    if mode is None and not sys.stdin.isatty():
        mode = "print"  # pi: a non-TTY stdin means print mode, its content merged into the first message
    if mode is not None:
        _say_untrusted_once(args, cwd)
    if mode == "acp":
        from pi_tui.coding.modes.acp import run_acp_mode

        return run_acp_mode({**args.session_options(cwd), "strict_config": True})
    if mode == "rpc":
        if args.file_args:
            print("Error: @file arguments are not supported in RPC mode", file=sys.stderr)
            return 1
        from pi_tui.coding.modes.rpc_mode import run_rpc_mode

        return run_rpc_mode({**args.session_options(cwd), "strict_config": True})
    if mode in ("print", "json"):
        files = _read_file_args(args.file_args, cwd)
        messages = list(args.messages)
        if not sys.stdin.isatty() and mode is not None:
            try:
                piped = sys.stdin.read()
            except (OSError, ValueError):
                piped = ""
            if piped.strip():
                messages = [piped.rstrip("\n") + ("\n\n" + messages[0] if messages else "")] + messages[1:]
        if files.text:
            messages = [files.text + (messages[0] if messages else "")] + messages[1:]
        if not messages:
            print("Error: no prompt given (usage: pi-tui -p \"your prompt\")", file=sys.stderr)
            return 1
        from pi_tui.coding.modes.print_mode import run_print_mode

        options = {**args.session_options(cwd), "strict_config": True}  # a config error is an exit code, not a warning
        return run_print_mode(options, messages, json_mode=(mode == "json"), images=files.images)
    initial_messages = list(args.messages)
    initial_images: list[str] = []
    initial_file_text = ""
    if args.file_args:  # pi: the @file blocks go in front of the first message in interactive mode too
        files = _read_file_args(args.file_args, cwd, load_images=False)  # images: pending attachments
        initial_file_text, initial_images = files.text, files.image_paths
        if files.text and not initial_messages:
            initial_messages = [""]  # pi sends the file blocks as the first message
    from pi_tui.tui.early_input import hold_typed_keys

    held = hold_typed_keys()  # keys typed while the app loads stay as typed (Enter stays Enter)
    restore_terminal = held.restore
    try:
        try:
            from pi_tui.tui.app import run_app
        except ImportError as exc:
            restore_terminal()
            print(
                f"The interactive interface is not available in this build ({exc}). "
                "Use -p \"prompt\", --mode json or --mode rpc.",
                file=sys.stderr,
            )
            return 1
        options = args.session_options(cwd)
        options["skip_print_runs"] = True  # the app's -c passes over one-shot -p runs, as /resume hides them
        options["theme"] = args.theme
        options["resume"] = args.resume
        options["initial_messages"] = initial_messages
        options["initial_images"] = initial_images  # @file images: pending attachments of the first message
        options["initial_file_text"] = initial_file_text  # sent in front of it, not searched for paths
        options["typed_ahead"] = held.typed_ahead  # typed before the keys were held (cooked)
        result = run_app(options)
    finally:
        restore_terminal()
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
