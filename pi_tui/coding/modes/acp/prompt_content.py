"""ACP prompt content → what ``AgentSession.prompt`` takes, and the slash commands a client may offer.

Content (ACP "Content"; the agent advertises ``image`` and ``embeddedContext``):

* ``text`` → the text;
* ``image`` → an image block (base64 ``data``, ``mimeType``);
* ``resource`` (embedded) with text → ``<file name="URI">…</file>`` as pi's ``@file`` arguments are sent;
  with an image blob → an image block; another blob → a one-line note naming it (no bytes to the LLM);
* ``resource_link`` → a line naming the file (the model can read it with ``read``);
* ``audio`` → :class:`ValueError` (not advertised).

Slash commands (ACP "Slash Commands"): the session registry's non-built-in commands (extensions, templates,
skills, MCP prompts) and the session's loaded prompt templates and skills (``skill:NAME``), once each. A
prompt ``/name args`` naming a template or skill is expanded as the TUI does (pi's ``expandPromptTemplate``
and ``/skill:`` blocks); other text is sent unchanged.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from acp.schema import AvailableCommand, AvailableCommandInput, UnstructuredCommandInput

from pi_tui.ai.types import ImageContent
from pi_tui.coding.resources.prompt_templates import expand_prompt_template
from pi_tui.coding.resources.skills import expand_skill_command


def _get(value: Any, key: str) -> Any:
    """``key`` of an SDK model, or of its JSON dict (``mime_type`` is ``mimeType`` there)."""
    if isinstance(value, dict):
        head, *rest = key.split("_")
        return value.get(key, value.get(head + "".join(p.title() for p in rest)))
    return getattr(value, key, None)


def uri_path(uri: str) -> str:
    """The file path of a ``file://`` URI (percent-decoded); other URIs unchanged."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def prompt_from_blocks(blocks: list[Any]) -> tuple[str, list[ImageContent]]:
    """``(text, images)`` for ``session/prompt`` content (module docstring). Raises ``ValueError`` for a block
    that cannot be sent (audio, an unknown type)."""
    parts: list[str] = []
    images: list[ImageContent] = []
    for index, block in enumerate(blocks):
        kind = _get(block, "type")
        if kind == "text":
            parts.append(str(_get(block, "text") or ""))
        elif kind == "image":
            images.append(ImageContent(data=str(_get(block, "data")), mime_type=str(_get(block, "mime_type"))))
        elif kind == "resource":
            resource = _get(block, "resource")
            uri = str(_get(resource, "uri") or "")
            text = _get(resource, "text")
            mime = str(_get(resource, "mime_type") or "")
            if isinstance(text, str):
                parts.append(f'<file name="{uri_path(uri)}">\n{text}\n</file>')
            elif mime.startswith("image/") and _get(resource, "blob"):
                images.append(ImageContent(data=str(_get(resource, "blob")), mime_type=mime))
            else:
                parts.append(f"[attached binary resource {uri} ({mime or 'unknown type'}) not included]")
        elif kind == "resource_link":
            parts.append(f"[file: {uri_path(str(_get(block, 'uri') or ''))}]")
        else:
            raise ValueError(f"prompt[{index}]: content type {kind!r} is not supported (text, image, resource)")
    return "\n".join(p for p in parts if p), images


def expand_command(text: str, session: Any) -> str:
    """``text`` with a leading ``/skill:NAME`` or ``/TEMPLATE`` expanded from the session's resources."""
    resources = getattr(session, "resources", None)
    if resources is None or not text.startswith("/"):
        return text
    expanded = expand_skill_command(text, getattr(resources, "skills", []) or [])
    if expanded != text:
        return expanded
    return expand_prompt_template(text, getattr(resources, "prompt_templates", []) or [])


def available_commands(session: Any) -> list[AvailableCommand]:
    """The commands a client may offer after ``/`` (module docstring), registry first."""
    seen: set[str] = set()
    out: list[AvailableCommand] = []

    def add(name: str, description: str, hint: str | None) -> None:
        if not name or name in seen:
            return
        seen.add(name)
        command_input = AvailableCommandInput(root=UnstructuredCommandInput(hint=hint)) if hint else None
        out.append(AvailableCommand(name=name, description=description or name, input=command_input))

    registry = getattr(session, "commands", None)
    for spec in registry.all() if registry is not None else []:
        if spec.source != "builtin":
            add(spec.name, spec.description, spec.usage or None)
    resources = getattr(session, "resources", None)
    for template in getattr(resources, "prompt_templates", []) or []:
        add(template.name, template.description, template.argument_hint)
    for skill in getattr(resources, "skills", []) or []:
        add(f"skill:{skill.name}", skill.description, None)
    return out
