"""Smaller loaded messages: shared field-name sets and interned short strings (issue 15: RSS of long sessions).

Measured on a 10,000-message session: of the 50 MB its entries took, 22 MB were pydantic's per-object
``__pydantic_fields_set__`` (a ``set`` of the field names given, ~520 bytes each for 43,000 models) and 9 MB
strings, most of them the same few words (``"text"``, ``"assistant"``, the provider, the model id) once per
message. :func:`compact_message` makes every message model loaded from a file (and its content blocks, usage
and cost) share one set per distinct combination of field names and interns its short string values.

Why sharing the sets is safe for *messages* (never for entries): nothing reads a message's fields-set
(messages are written with ``exclude_none``, pi-tui's only ``exclude_unset`` dump is the entry's own, whose
``message`` field is serialised by :func:`~pi_tui.coding.session.messages.message_to_json`; pydantic's
``__eq__`` and ``model_copy`` do not depend on it, and ``model_copy`` copies the set). Assigning a field a loaded
message did not have adds its name to the shared set, which changes nothing that is read.
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic import BaseModel

SHORT_STRING = 64
"""String values up to this many characters are interned (ids, roles, types, providers, model ids)."""
MAX_SHARED_SETS = 2_000
"""Distinct field-name combinations shared at most (a file with ever-new extra keys shares no more)."""

_shared_sets: dict[frozenset[str], set[str]] = {}


def _shared(fields: set[str]) -> set[str]:
    key = frozenset(fields)
    found = _shared_sets.get(key)
    if found is not None:
        return found
    if len(_shared_sets) < MAX_SHARED_SETS:
        _shared_sets[key] = fields
    return fields


def compact_message(message: Any, depth: int = 0) -> None:
    """Share the fields-sets of ``message`` (a pydantic message model) and of the models inside it (content
    blocks, usage, cost; lists of models), and intern their short string values. Dicts and non-models are left
    as they are. Never raises for odd values."""
    if not isinstance(message, BaseModel) or depth > 4:
        return
    fields = message.__pydantic_fields_set__
    object.__setattr__(message, "__pydantic_fields_set__", _shared(fields))
    values = message.__dict__
    for name, value in values.items():
        if type(value) is str:
            if len(value) <= SHORT_STRING:
                values[name] = sys.intern(value)
        elif isinstance(value, BaseModel):
            compact_message(value, depth + 1)
        elif type(value) is list:
            for item in value:
                if isinstance(item, BaseModel):
                    compact_message(item, depth + 1)
