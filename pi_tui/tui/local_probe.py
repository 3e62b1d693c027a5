"""Find OpenAI-compatible servers on localhost (Ollama, LM Studio, llama.cpp, vLLM) for the model picker.

``probe_local_servers()`` sends ``GET http://127.0.0.1:<port>/v1/models`` to the four usual ports at once with a
short timeout and returns one ``Model`` (api ``openai-completions``) per model id found. It never raises:
unreachable ports and bad answers are skipped. The app runs it in a worker after the first paint.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from pi_tui.ai.types import Model

LOCAL_SERVERS: tuple[tuple[str, int], ...] = (
    ("ollama", 11434),
    ("lmstudio", 1234),
    ("llama.cpp", 8080),
    ("vllm", 8000),
)


def models_from_listing(provider: str, base_url: str, data: Any) -> list[Model]:
    """``Model``s from an OpenAI ``/v1/models`` answer (``{"data": [{"id": ...}]}``); bad shapes give []."""
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    out = []
    for item in items:
        mid = item.get("id") if isinstance(item, dict) else None
        if isinstance(mid, str) and mid:
            out.append(Model(id=mid, name=mid, api="openai-completions", provider=provider, base_url=base_url))
    return out


async def _probe_one(client: httpx.AsyncClient, host: str, provider: str, port: int) -> list[Model]:
    base = f"http://{host}:{port}/v1"
    try:
        resp = await client.get(f"{base}/models")
        if resp.status_code != 200:
            return []
        return models_from_listing(provider, base, resp.json())
    except (httpx.HTTPError, ValueError, OSError):
        return []


async def probe_local_servers(timeout: float = 0.8,  # noqa: ASYNC109 - httpx per-request timeout
                              host: str = "127.0.0.1",
                              servers: tuple[tuple[str, int], ...] = LOCAL_SERVERS) -> list[Model]:
    """Models offered by local OpenAI-compatible servers (empty list when none answer)."""
    async with httpx.AsyncClient(timeout=httpx.Timeout(timeout), trust_env=False) as client:
        results = await asyncio.gather(*(_probe_one(client, host, p, port) for p, port in servers))
    return [m for group in results for m in group]
