"""MCP resources mentioned as ``@server:uri`` in a message (issue 13; pi 1.x docs/mcp.md "Use resources").

Completion (:func:`resource_completions`): in the editor's ``@`` token, ``@<server>:`` lists that server's
resources (``resources/list``, read when it connected), filtered by what follows the colon; any other ``@``
query also offers the resources whose ``server:uri`` or ``server:name`` fuzzy-matches it, after the files.
An item inserts ``@server:uri`` (``@"server:uri"`` when the URI has a space or a quote-breaking character).

Sending (:func:`mentioned_resources`, :func:`read_mentions`): every ``@server:uri`` of the text whose ``server``
is a configured MCP server is read (``resources/read``) and becomes content blocks after the message's text:

- text contents → one text block ``<mcp_resource server="…" uri="…" mimeType="…">\\ntext\\n</mcp_resource>``
  (longer than :data:`MAX_RESOURCE_CHARS`: its middle removed, as tool results);
- a blob of an ``image/*`` type → a tag line naming it, then an image block;
- another blob → its text when it decodes as UTF-8, else a line naming URI, MIME type and size;
- a read that fails (unknown server state, JSON-RPC error, timeout) → a text block saying the resource could
  not be read and why (so the model knows), and an error notification for the user. The message is sent anyway.

A mention is ``@server:uri`` or ``@"server:uri"`` at the start or after whitespace (as file mentions,
:mod:`pi_tui.coding.file_args`); trailing prose punctuation (``@srv:notes://a.``) is dropped unless the URI
with it is one the server lists. Each resource is read once per message.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pi_tui.ai.types import ImageContent, TextContent, UserContent
from pi_tui.coding.autocomplete import CompletionItem
from pi_tui.coding.fuzzy import fuzzy_filter
from pi_tui.coding.mcp.content import truncate_middle
from pi_tui.coding.mcp.errors import McpError

if TYPE_CHECKING:
    import mcp_types as mt

    from pi_tui.coding.mcp.connection import McpConnection
    from pi_tui.coding.mcp.manager import McpManager

MAX_RESOURCE_CHARS = 100_000
"""A resource text longer than this reaches the model with its middle removed."""
MAX_SUGGESTIONS = 50
_MENTION = re.compile(r'(?:^|(?<=\s))@(?:"([^"\n]+)"|([^\s"]+))')
_TRAILING_PUNCTUATION = ".,;:!?)]}'"
_NEEDS_QUOTES = re.compile(r'[\s"\'=]')

Notify = Callable[[str, str], Any]


@dataclass(frozen=True)
class ResourceMention:
    """``@server:uri`` as found in a message."""

    server: str
    uri: str

    @property
    def label(self) -> str:
        """``server:uri``."""
        return f"{self.server}:{self.uri}"


# ------------------------------------------------------------------ completion


def mention_value(server: str, uri: str) -> str:
    """What the editor inserts for a resource: ``@server:uri``, quoted when the URI would end the token."""
    body = f"{server}:{uri}"
    return f'@"{body}"' if _NEEDS_QUOTES.search(body) else f"@{body}"


def _item(server: str, resource: mt.Resource) -> CompletionItem:
    detail = resource.title or resource.name or ""
    if resource.mime_type:
        detail = f"{detail} ({resource.mime_type})" if detail else resource.mime_type
    return CompletionItem(mention_value(server, resource.uri), f"{server}:{resource.uri}", detail or "MCP resource")


def resource_completions(
    resources: Mapping[str, Sequence[mt.Resource]], query: str, *, limit: int = MAX_SUGGESTIONS
) -> list[CompletionItem]:
    """Items for the ``@`` query ``query`` (without the ``@``/quote) over ``resources`` (server → its listed
    resources): ``server:rest`` lists that server's resources matching ``rest`` (all of them for ``""``); any
    other non-empty query the resources whose ``server:uri``/``server:name`` fuzzy-match it."""
    server, sep, rest = query.partition(":")
    if sep and server in resources:
        candidates = [(server, r) for r in resources[server]]
        if rest:
            candidates = fuzzy_filter(candidates, rest, lambda pair: f"{pair[1].uri} {pair[1].name}")
        return [_item(s, r) for s, r in candidates[:limit]]
    if not query:
        return []
    everything = [(s, r) for s, listed in resources.items() for r in listed]
    matched = fuzzy_filter(everything, query, lambda pair: f"{pair[0]}:{pair[1].uri} {pair[0]}:{pair[1].name}")
    return [_item(s, r) for s, r in matched[:limit]]


def listed_resources(manager: McpManager | None) -> dict[str, list[mt.Resource]]:
    """Server → listed resources, for the connected servers that have any (``{}`` without a manager)."""
    if manager is None:
        return {}
    return {
        name: list(c.resources)
        for name, c in manager.connections.items()
        if c.state == "connected" and c.resources
    }


# ------------------------------------------------------------------ mentions


def mentioned_resources(text: str, servers: Mapping[str, Sequence[str]]) -> list[ResourceMention]:
    """The ``@server:uri`` mentions of ``text`` whose server is in ``servers`` (server → the URIs it lists),
    in order, each once (module docstring for punctuation)."""
    found: list[ResourceMention] = []
    for match in _MENTION.finditer(text):
        quoted, bare = match.group(1), match.group(2)
        body = quoted or bare
        server, sep, uri = body.partition(":")
        if not sep or server not in servers or not uri:
            continue
        if not quoted and uri not in servers[server]:
            stripped = uri.rstrip(_TRAILING_PUNCTUATION)
            uri = stripped or uri
        mention = ResourceMention(server, uri)
        if mention not in found:
            found.append(mention)
    return found


def _tag(mention: ResourceMention, mime: str | None, extra: str = "") -> str:
    attrs = f'server="{html.escape(mention.server)}" uri="{html.escape(mention.uri)}"'
    if mime:
        attrs += f' mimeType="{html.escape(mime)}"'
    return f"<mcp_resource {attrs}{extra}>"


def _decoded(blob: str) -> bytes | None:
    try:
        return base64.b64decode(blob, validate=False)
    except (binascii.Error, ValueError):
        return None


def contents_blocks(mention: ResourceMention, result: mt.ReadResourceResult) -> list[UserContent]:
    """The blocks of one ``resources/read`` result (module docstring)."""
    blocks: list[UserContent] = []
    for item in result.contents:
        mime = item.mime_type
        text = getattr(item, "text", None)
        if isinstance(text, str):
            body = truncate_middle(text, MAX_RESOURCE_CHARS)
            blocks.append(TextContent(text=f"{_tag(mention, mime)}\n{body}\n</mcp_resource>"))
            continue
        blob: str = getattr(item, "blob", "")
        if mime and mime.startswith("image/"):
            blocks.append(TextContent(text=f"{_tag(mention, mime)}(image below)</mcp_resource>"))
            blocks.append(ImageContent(data=blob, mime_type=mime))
            continue
        data = _decoded(blob)
        decoded: str | None = None
        if data is not None:
            try:
                decoded = data.decode("utf-8")
            except UnicodeDecodeError:
                decoded = None
        if decoded is not None and "\x00" not in decoded:
            body = truncate_middle(decoded, MAX_RESOURCE_CHARS)
            blocks.append(TextContent(text=f"{_tag(mention, mime)}\n{body}\n</mcp_resource>"))
        else:
            size = f"{len(data)} bytes" if data is not None else "undecodable base64"
            blocks.append(TextContent(text=f"{_tag(mention, mime)}[binary, {size}: not shown to the model]</mcp_resource>"))
    if not blocks:
        blocks.append(TextContent(text=f"{_tag(mention, None)}(empty)</mcp_resource>"))
    return blocks


def _failure_block(mention: ResourceMention, reason: str) -> TextContent:
    error = ' error="' + html.escape(reason) + '"'
    return TextContent(text=f"{_tag(mention, None, error)}could not be read</mcp_resource>")


async def read_mention(connection: McpConnection, mention: ResourceMention) -> tuple[list[UserContent], str | None]:
    """``(blocks, error)`` for one mention: the resource's blocks, or a failure block and the reason."""
    try:
        result = await connection.read_resource(mention.uri)
    except McpError as exc:
        return [_failure_block(mention, str(exc))], str(exc)
    except Exception as exc:  # never lose the message over a resource
        from pi_tui.coding.mcp.connection import describe_exception

        reason = f"MCP read of {mention.label} failed: {describe_exception(exc)}"
        return [_failure_block(mention, reason)], reason
    return contents_blocks(mention, result), None


async def read_mentions(text: str, manager: McpManager, notify: Notify) -> list[UserContent]:
    """The blocks of every resource ``text`` mentions (module docstring), read in parallel; each failure is
    reported through ``notify("error", …)`` and becomes a failure block."""
    servers = {name: [r.uri for r in c.resources] for name, c in manager.connections.items()}
    mentions = mentioned_resources(text, servers)
    if not mentions:
        return []
    results = await asyncio.gather(*(read_mention(manager.connections[m.server], m) for m in mentions))
    blocks: list[UserContent] = []
    for mention, (mention_blocks, error) in zip(mentions, results, strict=True):
        if error is not None:
            notify("error", f"MCP resource @{mention.label} not attached: {error}")
        blocks.extend(mention_blocks)
    return blocks
