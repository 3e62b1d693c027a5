"""Validation error enumeration in pi 0.73.1's (TypeBox 1.x) order and wording (pi-reference §1.16).

:class:`ErrorWalker` lists ``(path, message)`` pairs for a value that failed validation: the ``type`` check,
then object keywords (required, additionalProperties, dependencies, dependentRequired, dependentSchemas,
patternProperties, properties, propertyNames, min/maxProperties), array keywords (additionalItems, contains,
items, min/maxItems, prefixItems, uniqueItems), string keywords (min/maxLength, format, pattern), number
keywords (exclusiveMinimum, exclusiveMaximum, minimum, maximum, multipleOf), then $ref, const, enum, if, not,
allOf, anyOf, oneOf. ``path`` is the dotted instance path (``root`` at top level); a ``required`` error appends
the first missing property. Used by :mod:`pi_tui.ai.validation` once ``jsonschema`` has rejected the value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeGuard

from jsonschema import Draft202012Validator

from .js_format import js_number_to_string


def is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number (``bool`` excluded)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def matches_type(value: Any, json_type: str) -> bool:
    if json_type == "number":
        return is_number(value)
    if json_type == "integer":
        return is_number(value) and (isinstance(value, int) or (math.isfinite(value) and value.is_integer()))
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "null":
        return value is None
    if json_type == "array":
        return isinstance(value, list)
    if json_type == "object":
        return isinstance(value, dict)
    return False


def schema_types(schema: dict[str, Any]) -> list[str]:
    value = schema.get("type")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for t in value if isinstance(t, str)]
    return []


Path = tuple[str, ...]
Emit = Callable[[Path, str, "str | None"], None]


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _search(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return True


class ErrorWalker:
    """Enumerates validation errors in TypeBox's order with TypeBox's messages."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.errors: list[tuple[str, str]] = []
        self._format_checker = Draft202012Validator.FORMAT_CHECKER

    def emit(self, path: Path, message: str, required_first: str | None = None) -> None:
        parts = list(path)
        if required_first is not None:
            parts.append(required_first)
        self.errors.append((".".join(parts) or "root", message))

    def _resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            return None
        node: Any = self.root
        for token in ref[1:].split("/")[1:] if ref != "#" else []:
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                return None
        return node

    def _valid(self, schema: Any, value: Any) -> bool:
        probe = ErrorWalker(self.root)
        probe.walk(schema, value, ())
        return not probe.errors

    def walk(self, schema: Any, value: Any, path: Path) -> None:  # noqa: C901 - one branch per keyword
        if schema is True or schema is None:
            return
        if schema is False:
            self.emit(path, "schema is false")
            return
        if not isinstance(schema, dict):
            return
        types = schema_types(schema)
        if types and not any(matches_type(value, t) for t in types):
            if isinstance(schema.get("type"), str):
                self.emit(path, f"must be {types[0]}")
            else:
                self.emit(path, "must be either " + " or ".join(types))
        if isinstance(value, dict):
            self._object(schema, value, path)
        if isinstance(value, list):
            self._array(schema, value, path)
        if isinstance(value, str):
            self._string(schema, value, path)
        if is_number(value):
            self._number(schema, value, path)
        if isinstance(schema.get("$ref"), str):
            target = self._resolve(schema["$ref"])
            if target is not None:
                self.walk(target, value, path)
        if "const" in schema and not _json_equal(value, schema["const"]):
            self.emit(path, "must be equal to constant")
        if isinstance(schema.get("enum"), list) and not any(_json_equal(value, v) for v in schema["enum"]):
            self.emit(path, "must be equal to one of the allowed values")
        if "if" in schema:
            branch = "then" if self._valid(schema["if"], value) else "else"
            if branch in schema and not self._valid(schema[branch], value):
                self.emit(path, f'must match "{branch}" schema')
        if "not" in schema and self._valid(schema["not"], value):
            self.emit(path, "must not be valid")
        if isinstance(schema.get("allOf"), list):
            for part in schema["allOf"]:
                self.walk(part, value, path)
        if isinstance(schema.get("anyOf"), list) and not any(self._valid(s, value) for s in schema["anyOf"]):
            for part in schema["anyOf"]:
                self.walk(part, value, path)
            self.emit(path, "must match a schema in anyOf")
        if isinstance(schema.get("oneOf"), list):
            matches = sum(1 for s in schema["oneOf"] if self._valid(s, value))
            if matches != 1:
                if matches == 0:
                    for part in schema["oneOf"]:
                        self.walk(part, value, path)
                self.emit(path, "must match exactly one schema in oneOf")

    def _object(self, schema: dict[str, Any], value: dict[str, Any], path: Path) -> None:
        required = schema.get("required")
        if isinstance(required, list):
            missing = [str(name) for name in required if name not in value]
            if missing:
                self.emit(path, "must have required properties " + ", ".join(missing), missing[0])
        properties: dict[str, Any] = (
            schema["properties"] if isinstance(schema.get("properties"), dict) else {}
        )
        patterns: dict[str, Any] = (
            schema["patternProperties"] if isinstance(schema.get("patternProperties"), dict) else {}
        )
        if "additionalProperties" in schema:
            extra_schema = schema["additionalProperties"]
            extras = [k for k in value if k not in properties and not any(_search(p, k) for p in patterns)]
            failed = False
            for key in extras:
                before = len(self.errors)
                self.walk(extra_schema, value[key], (*path, key))
                failed = failed or len(self.errors) > before
            if failed:
                self.emit(path, "must not have additional properties")
        dependencies = schema.get("dependencies")
        if isinstance(dependencies, dict):
            for prop, dep in dependencies.items():
                if prop in value:
                    if isinstance(dep, list):
                        self._dependent_required(prop, dep, value, path)
                    else:
                        self.walk(dep, value, path)
        dependent_required = schema.get("dependentRequired")
        if isinstance(dependent_required, dict):
            for prop, deps in dependent_required.items():
                if prop in value and isinstance(deps, list):
                    self._dependent_required(prop, deps, value, path)
        dependent_schemas = schema.get("dependentSchemas")
        if isinstance(dependent_schemas, dict):
            for prop, sub in dependent_schemas.items():
                if prop in value:
                    self.walk(sub, value, path)
        for pattern, sub in patterns.items():
            for key in value:
                if _search(pattern, key):
                    self.walk(sub, value[key], (*path, key))
        for key, sub in properties.items():
            if key in value:
                self.walk(sub, value[key], (*path, key))
        if "propertyNames" in schema:
            invalid = []
            for key in value:
                before = len(self.errors)
                self.walk(schema["propertyNames"], key, (*path, key))
                if len(self.errors) > before:
                    invalid.append(key)
            if invalid:
                self.emit(path, f"property names {', '.join(invalid)} are invalid")
        self._limit(
            schema, "minProperties", len(value), path, lambda n: f"must not have fewer than {n} properties"
        )
        self._limit(
            schema, "maxProperties", len(value), path, lambda n: f"must not have more than {n} properties"
        )

    def _dependent_required(self, prop: str, deps: list[Any], value: dict[str, Any], path: Path) -> None:
        missing = [str(d) for d in deps if d not in value]
        if missing:
            self.emit(path, f"must have properties {', '.join(missing)} when property {prop} is present")

    def _array(self, schema: dict[str, Any], value: list[Any], path: Path) -> None:
        items = schema.get("items")
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else None
        if isinstance(items, list) and "additionalItems" in schema:
            for index in range(len(items), len(value)):
                self.walk(schema["additionalItems"], value[index], (*path, str(index)))
        if "contains" in schema:
            count = sum(1 for item in value if self._valid(schema["contains"], item))
            minimum = schema.get("minContains", 1)
            if count < minimum or ("maxContains" in schema and count > schema["maxContains"]):
                self.emit(path, "must contain at least 1 valid item")
        if isinstance(items, list):
            for index, sub in enumerate(items[: len(value)]):
                self.walk(sub, value[index], (*path, str(index)))
        elif "items" in schema:
            start = len(prefix) if prefix is not None else 0
            for index in range(start, len(value)):
                self.walk(items, value[index], (*path, str(index)))
        self._limit(schema, "minItems", len(value), path, lambda n: f"must not have fewer than {n} items")
        self._limit(schema, "maxItems", len(value), path, lambda n: f"must not have more than {n} items")
        if prefix is not None:
            for index, sub in enumerate(prefix[: len(value)]):
                self.walk(sub, value[index], (*path, str(index)))
        if schema.get("uniqueItems") is True:
            if any(
                _json_equal(value[i], value[j]) for i in range(len(value)) for j in range(i + 1, len(value))
            ):
                self.emit(path, "must not have duplicate items")

    def _string(self, schema: dict[str, Any], value: str, path: Path) -> None:
        self._limit(
            schema, "minLength", len(value), path, lambda n: f"must not have fewer than {n} characters"
        )
        self._limit(
            schema, "maxLength", len(value), path, lambda n: f"must not have more than {n} characters"
        )
        fmt = schema.get("format")
        if isinstance(fmt, str) and not self._format_checker.conforms(value, fmt):
            self.emit(path, f'must match format "{fmt}"')
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and not _search(pattern, value):
            self.emit(path, f'must match pattern "{pattern}"')

    def _number(self, schema: dict[str, Any], value: float, path: Path) -> None:
        checks: list[tuple[str, str, Callable[[float, float], bool]]] = [
            ("exclusiveMinimum", ">", lambda v, lim: v > lim),
            ("exclusiveMaximum", "<", lambda v, lim: v < lim),
            ("minimum", ">=", lambda v, lim: v >= lim),
            ("maximum", "<=", lambda v, lim: v <= lim),
        ]
        for keyword, comparison, ok in checks:
            limit = schema.get(keyword)
            if is_number(limit) and not ok(value, limit):
                self.emit(path, f"must be {comparison} {js_number_to_string(limit)}")
        divisor = schema.get("multipleOf")
        if is_number(divisor) and divisor > 0 and not _is_multiple(value, divisor):
            self.emit(path, f"must be multiple of {js_number_to_string(divisor)}")

    def _limit(
        self, schema: dict[str, Any], keyword: str, size: int, path: Path, text: Callable[[Any], str]
    ) -> None:
        limit = schema.get(keyword)
        if not is_number(limit):
            return
        too_small = keyword.startswith("min") and size < limit
        too_big = keyword.startswith("max") and size > limit
        if too_small or too_big:
            self.emit(path, text(js_number_to_string(limit)))


def _is_multiple(value: float, divisor: float) -> bool:
    if isinstance(value, int) and isinstance(divisor, int):
        return value % divisor == 0
    quotient = value / divisor
    return math.isfinite(quotient) and abs(quotient - round(quotient)) < 1e-9


def iter_error_lines(errors: Sequence[tuple[str, str]]) -> Iterator[str]:
    for path, message in errors:
        yield f"  - {path}: {message}"
