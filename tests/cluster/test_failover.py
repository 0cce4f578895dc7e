"""A master killed with kill -9 in the middle of 20 games loses no acknowledged move.

The deployment of the README: a Cluster of 3 masters with a replica each (cluster-node-timeout
1 s), a queue Redis, 2 `arena web` and 2 `arena worker` processes. 20 client threads each play a
timed duel (3 s a move) to its end with random legal moves over HTTP, spread over both web
processes, every command with an Idempotency-Key (a command answered 5xx or not at all is sent
again with the same key). Once about half of the moves are in, the master holding the first
game is killed. After the failover, each game once leaves its seat idle so its deadline must fire.

Then: every acknowledged move is in its game's log at its version with its hash; versions are
contiguous; every idle seat was timed out; no wait outlived its deadline by much; each game's
record (and the end-of-game archive the workers wrote) verifies; a pre-kill command retried with
its key gets its original answer.
"""
from __future__ import annotations

import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest

from engine.selfplay import pick
from events import keys
from events.verify import verify_text
from tests.workers.helpers import record_file

from . import deployment as deploy

pytestmark = pytest.mark.cluster

GAMES = 20
MOVE_SECONDS = 3
KILL_AFTER = 700                    # acknowledged commands before the kill: about half of the run
RUN_SECONDS = 75                    # the whole play, failover included, must end within this
RETRY_SECONDS = 20                  # how long one command is retried through a failover
LATE_SECONDS = 10                   # how late a deadline may fire around a failover
EXTRA_ENV = {"ARENA_WAIT_MS": "1000", "ARENA_RATE_LIMITS": "0", "ARENA_MAX_UNMOVED_GAMES": "100"}  # one client, 20 players


@dataclass
class Ack:
    game: str
    key: str
    path: str
    body: dict
    headers: dict
    answer: dict


@dataclass
class Shared:
    acks: list[Ack] = field(default_factory=list)
    idled: dict[str, dict] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    refusals: set[int] = field(default_factory=set)               # 5xx answers seen (and retried)
    killed: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


@pytest.fixture
def arena(tmp_path):
    running = deploy.start(tmp_path, webs=2, workers=2, **EXTRA_ENV)
    yield running
    running.stop()


def test_a_master_killed_mid_play_loses_no_acknowledged_move(arena):
    clients = [deploy.Http(port) for port in arena.web_ports]
    games = [create(clients[i % 2], i) for i in range(GAMES)]
    shared = Shared()
    until = time.monotonic() + RUN_SECONDS
    threads = [threading.Thread(target=play, args=(arena.web_ports, g, i, shared, until), daemon=True)
               for i, g in enumerate(games)]
    for t in threads:
        t.start()
    victim = arena.master_of(keys.log(games[0]["id"]))
    while len(shared.acks) < KILL_AFTER and time.monotonic() < until and any(t.is_alive() for t in threads):
        time.sleep(0.05)                                    # polling the clients' progress, bounded
    pre_kill = list(shared.acks)
    arena.kill(victim)
    shared.killed.set()
    for t in threads:
        t.join(max(0.0, until - time.monotonic()) + RETRY_SECONDS)
    assert not shared.errors, shared.errors[:5]
    assert shared.refusals <= {503}, shared.refusals                # never a 500, during the failover too
    assert not any(t.is_alive() for t in threads), "some games did not end in time"

    reader = clients[0]
    for game in games:
        events = reader.call("GET", f"/games/{game['id']}/events")[1]["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))          # contiguous
        stored = {e["version"]: e["hash"] for e in events}
        for ack in (a for a in shared.acks if a.game == game["id"]):
            assert all(stored.get(e["version"]) == e["hash"] for e in ack.answer["events"]), \
                f"acknowledged move lost in game {game['id']}: {ack.answer['version']}"
        assert_deadlines_fired(events, shared.idled.get(game["id"]))
        status, record = reader.call("GET", f"/games/{game['id']}/record")
        assert status == 200 and verify_text(json.dumps(record).encode()).ok
    assert len(shared.idled) == GAMES, "every game left one seat idle after the kill"
    assert_archives(arena, games)
    assert_original_answer(reader, [a for a in pre_kill if a.game == games[0]["id"]])


def create(client: deploy.Http, index: int) -> dict:
    status, game = client.call("POST", "/games", {
        "form": "duel", "seed": f"failover-{index}", "time_control": {"kind": "move", "seconds": MOVE_SECONDS},
        "players": [{"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]})
    assert status == 201, game
    return game


def play(ports: list[int], game: dict, index: int, shared: Shared, until: float) -> None:
    """Random legal commands until the game is over; once after the kill, wait for a timeout instead."""
    rng = random.Random(index)
    clients = [deploy.Http(p) for p in ports]
    tokens = [s["token"] for s in game["seats"]]
    try:
        while time.monotonic() < until:
            web = clients[rng.randrange(len(clients))]
            view = fetch(web, f"/games/{game['id']}", until, shared)
            if view["status"] == "finished":
                return
            seat = view["active_seat"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            if shared.killed.is_set() and game["id"] not in shared.idled:
                shared.idled[game["id"]] = await_timeout(web, game["id"], view, until, shared)
                continue
            legal = fetch(web, f"/games/{game['id']}/legal", until, shared, auth)
            if not legal["commands"] or legal["version"] != view["version"]:
                continue                                    # a timeout moved the game meanwhile
            body = {**pick(rng, legal["commands"]), "expected_version": legal["version"]}
            headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
            status, answer = send(web, f"/games/{game['id']}/commands", body, headers, until, shared)
            if status == 200:
                with shared.lock:
                    shared.acks.append(Ack(game["id"], headers["Idempotency-Key"], f"/games/{game['id']}/commands",
                                           body, headers, answer))
            elif status not in (403, 409, 422):             # a deadline fired first: play on
                shared.errors.append(f"{game['id']}: {status} {answer}")
                return
        shared.errors.append(f"{game['id']} did not end in time")
    except Exception as exc:                                # noqa: BLE001 - reported to the test thread
        shared.errors.append(f"{game['id']}: {exc!r}")


def fetch(web: deploy.Http, path: str, until: float, shared: Shared, headers: dict | None = None) -> dict:
    status, body = retry(lambda: web.call("GET", path, headers=headers), until, shared)
    assert status == 200, (path, status, body)
    return body


def send(web: deploy.Http, path: str, body: dict, headers: dict, until: float, shared: Shared) -> tuple[int, dict]:
    """POST until answered below 500, always with the same Idempotency-Key."""
    return retry(lambda: web.call("POST", path, body, headers), until, shared)


def retry(call, until: float, shared: Shared) -> tuple[int, dict]:
    give_up = max(until, time.monotonic()) + RETRY_SECONDS
    pause = threading.Event()
    while True:
        try:
            status, body = call()
            if status < 500:
                return status, body
            shared.refusals.add(status)
        except OSError:
            status, body = None, {}
        if time.monotonic() > give_up:
            raise AssertionError(f"no answer below 500 through the failover: {status} {body}")
        pause.wait(0.2)                                     # the failover takes a few seconds


def await_timeout(web: deploy.Http, game_id: str, view: dict, until: float, shared: Shared) -> dict:
    """Leave the seat to move idle until the game moves on by itself; what the wait was."""
    started = time.time()
    pause = threading.Event()
    while True:
        now = fetch(web, f"/games/{game_id}", until, shared)
        if now["version"] != view["version"]:
            return {"version": view["version"], "seat": view["active_seat"], "started": started,
                    "moved": time.time()}
        pause.wait(0.2)


def assert_deadlines_fired(events: list[dict], idled: dict | None) -> None:
    """The idle seat was timed out by the system, and no wait in the game outlived its deadline by
    more than LATE_SECONDS (each batch starts within the limit after the previous one, or late by
    a timeout)."""
    assert idled is not None
    following = next(e for e in events if e["version"] == idled["version"] + 1)
    assert following["actor"] == "system", following
    assert idled["moved"] - idled["started"] <= MOVE_SECONDS + LATE_SECONDS
    starts = [parse(e["time"]) for e in events if e["type"] == "CommandAccepted"]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert max(gaps, default=0) <= MOVE_SECONDS + LATE_SECONDS, max(gaps)


def parse(stamp: str) -> float:
    from datetime import datetime, timezone
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def assert_archives(arena: deploy.Deployment, games: list[dict]) -> None:
    """The end-of-game job ran for every game (its record archived, verifiable), failover or not."""
    archive = arena.data_dir / "archive"
    deadline = time.monotonic() + RETRY_SECONDS
    pause = threading.Event()
    while time.monotonic() < deadline and not all(record_file(archive, g["id"]).exists() for g in games):
        pause.wait(0.2)
    for game in games:
        assert verify_text(record_file(archive, game["id"]).read_bytes()).ok, game["id"]


def assert_original_answer(web: deploy.Http, acknowledged: list[Ack]) -> None:
    """The last command the killed master acknowledged for its game, sent again with its key."""
    ack = acknowledged[-1]
    status, answer = web.call("POST", ack.path, ack.body, ack.headers)
    assert status == 200 and answer["replayed"] is True
    assert (answer["version"], answer["events"]) == (ack.answer["version"], ack.answer["events"])
