"""OAuth sign-in for streamable-HTTP MCP servers (issue 13; pi 1.x docs/mcp.md "Authenticate with OAuth"), on the
official SDK's client support (``mcp.client.auth.OAuthClientProvider``: discovery of the protected resource and
authorization server metadata, dynamic client registration, PKCE, token exchange and refresh).

- Which servers: HTTP entries without an ``Authorization`` header (pi: "OAuth applies to HTTP servers without an
  Authorization header"), :func:`oauth_applies`.
- Credentials: ``<agent dir>/mcp-auth.json`` (mode 0600, written atomically), one entry per server name and URL
  (``"NAME URL"``: servers with the same URL under two names sign in separately), holding the registered client
  and the tokens (:class:`FileTokenStorage`, the SDK's ``TokenStorage``). Tokens are registered with
  :mod:`pi_tui.ai.secret_redaction` when read or written, so one that ends up in an error text is redacted from
  session files, logs and exports; they are never written anywhere else.
- In a session (:func:`session_auth`): a server with stored credentials gets the SDK's provider (tokens are
  sent and refreshed; a refresh the server refuses needs a new sign-in); a server that needs sign-in fails to
  connect with :data:`SIGN_IN_HINT` naming ``pi-tui mcp login NAME``. A session never opens a browser.
- Signing in (:func:`login`, ``pi-tui mcp login NAME``): a loopback callback server on
  ``http://127.0.0.1:<port>/callback`` (the port of the registered client when there is one, else a free
  one), the authorization URL printed and opened in the browser (``webbrowser``, so ``$BROWSER`` is honoured),
  then the server is connected once with the new tokens. ``pi-tui mcp logout NAME`` deletes the entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

from pi_tui.ai.secret_redaction import register_secret
from pi_tui.coding.config.paths import get_agent_dir
from pi_tui.coding.config.settings import write_json_atomic
from pi_tui.coding.mcp.config import McpOAuthConfig, McpServerConfig
from pi_tui.coding.mcp.oauth_config import fixed_port, redirect_for

if TYPE_CHECKING:
    from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

AUTH_FILE_NAME = "mcp-auth.json"
CLIENT_NAME = "pi-tui"
LOGIN_TIMEOUT_S = 300.0
"""How long :func:`login` waits for the browser to come back to the callback."""
SIGN_IN_HINT = "needs sign-in: run `pi-tui mcp login {name}`"
DEFAULT_SECRET_METHOD = "client_secret_post"
"""How a configured client secret is sent when the authorization server's metadata names no method (as the
TypeScript MCP SDK does)."""


class SignInRequired(Exception):
    """The server wants an authorization the session cannot ask for (no browser in a session)."""


def auth_path(agent_dir: Path | None = None) -> Path:
    """``<agent dir>/mcp-auth.json``."""
    return (agent_dir or get_agent_dir()) / AUTH_FILE_NAME


def oauth_applies(config: McpServerConfig) -> bool:
    """True for an HTTP server without an ``Authorization`` header."""
    return config.transport == "http" and not any(k.lower() == "authorization" for k in config.headers)


def credential_key(config: McpServerConfig) -> str:
    """``"NAME URL"``: the entry of ``config``'s server in the credentials file."""
    return f"{config.name} {config.url}"


def _read_all(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class FileTokenStorage:
    """The SDK's ``TokenStorage`` over one entry of ``mcp-auth.json`` (module docstring).

    ``configured``: the ``oauth`` block's registered client (``clientId``/``clientSecret``): it is the client
    (never registered, and its secret never written to the file); the token endpoint's authentication method
    picked for it at sign-in is kept in the entry (``clientAuthMethod``) for later refreshes.
    """

    def __init__(self, path: Path, key: str, configured: McpOAuthConfig | None = None) -> None:
        self.path = path
        self.key = key
        self.configured = configured if configured is not None and configured.client_id else None

    def _entry(self) -> dict[str, Any]:
        entry = _read_all(self.path).get(self.key)
        return entry if isinstance(entry, dict) else {}

    def _update(self, field: str, value: Any) -> None:
        data = _read_all(self.path)
        current = data.get(self.key)
        entry: dict[str, Any] = current if isinstance(current, dict) else {}
        entry[field] = value
        data[self.key] = entry
        write_json_atomic(self.path, data, mode=0o600)

    def has_tokens(self) -> bool:
        """True when tokens are stored for this server."""
        return isinstance(self._entry().get("tokens"), dict)

    async def get_tokens(self) -> OAuthToken | None:
        """The stored tokens (None when signed out or unreadable)."""
        from mcp.shared.auth import OAuthToken

        raw = self._entry().get("tokens")
        if not isinstance(raw, dict):
            return None
        try:
            tokens = OAuthToken.model_validate(raw)
        except ValueError:
            return None
        _register(tokens)
        return tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        """Store ``tokens`` (0600)."""
        _register(tokens)
        self._update("tokens", tokens.model_dump(mode="json", exclude_none=True))
        self._update("expiresAt", time.time() + tokens.expires_in if tokens.expires_in else None)

    def expires_at(self) -> float | None:
        """When the stored access token expires (epoch seconds), if the server said."""
        value = self._entry().get("expiresAt")
        return float(value) if isinstance(value, int | float) else None

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        """The configured client, else the registered one (None before the first sign-in)."""
        from mcp.shared.auth import OAuthClientInformationFull

        if self.configured is not None:
            secret = self.configured.client_secret
            method = self._entry().get("clientAuthMethod") if secret else "none"
            return OAuthClientInformationFull(
                client_id=self.configured.client_id, client_secret=secret,
                token_endpoint_auth_method=method if isinstance(method, str) else DEFAULT_SECRET_METHOD,
                redirect_uris=None, grant_types=["authorization_code", "refresh_token"],
                scope=self.configured.scope)
        raw = self._entry().get("client")
        if not isinstance(raw, dict):
            return None
        try:
            return OAuthClientInformationFull.model_validate(raw)
        except ValueError:
            return None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        """Store the registered client (its secret, if any, is a secret too); a configured client is not stored,
        only the authentication method chosen for it."""
        if client_info.client_secret:
            register_secret(client_info.client_secret)
        if self.configured is not None:
            self._update("clientAuthMethod", client_info.token_endpoint_auth_method)
            return
        self._update("client", client_info.model_dump(mode="json", exclude_none=True))


def _register(tokens: OAuthToken) -> None:
    register_secret(tokens.access_token)
    if tokens.refresh_token:
        register_secret(tokens.refresh_token)


def forget(config: McpServerConfig, path: Path | None = None) -> bool:
    """Delete the stored credentials of ``config``'s server; False when there were none."""
    path = path or auth_path()
    data = _read_all(path)
    if credential_key(config) not in data:
        return False
    del data[credential_key(config)]
    write_json_atomic(path, data, mode=0o600)
    return True


def _client_metadata(redirect_uri: str, oauth: McpOAuthConfig | None = None) -> Any:
    from mcp.shared.auth import OAuthClientMetadata

    return OAuthClientMetadata(
        client_name=(oauth.client_name if oauth is not None else None) or CLIENT_NAME,
        redirect_uris=[redirect_uri],  # type: ignore[list-item]  # pydantic parses the URL
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope=oauth.scope if oauth is not None else None,
    )


def make_provider(config: McpServerConfig, storage: FileTokenStorage, redirect_uri: str,
                  redirect_handler: Callable[[str], Any], callback_handler: Callable[[], Any]) -> Any:
    """The SDK's ``OAuthClientProvider`` for ``config``, with the ``oauth`` block applied: the configured
    ``scope`` is requested when the server advertises none (the SDK would send no scope; pi 1.x: "Set scope
    for servers that do not advertise their required scopes"), and a configured client secret is sent the way
    the authorization server's metadata allows (``client_secret_basic`` first, else ``client_secret_post``,
    which is also the default when it names none)."""
    from mcp.client.auth import OAuthClientProvider

    oauth = config.oauth

    class Provider(OAuthClientProvider):
        async def _perform_authorization_code_grant(self) -> tuple[str, str]:
            context = self.context
            if oauth is not None and oauth.scope and not context.client_metadata.scope:
                context.client_metadata.scope = oauth.scope
            info = context.client_info
            if info is not None and storage.configured is not None and info.client_secret:
                offered = (context.oauth_metadata.token_endpoint_auth_methods_supported or []
                           if context.oauth_metadata is not None else [])
                method = next((m for m in ("client_secret_basic", "client_secret_post") if m in offered),
                              DEFAULT_SECRET_METHOD)
                info.token_endpoint_auth_method = method  # type: ignore[assignment]
                await storage.set_client_info(info)
            return await super()._perform_authorization_code_grant()

    return Provider(server_url=config.url or "", client_metadata=_client_metadata(redirect_uri, oauth),
                    storage=storage, redirect_handler=redirect_handler, callback_handler=callback_handler)


def session_auth(config: McpServerConfig, path: Path | None = None) -> Any:
    """The SDK auth for ``config``'s connection in a session: an ``OAuthClientProvider`` over the stored
    credentials, or None (no OAuth for this server, or never signed in: the server then answers 401 and the
    connection fails with :data:`SIGN_IN_HINT`)."""
    if not oauth_applies(config):
        return None
    storage = FileTokenStorage(path or auth_path(), credential_key(config), config.oauth)
    if not storage.has_tokens():
        return None
    hint = SIGN_IN_HINT.format(name=config.name)

    async def no_browser(_url: str) -> None:
        raise SignInRequired(f"MCP server {config.name} {hint}")

    async def no_callback() -> Any:
        raise SignInRequired(f"MCP server {config.name} {hint}")

    redirect = _stored_redirect(storage) or (redirect_for(config.oauth, 0)[0] if fixed_port(config.oauth)
                                             else "http://127.0.0.1/callback")  # (a refresh sends none)
    provider = make_provider(config, storage, redirect, no_browser, no_callback)
    # The SDK knows a token's expiry only from a token response in this process; tell it the stored one, so an
    # expired access token is refreshed before the first request instead of a 401 asking for a new sign-in.
    provider.context.token_expiry_time = storage.expires_at()
    return provider


def _stored_redirect(storage: FileTokenStorage) -> str | None:
    client = storage._entry().get("client")
    uris = client.get("redirect_uris") if isinstance(client, dict) else None
    return str(uris[0]) if isinstance(uris, list) and uris else None


def needs_sign_in(reason: str) -> bool:
    """True when a connection failure ``reason`` says the server refused us without credentials (HTTP 401)."""
    return "401" in reason or "Unauthorized" in reason or "needs sign-in" in reason


# ---------------------------------------------------------------- pi-tui mcp login


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _port_of(uri: str | None) -> int | None:
    if not uri:
        return None
    parsed = urlparse(uri)
    return parsed.port if parsed.hostname in ("127.0.0.1", "localhost") else None


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class CallbackServer:
    """An HTTP server on ``host:port`` whose ``path`` (default ``127.0.0.1``, ``/callback``) receives
    authorization responses, queued in ``results`` (one per redirect: the SDK may authorize again when a fresh
    token is refused). ``redirect_uri`` is the URI registered/sent; a pasted redirect URL goes into ``results``
    too (:func:`parse_redirect`)."""

    def __init__(self, port: int, *, host: str = "127.0.0.1", path: str = "/callback", redirect_uri: str | None = None,
                 results: asyncio.Queue[dict[str, str]] | None = None) -> None:
        self.port = port
        self.host = "127.0.0.1" if host == "localhost" else host
        self.path = path
        self._redirect_uri = redirect_uri
        self.results: asyncio.Queue[dict[str, str]] = results if results is not None else asyncio.Queue()
        self._server: asyncio.base_events.Server | None = None

    @property
    def redirect_uri(self) -> str:
        """The redirect URI (default ``http://127.0.0.1:<port>/callback``)."""
        return self._redirect_uri or f"http://127.0.0.1:{self.port}/callback"

    async def start(self) -> None:
        """Listen (raises OSError when the port is taken)."""
        self._server = await asyncio.start_server(self._handle, self.host, self.port)

    async def close(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1")
            while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                pass
            parts = line.split()
            target = urlparse(parts[1]) if len(parts) > 1 else urlparse("/")
            params = {k: v[0] for k, v in parse_qs(target.query).items()}
            ok = target.path == self.path and ("code" in params or "error" in params)
            if ok:
                self.results.put_nowait(params)
            body = ("Signed in to pi-tui. You can close this tab." if ok and "code" in params
                    else "pi-tui sign-in: " + params.get("error_description", params.get("error", "nothing here")))
            status = "200 OK" if ok else "404 Not Found"
            data = body.encode()
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
                         f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
            await writer.drain()
        except (TimeoutError, OSError, IndexError):
            pass
        finally:
            writer.close()


def parse_redirect(url: str) -> dict[str, str] | None:
    """The query parameters of a redirected URL pasted by the user (browser on another machine), when it
    carries ``code`` or ``error``; None otherwise."""
    params = {k: v[0] for k, v in parse_qs(urlparse(url.strip()).query).items()}
    return params if "code" in params or "error" in params else None


def open_in_browser(url: str) -> None:
    """Open ``url`` with :mod:`webbrowser` (``$BROWSER`` honoured); failures are ignored (the URL is printed)."""
    with contextlib.suppress(Exception):
        webbrowser.open(url)


async def login(
    config: McpServerConfig,
    *,
    path: Path | None = None,
    say: Callable[[str], Any] = print,
    open_url: Callable[[str], Any] = open_in_browser,
    timeout_s: float = LOGIN_TIMEOUT_S,
    answers: asyncio.Queue[dict[str, str]] | None = None,
) -> int:
    """Sign in to ``config``'s server (module docstring) and connect once; returns the number of tools it
    offers. ``say(text)`` gets the authorization URL (to copy); ``answers``: the queue the callback's query
    parameters arrive on, for a caller that also takes a pasted redirect URL (:func:`parse_redirect`). Raises
    ``ValueError`` for a server OAuth does not apply to and another exception (its message the reason) when the
    sign-in or the connection fails (``OSError`` when the configured callback port is taken)."""
    if not oauth_applies(config):
        raise ValueError(f"{config.name} is not an HTTP server without an Authorization header; OAuth does not apply")
    from mcp.shared.auth import AuthorizationCodeResult

    path = path or auth_path()
    storage = FileTokenStorage(path, credential_key(config), config.oauth)
    fixed = fixed_port(config.oauth)
    stored = None if fixed is not None or storage.configured is not None else _port_of(_stored_redirect(storage))
    if fixed is not None:
        port = fixed
    else:
        port = stored if stored is not None and _port_free(stored) else _free_port()
    if stored is not None and port != stored:  # the registered redirect cannot be served: register again
        data = _read_all(path)
        data.get(credential_key(config), {}).pop("client", None)
        write_json_atomic(path, data, mode=0o600)
    redirect_uri, host, port, callback_path = redirect_for(config.oauth, port)
    callback = CallbackServer(port, host=host, path=callback_path, redirect_uri=redirect_uri, results=answers)
    try:
        await callback.start()
    except OSError as exc:
        raise OSError(f"cannot listen for the sign-in callback on {host}:{port}: {exc.strerror or exc}") from None

    async def redirect(url: str) -> None:
        say(f"Open this URL to sign in to {config.name}:\n{url}")
        # a daemon thread: webbrowser waits for a $BROWSER command to exit, and the callback must be served meanwhile
        threading.Thread(target=open_url, args=(url,), name="mcp-login-browser", daemon=True).start()

    async def wait_callback() -> AuthorizationCodeResult:
        try:
            params = await asyncio.wait_for(callback.results.get(), timeout_s)
        except TimeoutError:
            raise TimeoutError(f"no answer from the browser within {timeout_s:g} s") from None
        if "error" in params:
            raise PermissionError(f"sign-in refused: {params.get('error_description') or params['error']}")
        return AuthorizationCodeResult(code=params.get("code", ""), state=params.get("state"), iss=params.get("iss"))

    # a fresh sign-in: the old tokens (maybe for fewer scopes) are set aside, the registered client kept; they
    # come back if this sign-in fails, so a failed `mcp login` never signs a working server out
    data = _read_all(path)
    entry = data.get(credential_key(config))
    old: dict[str, Any] = {}
    if isinstance(entry, dict):
        old = {k: entry.pop(k) for k in ("tokens", "expiresAt") if k in entry}
        write_json_atomic(path, data, mode=0o600)
    provider = make_provider(config, storage, callback.redirect_uri, redirect, wait_callback)
    try:
        return await _connect_once(config, provider)
    except BaseException:
        if old and not storage.has_tokens():
            for key, value in old.items():
                storage._update(key, value)
        raise
    finally:
        await callback.close()


async def _connect_once(config: McpServerConfig, auth: Any) -> int:
    from pi_tui.coding.mcp import sdk as sdk_loader

    sdk = await sdk_loader.load()
    http = sdk.create_mcp_http_client(headers=dict(config.headers) or None, auth=auth)
    async with http, sdk.streamable_http_client(config.url or "", http_client=http) as (read, write):
        async with sdk.ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
    return len(tools.tools)


def file_mode(path: Path) -> int:
    """The permission bits of ``path`` (for checks and tests)."""
    return os.stat(path).st_mode & 0o777
