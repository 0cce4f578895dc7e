"""Webhooks cannot be turned inward: local receivers on loopback see nothing unless the operator's
allow-list names them, redirects are not followed, answers are not read past a small limit, and
failure records say only "refused: address not allowed", "failed: no answer" or "failed: HTTP n".

Every delivery here is a real one: a game over HTTP seats the player, a real RQ worker runs the
webhook job against real sockets on 127.0.0.x.
"""
from __future__ import annotations

import datetime
import socket
import ssl
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from events import keys, urlguard
from workers import webhooks

from .helpers import bearer, new_game, register, run_worker

BIG_BODY = 64 * 1024 * 1024


class LocalServer:
    """An HTTP server on a loopback address; `answer(handler)` writes each response."""

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler], None], host: str = "127.0.0.1", port: int = 0,
                 tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:                              # noqa: N802 - http.server's name
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.requests.append(dict(self.headers))
                answer(self)

            def log_message(self, *args) -> None:
                pass

        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.http = type("Server", (ThreadingHTTPServer,), {"address_family": family})((host, port), Handler)
        if tls is not None:
            self.http.socket = tls.wrap_socket(self.http.socket, server_side=True)
        self.port = self.http.server_address[1]
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        self.url = f"{'https' if tls else 'http'}://{shown}:{self.port}/hook"
        threading.Thread(target=self.http.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


def status(code: int, **headers: str) -> Callable[[BaseHTTPRequestHandler], None]:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(code)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", "0")
        handler.end_headers()
    return answer


@pytest.fixture
def servers():
    made: list[LocalServer] = []

    def make(answer=status(200), host: str = "127.0.0.1", port: int = 0, tls: ssl.SSLContext | None = None):
        made.append(LocalServer(answer, host, port, tls))
        return made[-1]
    yield make
    for server in made:
        server.close()


@pytest.fixture(autouse=True)
def one_attempt(monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_RETRIES", "")
    monkeypatch.delenv("ARENA_WEBHOOK_ALLOW", raising=False)


def hooked_player(client, redis_db, url: str) -> dict:
    """A registered player whose stored webhook_url is `url` (set as a registration in the past would have)."""
    player = register(client, "Bob")
    redis_db.hset(keys.player(player["id"]), "webhook_url", url)
    return player


def notify_and_deliver(client, redis_db, player: dict) -> list[dict]:
    """Seat the player (a your_turn notification follows), run the worker; the recorded failures."""
    new_game(client, creator=player, players=[{"name": "Ann", "school": "northern"},
                                              {"name": "Bob", "school": "sylvan", "player": player["id"]}])
    run_worker(redis_db)
    return client.get("/players/me/webhook-failures", headers=bearer(player["token"])).json["failures"]


@pytest.mark.parametrize("host, why", [
    ("127.0.0.1", "a loopback address"), ("[::1]", "a loopback address"), ("0.0.0.0", "an unspecified address"),
    ("10.1.2.3", "a private address"), ("172.16.0.1", "a private address"), ("192.168.1.1", "a private address"),
    ("100.64.0.1", "not a public address"), ("169.254.169.254", "a link-local address"),
    ("224.0.0.1", "a multicast address"), ("240.0.0.1", "a private address"), ("[fe80::1]", "a link-local address"),
    ("[fc00::1]", "a private address"), ("[::ffff:127.0.0.1]", "an IPv4-mapped IPv6 address"),
    ("[::ffff:8.8.8.8]", "an IPv4-mapped IPv6 address"), ("[::7f00:1]", "an IPv4-compatible IPv6 address"),
    ("[2002:7f00:1::1]", "an IPv6 address carrying a refused IPv4 address"),
    ("[2002:a00:1::1]", "an IPv6 address carrying a refused IPv4 address"),
    ("[2001:0:4136:e378:8000:63bf:80ff:fffe]", "an IPv6 address carrying a refused IPv4 address"),
    ("[64:ff9b::a9fe:a9fe]", "an IPv6 address carrying a refused IPv4 address"),
])
def test_registration_refuses_an_address_inside_and_says_why(client, redis_db, host, why):
    r = client.post("/players", json={"name": "Eve", "webhook_url": f"http://{host}:8000/hook"})
    assert r.status_code == 422 and r.mimetype == "application/problem+json", r.json
    assert r.json["code"] == "webhook_url_not_allowed" and why in r.json["detail"]
    assert not list(redis_db.scan_iter("arena:player:*"))


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "file:///etc/passwd", "gopher://example.com/",
                                 "http://user:pass@example.com/hook", "http:///hook", "http://example.com:99999/", "http://example.com:0/",
                                 "javascript:alert(1)", "http://exa mple.com/"])
def test_registration_refuses_what_is_not_an_http_url(client, redis_db, url):
    r = client.post("/players", json={"name": "Eve", "webhook_url": url})
    assert r.status_code == 400 and r.mimetype == "application/problem+json", r.json
    assert "webhook address" in r.json["detail"]
    assert not list(redis_db.scan_iter("arena:player:*"))


def test_every_spelling_of_loopback_is_refused_and_the_receiver_sees_nothing(client, redis_db, servers):
    hook = servers()
    spellings = [f"http://{h}:{hook.port}/hook" for h in
                 ("127.0.0.1", "localhost", "LOCALHOST.", "2130706433", "127.1", "0x7f.0.0.1", "[::ffff:127.0.0.1]",
                  "0.0.0.0", "[::]")]
    for url in spellings:
        r = client.post("/players", json={"name": "Eve", "webhook_url": url})
        assert r.status_code in (400, 422) and r.mimetype == "application/problem+json", (url, r.json)
    failures = notify_and_deliver(client, redis_db, hooked_player(client, redis_db, spellings[1]))
    assert hook.requests == []
    assert [f["error"] for f in failures] == ["refused: address not allowed"]


def test_a_public_address_registers(client):
    r = client.post("/players", json={"name": "Eve", "webhook_url": "https://93.184.215.14/hooks/arena?x=1"})
    assert r.status_code == 201, r.json


def test_the_allow_list_lets_the_operator_reach_a_local_receiver(client, redis_db, servers, monkeypatch):
    hook = servers()
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "10.0.0.0/8, 127.0.0.1/32")
    failures = notify_and_deliver(client, redis_db, register(client, "Bob", webhook_url=hook.url))
    assert failures == [] and len(hook.requests) == 1


def test_an_allowed_ipv6_receiver_is_reached_and_the_host_header_keeps_its_brackets(client, redis_db, servers,
                                                                                    monkeypatch):
    hook = servers(host="::1")
    assert client.post("/players", json={"name": "Eve", "webhook_url": hook.url}).status_code == 422
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "::1/128")
    failures = notify_and_deliver(client, redis_db, register(client, "Bob", webhook_url=hook.url))
    assert failures == [] and [h["Host"] for h in hook.requests] == [f"[::1]:{hook.port}"]


def test_an_address_the_operator_stops_allowing_gets_nothing(client, redis_db, servers, monkeypatch):
    hook = servers()
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    bob = register(client, "Bob", webhook_url=hook.url)          # allowed when it was registered
    monkeypatch.delenv("ARENA_WEBHOOK_ALLOW")
    failures = notify_and_deliver(client, redis_db, bob)
    assert hook.requests == []
    assert [(f["error"], f["url"]) for f in failures] == [("refused: address not allowed", hook.url)]


def test_an_allowed_host_name_is_reached_under_its_name(client, redis_db, servers, monkeypatch):
    hook = servers()
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "localhost")
    failures = notify_and_deliver(client, redis_db, register(client, "Bob", f"http://localhost:{hook.port}/hook"))
    assert failures == [] and [h["Host"] for h in hook.requests] == [f"localhost:{hook.port}"]


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_not_followed(client, redis_db, servers, monkeypatch, code):
    target = servers()
    redirect = servers(status(code, Location=target.url))
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    failures = notify_and_deliver(client, redis_db, register(client, "Bob", webhook_url=redirect.url))
    assert len(redirect.requests) == 1 and target.requests == []
    assert [f["error"] for f in failures] == [f"failed: HTTP {code}"]


def test_a_big_answer_is_not_read_past_the_limit(client, redis_db, servers, monkeypatch):
    sent = []

    def endless(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(BIG_BODY))
        handler.end_headers()
        chunk, total = b"x" * 65536, 0
        try:
            while total < BIG_BODY:
                handler.wfile.write(chunk)
                total += len(chunk)
        except OSError:
            pass
        sent.append(total)

    hook = servers(endless)
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    failures = notify_and_deliver(client, redis_db, register(client, "Bob", webhook_url=hook.url))
    hook.close()                                                     # waits for the handler to finish
    assert failures == [] and len(hook.requests) == 1
    assert sent and sent[0] < BIG_BODY // 4, f"{sent[0]} bytes went out before the client hung up"


def test_a_receiver_trickling_its_answer_is_cut_off(client, redis_db, monkeypatch):
    """Each byte comes within the read timeout, but the whole exchange has its own limit."""
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    monkeypatch.setenv("ARENA_WEBHOOK_TIMEOUT", "0.5")
    listener = socket.create_server(("127.0.0.1", 0))
    trickled = []

    def trickle() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        sent = 0
        try:
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            for _ in range(100):                       # 30 s at most if nobody hangs up
                conn.sendall(b"z")
                sent += 1
                threading.Event().wait(0.3)
        except OSError:
            pass
        trickled.append(sent)
        conn.close()

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        failures = notify_and_deliver(client, redis_db,
                                      register(client, "Bob", f"http://127.0.0.1:{listener.getsockname()[1]}/hook"))
        thread.join(10)
    finally:
        listener.close()
    assert [f["error"] for f in failures] == ["failed: no answer"]
    assert trickled and trickled[0] < 20, trickled


def _tls_for(name: str, tmp_path) -> tuple[ssl.SSLContext, str]:
    """A server context with a certificate for `name` from a fresh CA; the CA's file for clients."""
    now = datetime.datetime.now(datetime.timezone.utc)

    def cert(subject: str, key, issuer: str, issuer_key, ca: bool):
        builder = (x509.CertificateBuilder()
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
                   .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(hours=1))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False)
        return builder.sign(issuer_key, hashes.SHA256())

    ca_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = cert("test CA", ca_key, "test CA", ca_key, True)
    leaf = cert(name, leaf_key, "test CA", ca_key, False)
    pem = serialization.Encoding.PEM
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(pem))
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(pem) + leaf_key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem")
    return context, str(tmp_path / "ca.pem")


@pytest.mark.parametrize("certified", ["hook.test", "other.test"])
def test_https_to_the_vetted_address_checks_the_certificate_against_the_name(client, redis_db, servers, monkeypatch,
                                                                             tmp_path, certified):
    context, ca_file = _tls_for(certified, tmp_path)
    names = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    hook = servers(tls=context)
    monkeypatch.setenv("SSL_CERT_FILE", ca_file)                       # the client trusts the test CA
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "hook.test")
    monkeypatch.setattr(urlguard, "resolver",
                        lambda host, port, *a, **kw: socket.getaddrinfo("127.0.0.1", port, *a, **kw))
    failures = notify_and_deliver(client, redis_db, hooked_player(client, redis_db, f"https://hook.test:{hook.port}/h"))
    assert names == ["hook.test"]
    if certified == "hook.test":
        assert failures == [] and [h["Host"] for h in hook.requests] == [f"hook.test:{hook.port}"]
    else:
        assert [f["error"] for f in failures] == ["failed: no answer"] and hook.requests == []


def _silent_listener(reset: bool) -> tuple[socket.socket, threading.Thread]:
    """A TCP port that accepts and then resets the connection, or says nothing at all."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        if reset:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.recv(65536)
            conn.close()
        else:
            conn.recv(65536)
            threading.Event().wait(3)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener, thread


@pytest.mark.parametrize("kind", ["closed port", "reset", "silence", "503"])
def test_failures_say_only_what_the_player_needs(client, redis_db, servers, monkeypatch, kind):
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    monkeypatch.setenv("ARENA_WEBHOOK_TIMEOUT", "1")
    listener = None
    if kind == "closed port":
        url = "http://127.0.0.1:9/hook"
    elif kind == "503":
        url = servers(status(503)).url
    else:
        listener, _ = _silent_listener(reset=kind == "reset")
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    try:
        failures = notify_and_deliver(client, redis_db, register(client, "Bob", webhook_url=url))
    finally:
        if listener is not None:
            listener.close()
    expected = "failed: HTTP 503" if kind == "503" else "failed: no answer"
    assert [f["error"] for f in failures] == [expected]
    assert set(failures[0]) == {"delivery", "attempt", "url", "error", "time"}


def test_the_connection_goes_to_the_vetted_address_not_to_a_second_lookup(client, redis_db, servers, monkeypatch):
    """DNS rebinding: the name answers an allowed address once, then loopback; nothing reaches loopback."""
    allowed = servers(host="127.0.0.2")
    inside = servers(host="127.0.0.1", port=allowed.port)
    answers = ["127.0.0.2"]
    lookups = []

    def rebinding(host, port, *args, **kwargs):
        lookups.append(host)
        address = answers.pop(0) if answers else "127.0.0.1"
        return socket.getaddrinfo(address, port, *args, **kwargs)

    monkeypatch.setattr(urlguard, "resolver", rebinding)
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.2/32")
    url = f"http://rebind.test:{allowed.port}/hook"
    failures = notify_and_deliver(client, redis_db, hooked_player(client, redis_db, url))
    assert failures == [] and lookups == ["rebind.test"]
    assert [h["Host"] for h in allowed.requests] == [f"rebind.test:{allowed.port}"] and inside.requests == []
    again = notify_and_deliver(client, redis_db, hooked_player(client, redis_db, url))      # now it answers loopback
    assert [f["error"] for f in again] == ["refused: address not allowed"] and inside.requests == []


def test_a_name_with_one_inside_address_among_public_ones_is_refused(client, redis_db, servers, monkeypatch):
    hook = servers()

    def mixed(host, port, *args, **kwargs):
        return socket.getaddrinfo("93.184.215.14", port, *args, **kwargs) + \
            socket.getaddrinfo("127.0.0.1", port, *args, **kwargs)

    monkeypatch.setattr(urlguard, "resolver", mixed)
    r = client.post("/players", json={"name": "Eve", "webhook_url": f"http://mixed.test:{hook.port}/hook"})
    assert r.status_code == 422 and r.json["code"] == "webhook_url_not_allowed"
    failures = notify_and_deliver(client, redis_db, hooked_player(client, redis_db, f"http://mixed.test:{hook.port}/h"))
    assert hook.requests == [] and [f["error"] for f in failures] == ["refused: address not allowed"]


def test_a_signed_delivery_still_carries_its_signature_and_delivery_id(client, redis_db, servers, monkeypatch):
    hook = servers()
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1")
    bob = register(client, "Bob", webhook_url=hook.url)
    notify_and_deliver(client, redis_db, bob)
    [headers] = hook.requests
    assert headers["X-Arena-Signature"].startswith("sha256=") and headers["X-Arena-Delivery"].startswith("yourturn-")
    assert headers["User-Agent"] == webhooks.USER_AGENT
