"""Local validators for the tool call / tool result pairing rules each provider API enforces with an HTTP 400.

Used by the request-validity regression tests (issue 10, class 6). Each function takes the converted request
messages of one API and returns the list of violations (empty when the provider would accept the history):

- ``anthropic-messages``: every ``tool_use`` id is unique; an assistant message with ``tool_use`` blocks has no
  text/thinking after them and is followed by a user message whose leading blocks are ``tool_result`` blocks
  for exactly those ids; every ``tool_result`` answers a ``tool_use`` of the assistant message right before
  ("tool_use ids were found without tool_result blocks immediately after", "unexpected tool_use_id found in
  tool_result blocks");
- ``openai-completions``: an assistant message with ``tool_calls`` is followed by one ``tool`` message per call
  before any other role; a ``tool`` message answers a call of that assistant message ("messages with role
  'tool' must be a response to a preceeding message with 'tool_calls'", "An assistant message with
  'tool_calls' must be followed by tool messages responding to each 'tool_call_id'");
- ``openai-responses``: every ``function_call_output`` has an earlier ``function_call`` with its ``call_id``
  and every ``function_call`` has exactly one output ("No tool output found for function call ...",
  "No tool call found for function call output with call_id ...");
- ``google-generative-ai``: a ``model`` turn with ``functionCall`` parts is followed by a ``user`` turn with
  exactly as many ``functionResponse`` parts (names matching, in call order), and a ``functionResponse`` only
  follows such a turn ("Please ensure that the number of function response parts is equal to the number of
  function call parts of the function call turn").
"""

from __future__ import annotations

from typing import Any


def anthropic_violations(messages: list[dict[str, Any]]) -> list[str]:
    """Violations of Anthropic's pairing rules in a ``messages`` array (see the module docstring)."""
    problems: list[str] = []
    seen_ids: set[str] = set()
    for index, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        if message["role"] == "assistant":
            uses = [b for b in content if b.get("type") == "tool_use"]
            for block in uses:
                if not block["id"]:
                    problems.append(f"messages.{index}: empty tool_use id")
                if block["id"] in seen_ids:
                    problems.append(f"messages.{index}: tool_use ids must be unique: {block['id']}")
                seen_ids.add(block["id"])
            if uses:
                first = next(i for i, b in enumerate(content) if b.get("type") == "tool_use")
                if any(b.get("type") != "tool_use" for b in content[first:]):
                    problems.append(f"messages.{index}: content after tool_use")
                following = messages[index + 1] if index + 1 < len(messages) else None
                answered: list[str] = []
                if following is not None and following["role"] == "user" and isinstance(following["content"], list):
                    for block in following["content"]:
                        if block.get("type") != "tool_result":
                            break
                        answered.append(block["tool_use_id"])
                if sorted(answered) != sorted(b["id"] for b in uses):
                    problems.append(
                        f"messages.{index}: tool_use ids were found without tool_result blocks immediately after"
                    )
        else:
            previous = messages[index - 1] if index > 0 else None
            open_ids = {
                b["id"]
                for b in (previous["content"] if previous and previous["role"] == "assistant" else [])
                if isinstance(b, dict) and b.get("type") == "tool_use"
            }
            for block in content:
                if block.get("type") == "tool_result" and block["tool_use_id"] not in open_ids:
                    problems.append(f"messages.{index}: unexpected tool_use_id found in tool_result blocks")
    return problems


def completions_violations(messages: list[dict[str, Any]]) -> list[str]:
    """Violations of Chat Completions' ``tool_calls`` / ``tool`` pairing in a ``messages`` array."""
    problems: list[str] = []
    open_ids: list[str] = []
    for index, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            if message["tool_call_id"] not in open_ids:
                problems.append(f"messages[{index}]: role 'tool' must respond to a preceding 'tool_calls'")
            else:
                open_ids.remove(message["tool_call_id"])
            continue
        if open_ids:
            problems.append(f"messages[{index}]: tool_calls not answered: {open_ids}")
        open_ids = []
        if role == "assistant":
            ids = [c["id"] for c in message.get("tool_calls") or []]
            if any(not i for i in ids) or len(set(ids)) != len(ids):
                problems.append(f"messages[{index}]: empty or repeated tool call id {ids}")
            open_ids = list(ids)
    if open_ids:
        problems.append(f"end: tool_calls not answered: {open_ids}")
    return problems


def responses_violations(items: list[dict[str, Any]]) -> list[str]:
    """Violations of the Responses API's ``function_call`` / ``function_call_output`` pairing."""
    problems: list[str] = []
    calls: dict[str, int] = {}
    outputs: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.get("type") == "function_call":
            if not item["call_id"] or item["call_id"] in calls:
                problems.append(f"input[{index}]: empty or duplicate call_id {item['call_id']!r}")
            calls[item["call_id"]] = index
        elif item.get("type") == "function_call_output":
            if item["call_id"] not in calls:
                problems.append(f"input[{index}]: No tool call found for function call output {item['call_id']}")
            outputs[item["call_id"]] = outputs.get(item["call_id"], 0) + 1
    for call_id in calls:
        if outputs.get(call_id, 0) != 1:
            problems.append(f"No tool output found for function call {call_id} ({outputs.get(call_id, 0)} outputs)")
    return problems


def google_violations(contents: list[dict[str, Any]]) -> list[str]:
    """Violations of Gemini's function call turn / function response turn pairing."""
    problems: list[str] = []
    for index, turn in enumerate(contents):
        calls = [p["functionCall"] for p in turn["parts"] if "functionCall" in p]
        responses = [p["functionResponse"] for p in turn["parts"] if "functionResponse" in p]
        if turn["role"] == "model" and calls:
            following = contents[index + 1] if index + 1 < len(contents) else None
            answered = [p["functionResponse"] for p in following["parts"] if "functionResponse" in p] if (
                following is not None and following["role"] == "user"
            ) else []
            if [c["name"] for c in calls] != [r["name"] for r in answered]:
                problems.append(
                    f"contents[{index}]: {len(calls)} function call parts but {len(answered)} function response "
                    f"parts (or names out of order)"
                )
        if responses:
            previous = contents[index - 1] if index > 0 else None
            if previous is None or previous["role"] != "model" or not any("functionCall" in p for p in previous["parts"]):
                problems.append(f"contents[{index}]: function response without a function call turn before it")
    return problems
