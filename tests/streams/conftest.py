"""The async front as a real subprocess (`arena web`) on a free loopback port, a Redis the test may
stop and start again on the same port, and cheap raw-socket clients for many streams at once."""
from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import redis

from engine.selfplay import pick
from events.redis_process import config_lines, free_port, redis_server_path

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60
PLAYERS = [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]
# Every test here plays from 127.0.0.1 on a shared Redis: the per-address rate limits are not their subject.
NO_RATE_LIMITS = {"ARENA_RATE_LIMITS": "0", "ARENA_MAX_UNMOVED_GAMES": "100000"}


class RestartableRedis:
    """redis-server on a fixed free port with AOF (appendfsync always), so it can stop and come back."""

    def __init__(self, workdir: Path) -> None:
        self.port, self.workdir = free_port(), workdir
        self.process: subprocess.Popen | None = None
        workdir.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        settings = {"port": self.port, "bind": "127.0.0.1", "save": "", "appendonly": "yes", "appendfsync": "always",
                    "dir": str(self.workdir), "protected-mode": "no", "loglevel": "warning"}
        self.process = subprocess.Popen([redis_server_path(), *config_lines(settings)], cwd=self.workdir,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline and self.process.poll() is None, "redis-server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        """kill -9: what a crash looks like to the clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Front:
    """`arena web` (or `arena stream`) as a subprocess, with the given environment on top of ours."""

    def __init__(self, redis_url: str, env: dict[str, str], log: Path, command: str = "web") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(log, "w")
        full = {**os.environ, "REDIS_URL": redis_url, "ARENA_ACCESS_LOG": "0", **NO_RATE_LIMITS,
                "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **env}
        self.process = subprocess.Popen([sys.executable, "-m", "server.cli", command, "--host", "127.0.0.1",
                                         "--port", str(self.port), "--web-workers", "1", "--threads", "4"],
                                        cwd=ROOT, env=full, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert self.process.poll() is None, "arena web exited early"
            try:
                httpx.get(self.url + "/health", timeout=2)
                return
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "arena web did not answer"
                time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: no shutdown code runs (what a crash looks like to Redis and the clients)."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def start_front(tmp_path: Path):
    """start_front(redis_url, **env) -> a running Front; stopped after the test."""
    fronts: list[Front] = []

    def start(redis_url: str, command: str = "web", **env: str) -> Front:
        fronts.append(Front(redis_url, env, tmp_path / f"front-{len(fronts)}.log", command))
        return fronts[-1]

    yield start
    for front in fronts:
        front.stop()


# --- a raw SSE client: one socket, no thread -----------------------------------------------------

@dataclass
class SSE:
    """One open stream: the status, then every frame's id and event as they arrive."""
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    ids: list[int] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    comments: int = 0
    closed: bool = False
    data: list[dict] | None = None            # set to [] to keep every frame's data

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str] | None = None) -> "SSE":
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream",
                 *(f"{k}: {v}" for k, v in (headers or {}).items())]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        stream = cls(reader, writer)
        status_line = await reader.readline()
        stream.status = int(status_line.split()[1])
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            stream.headers[name.strip().lower()] = value.strip()
        return stream

    async def body(self) -> bytes:
        """A refusal's whole body (it has a content-length)."""
        return await self.reader.readexactly(int(self.headers.get("content-length", 0)))

    async def follow(self) -> None:
        """Read chunks and frames until the server closes the stream."""
        buffer = ""
        try:
            while True:
                size = int((await self.reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await self.reader.readexactly(size + 2))[:-2].decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    self._take(block)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        self.closed = True

    def _take(self, block: str) -> None:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if "id" in fields:
            self.ids.append(int(fields["id"].split("-")[0]))
            self.events.append(fields["event"])
            if self.data is not None:
                self.data.append(json.loads(fields["data"]))
        else:
            self.comments += 1

    def close(self) -> None:
        self.writer.close()


# --- playing over HTTP ----------------------------------------------------------------------------

async def new_game(http: httpx.AsyncClient) -> dict:
    answer = await http.post("/games", json={"form": "duel", "players": PLAYERS})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def play_move(http: httpx.AsyncClient, game: dict, rng: random.Random) -> httpx.Response | None:
    """One legal command by the seat to move (None when the game is over)."""
    view = (await http.get(f"/games/{game['id']}")).json()
    if view["status"] == "finished":
        return None
    token = game["seats"][view["active_seat"]]["token"]
    legal = (await http.get(f"/games/{game['id']}/legal", headers={"Authorization": f"Bearer {token}"})).json()
    command = pick(rng, legal["commands"])
    return await http.post(f"/games/{game['id']}/commands", json={**command, "expected_version": legal["version"]},
                           headers={"Authorization": f"Bearer {token}"})


async def slow_headers(port: int, stop: asyncio.Event, cut: list[int]) -> None:
    """A client that sends its request head one byte at a time, reconnecting whenever it is cut."""
    head = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"s" * 200
    while not stop.is_set():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for byte in head:
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    await asyncio.wait_for(reader.read(1), 0.5)      # sleeps 0.5 s, or sees the cut
                    cut.append(1)
                    break
                except asyncio.TimeoutError:
                    if stop.is_set():
                        break
        except ConnectionError:
            cut.append(1)
        finally:
            writer.close()
