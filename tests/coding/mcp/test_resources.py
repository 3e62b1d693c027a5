"""MCP resources attached with ``@server:uri`` (issue 13; pi_tui/coding/mcp/resources.py): mention parsing and
completion items, and through a real session: the resource's text/blob becomes content blocks of the user
message the model gets, a failed read is one error notification plus a block saying so and the message is still
sent. Servers: ``@modelcontextprotocol/server-everything`` (npm, over stdio) and tests/fixtures/mcp/resource_server.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.ai.types import Context
from pi_tui.coding.mcp.resources import (
    ResourceMention,
    mention_value,
    mentioned_resources,
    resource_completions,
)
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FIXTURES

pytestmark = pytest.mark.anyio

RESOURCE_SERVER = FIXTURES / "resource_server.py"


# ------------------------------------------------------------------ mentions and completion items


def test_mentions_name_configured_servers_only_and_drop_prose_punctuation() -> None:
    servers = {"res": ["notes://readme", "notes://a.b."], "other-1": []}
    text = ('see @res:notes://readme, and @res:notes://a.b. also @other-1:x://y? '
            '@"res:notes://with space" email@res:no @unknown:notes://x @res:notes://readme again')
    assert mentioned_resources(text, servers) == [
        ResourceMention("res", "notes://readme"),
        ResourceMention("res", "notes://a.b."),  # listed with its dot: kept
        ResourceMention("other-1", "x://y"),
        ResourceMention("res", "notes://with space"),
    ]
    assert mentioned_resources("no mentions @ all, @res alone, @res: empty", servers) == []


@settings(max_examples=60, derandomize=True)
@given(uri=st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)), min_size=1)
       .filter(lambda u: u.strip() == u and u.rstrip(".,;:!?)]}'") == u))
def test_an_inserted_mention_is_found_again(uri: str) -> None:
    """What completion inserts (``mention_value``) is what sending reads, for any URI without quotes/newlines."""
    text = f"look at {mention_value('srv', uri)} please"
    assert mentioned_resources(text, {"srv": []}) == [ResourceMention("srv", uri)]


class _Res:
    def __init__(self, uri: str, name: str, mime: str | None = "text/plain", title: str | None = None) -> None:
        self.uri, self.name, self.mime_type, self.title = uri, name, mime, title


def test_completion_items_for_a_server_prefix_and_a_fuzzy_query() -> None:
    listed: Any = {"res": [_Res("notes://readme", "readme", title="The readme"), _Res("notes://dot.png", "dot", "image/png")],
                   "docs": [_Res("doc://guide a", "guide")]}
    items = resource_completions(listed, "res:")
    assert [i.value for i in items] == ["@res:notes://readme", "@res:notes://dot.png"]
    assert items[0].label == "res:notes://readme" and items[0].description == "The readme (text/plain)"
    assert [i.value for i in resource_completions(listed, "res:dot")] == ["@res:notes://dot.png"]
    assert [i.value for i in resource_completions(listed, "guide")] == ['@"docs:doc://guide a"']
    assert resource_completions(listed, "") == []  # a bare @ lists files only
    assert resource_completions(listed, "nomatch:zzz") == []


# ------------------------------------------------------------------ through a session


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    yield provider
    provider.unregister()


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: dict[str, Any]) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    monkeypatch.setenv("PI_TUI_DIR", str(agent))


def _session(tmp_path: Path, faux: FauxProvider) -> tuple[Any, list[list[dict[str, Any]]]]:
    """A session whose faux model records the content of each user message it is sent."""
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    model = faux.get_model()
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    seen: list[list[dict[str, Any]]] = []

    def step(context: Context, options: Any, state: Any, model: Any) -> Any:
        last = context.messages[-1].model_dump(mode="json", by_alias=True, exclude_none=True)
        seen.append(last["content"])
        return faux_assistant_message("ok")

    faux.set_responses([step, step, step])
    return session, seen


def _texts(content: list[dict[str, Any]]) -> list[str]:
    return [b["text"] for b in content if b["type"] == "text"]


def _notices(session: Any) -> list[str]:
    return [m.text for m in session.messages if getattr(m, "role", None) == "notification"]


async def test_resources_of_the_fixture_server_become_blocks_and_failures_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faux: FauxProvider
) -> None:
    _home(tmp_path, monkeypatch, {"res": {"command": sys.executable, "args": [str(RESOURCE_SERVER)], "timeout": 30}})
    session, seen = _session(tmp_path, faux)
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(60)
        assert link.manager.connections["res"].state == "connected"
        assert [r.uri for r in link.manager.connections["res"].resources][:2] == ["notes://readme", "notes://dot.png"]
        await session.prompt("read @res:notes://readme, @res:notes://dot.png @res:notes://data.bin "
                             "@res:notes://utf8.bin and @res:notes://broken")
        content = seen[0]
        texts = _texts(content)
        assert texts[0].startswith("read @res:notes://readme,")  # the typed text comes first, unchanged
        assert texts[1] == ('<mcp_resource server="res" uri="notes://readme" mimeType="text/plain">\n'
                            "hello from the readme resource\n</mcp_resource>")
        images = [b for b in content if b["type"] == "image"]
        assert len(images) == 1 and images[0]["mimeType"] == "image/png"
        assert any("notes://data.bin" in t and "[binary, 256 bytes" in t for t in texts)
        assert any("notes://utf8.bin" in t and "blob that is text: grüße" in t for t in texts)
        broken = next(t for t in texts if 'uri="notes://broken"' in t)
        assert "could not be read" in broken and "JSON-RPC error" in broken
        notices = _notices(session)
        assert sum("@res:notes://broken not attached" in n for n in notices) == 1
        assert not any("readme" in n for n in notices)
        # the message is in the session, resources included
        user = [m for m in session.messages if getattr(m, "role", None) == "user"][0]
        assert len(user.content) == len(content)
    finally:
        await link.close()


async def test_a_resource_read_past_the_timeout_is_an_error_and_the_message_still_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faux: FauxProvider
) -> None:
    _home(tmp_path, monkeypatch, {"res": {"command": sys.executable, "args": [str(RESOURCE_SERVER)], "timeout": 2}})
    session, seen = _session(tmp_path, faux)
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(60)
        await session.prompt("wait for @res:notes://slow")
        texts = _texts(seen[0])
        assert texts[0] == "wait for @res:notes://slow"
        assert "timed out after 2 s" in texts[1]
        assert any("@res:notes://slow not attached" in n and "timed out" in n for n in _notices(session))
        # the server is still usable afterwards
        await session.prompt("now @res:notes://readme")
        assert "hello from the readme resource" in _texts(seen[1])[1]
    finally:
        await link.close()


async def test_a_mention_of_a_server_that_failed_to_start_is_reported_not_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faux: FauxProvider
) -> None:
    _home(tmp_path, monkeypatch, {"gone": {"command": "/nonexistent/mcp-server"}})
    session, seen = _session(tmp_path, faux)
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(60)
        await session.prompt("use @gone:notes://x")
        texts = _texts(seen[0])
        assert texts[0] == "use @gone:notes://x" and "could not be read" in texts[1]
        assert any("@gone:notes://x not attached" in n for n in _notices(session))
    finally:
        await link.close()


def _everything_script() -> Path:
    base = Path(os.environ.get("PI_TUI_MCP_NODE_DIR", FIXTURES))
    script = base / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if shutil.which("node") is None:
        pytest.skip("node is not installed: @modelcontextprotocol/server-everything cannot run")
    if not script.exists():
        pytest.skip(f"@modelcontextprotocol/server-everything is not installed (npm ci in {FIXTURES}; .ci/run does it)")
    return script


async def test_everything_server_resources_are_listed_and_attached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faux: FauxProvider
) -> None:
    script = _everything_script()
    _home(tmp_path, monkeypatch, {"everything": {"command": "node", "args": [str(script), "stdio"]}})
    session, seen = _session(tmp_path, faux)
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(60)
        connection = link.manager.connections["everything"]
        assert connection.state == "connected", connection.error
        uris = [r.uri for r in connection.resources]
        doc = "demo://resource/static/document/architecture.md"
        assert doc in uris
        items = resource_completions({"everything": connection.resources}, "everything:architec")
        assert items and items[0].value == f"@everything:{doc}"
        await session.prompt(f"summarise {items[0].value} and @everything:demo://resource/dynamic/blob/3 "
                             "and @everything:demo://resource/dynamic/text/0")
        texts = _texts(seen[0])
        expected = (script.parent / "docs" / "architecture.md").read_text()
        assert f'uri="{doc}" mimeType="text/markdown">\n{expected}\n</mcp_resource>' in texts[1]
        assert "Resource 3: This is a base64 blob" in texts[2]  # a text blob, decoded
        assert "could not be read" in texts[3] and "Unknown resource" in texts[3]  # id 0 is refused by the server
    finally:
        await link.close()
