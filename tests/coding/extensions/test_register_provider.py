"""``pi.register_provider`` / ``pi.unregister_provider`` (pi 0.73 docs/extensions.md, docs/custom-provider.md):
the model registry's rules (new provider, override of an existing one, upsert, refresh, unregister restores,
pi's validation messages) and the extension side (queued during activate, at once afterwards, a ``--model``
of an extension's provider, a failing registration named once, /reload takes it back and gives it again).
Requests go to the loopback mock server, whose recorded headers and bodies are asserted."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from pi_tui.ai.registry import get_api_provider
from pi_tui.coding.agent_session.factory import SessionSetupError
from pi_tui.coding.config.auth import AuthStorage
from pi_tui.coding.config.model_registry import ModelRegistry
from pi_tui.coding.extensions.setup import start_extensions

from .conftest import Env

MODEL = {"id": "big", "name": "Big", "contextWindow": 1000, "maxTokens": 100}


def registry(tmp_path: Path, providers: dict | None = None) -> ModelRegistry:
    path = tmp_path / "models.json"
    if providers is not None:
        path.write_text(json.dumps({"providers": providers}))
    return ModelRegistry(AuthStorage.in_memory(), path)


def test_a_new_provider_adds_its_models_with_its_key_and_headers(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROXY_KEY", "secret-1")
    reg = registry(tmp_path)
    reg.register_provider("proxy", {"baseUrl": "https://proxy.test/v1", "apiKey": "PROXY_KEY",
                                    "api": "openai-completions", "headers": {"X-Team": "a"}, "authHeader": True,
                                    "models": [MODEL, {**MODEL, "id": "small", "baseUrl": "https://other.test"}]})
    big, small = reg.find("proxy", "big"), reg.find("proxy", "small")
    assert big is not None and small is not None
    assert (big.base_url, big.api, big.context_window, small.base_url) == (
        "https://proxy.test/v1", "openai-completions", 1000, "https://other.test")
    assert reg.has_configured_auth(big)
    auth = reg.get_api_key_and_headers(big)
    assert auth.api_key == "secret-1"
    assert auth.headers == {"X-Team": "a", "Authorization": "Bearer secret-1"}
    assert reg.registered_providers() == ["proxy"]


def test_base_url_only_moves_an_existing_providers_models_and_unregister_restores_them(tmp_path: Path) -> None:
    reg = registry(tmp_path, {"mock": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
                                       "models": [{"id": "m1"}, {"id": "m2"}]}})
    reg.register_provider("mock", {"baseUrl": "http://127.0.0.1:7/v2", "headers": {"X-Via": "proxy"}})
    assert [m.base_url for m in reg.get_all() if m.provider == "mock"] == ["http://127.0.0.1:7/v2"] * 2
    model = reg.find("mock", "m1")
    assert model is not None and reg.get_api_key_and_headers(model).headers == {"X-Via": "proxy"}
    reg.refresh()  # a models.json reload keeps the registration
    assert reg.find("mock", "m2").base_url == "http://127.0.0.1:7/v2"  # type: ignore[union-attr]
    reg.unregister_provider("mock")
    assert [m.base_url for m in reg.get_all() if m.provider == "mock"] == ["http://127.0.0.1:9/v1"] * 2
    assert reg.get_api_key_and_headers(reg.find("mock", "m1")).headers is None  # type: ignore[arg-type]
    reg.unregister_provider("never-registered")  # no effect


def test_models_replace_a_providers_models_and_a_second_call_updates_the_first(tmp_path: Path) -> None:
    reg = registry(tmp_path, {"mock": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
                                       "models": [{"id": "m1"}]}})
    reg.register_provider("mock", {"baseUrl": "http://127.0.0.1:8/v1", "api": "anthropic-messages",
                                   "models": [MODEL]})
    assert [m.id for m in reg.get_all() if m.provider == "mock"] == ["big"]
    reg.register_provider("mock", {"baseUrl": "http://127.0.0.1:5/v1"})  # upsert: the models stay
    reg.refresh()
    big = reg.find("mock", "big")
    assert big is not None and (big.base_url, big.api) == ("http://127.0.0.1:5/v1", "anthropic-messages")


@pytest.mark.parametrize(("config", "message"), [
    ({"api": "x", "models": [MODEL]}, 'Provider p: "baseUrl" is required when defining models.'),
    ({"baseUrl": "https://p.test", "api": "x", "models": [MODEL]},
     'Provider p: "apiKey" or "oauth" is required when defining models.'),
    ({"baseUrl": "https://p.test", "apiKey": "K", "models": [MODEL]}, 'Provider p, model big: no "api" specified.'),
    ({"streamSimple": lambda *a: None}, 'Provider p: "api" is required when registering streamSimple.'),
    ({"baseUrl": "https://p.test", "colour": "red"}, "Provider p: colour: Extra inputs are not permitted"),
    ({"oauth": {"name": "SSO"}}, 'Provider p: "oauth" is not supported'),
])
def test_invalid_configs_are_refused_with_pis_messages(tmp_path: Path, config: dict, message: str) -> None:
    reg = registry(tmp_path)
    with pytest.raises(ValueError) as caught:
        reg.register_provider("p", config)
    assert str(caught.value).startswith(message)
    assert reg.registered_providers() == []


PROXY = """
def activate(pi):
    pi.register_provider("proxy", {{
        "baseUrl": "http://127.0.0.1:{port}/v1", "api": "openai-completions", "apiKey": "proxy-key",
        "headers": {{"X-Proxy": "yes"}},
        "models": [{{"id": "proxy-model", "name": "Proxy model", "contextWindow": 64000, "maxTokens": 2000}}],
    }})
    pi.register_provider("broken", {{"api": "openai-completions", "models": [{{"id": "b"}}]}})

    def move(args, ctx):
        pi.register_provider("proxy", {{"headers": {{"X-Proxy": args}}}})

    pi.register_command("proxy-header", move)
    pi.register_command("drop-proxy", lambda args, ctx: pi.unregister_provider("proxy"))
"""


def write_extension(env: Env, text: str, name: str = "proxy.py") -> Path:
    path = env.agent_dir / "extensions" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def errors(session: object) -> list[str]:
    return [m.text for m in session.messages  # type: ignore[attr-defined]
            if m.role == "notification" and m.level == "error"]


@pytest.mark.anyio
async def test_a_model_of_an_extensions_provider_is_taken_from_the_command_line(env: Env) -> None:
    server = env.serve([{"type": "text", "text": "via proxy"}, {"type": "text", "text": "again"}])
    write_extension(env, PROXY.format(port=server.port))
    from pi_tui.coding.session_factory import create_agent_session

    session = create_agent_session(str(env.project), model="proxy/proxy-model", no_session=True)
    assert session.pending_model is not None  # not known before the extensions load
    await start_extensions(session.extensions)
    assert (session.model.provider, session.model.id) == ("proxy", "proxy-model")
    changes = [e for e in session.session_manager.get_entries() if e.type == "model_change"]
    assert [(e.provider, e.model_id) for e in changes] == [("proxy", "proxy-model")]  # no stand-in recorded
    shown = errors(session)
    assert len(shown) == 1 and "register_provider" in shown[0] and '"baseUrl" is required' in shown[0]
    await session.prompt("hello")
    await session.wait_for_idle()
    request = server.requests[0]
    assert request["headers"]["x-proxy"] == "yes"
    assert request["headers"]["authorization"] == "Bearer proxy-key"
    assert request["body"]["model"] == "proxy-model"
    assert any(m.id == "proxy-model" for m in session.models.available_models())  # /model and Ctrl+P list it

    await session.prompt("/proxy-header changed")  # after loading: applies at once, no /reload
    await session.prompt("and again")
    await session.wait_for_idle()
    assert server.requests[1]["headers"]["x-proxy"] == "changed"
    await session.prompt("/drop-proxy")
    assert session.models.find("proxy", "proxy-model") is None


@pytest.mark.anyio
async def test_reload_takes_the_provider_back_and_registers_it_again(env: Env) -> None:
    server = env.serve([])
    write_extension(env, PROXY.format(port=server.port))
    session = env.session()
    await start_extensions(session.extensions)
    registry_ = session.models.registry
    assert "proxy" in registry_.registered_providers()
    (env.agent_dir / "extensions" / "proxy.py").unlink()
    await session.extensions.runtime.reload()
    assert registry_.registered_providers() == []
    assert session.models.find("proxy", "proxy-model") is None


@pytest.mark.anyio
async def test_a_stream_function_answers_for_its_own_api(env: Env) -> None:
    env.serve([])
    write_extension(env, """
        from pi_tui.ai.events import AssistantMessageEventStream, DoneEvent, StartEvent
        from pi_tui.ai.types import AssistantMessage, TextContent

        def stream(model, context, options=None):
            s = AssistantMessageEventStream()
            text = "echo: " + context.messages[-1].content[0].text
            message = AssistantMessage(api=model.api, provider=model.provider, model=model.id,
                                       content=[TextContent(text=text)])
            s.push(StartEvent(partial=message))
            s.push(DoneEvent(reason="stop", message=message))
            s.end()
            return s

        def activate(pi):
            pi.register_provider("echo", {"baseUrl": "http://127.0.0.1/none", "api": "echo-api",
                                          "stream_simple": stream, "models": [{"id": "e1"}]})
    """, "echo.py")
    session = env.session()
    await start_extensions(session.extensions)
    assert get_api_provider("echo-api") is not None
    assert session.extensions.runtime.host.set_model("echo/e1")
    await session.prompt("ping")
    await session.wait_for_idle()
    replies = [m for m in session.messages if m.role == "assistant"]
    assert replies[-1].content[0].text == "echo: ping"
    session.models.registry.unregister_provider("echo")
    assert get_api_provider("echo-api") is None


@pytest.mark.anyio
async def test_an_unknown_model_is_still_an_error(env: Env) -> None:
    env.serve([])
    from pi_tui.coding.session_factory import create_agent_session

    with pytest.raises(SessionSetupError):  # no extension to wait for: refused at once, as before
        create_agent_session(str(env.project), model="nope/none", no_session=True)
    write_extension(env, "def activate(pi):\n    pass\n", "idle.py")
    session = create_agent_session(str(env.project), model="nope/none", no_session=True)
    await start_extensions(session.extensions)
    assert session.model_error is not None and "nope/none" in session.model_error
    assert errors(session) == [session.model_error]
