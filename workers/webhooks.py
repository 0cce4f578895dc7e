"""Webhook deliveries: a JSON body POSTed to the player's URL, signed with their webhook secret.

Headers of every attempt:

    Content-Type: application/json
    X-Arena-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the secret>
    X-Arena-Delivery: <delivery id>        the same on every retry: receivers de-duplicate by it
    X-Arena-Event: your_turn | deadline_soon | opponent_moved | game_over
    X-Arena-Attempt: 1, 2, ...

A receiver answering 2xx has it. The URL is checked again at every attempt (urlguard.py): the
host is resolved now and the connection goes to the vetted address, while the Host header, TLS
SNI and the certificate check use the URL's name. Redirects are not followed (a 3xx is a
failure), at most RESPONSE_LIMIT bytes of an answer are read, connecting may take CONNECT_TIMEOUT
seconds, each read ARENA_WEBHOOK_TIMEOUT, and the whole exchange no more than the two together
(then the connection is shut).

A failure is recorded in the player's `webhook_failures` stream in words that tell nothing about
the network behind the server ("refused: address not allowed", "failed: no answer", "failed: HTTP
503") and raised with the detail, so RQ retries the job after the intervals of
ARENA_WEBHOOK_RETRIES and the operator finds the cause in RQ's failed job registry.

    verify(secret, body, request.headers["X-Arena-Signature"])     # what a receiver checks
"""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
import threading
from typing import Any

from events import inbox, keys, urlguard
from events.clocks import format_epoch
from events.replies import text

from . import runtime

USER_AGENT = "tash-kalar-arena-webhooks/1"
CONNECT_TIMEOUT = 3.0
RESPONSE_LIMIT = 4096
REFUSED = "refused: address not allowed"
NO_ANSWER = "failed: no answer"


class DeliveryFailed(Exception):
    """The receiver did not take the delivery; RQ retries the job."""


class NoAnswer(Exception):
    """No HTTP answer came back: no address, no connection, a reset, a timeout, a TLS failure."""


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, signature: str) -> bool:
    return hmac.compare_digest(sign(secret, body), signature or "")


def deliver(redis: Any, player_id: str, delivery_id: str, body: str, attempt: int, timeout: float) -> int:
    """POST the body once; the receiver's status, or DeliveryFailed (recorded) when it failed."""
    url, secret = (text(v) for v in redis.hmget(keys.player(player_id), ["webhook_url", "webhook_secret"]))
    if not url:
        return 0                                            # nowhere to deliver any more
    data = body.encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, "X-Arena-Signature": sign(secret, data),
               "X-Arena-Delivery": delivery_id, "X-Arena-Event": _event_type(body), "X-Arena-Attempt": str(attempt)}
    try:
        status = post(url, data, headers, timeout)
    except urlguard.Unresolved as exc:
        error, detail = NO_ANSWER, str(exc)
    except (urlguard.Malformed, urlguard.Refused) as exc:
        error, detail = REFUSED, str(exc)
    except NoAnswer as exc:
        error, detail = NO_ANSWER, str(exc)
    else:
        if 200 <= status < 300:
            return status
        error, detail = f"failed: HTTP {status}", ""
    record_failure(redis, player_id, delivery_id, attempt, url, error)
    raise DeliveryFailed(f"webhook {delivery_id} to {url}: {error}" + (f" ({detail})" if detail else ""))


def post(url: str, data: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST to a vetted address of the URL's host; the status of the answer (never a redirect's target)."""
    target = urlguard.check_url(url)
    addresses = urlguard.vet(target)
    failures = []
    for address in addresses:
        connection = _PinnedConnection(target, address, timeout)
        hang_up = threading.Timer(connection.connect_timeout + timeout, connection.hang_up)
        hang_up.start()
        try:
            try:
                connection.connect()
            except OSError as exc:
                failures.append(f"{address}: {exc!r}")
                continue
            connection.request("POST", target.path, body=data, headers=headers)
            response = connection.getresponse()
            response.read(RESPONSE_LIMIT)
            if connection.hung_up:                  # what came before the hang-up may look complete
                raise NoAnswer(f"{address}: no complete answer in time")
            return response.status
        except (OSError, http.client.HTTPException) as exc:
            raise NoAnswer(f"{address}: {exc!r}") from None
        finally:
            hang_up.cancel()
            connection.close()
    raise NoAnswer("; ".join(failures))


class _PinnedConnection(http.client.HTTPConnection):
    """An HTTP(S) connection to one given address; the Host header, SNI and certificate use the name."""

    def __init__(self, target: urlguard.Target, address: str, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.default_port = urlguard.DEFAULT_PORTS[target.scheme]      # no ":443" in the Host header
        self.address, self.tls, self.read_timeout = address, target.tls, timeout
        self.hung_up = False

    @property
    def connect_timeout(self) -> float:
        return min(CONNECT_TIMEOUT, self.read_timeout)

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), timeout=self.connect_timeout)
        sock.settimeout(self.read_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock                                   # hang_up can end a slow TLS handshake too
        if self.tls:
            self.sock = ssl.create_default_context().wrap_socket(sock, server_hostname=self.host)

    def hang_up(self) -> None:
        """End a delivery that outlived its time (a receiver trickling bytes never hits the read timeout)."""
        self.hung_up = True
        try:
            if self.sock is not None:
                self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _event_type(body: str) -> str:
    try:
        return str(json.loads(body).get("type", ""))
    except ValueError:
        return ""


def record_failure(redis: Any, player_id: str, delivery_id: str, attempt: int, url: str, error: str) -> None:
    inbox.record_webhook_failure(redis, player_id, {"delivery": delivery_id, "attempt": attempt, "url": url,
                                                    "error": error[:500], "time": format_epoch(runtime.now())})
