"""Custom provider: two providers added with ``pi.register_provider`` (pi's registerProvider,
docs/custom-provider.md), both usable from ``/model``, Ctrl+P, ``--model`` and print/RPC modes.

* ``local``: an OpenAI-compatible server (llama.cpp, Ollama, vLLM, LM Studio) at ``$LOCAL_LLM_URL``
  (default ``http://127.0.0.1:8080/v1``) through the built-in ``openai-completions`` API, with an extra
  ``X-Client`` header. ``activate`` is async: it asks the server's ``GET /models`` for the model list (as pi's
  async-factory example does), falling back to ``$LOCAL_LLM_MODELS`` (comma-separated) when nothing answers.
  ``/local-llm URL`` moves the provider to another server at once (no ``/reload``).
* ``shout``: a provider with its own stream function for a custom API (``shout-api``): it answers by repeating
  the last user message in capitals, without any network. It shows what a stream function must push:
  ``start``, then ``text_start``/``text_delta``/``text_end`` per block, then ``done`` (or ``error``).

``LOCAL_LLM_URL=http://127.0.0.1:11434/v1 pi-tui -e examples/extensions/custom_provider.py --model local/llama3``
"""

import asyncio
import json
import os
import urllib.request

from pi_tui.ai.events import (
    AssistantMessageEventStream,
    DoneEvent,
    ErrorEvent,
    StartEvent,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
)
from pi_tui.ai.types import AssistantMessage, TextContent

DEFAULT_URL = "http://127.0.0.1:8080/v1"


def discover_models(base_url, timeout=2.0):
    """The ids the server lists at ``GET <base_url>/models`` ([] when it does not answer)."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/models", timeout=timeout) as response:
            data = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError):
        return []
    return [str(m["id"]) for m in data.get("data", []) if isinstance(m, dict) and m.get("id")]


def local_config(base_url, ids):
    """The ``local`` provider's config (models.json's provider shape)."""
    return {
        "name": "Local server",
        "baseUrl": base_url,
        "apiKey": "LOCAL_LLM_API_KEY",  # an env var name or a literal; a loopback server needs none
        "api": "openai-completions",
        "headers": {"X-Client": "pi-tui-custom-provider"},
        "models": [{"id": i, "name": f"{i} (local)", "contextWindow": 32768, "maxTokens": 4096} for i in ids],
    }


def last_user_text(context):
    for message in reversed(context.messages):
        if getattr(message, "role", None) == "user":
            content = message.content
            if isinstance(content, str):
                return content
            return "".join(getattr(block, "text", "") for block in content)
    return ""


def stream_shout(model, context, options=None):
    """A stream function: ``(model, context, options) -> AssistantMessageEventStream``, events pushed from a
    task; failures are encoded in the stream (an ``error`` event), never raised."""
    stream = AssistantMessageEventStream()
    output = AssistantMessage(api=model.api, provider=model.provider, model=model.id)

    async def produce():
        try:
            stream.push(StartEvent(partial=output))
            output.content.append(TextContent(text=""))
            stream.push(TextStartEvent(content_index=0, partial=output))
            for word in last_user_text(context).upper().split():
                if options is not None and getattr(options, "signal", None) is not None and options.signal.aborted:
                    raise asyncio.CancelledError
                piece = word + " "
                output.content[0].text += piece
                stream.push(TextDeltaEvent(content_index=0, delta=piece, partial=output))
                await asyncio.sleep(0)
            output.content[0].text = output.content[0].text.rstrip() or "..."
            stream.push(TextEndEvent(content_index=0, content=output.content[0].text, partial=output))
            output.usage.output = len(output.content[0].text.split())
            output.usage.total_tokens = output.usage.output
            stream.push(DoneEvent(reason="stop", message=output))
        except asyncio.CancelledError:
            output.stop_reason = "aborted"
            stream.push(ErrorEvent(reason="aborted", error=output))
        except Exception as exc:
            output.stop_reason = "error"
            output.error_message = str(exc)
            stream.push(ErrorEvent(reason="error", error=output))
        stream.end()

    stream.task = asyncio.get_running_loop().create_task(produce())  # kept referenced until it ends
    return stream


async def activate(pi):
    base_url = os.environ.get("LOCAL_LLM_URL", DEFAULT_URL)
    ids = await asyncio.to_thread(discover_models, base_url)
    ids = ids or [i.strip() for i in os.environ.get("LOCAL_LLM_MODELS", "default").split(",") if i.strip()]
    pi.register_provider("local", local_config(base_url, ids))

    pi.register_provider("shout", {
        "baseUrl": "http://127.0.0.1/shout",  # not contacted: the stream function answers
        "api": "shout-api",
        "streamSimple": stream_shout,
        "models": [{"id": "shout-1", "name": "Shout (example)", "contextWindow": 8192, "maxTokens": 1024}],
    })

    def move(args, ctx):
        url = args.strip()
        if not url:
            pi.notify(f"local provider: {base_url}", "info")
            return
        pi.register_provider("local", {"baseUrl": url})  # applies at once; the models stay
        pi.notify(f"local provider now at {url}", "info")

    pi.register_command("local-llm", move, description="Show or change the local provider's server URL")
