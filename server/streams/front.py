"""The ASGI front: stream routes served natively, everything else by the Flask app on its threads.

    uvicorn --factory server.streams.front:create_web      # what `arena web` / `arena serve` run
    uvicorn --factory server.streams.front:create_stream   # streams only (`arena stream`), behind a proxy

Under the front, the Flask app runs through a2wsgi's WSGIMiddleware on a pool of WEB_THREADS
threads, so rules computation never stalls the event loop; request bodies are read on the loop
first (body.py), so a slow body holds no thread either. Its settings are the Flask app's
(events/settings.py): one object for the app and the tier.
"""
from __future__ import annotations

import resource
from contextlib import asynccontextmanager
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask
from starlette.applications import Starlette
from starlette.routing import Mount

from events.connection import cluster_url, queue_url
from events.settings import current

from .. import create_app
from .body import BufferedBody, send_problem
from .proxies import TrustedProxies
from .routes import ROUTES, StreamRoute
from .tier import StreamTier


def create_front(flask_app: Flask | None = None, routes: list[StreamRoute] = ROUTES, *,
                 streams_only: bool = False) -> Starlette:
    """The front for `flask_app` (default: the Arena API) and its stream `routes`, on the Redis
    events.connection chooses: game data (and streams) on REDIS_CLUSTER_URL's Cluster when it is
    set, else everything on REDIS_URL (or the embedded server)."""
    if flask_app is None:
        cluster = cluster_url()
        flask_app = create_app({} if cluster else {"REDIS_URL": queue_url()})
    settings = flask_app.extensions["arena"].settings
    tier = StreamTier(flask_app, flask_app.config.get("REDIS_URL") or cluster_url() or queue_url(), settings)
    rest = BufferedBody(WSGIMiddleware(flask_app, workers=settings.web_threads), settings.largest_body,
                        settings.body_timeout)
    if streams_only:
        rest = _health_only(rest)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        await tier.stop()

    app = Starlette(routes=[*(tier.route(r) for r in routes), Mount("", app=rest)], lifespan=lifespan)
    app.state.tier = tier
    if settings.proxy_hops:
        app.add_middleware(TrustedProxies, hops=settings.proxy_hops)
    return app


def create_web() -> Starlette:
    return create_front()


def create_stream() -> Starlette:
    return create_front(streams_only=True)


def _health_only(app: Any) -> Any:
    """The stream tier answers its stream routes and /health (for the proxy's checks), nothing else."""
    async def only(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/health":
            await app(scope, receive, send)
        elif scope["type"] == "http":
            await send_problem(send, 404, "not_found", "There is nothing at this address on the stream server; check the link (it serves live streams and /health only).")
    return only


NR_OPEN = "/proc/sys/fs/nr_open"         # Linux: the most a process may have, whatever its hard limit says


def raise_fd_limit() -> int:
    """Every connection is a file descriptor: lift the soft limit to the hard one (an unlimited
    hard limit to the kernel's ceiling); the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard
    if hard == resource.RLIM_INFINITY:
        try:
            wanted = int(open(NR_OPEN).read())
        except (OSError, ValueError):
            wanted = 1 << 20
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (OSError, ValueError):
            return soft                 # not allowed here: what there is
    return wanted


def run(factory: str, host: str, port: int, workers: int) -> None:
    """Serve a front factory ("create_web", or "module:factory") with uvicorn and the front's limits."""
    import uvicorn

    from .protocol import GuardedHttpProtocol
    settings = current()
    raise_fd_limit()
    app = factory if ":" in factory else f"server.streams.front:{factory}"
    uvicorn.run(app, factory=True, host=host, port=port, workers=workers, http=GuardedHttpProtocol,
                timeout_keep_alive=settings.keepalive_timeout, backlog=4096, timeout_graceful_shutdown=3,
                proxy_headers=False, server_header=False, access_log=settings.access_log)   # proxies.py
