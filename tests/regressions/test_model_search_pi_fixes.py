"""``/model`` search and completion fixes pi shipped after 0.73.1 (PI_FIXES.md rows 0.79.9, 0.79.7, 0.79.2).

* 0.79.2: a slash-separated query stays matchable after insertion. The ``/model`` argument completion inserts
  ``provider/id`` but matches on ``"id provider"``, so once ``/model openai/gpt-4o`` was in the editor its own
  completion no longer matched (the list vanished). A ``/`` token now also matches part by part.
* 0.79.9: the model picker ranks an exact ``provider/id`` first; 0.79.7: provider and model words match in
  either order. pi-tui's picker already did both (checked here).
"""

from __future__ import annotations

from pi_tui.ai.types import Model
from pi_tui.coding.fuzzy import fuzzy_filter
from pi_tui.tui.modals.fuzzy_picker import filter_entries
from pi_tui.tui.modals.model_picker import model_entries

MODELS = [
    Model(id="gpt-4o", name="GPT-4o", api="openai-responses", provider="openai"),
    Model(id="gpt-4o-mini", name="GPT-4o mini", api="openai-responses", provider="openai"),
    Model(id="openai/gpt-4o", name="GPT-4o", api="openai-completions", provider="openrouter"),
    Model(id="claude-sonnet-4-5", name="Claude Sonnet 4.5", api="anthropic-messages", provider="anthropic"),
    Model(id="anthropic/claude-sonnet-4.5", name="Claude Sonnet 4.5", api="openai-completions",
          provider="openrouter"),
]


def _completion_items() -> list[dict[str, str]]:  # as argument_completions builds them for /model
    return [{"value": f"{m.provider}/{m.id}", "text": f"{m.id} {m.provider}"} for m in MODELS]


def test_an_inserted_provider_slash_id_still_matches_its_completion() -> None:
    for query, first in [("openai/gpt-4o", "openai/gpt-4o"), ("openai/gpt", "openai/gpt-4o"),
                         ("anthropic/claude-sonnet-4-5", "anthropic/claude-sonnet-4-5"),
                         ("openrouter/openai/gpt-4o", "openrouter/openai/gpt-4o")]:
        found = [i["value"] for i in fuzzy_filter(_completion_items(), query, lambda i: i["text"])]
        assert found and first in found, (query, found)
    assert fuzzy_filter(_completion_items(), "mistral/gpt-4o", lambda i: i["text"]) == []


def test_the_picker_ranks_an_exact_provider_slash_id_first() -> None:
    entries = model_entries(MODELS)
    for query, expected in [("openai/gpt-4o", ("openai", "gpt-4o")),
                            ("openrouter/openai/gpt-4o", ("openrouter", "openai/gpt-4o")),
                            ("gpt-4o", ("openai", "gpt-4o"))]:
        top = filter_entries(entries, query)[0].value
        assert (top.provider, top.id) == expected, query


def test_the_picker_matches_provider_and_model_words_in_either_order() -> None:
    entries = model_entries(MODELS)
    for query in ("sonnet anthropic", "anthropic sonnet", "4o openai", "openai 4o"):
        found = {(e.value.provider, e.value.id) for e in filter_entries(entries, query)}
        assert found, query
        if "anthropic" in query:
            assert ("anthropic", "claude-sonnet-4-5") in found
        else:
            assert ("openai", "gpt-4o") in found
