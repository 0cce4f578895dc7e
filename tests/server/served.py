"""The app served over real HTTP on 127.0.0.1 with the shipped rate limits, and clients that call it
from addresses of their own (each binds a 127.x.y.z address of the loopback network), as people
on different machines would."""
from __future__ import annotations

import random
import threading
import uuid
from dataclasses import dataclass

import httpx
import pytest
from werkzeug.serving import make_server

from server import create_app
from events.settings import Settings
from server.limits import RATE_LIMITS

PASSWORD = "correct horse battery"
# the shipped limits, whatever tests/conftest.py put in the environment for the rest of the suite
SHIPPED = {**{name: default for name, (default, _) in RATE_LIMITS.items()},
           "ARENA_MAX_OPEN_TABLES": Settings.max_open_tables, "ARENA_MAX_UNMOVED_GAMES": Settings.max_unmoved_games}


@dataclass
class Served:
    url: str
    app: object

    def at(self, address: str | None = None) -> httpx.Client:
        """A client calling from `address` (a fresh 127.x.y.z when none is given); it keeps cookies."""
        address = address or new_address()
        return httpx.Client(base_url=self.url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


def new_address() -> str:
    return f"127.{random.randrange(1, 255)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def unique(prefix: str = "p") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def csrf(client: httpx.Client) -> dict:
    return {"X-CSRF-Token": client.cookies["arena_csrf"]}


def sign_up(client: httpx.Client, name: str | None = None) -> dict:
    r = client.post("/accounts", json={"name": name or unique(), "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def serve(redis_server):
    """serve(**config) -> the app with the shipped limits and `config`, served by werkzeug in a
    thread; stopped after the test."""
    servers = []

    def start(**config) -> Served:
        app = create_app({"REDIS_URL": redis_server.url, "TESTING": True, **SHIPPED, **config})
        http = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=http.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(http)
        return Served(f"http://127.0.0.1:{http.server_port}", app)
    yield start
    for http in servers:
        http.shutdown()


@pytest.fixture
def served(serve):
    """The app with the shipped limits, served over HTTP."""
    return serve()
