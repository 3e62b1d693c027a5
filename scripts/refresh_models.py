#!/usr/bin/env python3
"""Regenerate ``pi_tui/ai/data/models.json`` (the model catalogue snapshot, pi-reference §1.14).

Source: the model catalogue shipped in the ``@mariozechner/pi-ai`` npm package (itself generated from
models.dev, OpenRouter and the Vercel AI Gateway). Dump it to JSON with Node first::

    mkdir /tmp/piai && cd /tmp/piai && npm install @mariozechner/pi-ai@0.73.1
    node --input-type=module -e 'import {MODELS} from "./node_modules/@mariozechner/pi-ai/dist/models.generated.js";
      const o={}; for (const [p,m] of Object.entries(MODELS)) o[p]=Object.values(m); console.log(JSON.stringify(o))' > dump.json
    python scripts/refresh_models.py dump.json --source "@mariozechner/pi-ai@0.73.1"

Only providers whose API pi-tui implements are kept (see ``SUPPORTED_APIS``). Providers that need an
API pi-tui does not implement, OAuth token exchange (github-copilot, openai-codex) or URL placeholders
(cloudflare-*) are dropped. Mistral models are rewritten from pi's ``mistral-conversations`` API to
``openai-completions`` against Mistral's OpenAI-compatible endpoint (``https://api.mistral.ai/v1``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

SUPPORTED_APIS = {"openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai"}
EXCLUDED_PROVIDERS = {"github-copilot", "openai-codex", "cloudflare-ai-gateway", "cloudflare-workers-ai"}
MISTRAL_BASE_URL = "https://api.mistral.ai/v1"
# Mistral models that take ``reasoning_effort`` (pi's mistral provider); the others reason via prompt mode.
MISTRAL_REASONING_EFFORT_IDS = {"mistral-small-2603", "mistral-small-latest", "mistral-medium-3.5"}
# Hand-added models missing from pi's catalogue (added only when the provider is present and the id is absent).
# DeepSeek's long-standing aliases; prices/limits from DeepSeek's published price list (V3.2, $/Mtok).
EXTRA_MODELS: list[dict[str, Any]] = [
    {
        "id": "deepseek-chat",
        "name": "DeepSeek Chat (alias, non-thinking)",
        "api": "openai-completions",
        "provider": "deepseek",
        "baseUrl": "https://api.deepseek.com",
        "reasoning": False,
        "input": ["text"],
        "cost": {"input": 0.28, "output": 0.42, "cacheRead": 0.028, "cacheWrite": 0},
        "contextWindow": 128000,
        "maxTokens": 8192,
        "handAdded": True,
    },
    {
        "id": "deepseek-reasoner",
        "name": "DeepSeek Reasoner (alias, thinking)",
        "api": "openai-completions",
        "provider": "deepseek",
        "baseUrl": "https://api.deepseek.com",
        "compat": {"requiresReasoningContentOnAssistantMessages": True, "thinkingFormat": "deepseek"},
        "reasoning": True,
        "thinkingLevelMap": {"off": None, "minimal": None, "low": None, "medium": None, "high": "high"},
        "input": ["text"],
        "cost": {"input": 0.28, "output": 0.42, "cacheRead": 0.028, "cacheWrite": 0},
        "contextWindow": 128000,
        "maxTokens": 65536,
        "handAdded": True,
    },
]
OUTPUT = Path(__file__).resolve().parent.parent / "pi_tui" / "ai" / "data" / "models.json"
# Catalogue corrections pi shipped after 0.73.1 (tests/conformance/PI_FIXES.md, catalogue rows), applied on top of
# every dump so a refresh keeps them. Thinking maps use the catalogue's tri-state: None = level unsupported.
GPT55_IDS = {"gpt-5.5", "openai/gpt-5.5"}  # pi 0.78.1 (#5243): no "minimal"
GPT55_PRO_IDS = {"gpt-5.5-pro", "openai/gpt-5.5-pro"}  # pi 0.77.0: only medium, high, xhigh
GPT55_PROVIDERS = {"openai", "opencode", "openrouter"}
GPT5_PRO_MAX_TOKENS = {("openai", "gpt-5-pro"): 128000}  # pi 0.79.1 (#5559): output limit, not the input one
XIAOMI_PROVIDERS = {"xiaomi", "xiaomi-token-plan-ams", "xiaomi-token-plan-cn", "xiaomi-token-plan-sgp"}
XIAOMI_TOKEN_PLAN_DROPPED = {"mimo-v2-flash", "mimo-v2-omni"}  # pi 0.77.0 (#5075), 0.80.4 (#6204)
# pi 0.86.0 (#8700), 0.99.0 (#9678): Mistral's reasoning models that got no reasoning control take
# reasoning_effort "none" or "high" only (as in pi 1.6.0's catalogue).
MISTRAL_NONE_OR_HIGH_IDS = {"mistral-medium-2604", "mistral-medium-latest", "magistral-medium-latest"}
MISTRAL_NONE_OR_HIGH_MAP = {"off": "none", "minimal": None, "low": None, "medium": None, "high": "high"}
# pi 0.77.0: OpenRouter's DeepSeek V4 takes OpenRouter's own reasoning object (xhigh stays "xhigh"; DeepSeek's
# "thinking"/"max" are not OpenRouter's); pi 0.78.1 (#5309): OpenRouter's Kimi K2.6 needs reasoning_content
# replayed on assistant messages (as in pi 1.6.0's catalogue).
OPENROUTER_DEEPSEEK_V4_IDS = {"deepseek/deepseek-v4-pro", "deepseek/deepseek-v4-flash"}
OPENROUTER_REASONING_CONTENT_IDS = {"moonshotai/kimi-k2.6"}
# pi 0.84.3 (#8181): OpenCode Go's DeepSeek V4 Flash supports "low"; pi 0.79.1: Moonshot's Kimi K2.6 takes the
# thinking switch {type: enabled|disabled} (DeepSeek's format, as in pi 1.6.0's catalogue), so "off" turns it off.
OPENCODE_GO_DEEPSEEK_LOW_IDS = {"deepseek-v4-flash"}
MOONSHOT_THINKING_SWITCH_IDS = {"kimi-k2.6"}
# pi 0.80.6: long-context price tiers ($/Mtok for the whole request once its input exceeds the threshold), as in
# pi 1.6.0's catalogue, for the entries whose base prices are the same as ours.
_GPT54 = [{"inputTokensAbove": 272000, "input": 5, "output": 22.5, "cacheRead": 0.5, "cacheWrite": 0}]
_GPT55 = [{"inputTokensAbove": 272000, "input": 10, "output": 45, "cacheRead": 1, "cacheWrite": 0}]
_GPT5X_PRO = [{"inputTokensAbove": 272000, "input": 60, "output": 270, "cacheRead": 0, "cacheWrite": 0}]
_GEMINI_PRO = [{"inputTokensAbove": 200000, "input": 4, "output": 18, "cacheRead": 0.4, "cacheWrite": 0}]
PRICE_TIERS: dict[tuple[str, str], list[dict[str, float]]] = {
    ("openai", "gpt-5.4"): _GPT54,
    ("openai", "gpt-5.4-pro"): _GPT5X_PRO,
    ("openai", "gpt-5.5"): _GPT55,
    ("openai", "gpt-5.5-pro"): _GPT5X_PRO,
    ("opencode", "gpt-5.4"): _GPT54,
    ("opencode", "gpt-5.5"): _GPT55,
    ("opencode", "claude-sonnet-4-5"): [
        {"inputTokensAbove": 200000, "input": 6, "output": 22.5, "cacheRead": 0.6, "cacheWrite": 7.5}
    ],
    ("google", "gemini-2.5-pro"): [
        {"inputTokensAbove": 200000, "input": 2.5, "output": 15, "cacheRead": 0.25, "cacheWrite": 0}
    ],
    ("google", "gemini-3.1-pro-preview"): _GEMINI_PRO,
    ("google", "gemini-3.1-pro-preview-customtools"): _GEMINI_PRO,
    ("xai", "grok-4.3"): [{"inputTokensAbove": 200000, "input": 2.5, "output": 5, "cacheRead": 0.4, "cacheWrite": 0}],
}


def apply_corrections(providers: dict[str, list[dict[str, Any]]]) -> None:
    """Apply the post-0.73.1 catalogue fixes above to ``providers`` in place (idempotent)."""
    for provider, models in providers.items():
        if provider.startswith("xiaomi-token-plan-"):
            models[:] = [m for m in models if m["id"] not in XIAOMI_TOKEN_PLAN_DROPPED]
        for model in models:
            level_map = dict(model.get("thinkingLevelMap") or {})
            if provider in GPT55_PROVIDERS and model["id"] in GPT55_IDS:
                level_map["minimal"] = None
            elif provider in GPT55_PROVIDERS and model["id"] in GPT55_PRO_IDS:
                level_map.update({"off": None, "minimal": None, "low": None})
                level_map.setdefault("xhigh", "xhigh")
            elif provider in XIAOMI_PROVIDERS and model.get("reasoning"):
                # pi 1.3.0 (#10818): MiMo answers 400 at "minimal"; only off and high
                level_map.update({"minimal": None, "low": None, "medium": None})
            elif provider == "mistral" and model["id"] in MISTRAL_NONE_OR_HIGH_IDS and model.get("reasoning"):
                level_map = dict(MISTRAL_NONE_OR_HIGH_MAP)
                model["compat"] = {**(model.get("compat") or {}), "supportsReasoningEffort": True}
            elif provider == "openrouter" and model["id"] in OPENROUTER_DEEPSEEK_V4_IDS:
                level_map.update({"off": "none", "xhigh": "xhigh"})
                model["compat"] = {**(model.get("compat") or {}), "thinkingFormat": "openrouter"}
            elif provider == "opencode-go" and model["id"] in OPENCODE_GO_DEEPSEEK_LOW_IDS:
                level_map["low"] = "low"
            if provider in ("moonshotai", "moonshotai-cn") and model["id"] in MOONSHOT_THINKING_SWITCH_IDS:
                model["compat"] = {**(model.get("compat") or {}), "thinkingFormat": "deepseek"}
            if provider == "openrouter" and model["id"] in OPENROUTER_REASONING_CONTENT_IDS:
                model["compat"] = {**(model.get("compat") or {}), "requiresReasoningContentOnAssistantMessages": True}
            if level_map:
                model["thinkingLevelMap"] = level_map
            if (provider, model["id"]) in PRICE_TIERS:
                model["cost"] = {**model.get("cost", {}), "tiers": PRICE_TIERS[(provider, model["id"])]}
            if (provider, model["id"]) in GPT5_PRO_MAX_TOKENS:
                model["maxTokens"] = GPT5_PRO_MAX_TOKENS[(provider, model["id"])]


def convert_mistral(model: dict[str, Any]) -> dict[str, Any]:
    """Rewrite one ``mistral-conversations`` model to ``openai-completions`` with Mistral's compat flags."""
    out = dict(model)
    out["api"] = "openai-completions"
    out["baseUrl"] = MISTRAL_BASE_URL
    compat: dict[str, Any] = {
        "supportsStore": False,
        "supportsDeveloperRole": False,
        "supportsStrictMode": False,
        "maxTokensField": "max_tokens",
        "supportsReasoningEffort": model["id"] in MISTRAL_REASONING_EFFORT_IDS,
    }
    compat.update(model.get("compat") or {})
    out["compat"] = compat
    if model["id"] in MISTRAL_REASONING_EFFORT_IDS and not model.get("thinkingLevelMap"):
        # Mistral accepts only "high" (and "none"); every enabled level maps to "high", like pi.
        out["thinkingLevelMap"] = {"minimal": "high", "low": "high", "medium": "high", "high": "high"}
    return out


def convert(dump: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """Filter and rewrite a provider → models dump into the shipped catalogue."""
    providers: dict[str, list[dict[str, Any]]] = {}
    for provider, models in dump.items():
        if provider in EXCLUDED_PROVIDERS:
            continue
        kept = []
        for model in models:
            if model.get("api") == "mistral-conversations":
                model = convert_mistral(model)
            if model.get("api") in SUPPORTED_APIS:
                kept.append(model)
        if kept:
            providers[provider] = kept
    for extra in EXTRA_MODELS:
        models = providers.get(extra["provider"])
        if models is not None and all(m["id"] != extra["id"] for m in models):
            models.append(dict(extra))
    apply_corrections(providers)
    return providers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dump", type=Path, help="JSON dump {provider: [model, ...]} of pi-ai's catalogue")
    parser.add_argument("--source", default="@mariozechner/pi-ai models.generated", help="provenance note")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    dump = json.loads(args.dump.read_text(encoding="utf-8"))
    providers = convert(dump)
    document = {
        "snapshot": {
            "date": dt.date.today().isoformat(),
            "source": args.source,
            "note": "Prices are $ per million tokens. Mistral rewritten to openai-completions "
            f"({MISTRAL_BASE_URL}). Models with handAdded=true are not in pi's catalogue. "
            "Regenerate with scripts/refresh_models.py.",
        },
        "providers": providers,
    }
    args.output.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    count = sum(len(v) for v in providers.values())
    print(f"wrote {count} models for {len(providers)} providers to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
