"""The built-in offline demo model: provider ``pi-tui-offline``, model ``offline-demo``.

Used when no API key and no custom model is configured, so a new user sees every part of the app work
without a network: streamed Markdown with a code block, a thinking block, and real tool calls on the current
directory. It is pi's faux provider (§1.21) with a *factory* that reads the request context:

* first user message of a conversation → thinking + an introduction that says this is the offline demo
  model and how to add a key (env vars, ``~/.pi-tui/agent/auth.json``) or a local server (``models.json``);
* "list the files" / "ls" → an ``ls`` tool call (or ``bash ls -la`` when ``ls`` is not active);
* "read notes.txt" / "show README.md" → a ``read`` tool call;
* "run `<cmd>`" / "run <cmd>" → a ``bash`` tool call;
* after a tool result → a Markdown summary of what really happened: the line count, the exit code, the error;
* anything else → a short Markdown answer with hints.

Tools run only on an explicit imperative at the start of the message (issue 9: "What does `touch x` do? do not
run it" ran it): a command in backticks or a file name elsewhere in a question is only talked about.

Pacing: ``tokens_per_second`` (default 120; env ``PI_TUI_OFFLINE_TPS``, ``0`` = unpaced for tests).
"""

from __future__ import annotations

import os
import re
from typing import Any

from pi_tui.ai.providers.faux import (
    FauxProvider,
    faux_assistant_message,
    faux_text,
    faux_thinking,
    faux_tool_call,
    register_faux_provider,
)
from pi_tui.ai.types import AssistantMessage, Context, Model, TextContent, ToolResultMessage, UserMessage

OFFLINE_PROVIDER = "pi-tui-offline"
OFFLINE_MODEL_ID = "offline-demo"
OFFLINE_API = "pi-tui-offline"
DEFAULT_TOKENS_PER_SECOND = 120.0

INTRO = """**You are talking to pi-tui's built-in offline demo model.** It runs on this machine, needs no \
network, and only follows a small script — it is not a real language model.

To use a real model, do one of these and restart pi-tui:

1. Set an API key in the environment, for example:

   ```bash
   export ANTHROPIC_API_KEY=sk-ant-...   # or OPENAI_API_KEY, GEMINI_API_KEY, ...
   ```

2. Or store a key in `{auth_path}`:

   ```json
   {{"anthropic": {{"type": "api_key", "key": "sk-ant-..."}}}}
   ```

3. Or point pi-tui at a local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio) in \
`{models_path}`:

   ```json
   {{"providers": {{"local": {{"baseUrl": "http://localhost:11434/v1", "api": "openai-completions",
     "apiKey": "none", "models": [{{"id": "qwen2.5-coder"}}]}}}}}}
   ```

Meanwhile you can try the tools on the current directory:

- *list the files* — runs a real `ls`
- *read README.md* — reads a file you name
- *run `git status`* — runs a bash command
"""



def intro_text() -> str:
    """:data:`INTRO` with the real auth.json / models.json paths (``$PI_TUI_DIR`` honoured, home as ``~``), so
    the advice matches the start-up banner."""
    from pi_tui.coding.config.paths import display_agent_path

    return INTRO.format(auth_path=display_agent_path("auth.json"), models_path=display_agent_path("models.json"))


_FILE_RE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,8})(?![\w/])")
_BACKTICK_RE = re.compile(r"`([^`\n]+)`")
_POLITE = r"^\s*(?:(?:please|now|ok|okay)[\s,]+)*(?:(?:can|could|would) you\s+(?:please\s+)?)?"
_RUN_RE = re.compile(_POLITE + r"(?:run|execute|exec)\s+(.+?)\s*[.!?]?\s*$", re.IGNORECASE | re.DOTALL)
_READ_RE = re.compile(_POLITE + r"(?:read|show|open|cat|display)\b", re.IGNORECASE)
_LIST_RE = re.compile(_POLITE + r"(?:ls\b|list\b|show (?:me )?(?:the )?files\b)", re.IGNORECASE)
_NOTICE_RE = re.compile(r"\n*\[Showing (?:lines|last) [^\]\n]*\]")
_EXIT_RE = re.compile(r"\n*Command (?:exited with code (\d+)|timed out after [^\n]*|aborted|was killed by signal "
                      r"[^\n]*)\s*$")


def _text(message: Any) -> str:
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(b.text for b in content if isinstance(b, TextContent))


def _tool_names(context: Context) -> set[str]:
    return {t.name for t in context.tools or []}


def _last_user_text(context: Context) -> str:
    for message in reversed(context.messages):
        if isinstance(message, UserMessage):
            return _text(message)
    return ""


def _tool_calls_so_far(context: Context) -> list[tuple[str, dict[str, Any]]]:
    """Tool calls made since the last user message, in order."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for message in reversed(context.messages):
        if isinstance(message, UserMessage):
            break
        if isinstance(message, AssistantMessage):
            calls[:0] = [(b.name, b.arguments) for b in message.content if b.type == "toolCall"]
    return calls


def plan_tool(user_text: str, tools: set[str], done: list[tuple[str, dict[str, Any]]]) -> tuple[str, dict[str, Any]] | None:
    """The next tool call the script makes for ``user_text`` (None when it should answer in text).

    Only an imperative at the start of the message calls a tool: ``run `cmd```/``run cmd`` → bash (the
    back-ticked text when there is one), ``read``/``show``/``open`` + a file name → read, ``list the files``/``ls``
    → ls. Questions that mention commands or files are answered, never acted on."""
    done_names = [name for name, _ in done]
    run = _RUN_RE.match(user_text)
    if run and "bash" in tools and "bash" not in done_names:
        ticks = _BACKTICK_RE.findall(run.group(1))
        command = (ticks[0] if ticks else run.group(1)).strip()
        if command:
            return "bash", {"command": command}
    if _READ_RE.match(user_text) and "read" in tools and "read" not in done_names:
        files = [f for f in _FILE_RE.findall(user_text) if not f.startswith(".")]
        if files:
            return "read", {"path": files[0]}
    if _LIST_RE.match(user_text) and not done:
        if "ls" in tools:
            return "ls", {"path": "."}
        if "bash" in tools:
            return "bash", {"command": "ls -la"}
    return None


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _summarise_bash(result: ToolResultMessage, command: str) -> tuple[str, str]:
    """``(intro, output)`` for a bash result: exit code (0 unless the tool reported one), real line count."""
    text = _text(result).rstrip("\n")
    status = _EXIT_RE.search(text)
    if status:
        text = text[: status.start()].rstrip("\n")
    notice = _NOTICE_RE.search(text)
    if notice:  # the bash tool's own "[Showing lines a-b of n. Full output: …]" (its details have the totals)
        text = text[: notice.start()].rstrip("\n")
    if text.strip() == "(no output)":
        text = ""
    count = len(text.split("\n")) if text else 0
    details = result.details if isinstance(result.details, dict) else {}
    total = (details.get("truncation") or {}).get("totalLines") if isinstance(details.get("truncation"), dict) else None
    printed = f"printed {_lines(count)}" if count else "printed nothing"
    if isinstance(total, int) and total > count:
        printed = f"printed {_lines(total)} (the last {count} below; all of them in {details.get('fullOutputPath')})"
    end = ":" if count else "."
    if status is None:
        return f"`{command}` finished (exit code 0) and {printed}{end}", text
    code = status.group(1)
    what = f"exit code {code}" if code else status.group(0).strip()
    return f"`{command}` failed ({what}) and {printed}{end}", text


def _summarise_result(result: ToolResultMessage, args: dict[str, Any]) -> str:
    text = _text(result).rstrip("\n")
    language = ""
    if result.tool_name == "bash":
        intro, text = _summarise_bash(result, str(args.get("command", "")))
    elif result.is_error:
        intro = f"The `{result.tool_name}` tool reported an error:"
    elif result.tool_name == "read":
        path = str(args.get("path", ""))
        language = path.rsplit(".", 1)[-1] if "." in path else ""
        intro = f"Here is `{path}` ({_lines(len(text.splitlines()))}):"
    else:
        intro = f"The `{result.tool_name}` tool returned {_lines(len(text.splitlines()))}:"
    lines = text.splitlines()
    shown = "\n".join(lines[:40])
    more = f"\n\n*({len(lines) - 40} more {'line' if len(lines) - 40 == 1 else 'lines'} not shown)*" if len(lines) > 40 else ""
    fence = "````" if "```" in shown else "```"
    block = f"\n\n{fence}{language}\n{shown}\n{fence}{more}" if shown else ""
    return f"{intro}{block}\n\n*(offline demo model — add an API key to talk to a real model)*"


def offline_reply(context: Context) -> AssistantMessage:
    """The scripted answer for ``context`` (see the module docstring)."""
    tools = _tool_names(context)
    last = context.messages[-1] if context.messages else None
    user_text = _last_user_text(context)
    done = _tool_calls_so_far(context)
    if isinstance(last, ToolResultMessage):
        planned = plan_tool(user_text, tools, done)
        if planned is not None and not last.is_error:
            return faux_assistant_message([faux_tool_call(*planned)], stop_reason="toolUse")
        args: dict[str, Any] = next((a for n, a in reversed(done) if n == last.tool_name), {})
        return faux_assistant_message(_summarise_result(last, args))
    first_turn = not any(isinstance(m, AssistantMessage) for m in context.messages)
    planned = plan_tool(user_text, tools, done)
    if planned is not None:
        name, args = planned
        thought = f"The user asked: {user_text.strip()[:200]!r}. I will use the `{name}` tool for that."
        return faux_assistant_message(
            [faux_thinking(thought), faux_text(f"Running `{name}` for you."), faux_tool_call(name, args)],
            stop_reason="toolUse",
        )
    if first_turn:
        thought = (
            "No API key or custom model is configured, so the offline demo model answers. "
            "I should explain how to connect a real model."
        )
        return faux_assistant_message([faux_thinking(thought), faux_text(intro_text())])
    answer = (
        "I am the **offline demo model**, so I can only follow a small script.\n\n"
        "Things I can do here:\n\n"
        "| ask | what happens |\n|---|---|\n"
        "| *list the files* | a real `ls` of the current directory |\n"
        "| *read notes.txt* | the `read` tool on a file you name |\n"
        "| *run `echo hello`* | the `bash` tool |\n\n"
        "Add an API key (for example `export ANTHROPIC_API_KEY=...`) to talk to a real model."
    )
    return faux_assistant_message(answer)


def _tokens_per_second(value: float | None) -> float | None:
    if value is None:
        env = os.environ.get("PI_TUI_OFFLINE_TPS")
        try:
            value = float(env) if env else DEFAULT_TOKENS_PER_SECOND
        except ValueError:
            value = DEFAULT_TOKENS_PER_SECOND
    return value if value and value > 0 else None


_registered: FauxProvider | None = None


def register_offline_provider(tokens_per_second: float | None = None) -> FauxProvider:
    """Register (once per process) and return the offline faux provider; it never runs out of answers."""
    global _registered
    if _registered is not None:
        return _registered
    handle = register_faux_provider(
        api=OFFLINE_API,
        provider=OFFLINE_PROVIDER,
        models=[
            {
                "id": OFFLINE_MODEL_ID,
                "name": "Offline demo (no network)",
                "reasoning": True,
                "input": ["text"],
                "context_window": 32000,
                "max_tokens": 4096,
            }
        ],
        tokens_per_second=_tokens_per_second(tokens_per_second),
        token_size={"min": 2, "max": 4},
        partial_arguments=True,  # an Escape while a call streams keeps the command shown so far (issue 9)
    )

    def factory(context: Context, options: Any, state: Any, model: Model) -> AssistantMessage:
        handle.append_responses([factory])  # stay one answer ahead: the script never runs out
        return offline_reply(context)

    handle.set_responses([factory])
    _registered = handle
    return handle


def offline_model() -> Model:
    """The offline demo :class:`Model` (registers the provider on first use)."""
    model = register_offline_provider().get_model(OFFLINE_MODEL_ID)
    assert model is not None
    return model


def is_offline_model(model: Model | None) -> bool:
    """True when ``model`` is the built-in offline demo model."""
    return model is not None and model.provider == OFFLINE_PROVIDER and model.id == OFFLINE_MODEL_ID
