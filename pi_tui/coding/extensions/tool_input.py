"""``event.input`` of the ``tool_call`` and ``tool_result`` events: the call's arguments as a dict, for every tool
(pi passes the arguments object; README "Writing an extension": ``event.input.get("command", "")``).

A tool whose parameters are a pydantic model runs with a model instance (``AgentTool.params_model``); its handlers
still get a dict (tester3 #3: they got the instance, so the README's example raised on its own tool and, a failing
``tool_call`` handler blocking the call, the tool never ran). What a ``tool_call`` handler changes in that dict, in
place or by assigning a new dict to ``event.input``, is validated against the model and copied into the instance
the tool runs with; a change the model rejects blocks the call with the validation error as the reason.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError


def input_view(args: Any) -> Any:
    """``args`` as handlers see it: a JSON-shaped dict for a pydantic model instance, else ``args`` itself (a
    dict, changed in place by handlers, is what the tool runs with)."""
    if isinstance(args, BaseModel):
        return args.model_dump(mode="json")
    return args


def apply_input(args: Any, before: Any, after: Any) -> str | None:
    """Copy a handler's changes of ``input_view(args)`` (``before`` as given, ``after`` as left) into ``args``.

    Returns None when applied (or nothing to do), else the reason the changed arguments are invalid. For a dict
    ``args`` an ``event.input`` replaced by another dict is taken too (its keys replace the old ones)."""
    if isinstance(args, BaseModel):
        if not isinstance(after, dict):
            return f"a tool_call handler set event.input to {type(after).__name__}, not a dict"
        if after == args.model_dump(mode="json"):
            return None
        try:
            fresh = type(args).model_validate(after)
        except ValidationError as exc:
            return f"the arguments a tool_call handler changed are invalid: {_short(exc)}"
        for name in type(args).model_fields:
            object.__setattr__(args, name, getattr(fresh, name))
        return None
    if isinstance(args, dict) and after is not before and isinstance(after, dict):
        args.clear()
        args.update(after)
    return None


def _short(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error.get("loc", ())) or "input"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts)
