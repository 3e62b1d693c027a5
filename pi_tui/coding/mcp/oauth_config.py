"""The ``oauth`` block of an HTTP ``mcp.json`` entry (pi 1.x docs/mcp.md "Authenticate with OAuth"): parsing
(:func:`parse_oauth`) and the redirect URI it names (:func:`redirect_for`).

``{"clientId", "clientSecret", "scope", "callbackPort", "callbackUrl", "clientName"}``, all optional:

- ``clientId`` (+ ``clientSecret``): a client registered with the authorization server beforehand, for servers
  without dynamic client registration; the secret may use ``${VAR}`` and is registered with
  :mod:`pi_tui.ai.secret_redaction`. A secret without an id is an error.
- ``scope``: space-separated scopes requested when the server advertises none.
- ``callbackPort``: the redirect URI is ``http://127.0.0.1:<port>/callback``. ``callbackUrl``: the redirect URI
  exactly as written; it must be ``http`` on ``localhost``, ``127.0.0.1`` or ``[::1]``; without a port,
  ``callbackPort`` (or a free port) is added (RFC 8252 loopback redirects).
- ``clientName``: the name sent when registering a client (default ``pi-tui``).
- ``clientRegistration``, ``authServerMetadataUrl`` (pi 1.x has them): reported as not supported and ignored.

Errors are appended as ``"<prefix>: <reason>"``; a block with an error rejects its entry (None), except the
unsupported or unknown keys, which are reported and skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse, urlunparse

from pi_tui.ai.secret_redaction import register_secret
from pi_tui.coding.mcp.config import McpOAuthConfig, expand_vars

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
_KNOWN = {"clientId", "clientSecret", "scope", "callbackPort", "callbackUrl", "clientName"}
_NOT_SUPPORTED = {"clientRegistration", "authServerMetadataUrl"}


class _Invalid(Exception):
    """An unusable value (its error line already written)."""


def _text(raw: Mapping[str, Any], key: str, prefix: str, errors: list[str]) -> str | None:
    """The stripped string at ``key``; None when absent; raises :class:`_Invalid` when not a string."""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        errors.append(f"{prefix}.{key} must be a non-empty string")
        raise _Invalid
    return value.strip()


def parse_oauth(raw: Any, prefix: str, errors: list[str], env: Mapping[str, str]) -> McpOAuthConfig | None:
    """Validate one ``oauth`` block (module docstring); None (after error lines) when it cannot be used."""
    if not isinstance(raw, dict):
        errors.append(f"{prefix} must be an object")
        return None
    for key in raw:
        if key in _NOT_SUPPORTED:
            errors.append(f"{prefix}.{key} is not supported by pi-tui; ignored")
        elif key not in _KNOWN:
            errors.append(f"{prefix}.{key} is not a known oauth setting; ignored")
    try:
        client_id, secret, scope, url, name = (_text(raw, key, prefix, errors) for key in (
            "clientId", "clientSecret", "scope", "callbackUrl", "clientName"))
    except _Invalid:
        return None
    if secret is not None:
        missing: list[str] = []
        secret = expand_vars(secret, env, missing)
        for var in missing:
            errors.append(f"{prefix}.clientSecret uses ${{{var}}}, which is not set")
        register_secret(secret)
    if secret and not client_id:
        errors.append(f"{prefix}.clientSecret needs a clientId")
        return None
    port = raw.get("callbackPort")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536):
        errors.append(f"{prefix}.callbackPort must be a port number (1-65535)")
        return None
    if url is not None:
        parsed = urlparse(url)
        if parsed.scheme != "http" or parsed.hostname not in LOOPBACK_HOSTS:
            errors.append(f"{prefix}.callbackUrl must be an http:// URL on localhost, 127.0.0.1 or [::1]")
            return None
    return McpOAuthConfig(client_id=client_id, client_secret=secret or None, client_name=name,
                          scope=" ".join(scope.split()) if scope else None, callback_port=port, callback_url=url)


def redirect_for(oauth: McpOAuthConfig | None, free_port: int) -> tuple[str, str, int, str]:
    """``(redirect_uri, host, port, path)`` the sign-in listens on for ``oauth`` (module docstring);
    ``free_port`` is used when neither ``callbackUrl`` nor ``callbackPort`` gives one."""
    port = (oauth.callback_port if oauth is not None else None) or free_port
    if oauth is None or oauth.callback_url is None:
        return f"http://127.0.0.1:{port}/callback", "127.0.0.1", port, "/callback"
    parsed = urlparse(oauth.callback_url)
    host = parsed.hostname or "127.0.0.1"
    if parsed.port is not None:
        return oauth.callback_url, host, parsed.port, parsed.path or "/"
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return urlunparse(parsed._replace(netloc=netloc)), host, port, parsed.path or "/"


def fixed_port(oauth: McpOAuthConfig | None) -> int | None:
    """The port the configuration fixes (``callbackUrl``'s or ``callbackPort``), None when any port will do."""
    if oauth is None:
        return None
    if oauth.callback_url is not None:
        parsed = urlparse(oauth.callback_url)
        if parsed.port is not None:
            return parsed.port
    return oauth.callback_port
