"""The ``edit`` tool (pi-reference §3.13 ``edit``).

Exact-text replacement of one or more disjoint regions of a file, all matched against the original
content (see :mod:`pi_tui.coding.tools.edit_diff` for the matching, line-ending and BOM rules). Atomic:
any failure raises before anything is written. Runs inside the per-file mutation queue.

``details = {"diff", "firstChangedLine", "artifacts"}``: pi's two keys, plus the pi-tui UI-only diff
artifact ``[{"title": path, "kind": "diff", "content": <unified diff>, "path": path}]`` (DESIGN.md
"UI-only roles"; ``details`` never reaches the LLM).

Only the matched text changes (issue 10 class 2; :mod:`pi_tui.coding.tools.edit_match`). When an edit
matched only in the fuzzy view, the success text says so and names the line (pi-tui addition).
There is no replace-all mode (pi has none); case 19's single-match path is the only path.
"""

from __future__ import annotations

import json
import os
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.common import (
    check_aborted,
    decode_preserving,
    encode_preserving,
    error_code,
    in_thread,
    node_error_message,
    run_abortable,
    text_result,
)
from pi_tui.coding.tools.edit_diff import (
    EditOutcome,
    EditSpec,
    apply_edits,
    generate_diff_string,
    normalize_to_lf,
    strip_bom,
    unified_diff,
)
from pi_tui.coding.tools.file_access import read_file, write_file
from pi_tui.coding.tools.file_mutation_queue import with_file_mutation_queue
from pi_tui.coding.tools.path_utils import resolve_to_cwd

EDIT_DESCRIPTION = (
    "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, "
    "non-overlapping region of the original file. If two changes affect the same block or nearby lines, "
    "merge them into one edit instead of emitting overlapping edits. Do not include large unchanged "
    "regions just to connect distant changes."
)

EDIT_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["path", "edits"],
    "properties": {
        "path": {"type": "string", "description": "Path to the file to edit (relative or absolute)"},
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["oldText", "newText"],
                "properties": {
                    "oldText": {
                        "type": "string",
                        "description": "Exact text for one targeted replacement. It must be unique in the "
                        "original file and must not overlap with any other edits[].oldText in the same call.",
                    },
                    "newText": {"type": "string", "description": "Replacement text for this targeted edit."},
                },
                "additionalProperties": False,
            },
            "description": "One or more targeted replacements. Each edit is matched against the original "
            "file, not incrementally. Do not include overlapping or nested edits. If two changes touch the "
            "same block or nearby lines, merge them into one edit instead.",
        },
    },
    "additionalProperties": False,
}

EMPTY_EDITS_ERROR = "Edit tool input is invalid. edits must contain at least one replacement."


def _is_edit_object(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("oldText"), str) and isinstance(value.get("newText"), str)


def prepare_edit_arguments(args: Any) -> Any:
    """pi's ``prepareArguments`` for edit: ``edits`` given as a JSON string is parsed (when it is an
    array), and legacy top-level ``oldText``/``newText`` strings are appended as one more edit.

    Beyond pi 0.73.1, as pi fixed later: a single edit object given as ``edits`` (or as a JSON string of
    one) is taken as a one-edit array (pi 0.84.2), and keys a model invents next to ``oldText``/``newText``
    in an edit (``replaceAll``, ``reason``, ...) are dropped instead of failing validation (pi 0.80.4).
    The schema sent to the model is unchanged."""
    if not isinstance(args, dict):
        return args
    args = dict(args)
    if isinstance(args.get("edits"), str):
        try:
            parsed = json.loads(args["edits"])
        except ValueError:
            parsed = None
        if isinstance(parsed, list) or _is_edit_object(parsed):
            args["edits"] = parsed
    if _is_edit_object(args.get("edits")):
        args["edits"] = [args["edits"]]
    if isinstance(args.get("edits"), list):
        args["edits"] = [
            {"oldText": e["oldText"], "newText": e["newText"]} if _is_edit_object(e) else e for e in args["edits"]
        ]
    old, new = args.get("oldText"), args.get("newText")
    if not isinstance(old, str) or not isinstance(new, str):
        return args
    edits = list(args["edits"]) if isinstance(args.get("edits"), list) else []
    edits.append({"oldText": old, "newText": new})
    rest = {k: v for k, v in args.items() if k not in ("oldText", "newText")}
    rest["edits"] = edits
    return rest


def _edit_specs(params: Any) -> tuple[str, list[EditSpec]]:
    data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
    edits = data.get("edits") if isinstance(data, dict) else None
    if not isinstance(edits, list) or not edits:
        raise Exception(EMPTY_EDITS_ERROR)
    specs = []
    for e in edits:
        if not isinstance(e, dict) or not isinstance(e.get("oldText"), str) or not isinstance(
            e.get("newText"), str
        ):
            raise Exception(EMPTY_EDITS_ERROR)
        specs.append(EditSpec(e["oldText"], e["newText"]))
    return str(data.get("path", "")), specs


def _check_access(path: str) -> None:
    if not os.access(path, os.R_OK | os.W_OK):
        # os.access does not say why; stat tells ENOENT apart from EACCES.
        try:
            os.stat(path)
        except OSError as exc:
            raise exc
        raise PermissionError(13, "permission denied", path)


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise Exception(node_error_message(exc, "read", path)) from None


def _write_bytes(path: str, data: bytes) -> None:
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise Exception(node_error_message(exc, "open", path)) from None


def _plan_edit(raw: bytes, specs: list[EditSpec], path: str) -> tuple[bytes, str, str, str]:
    """``(bytes to write, original LF text, new LF text, fuzzy note)``; raises pi's edit errors."""
    bom, content = strip_bom(decode_preserving(raw))
    outcome = apply_edits(content, specs, path)
    final = encode_preserving(bom + outcome.content)
    note = fuzzy_note(content, outcome, len(specs))
    return final, normalize_to_lf(content), normalize_to_lf(outcome.content), note


def fuzzy_note(content: str, outcome: EditOutcome, total: int) -> str:
    """The sentence added to the success text when an edit matched only in the fuzzy view (names the
    edit and the line where it matched), or ``""``."""
    hits = [i for i, used in enumerate(outcome.fuzzy) if used]
    if not hits:
        return ""
    where = []
    for i in hits:
        line = normalize_to_lf(content[: outcome.spans[i][0]]).count("\n") + 1
        where.append(f"line {line}" if total == 1 else f"edits[{i}] at line {line}")
    return (
        f" Note: the old text did not match exactly ({', '.join(where)}); it matched after ignoring "
        "trailing whitespace and differences in quotes, dashes, spaces or Unicode forms, and only that "
        "matched text was replaced. Check the result."
    )


def _edit_details(base: str, new: str, path: str) -> dict[str, Any]:
    diff, first_changed = generate_diff_string(base, new)
    artifact = {"title": path, "kind": "diff", "content": unified_diff(base, new, path), "path": path}
    return {"diff": diff, "firstChangedLine": first_changed, "artifacts": [artifact]}


class EditTool(AgentTool):
    """``edit(path, edits[{oldText,newText}])`` -> ``Successfully replaced <n> block(s) in <path>.``

    Errors (exception messages): pi's texts from :mod:`edit_diff`, ``Could not edit file: <path>. Error
    code: <code>.`` when the file is not readable+writable, ``Operation aborted``.
    """

    cwd: str = Field(default=".", exclude=True)
    file_access: Any = Field(default=None, exclude=True)  # tools/file_access.py; None = local files

    def __init__(self, cwd: str, **data: Any) -> None:
        super().__init__(
            name="edit",
            label="edit",
            description=EDIT_DESCRIPTION,
            parameters=EDIT_PARAMETERS,
            cwd=cwd,
            **data,
        )

    def prepare_arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """See :func:`prepare_edit_arguments`."""
        return prepare_edit_arguments(args)  # type: ignore[no-any-return]

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Apply the edits atomically; see the class docstring for results and errors."""
        path, specs = _edit_specs(params)
        absolute = resolve_to_cwd(path, self.cwd)

        async def mutate() -> AgentToolResult:
            check_aborted(signal)
            try:
                await in_thread(_check_access, absolute)
            except OSError as exc:
                raise Exception(f"Could not edit file: {path}. Error code: {error_code(exc)}.") from None
            raw = await run_abortable(signal, read_file(self.file_access, absolute, _read_bytes))
            final, base, new, note = await in_thread(_plan_edit, raw, specs, path)
            check_aborted(signal)
            await write_file(self.file_access, absolute, final, _write_bytes)
            check_aborted(signal)
            details = await in_thread(_edit_details, base, new, path)
            return text_result(f"Successfully replaced {len(specs)} block(s) in {path}.{note}", details)

        return await with_file_mutation_queue(absolute, mutate)
