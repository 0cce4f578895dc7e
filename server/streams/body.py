"""Read a request's whole body on the event loop before the WSGI app gets a thread.

a2wsgi hands the Flask app a body that blocks its thread until the bytes arrive, so a client that
sends its body slowly would hold one of the few WSGI threads. Here the body is read first, bounded
in size (413) and time (408), and only then is the app called, with the body ready.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

from ..errors import PROBLEM, problem_body

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_problem(send: Send, status: int, code: str, detail: str, retry_after: int | None = None) -> None:
    body = json.dumps(problem_body(status, code, detail)).encode()
    headers = [(b"content-type", PROBLEM.encode()), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if status in (408, 413):
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def with_length(scope: Scope, length: int) -> Scope:
    """The scope with the Content-Length of the body as read: a chunked body has none, and
    without it the WSGI app would read an empty body."""
    headers = [(k, v) for k, v in scope["headers"] if k not in (b"content-length", b"transfer-encoding")]
    return {**scope, "headers": [*headers, (b"content-length", str(length).encode())]}


class BufferedBody:
    def __init__(self, app: App, max_bytes: int, timeout: float) -> None:
        self.app, self.max_bytes, self.timeout = app, max_bytes, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            return await self.too_large(send) if declared.isdigit() else await send_problem(
                send, 400, "malformed_request", "The request gave its length in a way the server cannot read; send it again with a Content-Length in bytes.")
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    if len(body) > self.max_bytes:
                        return await self.too_large(send)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            return await send_problem(send, 408, "request_timeout",
                                      f"The request took too long to arrive (more than {self.timeout:g} s); check your connection and try again.")
        ready = [{"type": "http.request", "body": bytes(body), "more_body": False}]

        async def replay() -> dict:
            return ready.pop() if ready else await receive()

        await self.app(with_length(scope, len(body)), replay, send)

    async def too_large(self, send: Send) -> None:
        await send_problem(send, 413, "body_too_large", f"The request is too large: it may hold at most {self.max_bytes} bytes; send less at once.")
