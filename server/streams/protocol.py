"""uvicorn's httptools protocol with the limits it lacks: a deadline and a size cap for a request's
line and headers, and a cap on open connections answered with 503 + Retry-After.

A connection costs a protocol object and a file descriptor, never a thread, so slow clients do
not block others; these limits make sure they also cannot pile up forever. The keep-alive
timeout is uvicorn's own (`timeout_keep_alive`); the body limits are in body.py.
"""
from __future__ import annotations

import asyncio
import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..errors import PROBLEM, problem_body
from events.settings import current

REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large", 503: b"Service Unavailable"}


class HeadTooLarge(Exception):
    """Raised from a parser callback; httptools turns it into a parser error for data_received."""


class GuardedHttpProtocol(HttpToolsProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limits = current()
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_bytes = 0
        self.head_too_large = False

    # --- connection --------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self.refuse(503, "too_many_connections", "The server is as busy as it can be just now; wait a few seconds and try again.",
                        retry_after=self.limits.retry_after)
            return
        self.arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm_head_timer()
        super().connection_lost(exc)

    # --- the request head: its deadline and its size -----------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_bytes = 0
        self.arm_head_timer()

    def on_url(self, url: bytes) -> None:
        self.count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.disarm_head_timer()
        super().on_headers_complete()

    def count_head(self, size: int) -> None:
        self.head_bytes += size
        if self.head_bytes > self.limits.max_header_bytes:
            self.head_too_large = True
            raise HeadTooLarge()

    def send_400_response(self, msg: str) -> None:
        if self.head_too_large:
            self.refuse(431, "headers_too_large", f"The request's headers are too large (at most "
                        f"{self.limits.max_header_bytes} bytes); clear this site's cookies and try again.")
        else:
            super().send_400_response(msg)

    def arm_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.limits.header_timeout, self.head_timed_out)

    def disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return                                     # a request is being answered: not ours to cut
        self.refuse(408, "request_timeout", f"The request took too long to arrive (more than "
                    f"{self.limits.header_timeout:g} s); check your connection and try again.")

    # --- answering without the application ---------------------------------------------------------

    def refuse(self, status: int, code: str, detail: str, retry_after: int | None = None) -> None:
        """A problem+json answer straight on the transport, then close the connection."""
        body = json.dumps(problem_body(status, code, detail)).encode()
        head = [b"HTTP/1.1 %d %s" % (status, REASONS[status]), b"content-type: " + PROBLEM.encode(),
                b"content-length: %d" % len(body), b"connection: close"]
        if retry_after is not None:
            head.append(b"retry-after: %d" % retry_after)
        if not self.transport.is_closing():
            self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
            self.transport.close()
