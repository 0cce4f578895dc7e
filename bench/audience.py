"""Moves under an audience: idle streams and slow clients next to 1 and 16 move clients.

    python bench/audience.py [--seconds 4] [--tiers after] [--streams 0,500,2000] [--clients 1,16]
                             [--split no,yes] [--rate-limits off|on]

For each tier (after: the async front, 2 processes x 8 threads; before: gunicorn gthread 2 x 8 as
shipped until issue 10, whose streams were the Flask app's own until issue 23 removed them: under
it every stream now answers 501, so it measures moves only) it serves two apps side by side, each on its own redis-server
(`appendfsync always`, as the embedded one): the floor (bench/floor_app.py: Flask, a move is one
Lua append) and the real server. Each scenario opens N idle streams (on 400 quiet games) and, with
N > 0, 200 connections that send their headers a byte every 0.5 s (reconnecting when cut), then
plays moves for a few seconds from 1 or 16 clients. Printed per scenario: moves p50/p99 and
throughput, failed moves (errors and 5 s timeouts), web CPU per move (the server's processes),
Redis commands per move (INFO commandstats; stream reads included), and for 4 probe streams on
the games being played, the delay from a move's append (its event's time) to its arrival.
The idle streams and slow clients live in a process of their own, the move clients in threads.
Also printed: the memory of the server's processes per 1,000 idle streams (RSS after they open,
less RSS before, before the slow clients start), and the real server's figures as ratios to the
floor's in the same scenario. With `--split yes`, each app is also served by two one-process
servers on ports of their own, each player's moves sent to its own (so each move meets a state
cached by the other process that is out of date); `--rate-limits on` has the real server count
every request against (never reached) limits, as shipped.

The real server's games end, so before each scenario its pool of games is topped up with moves
enough for MAX_MOVE_RATE (a client that still finds it empty stops and is counted as starved).
Every phase has a time limit: one that overruns stops the run, naming the phase and what it
waited for, with every thread's stack, after stopping the servers it started.
"""
from __future__ import annotations

import argparse
import asyncio
import faulthandler
import http.client
import itertools
import json
import multiprocessing
import os
import queue
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import api  # noqa: E402
from engine.selfplay import pick  # noqa: E402
from events.redis_process import free_port, start_redis  # noqa: E402
from server.streams.front import raise_fd_limit  # noqa: E402

PLAYERS = [{"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]
IDLE_GAMES = 400
OPEN_SECONDS = 30                   # how long the idle streams may take to be answered
POOL = 48                           # games in play at least: 16 clients each hold one
MAX_MOVE_RATE = 2500                # moves/s the pool is topped up for (the fastest seen: ~1,600)
PROBES = 4
SLOW = 200
TIMEOUT = 5.0
WORKERS, THREADS = 2, 8
# the audience's connections come from 16 loopback addresses (127.0.1.1-16), as from many clients:
# each address has ~28,000 ephemeral ports toward the server, and a cap per address counts each
SOURCES = itertools.cycle([f"127.0.1.{i}" for i in range(1, 17)])
PHASE_SECONDS = {"start": 300, "prepare": 300, "open": OPEN_SECONDS + 60, "moves": 60, "close": 60, "stop": 60}


# --- every phase bounded ------------------------------------------------------------------------------

class Watchdog:
    """Stops the run when a phase outlives its limit: says which phase and what it waited for,
    prints every thread's stack, stops what the run started (by process group and pid), exits."""

    def __init__(self) -> None:
        self.phase: tuple[str, float] | None = None
        self.cleanups: list = []
        self._lock = threading.Lock()
        threading.Thread(target=self._watch, name="watchdog", daemon=True).start()

    @contextmanager
    def __call__(self, what: str, kind: str, seconds: float | None = None):
        limit = seconds if seconds is not None else PHASE_SECONDS[kind]
        with self._lock:
            outer, self.phase = self.phase, (what, time.monotonic() + limit)
        try:
            yield
        finally:
            with self._lock:
                self.phase = outer

    def _watch(self) -> None:
        while True:
            time.sleep(0.5)
            with self._lock:
                phase = self.phase
            if phase is not None and time.monotonic() > phase[1]:
                print(f"\nbench stalled: {phase[0]} overran its time limit; stacks follow", file=sys.stderr, flush=True)
                faulthandler.dump_traceback(all_threads=True)
                for cleanup in reversed(self.cleanups):
                    try:
                        cleanup()
                    except Exception as exc:            # noqa: BLE001 - stop everything we can
                        print(f"cleanup failed: {exc!r}", file=sys.stderr)
                os._exit(3)


watchdog = Watchdog()


def receive(conn, seconds: float, what: str, process: multiprocessing.Process):
    """The audience's next message, or an error saying what it did not send (and whether it died)."""
    deadline = time.monotonic() + seconds
    while not conn.poll(0.2):
        if not process.is_alive():
            raise RuntimeError(f"the audience process died (exit code {process.exitcode}) before {what}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the audience did not report {what} within {seconds:.0f} s")
    return conn.recv()


# --- the servers -------------------------------------------------------------------------------------

def server_argv(tier: str, app: str, port: int, workers: int) -> list[str]:
    if tier == "before":
        target = "server:create_app()" if app == "real" else "floor_app:create_floor_app()"
        return [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread",
                "--workers", str(workers), "--threads", str(THREADS), "--graceful-timeout", "5", "--preload",
                "--access-logfile", "-", "--no-control-socket", target]
    if app == "real":
        return [sys.executable, "-m", "server.cli", "web", "--port", str(port), "--web-workers", str(workers),
                "--threads", str(THREADS)]
    return [sys.executable, "-c", "from server.streams.front import run; "
            f"run('floor_app:create_floor_front', '127.0.0.1', {port}, {workers})"]


class Server:
    """An app served by WORKERS processes on one port, or (`split`) by two one-process servers on
    ports of their own, each player's moves sent to its own: every move then finds the state its
    process cached outdated by the other's move (the real server loads it again)."""

    def __init__(self, tier: str, app: str, workdir: Path, split: bool = False, rate_limits: bool = False) -> None:
        self.tier, self.app, self.split = tier, app, split
        self.redis_process = start_redis(workdir / f"redis-{tier}-{app}-{'split' if split else 'one'}",
                                         extra={"appendonly": "yes", "appendfsync": "always", "maxclients": 20000})
        self.redis = self.redis_process.client()
        self.ports = [free_port() for _ in range(2 if split else 1)]
        self.port = self.ports[0]
        env = {**os.environ, "REDIS_URL": self.redis_process.url, "WEB_THREADS": str(THREADS),
               "ARENA_STREAMS_PER_ADDRESS": "100000", "ARENA_STREAMS_PER_TOKEN": "100000",
               **(api.generous_limits() if rate_limits else {}), "ARENA_RATE_LIMITS": "1" if rate_limits else "0",
               "ARENA_MAX_UNMOVED_GAMES": "100000", "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")])}
        self.log = workdir / f"{tier}-{app}-{'split' if split else 'one'}.log"
        with open(self.log, "ab") as log:
            self.processes = [subprocess.Popen(server_argv(tier, app, port, 1 if split else WORKERS), cwd=ROOT, env=env,
                                               stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
                              for port in self.ports]
        watchdog.cleanups.append(self.stop)
        deadline = time.monotonic() + 240              # a loaded 2-core machine may take minutes
        while not all(self._answers(port) for port in self.ports):
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                self.stop()
                said = self.log.read_text(errors="replace").splitlines()[-15:]
                raise RuntimeError(f"{tier}/{app} server did not start; its last words:\n" + "\n".join(said))
            time.sleep(0.2)

    @property
    def label(self) -> str:
        """The tier as the table shows it (with ' split' when served by two one-process servers)."""
        return f"{self.tier}{' split' if self.split else ''}"

    @property
    def name(self) -> str:
        return f"{self.label}/{self.app}"

    def _signal(self, sig: int) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                pass

    def _answers(self, port: int) -> bool:
        try:
            Client(port).call("GET", "/health" if self.app == "real" else "/floor/x/nothing")
        except ValueError:
            pass                                    # the floor's 404 page is not JSON: it answered
        except (OSError, http.client.HTTPException):
            return False
        return True

    def _processes(self) -> list[tuple[str, list[str]]]:
        """(pid, fields of /proc/pid/stat after the name) of the server's processes (its sessions)."""
        found, sessions = [], {p.pid for p in self.processes}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) in sessions:                        # field 6 (session id) after the name
                found.append((pid, fields))
        return found

    def cpu_seconds(self) -> float:
        """User + system CPU of the server's processes."""
        tick = os.sysconf("SC_CLK_TCK")
        return sum((int(f[11]) + int(f[12])) / tick for _, f in self._processes())

    def rss_bytes(self) -> int:
        """Resident memory of the server's processes."""
        page = os.sysconf("SC_PAGE_SIZE")
        return sum(int(f[21]) * page for _, f in self._processes())     # field 24: rss in pages

    def redis_calls(self) -> int:
        """Commands run so far, those inside Lua scripts included (INFO commandstats)."""
        stats = self.redis.info("commandstats")
        return sum(v["calls"] for k, v in stats.items() if k != "cmdstat_info")

    def round_trips(self, pool: queue.Queue, moves: int = 40) -> float:
        """Requests to Redis per move, seen with MONITOR while one client plays `moves` moves, no
        stream open: commands inside scripts not counted, a transaction (MULTI ... EXEC) counted once;
        the commands of a pipeline without a transaction each count (an upper bound)."""
        seen, ready, in_transaction = [0], threading.Event(), set()

        def watch() -> None:
            with self.redis_process.client().monitor() as monitor:
                ready.set()
                while True:
                    command = monitor.next_command()
                    client = (command.get("client_address"), command.get("client_port"))
                    if command["command"] == "ECHO audience-stop":
                        return
                    if command["command"] == "EXEC":
                        in_transaction.discard(client)
                    elif command.get("client_type") != "lua" and client not in in_transaction:
                        seen[0] += 1
                        if command["command"] == "MULTI":
                            in_transaction.add(client)
        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
        ready.wait(5)
        time.sleep(0.2)
        out = Scenario(self.label, self.app, 1, 0)
        run_moves(self, pool, 1, time.perf_counter() + 30, out, None, limit=moves)
        time.sleep(0.3)
        self.redis.echo("audience-stop")
        thread.join(timeout=5)
        return seen[0] / max(1, out.ok)

    def stop(self) -> None:
        """Stop the server's whole session (its worker processes too), then its Redis."""
        if self.stop in watchdog.cleanups:
            watchdog.cleanups.remove(self.stop)
        self._signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                process.wait()
        self.redis_process.stop()


class Client(api.Client):
    """bench/api.py's client with a short timeout: a move that waits 5 s counts as failed."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)


# --- what is played --------------------------------------------------------------------------------

@dataclass
class Game:
    """A game (or a floor key) and where its clients are in the recorded line of moves."""
    path: str
    moves: list[tuple[dict, str | None, int]]      # (body, token, seat) per move; the floor's are made as it goes
    stream: str
    next: int = 0
    version: int = 0


def record_line(client: Client) -> list[tuple[int, dict]]:
    """Play one seeded game to its end over the API; its (seat, command) list replays on its twins."""
    status, game = client.call("POST", "/games", {"form": "duel", "seed": "audience", "players": PLAYERS})
    tokens = [s["token"] for s in game["seats"]]
    rng, line = random.Random(7), []
    while True:
        _, view = client.call("GET", f"/games/{game['id']}")
        if view["status"] == "finished":
            return line
        seat = view["active_seat"]
        _, legal = client.call("GET", f"/games/{game['id']}/legal", token=tokens[seat])
        command = pick(rng, legal["commands"])
        assert client.call("POST", f"/games/{game['id']}/commands", command, token=tokens[seat])[0] == 200
        line.append((seat, command))


class Feed:
    """The games to play, as a queue. The floor's never end; the real server's do (each replays
    one recorded line of moves), so `top_up` adds games until the queue holds enough moves."""

    def __init__(self, server: Server) -> None:
        self.server, self.client, self.pool = server, Client(server.port), queue.Queue()
        self.line = None if server.app == "floor" else record_line(self.client)
        if self.line is None:
            for i in range(POOL):
                self.pool.put(Game(f"/floor/g{i}", [], f"/floor/g{i}/stream"))
        else:
            self.top_up(0)

    def idle_paths(self) -> list[str]:
        if self.line is None:
            return [f"/floor/idle{i}/stream" for i in range(IDLE_GAMES)]
        idle = [self.client.call("POST", "/games", {"form": "duel", "players": PLAYERS})[1]["id"]
                for _ in range(IDLE_GAMES)]
        return [f"/games/{g}/stream" for g in idle]

    def top_up(self, moves: int) -> None:
        """At least POOL games and `moves` moves left in the queue."""
        if self.line is None:
            return
        with self.pool.mutex:
            games = list(self.pool.queue)
        left = sum(len(g.moves) - g.next for g in games)
        self.client = Client(self.server.port)        # the last one may have been closed as idle meanwhile
        for _ in range(max(POOL - len(games), -(-(moves - left) // len(self.line)), 0)):
            _, game = self.client.call("POST", "/games", {"form": "duel", "seed": "audience", "players": PLAYERS})
            tokens = [s["token"] for s in game["seats"]]
            self.pool.put(Game(f"/games/{game['id']}/commands", [(c, tokens[s], s) for s, c in self.line],
                               f"/games/{game['id']}/stream", version=game["version"]))


def run_moves(server: Server, pool: queue.Queue, clients: int, until: float, out: "Scenario", probes,
              limit: int | None = None) -> None:
    threads = [threading.Thread(target=move_loop, args=(server, pool, i, until, out, probes, limit))
               for i in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, until - time.perf_counter()) + 2 * TIMEOUT)
        if t.is_alive():
            raise TimeoutError(f"a move client is still waiting {2 * TIMEOUT:.0f} s after the end of the moves")
    out.seconds = time.perf_counter() - started


def move_loop(server: Server, pool: queue.Queue, slot: int, until: float, out: "Scenario", probes,
              limit: int | None) -> None:
    clients, game = [Client(port) for port in server.ports], None
    while time.perf_counter() < until and (limit is None or out.ok < limit):
        if game is None or (game.moves and game.next >= len(game.moves)):
            try:
                game = pool.get(timeout=1.0)
            except queue.Empty:
                out.starved += 1                    # no game left to play: this client stops
                return
            if probes is not None and slot < PROBES:
                probes.send(("probe", slot, game.stream, game.version))
        body, token, seat = game.moves[game.next] if game.moves else ({"version": game.version}, None, game.version)
        side = seat % len(clients)                  # split: each player's moves to its own process
        start = time.perf_counter()
        try:
            status, answer = clients[side].call("POST", game.path, body, token)
        except OSError:
            out.failed += 1
            clients[side] = Client(server.ports[side])
            continue
        out.latencies.append(time.perf_counter() - start)
        if status != 200:
            out.failed += 1
            continue
        out.ok += 1
        game.next += 1
        game.version = answer["version"]
    if game is not None and (not game.moves or game.next < len(game.moves)):
        pool.put(game)


# --- the audience (a process of its own) -------------------------------------------------------------

def audience_main(conn, port: int, paths: list[str], slow: int) -> None:
    raise_fd_limit()
    asyncio.run(_audience(conn, port, paths, slow))


async def _audience(conn, port: int, paths: list[str], slow: int) -> None:
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue = asyncio.Queue()
    loop.add_reader(conn.fileno(), lambda: inbox.put_nowait(conn.recv()))
    stop, cut, delays = asyncio.Event(), [0], []
    started = time.perf_counter()
    idle = await asyncio.gather(*(asyncio.wait_for(_open(port, path, {}), OPEN_SECONDS) for path in paths),
                                return_exceptions=True)
    statuses = await _statuses([s for s in idle if not isinstance(s, BaseException)])
    tasks = [asyncio.create_task(_drain(s)) for s in idle if not isinstance(s, BaseException)]
    refusals = Counter(str(s) for s in statuses if s not in (200, -1))
    refusals.update(type(s).__name__ for s in idle if isinstance(s, BaseException))
    conn.send(("opened", sum(s == 200 for s in statuses), len(paths) - len(statuses) + sum(s == -1 for s in statuses),
               sum(s not in (200, -1) for s in statuses), time.perf_counter() - started, dict(refusals)))
    assert (await inbox.get())[0] == "slow"
    tasks += [asyncio.create_task(_slow_client(port, stop, cut)) for _ in range(slow)]
    conn.send(("ready",))
    probes: dict[int, asyncio.Task] = {}
    while True:
        message = await inbox.get()
        if message[0] == "probe":
            _, slot, path, after = message
            if slot in probes:
                probes[slot].cancel()
            probes[slot] = asyncio.create_task(_probe(port, path, after, delays))
        else:
            break
    stop.set()
    for task in [*tasks, *probes.values()]:
        task.cancel()
    alive = sum(1 for s in idle if not isinstance(s, BaseException) and not s[0].at_eof())
    for s in idle:
        if not isinstance(s, BaseException):
            s[1].close()
    conn.send(("result", delays, alive, cut[0]))


async def _open(port: int, path: str, headers: dict) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(next(SOURCES), 0))
    lines = [f"GET {path} HTTP/1.1", "Host: bench", *(f"{k}: {v}" for k, v in headers.items())]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    return reader, writer


async def _statuses(streams: list) -> list[int]:
    """Each stream's status code; -1 for those still unanswered once 5 s pass with no answer at all
    (the server does not get to them: gthread's threads are all held) or after OPEN_SECONDS."""
    tasks = [asyncio.create_task(_status(s)) for s in streams]
    pending, deadline = set(tasks), time.perf_counter() + OPEN_SECONDS
    while pending and time.perf_counter() < deadline:
        done, pending = await asyncio.wait(pending, timeout=5)
        if not done:
            break
    for task in pending:
        task.cancel()
    return [t.result() if t.done() and not t.cancelled() else -1 for t in tasks]


async def _status(stream) -> int:
    try:
        line = await stream[0].readline()
        return int(line.split()[1]) if line else 0
    except (ValueError, IndexError, OSError):
        return 0


async def _drain(stream) -> None:
    try:
        while await stream[0].read(65536):
            pass
    except OSError:
        pass


async def _slow_client(port: int, stop: asyncio.Event, cut: list[int]) -> None:
    head = b"GET /health HTTP/1.1\r\nHost: bench\r\nX-Slow: " + b"s" * 500
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(next(SOURCES), 0)),
                                                    TIMEOUT)
        except (OSError, asyncio.TimeoutError):
            await asyncio.sleep(0.5)
            continue
        try:
            for byte in head:
                writer.write(bytes([byte]))
                try:
                    if await asyncio.wait_for(reader.read(1), 0.5) is not None:
                        cut[0] += 1
                        break
                except asyncio.TimeoutError:
                    pass
        except ConnectionError:
            cut[0] += 1
        finally:
            writer.close()


async def _probe(port: int, path: str, after: int, delays: list[float]) -> None:
    """Follow a played game; each event appended after this opened: arrival time - event time."""
    opened = time.time()
    reader, writer = await asyncio.wait_for(_open(port, path, {"Last-Event-ID": str(after)}), TIMEOUT)
    buffer = b""
    try:
        while chunk := await reader.read(65536):
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        data = json.loads(line[6:])
                        sent = data["t"] if "t" in data else datetime.fromisoformat(
                            data["time"].replace("Z", "+00:00")).timestamp()
                        if sent >= opened:
                            delays.append(time.time() - sent)
    finally:
        writer.close()


# --- a scenario --------------------------------------------------------------------------------------

@dataclass
class Scenario:
    tier: str
    app: str
    clients: int
    streams: int
    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    failed: int = 0
    seconds: float = 0
    cpu: float = 0
    redis_calls: int = 0
    delays: list[float] = field(default_factory=list)
    opened: int = 0
    unanswered: int = 0
    refused: int = 0
    alive: int = 0
    cut: int = 0
    round_trips: float = 0
    open_seconds: float = 0
    starved: int = 0
    rss_per_1000: float | None = None          # MB of server memory per 1,000 idle streams
    refusals: dict[str, int] = field(default_factory=dict)   # status (0: cut; or the error) -> streams

    def p(self, q: float, values: str = "latencies") -> float | None:
        data = sorted(getattr(self, values))
        return data[min(len(data) - 1, int(q * len(data)))] * 1000 if data else None

    def row(self) -> list[str]:
        ok = max(1, self.ok)
        lat = sorted(self.latencies)
        dl = sorted(self.delays)
        return [self.tier, self.app, str(self.clients), str(self.streams),
                f"{self.opened}/{self.unanswered}/{self.refused} in {self.open_seconds:.1f} s"
                + (" (" + ", ".join(f"{n} x {k}" for k, n in sorted(self.refusals.items())) + ")" if self.refusals else ""),
                _ms(lat, 0.5), _ms(lat, 0.99), f"{ok / self.seconds:.0f}",
                str(self.failed) + (f" ({self.starved} starved)" if self.starved else ""),
                f"{self.cpu / ok * 1000:.2f}", f"{self.round_trips:.1f}", f"{self.redis_calls / ok:.1f}",
                _ms(dl, 0.5), _ms(dl, 0.99), str(len(dl)),
                "-" if self.rss_per_1000 is None else f"{self.rss_per_1000:.1f}"]


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    return f"{values[min(len(values) - 1, int(q * len(values)))] * 1000:.1f}"


def run_scenario(server: Server, feed: Feed, idle_paths: list[str], clients: int, streams: int,
                 seconds: float) -> Scenario:
    out = Scenario(server.label, server.app, clients, streams)
    name = f"{server.name}, {clients} clients, {streams} idle streams"
    with watchdog(f"topping up the games ({name})", "prepare"):
        feed.top_up(int(MAX_MOVE_RATE * seconds) + 100)
    parent, child = multiprocessing.Pipe()
    paths = [idle_paths[i % len(idle_paths)] for i in range(streams)]
    audience = multiprocessing.Process(target=audience_main, args=(child, server.port, paths, SLOW if streams else 0))
    rss = server.rss_bytes()
    audience.start()
    watchdog.cleanups.append(audience.kill)
    try:
        with watchdog(f"opening {streams} idle streams ({name})", "open"):
            _, out.opened, out.unanswered, out.refused, out.open_seconds, out.refusals = receive(
                parent, OPEN_SECONDS + 30, "its idle streams open", audience)
            if streams:
                time.sleep(0.5)                                  # what the last ones allocate
                out.rss_per_1000 = (server.rss_bytes() - rss) / streams * 1000 / 2 ** 20
            parent.send(("slow",))
            receive(parent, 30, "its slow clients started", audience)
        cpu, calls = server.cpu_seconds(), server.redis_calls()
        with watchdog(f"playing moves ({name})", "moves", seconds + 4 * TIMEOUT + 10):
            run_moves(server, feed.pool, clients, time.perf_counter() + seconds, out, _Locked(parent, threading.Lock()))
        time.sleep(0.3)                                          # the last deliveries
        out.cpu, out.redis_calls = server.cpu_seconds() - cpu, server.redis_calls() - calls
        with watchdog(f"closing the audience ({name})", "close"):
            parent.send(("stop",))
            _, out.delays, out.alive, out.cut = receive(parent, 30, "its result", audience)
            audience.join(timeout=30)
    finally:
        if audience.is_alive():
            audience.kill()
        watchdog.cleanups.remove(audience.kill)
    if server.tier == "before" and streams:
        time.sleep(4)                                            # gthread: the stream threads notice the close
    return out


class _Locked:
    def __init__(self, conn, lock: threading.Lock) -> None:
        self.conn, self.lock = conn, lock

    def send(self, message) -> None:
        with self.lock:
            self.conn.send(message)


HEADER = ["tier", "app", "clients", "idle streams", "opened/unanswered/refused", "move p50 ms", "move p99 ms",
          "moves/s", "failed", "web CPU ms/move", "Redis round trips/move", "Redis cmds/move", "delivery p50 ms", "delivery p99 ms", "delivered",
          "RSS MB/1,000 streams"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--tiers", default="after")
    parser.add_argument("--streams", default="0,500,2000")
    parser.add_argument("--clients", default="1,16")
    parser.add_argument("--apps", default="floor,real")
    parser.add_argument("--split", default="no", help="no,yes: also (or only) two one-process servers, each "
                                                       "player's moves sent to its own")
    parser.add_argument("--rate-limits", choices=("on", "off"), default="off",
                        help="the real server counts every request against (generous, never reached) rate limits")
    args = parser.parse_args()
    raise_fd_limit()
    scenarios: list[Scenario] = []
    print(f"load average at start: {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="audience-") as tmp:
        for tier, split, app in [(t, sp == "yes", a) for t in args.tiers.split(",") for sp in args.split.split(",")
                                 for a in args.apps.split(",")]:
            with watchdog(f"starting the {tier}/{app} server", "start"):
                server = Server(tier, app, Path(tmp), split, args.rate_limits == "on" and app == "real")
            try:
                with watchdog(f"preparing games on {server.name}", "prepare"):
                    feed = Feed(server)
                    idle = feed.idle_paths()
                    trips = server.round_trips(feed.pool)
                for streams in map(int, args.streams.split(",")):
                    for clients in map(int, args.clients.split(",")):
                        scenario = run_scenario(server, feed, idle, clients, streams, args.seconds)
                        scenario.round_trips = trips
                        scenarios.append(scenario)
                        print(" | ".join(scenario.row()), flush=True)
            finally:
                with watchdog(f"stopping the {server.name} server", "stop"):
                    server.stop()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print()
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for scenario in scenarios:
        print("| " + " | ".join(scenario.row()) + " |")
    print()
    for line in ratios(scenarios) + targets(scenarios):
        print(line)


def ratios(scenarios: list[Scenario]) -> list[str]:
    """The real server's figures as ratios to the floor's in the same conditions (issue 26's targets:
    web CPU and p50 at most 1.5x, throughput at least 60% at 16 clients, one round trip a move)."""
    lines = []
    for real in (s for s in scenarios if s.app == "real"):
        floor = next((s for s in scenarios if s.app == "floor" and (s.tier, s.clients, s.streams) ==
                      (real.tier, real.clients, real.streams)), None)
        if floor is None or not floor.ok or not real.ok:
            continue
        lines.append(f"{real.tier}, {real.clients} clients, {real.streams} streams: real/floor p50 "
                     f"x{(real.p(0.5) or 0) / (floor.p(0.5) or 1):.2f}, p99 x{(real.p(0.99) or 0) / (floor.p(0.99) or 1):.2f}, "
                     f"throughput {real.ok / real.seconds / (floor.ok / floor.seconds):.0%}, web CPU/move "
                     f"x{(real.cpu / real.ok) / max(1e-9, floor.cpu / floor.ok):.2f}, Redis round trips/move "
                     f"{real.round_trips:.2f} (floor {floor.round_trips:.2f})")
    return lines


def targets(scenarios: list[Scenario]) -> list[str]:
    """Issue 10's targets, for each app and client count with the most streams open: nothing
    refused or timed out, move p99 within 2x its value with no stream open, delivery p50 < 50 ms."""
    lines, most = [], max((s.streams for s in scenarios), default=0)
    for loaded in (s for s in scenarios if s.streams == most and most):
        quiet = next((s for s in scenarios if (s.tier, s.app, s.clients, s.streams) ==
                      (loaded.tier, loaded.app, loaded.clients, 0)), None)
        bad = loaded.failed + loaded.starved + loaded.unanswered + loaded.refused
        ratio = (loaded.p(0.99) or 0) / (quiet.p(0.99) or 1) if quiet else None
        delivery = loaded.p(0.5, "delays")
        lines.append(f"{loaded.tier}/{loaded.app}, {loaded.clients} clients, {most} streams + {SLOW} slow: "
                     f"refused/timed out {bad} ({'ok' if not bad else 'MISSED'}); move p99 "
                     + (f"{ratio:.2f}x the quiet value ({'ok' if ratio <= 2 else 'MISSED'})" if ratio else "-")
                     + "; delivery p50 " + (f"{delivery:.1f} ms ({'ok' if delivery < 50 else 'MISSED'})"
                                             if delivery is not None else "- (MISSED: nothing delivered)"))
    return lines


if __name__ == "__main__":
    main()
