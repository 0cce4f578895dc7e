"""Helpers for the people tests: signed-up accounts, each with its own test client (its own cookies)."""
from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

PASSWORD = "correct horse battery"


@dataclass
class Person:
    client: object
    id: str
    name: str

    @property
    def csrf(self) -> dict:
        return {"X-CSRF-Token": self.client.get_cookie("arena_csrf").value}

    def get(self, path: str, **kw):
        return self.client.get(path, **kw)

    def post(self, path: str, json: dict | None = None, **kw):
        return self.client.post(path, json=json if json is not None else {}, headers=self.csrf, **kw)

    def delete(self, path: str, **kw):
        return self.client.delete(path, headers=self.csrf, **kw)


def fresh(app):
    """A test client from an address of its own, so the per-address rate limits of one test do not
    add up with another's (a real address is never contacted)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
    return client


def registered(client, name: str) -> dict:
    """A player made with POST /players (no password): its id, name and token."""
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.json
    return r.json


def person(app, prefix: str = "p") -> Person:
    client = fresh(app)
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    r = client.post("/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.json
    return Person(client, r.json["id"], name)


def race_to_join(people: list[Person], table_id: str) -> list[int]:
    """Every person asks for a place at the table at the same moment; the status codes, sorted."""
    import threading
    answers: list[int] = []
    barrier = threading.Barrier(len(people))

    def join(p: Person) -> None:
        barrier.wait()
        answers.append(p.post(f"/lobby/tables/{table_id}/join").status_code)

    threads = [threading.Thread(target=join, args=(p,)) for p in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(answers)
