"""Tool-call argument validation with AJV-style coercion and pi's error text (pi-reference §1.16).

:func:`validate_tool_arguments` deep-copies the call's arguments, coerces primitives to the schema's types (the
table of §1.16 / pi's validation.test.ts), checks the result with ``jsonschema`` (Draft 2020-12 unless the
schema names another draft; formats asserted; validators cached per schema) and returns the coerced copy.
On failure it raises :class:`ToolValidationError` whose message is exactly pi's::

    Validation failed for tool "<name>":
      - <path>: <message>
      ...

    Received arguments:
    <original arguments as JSON.stringify(args, null, 2)>

Error lines follow pi 0.73.1 (TypeBox 1.x): its keyword order (type; object keywords; array keywords; string
keywords; number keywords; $ref; const; enum; if; not; allOf; anyOf; oneOf) and its English wording
(``must be string``, ``must have required properties a, b``, ``must not have additional properties`` …).
``<path>`` is the dotted instance path, ``root`` at top level; a ``required`` error appends the first missing
property. Every line is checked against the real pi in tests/ai/data/validation_cases.json.

Deliberate difference: pi's own built-in tools use TypeBox-built schemas, which get TypeBox ``Value.Convert``
instead of this table (there ``"1"`` → true, ``null`` → ``"null"`` for strings, ``"42.1"`` → 42 for integers).
Here every tool schema is a plain JSON-schema dict, so every tool gets pi's plain-schema coercion above.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from .js_format import js_json_stringify, js_number_to_string
from .types import Tool, ToolCall
from .validation_errors import ErrorWalker, is_number, iter_error_lines, matches_type, schema_types

__all__ = [
    "ToolNotFoundError",
    "ToolValidationError",
    "coerce_with_json_schema",
    "validate_tool_arguments",
    "validate_tool_call",
]


class ToolNotFoundError(ValueError):
    """No tool with the call's name: message ``Tool "<name>" not found``."""


class ToolValidationError(ValueError):
    """Arguments do not match the tool's schema; ``errors`` holds the ``(path, message)`` pairs."""

    def __init__(self, message: str, errors: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.errors = list(errors)


# ---------------------------------------------------------------- validators (cached per schema)


def _schema_key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, default=str)


@lru_cache(maxsize=512)
def _compiled(key: str) -> Validator:
    schema = json.loads(key)
    cls = validator_for(schema, default=Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)  # type: ignore[no-any-return]


def _validator(schema: Any) -> Validator:
    return _compiled(_schema_key(_normalize_schema(schema)))


def _normalize_schema(schema: Any) -> Any:
    """Draft-07 tuple ``items: [...]`` → ``prefixItems`` (+ ``additionalItems`` → ``items``), recursively."""
    if isinstance(schema, list):
        return [_normalize_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _normalize_schema(v) for k, v in schema.items()}
    if isinstance(out.get("items"), list) and "$schema" not in out:
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
    return out


_JS_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_JS_RADIX = {"x": 16, "o": 8, "b": 2}


def _js_number(text: str) -> float | None:
    """JavaScript ``Number(text)`` for a non-blank string; ``None`` for NaN."""
    s = text.strip()
    if len(s) > 2 and s[0] == "0" and s[1].lower() in _JS_RADIX:
        try:
            return float(int(s[2:], _JS_RADIX[s[1].lower()]))
        except ValueError:
            return None
    if s in ("Infinity", "+Infinity"):
        return math.inf
    if s == "-Infinity":
        return -math.inf
    if _JS_DECIMAL.fullmatch(s):
        return float(s)
    return None


def _as_int_if_integral(number: float) -> int | float:
    return int(number) if math.isfinite(number) and number.is_integer() else number


# ---------------------------------------------------------------- coercion (AJV-style, pi-reference §1.16)

_UNCHANGED = object()


def _coerce_primitive(value: Any, json_type: str) -> Any:
    """The coerced value, or ``_UNCHANGED``."""
    if json_type in ("number", "integer"):
        if value is None:
            return 0
        if isinstance(value, bool):
            return 1 if value else 0
        if isinstance(value, str) and value.strip():
            parsed = _js_number(value)
            if parsed is None or not math.isfinite(parsed):
                return _UNCHANGED
            if json_type == "integer" and not parsed.is_integer():
                return _UNCHANGED
            return _as_int_if_integral(parsed)
        return _UNCHANGED
    if json_type == "boolean":
        if value is None:
            return False
        if value == "true":
            return True
        if value == "false":
            return False
        if is_number(value) and value in (0, 1):
            return value == 1
        return _UNCHANGED
    if json_type == "string":
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if is_number(value):
            return js_number_to_string(value)
        return _UNCHANGED
    if json_type == "null":
        if (isinstance(value, str) and value == "") or value is False or (is_number(value) and value == 0):
            return None
        return _UNCHANGED
    return _UNCHANGED


def _is_valid(schema: Any, value: Any) -> bool:
    try:
        return bool(_validator(schema).is_valid(value))
    except Exception:  # an unresolvable $ref or invalid sub-schema counts as "no match", like pi
        return False


def _coerce_union(value: Any, variants: Sequence[Any]) -> Any:
    """A value that already matches an arm is kept (pi 0.84.0, #7328: a nullable string got ``""`` for
    ``null``); else the first arm whose coerced copy validates."""
    if any(isinstance(variant, dict) and _is_valid(variant, value) for variant in variants):
        return value
    for variant in variants:
        if not isinstance(variant, dict):
            continue
        candidate = coerce_with_json_schema(copy.deepcopy(value), variant)
        if _is_valid(variant, candidate):
            return candidate
    return value


def coerce_with_json_schema(value: Any, schema: Any) -> Any:
    """AJV-style coercion of ``value`` to ``schema`` (pi-reference §1.16); containers are changed in place.

    Primitive table: number/integer ← numeric strings (JS ``Number`` rules), booleans (1/0), ``null`` (0);
    boolean ← ``"true"``/``"false"``, 1/0, ``null`` (false); string ← numbers/booleans, ``null`` (``""``);
    null ← ``""``/0/false. A value already matching one member of a multi-type union is kept. ``allOf`` applies
    each part; ``anyOf``/``oneOf`` keep a value that matches a variant, else take the first variant whose
    coerced copy validates; object ``properties`` /
    schema-valued ``additionalProperties`` and array ``items`` (single or tuple) recurse.
    """
    if not isinstance(schema, dict):
        return value
    result = value
    if isinstance(schema.get("allOf"), list):
        for part in schema["allOf"]:
            result = coerce_with_json_schema(result, part)
    if isinstance(schema.get("anyOf"), list):
        result = _coerce_union(result, schema["anyOf"])
    if isinstance(schema.get("oneOf"), list):
        result = _coerce_union(result, schema["oneOf"])
    types = schema_types(schema)
    matches_union_member = len(types) > 1 and any(matches_type(result, t) for t in types)
    if types and not matches_union_member:
        for json_type in types:
            candidate = _coerce_primitive(result, json_type)
            if candidate is not _UNCHANGED:
                result = candidate
                break
    if "object" in types and isinstance(result, dict):
        properties = schema.get("properties")
        defined = set(properties) if isinstance(properties, dict) else set()
        if isinstance(properties, dict):
            for key, sub in properties.items():
                if key in result:
                    result[key] = coerce_with_json_schema(result[key], sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key in list(result):
                if key not in defined:
                    result[key] = coerce_with_json_schema(result[key], extra)
    if "array" in types and isinstance(result, list):
        items = schema.get("items")
        if isinstance(items, list):
            for index, sub in enumerate(items[: len(result)]):
                result[index] = coerce_with_json_schema(result[index], sub)
        elif isinstance(items, dict):
            for index in range(len(result)):
                result[index] = coerce_with_json_schema(result[index], items)
    return result


# ---------------------------------------------------------------- public API


def validate_tool_call(tools: Sequence[Tool], tool_call: ToolCall) -> dict[str, Any]:
    """Find the tool named ``tool_call.name`` and return its validated (coerced) arguments.

    Raises :class:`ToolNotFoundError` (``Tool "<name>" not found``) or :class:`ToolValidationError`
    (pi-reference §1.16).
    """
    for tool in tools:
        if tool.name == tool_call.name:
            return validate_tool_arguments(tool, tool_call)
    raise ToolNotFoundError(f'Tool "{tool_call.name}" not found')


def validate_tool_arguments(tool: Tool, tool_call: ToolCall) -> dict[str, Any]:
    """Validate ``tool_call.arguments`` against ``tool.parameters``; return the coerced deep copy.

    The input call is never modified. Raises :class:`ToolValidationError` with pi's message frame on a schema
    mismatch, or with ``Invalid parameter schema for tool "<name>": …`` when the schema itself is invalid.
    """
    schema = tool.parameters
    original = tool_call.arguments
    args: Any = copy.deepcopy(original)
    if isinstance(schema, dict):
        args = coerce_with_json_schema(args, schema)
    try:
        validator = _validator(schema)
        valid = validator.is_valid(args)
    except SchemaError as exc:
        raise ToolValidationError(
            f'Invalid parameter schema for tool "{tool_call.name}": {exc.message}'
        ) from exc
    except Exception as exc:  # e.g. an unresolvable $ref
        raise ToolValidationError(f'Invalid parameter schema for tool "{tool_call.name}": {exc}') from exc
    if valid:
        return args  # type: ignore[no-any-return]
    walker = ErrorWalker(schema)
    walker.walk(schema, args, ())
    lines = "\n".join(iter_error_lines(walker.errors)) or "Unknown validation error"
    message = (
        f'Validation failed for tool "{tool_call.name}":\n{lines}\n\n'
        f"Received arguments:\n{js_json_stringify(original, 2)}"
    )
    raise ToolValidationError(message, walker.errors)
