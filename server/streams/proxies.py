"""The client's address and scheme as the trusted proxies in front say (ARENA_PROXY_HOPS), for the
whole front: the stream caps per address see the real clients, and the Flask app under it the
same request as werkzeug's ProxyFix gives it under plain WSGI (the hops-th X-Forwarded-For and
X-Forwarded-Proto value from the right; fewer values than hops: nothing is trusted)."""
from __future__ import annotations

from typing import Any

from .body import App, Receive, Scope, Send


class TrustedProxies:
    def __init__(self, app: App, hops: int) -> None:
        self.app, self.hops = app, hops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope = behind_proxies(scope, self.hops)
        await self.app(scope, receive, send)


def behind_proxies(scope: Scope, hops: int) -> Scope:
    client, scheme = _forwarded(scope, b"x-forwarded-for", hops), _forwarded(scope, b"x-forwarded-proto", hops)
    changed: dict[str, Any] = {}
    if client:
        changed["client"] = (client, 0)
    if scheme in ("http", "https"):
        changed["scheme"] = scheme
    return {**scope, **changed} if changed else scope


def _forwarded(scope: Scope, name: bytes, hops: int) -> str | None:
    values = ",".join(v.decode("latin-1") for k, v in scope["headers"] if k == name).split(",")
    return values[-hops].strip() or None if hops and len(values) >= hops and any(values) else None
