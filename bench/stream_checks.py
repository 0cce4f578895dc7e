"""Redis commands a stream costs per event it delivers: the token and mute checks.

    python bench/stream_checks.py [--streams 16] [--messages 40]

Starts a throwaway redis-server and `arena web` on free ports, seats two accounts at a lobby duel,
and has the first seat say `--messages` things in the players' chat, one every 50 ms: first with
no stream open (what the posts cost by themselves), then with `--streams` streams of
`/games/{id}/stream?chat=1` open by player tokens (the game's log and the players' chat merged,
each checking its token and its viewer's mutes before it delivers). Printed: Redis commands
(INFO commandstats) per delivered event per stream, all of them and those of the checks alone
(GET of the token, SMEMBERS of the mutes), the extra over the no-stream run.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events.redis_process import free_port, start_redis  # noqa: E402

CHECKS = ("get", "smembers")


def commands(client: redis.Redis) -> dict[str, int]:
    return {name.removeprefix("cmdstat_"): row["calls"] for name, row in client.info("commandstats").items()}


async def account(http: httpx.AsyncClient) -> tuple[str, str]:
    made = (await http.post("/accounts", json={"name": f"b{uuid.uuid4().hex[:10]}",
                                               "password": "correct horse battery"})).json()
    token = (await http.post("/accounts/me/tokens", json={"label": "bench"}, headers={"X-CSRF-Token": made["csrf"]})).json()
    http.cookies.clear()
    return made["id"], token["token"]


async def follow(url: str, token: str, seen: list[int], i: int) -> None:
    async with httpx.AsyncClient(timeout=None) as http:
        async with http.stream("GET", url, headers={"Authorization": f"Bearer {token}"}) as answer:
            async for text in answer.aiter_text():
                seen[i] += text.count("event: chat\n")


async def run(base: str, client: redis.Redis, streams: int, messages: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        (_, ann), (_, bob) = await account(http), await account(http)
        table = (await http.post("/lobby/tables", json={"form": "duel"}, headers={"Authorization": f"Bearer {ann}"})).json()
        game_id = (await http.post(f"/lobby/tables/{table['id']}/join", headers={"Authorization": f"Bearer {bob}"})).json()["game_id"]

        async def say(n: int) -> dict[str, int]:
            before = commands(client)
            for k in range(n):
                answer = await http.post(f"/games/{game_id}/chat", json={"text": f"m{k}"},
                                         headers={"Authorization": f"Bearer {ann}"})
                assert answer.status_code == 201, answer.text
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            after = commands(client)
            return {name: after[name] - before.get(name, 0) for name in after}

        alone = await say(messages)
        seen = [0] * streams
        tasks = [asyncio.create_task(follow(f"{base}/games/{game_id}/stream?chat=1", (ann, bob)[i % 2], seen, i))
                 for i in range(streams)]
        await asyncio.sleep(2)
        opened = list(seen)
        watched = await say(messages)
        delivered = sum(seen) - sum(opened)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    extra = {name: watched.get(name, 0) - alone.get(name, 0) for name in watched}
    print(f"streams {streams}, messages {messages}, chat events delivered {delivered} "
          f"(expected {streams * messages})")
    print(f"Redis commands per delivered event per stream: all {sum(extra.values()) / delivered:.2f}, "
          f"checks {sum(extra.get(c, 0) for c in CHECKS) / delivered:.2f} "
          f"({', '.join(f'{c} {extra.get(c, 0)}' for c in CHECKS)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--messages", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_redis(tmp)
        port = free_port()
        env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{server.port}/0", "ARENA_RATE_LIMITS": "0",
               "ARENA_ACCESS_LOG": "0", "ARENA_STREAMS_PER_TOKEN": str(args.streams)}
        web = subprocess.Popen([sys.executable, "-m", "server.cli", "web", "--host", "127.0.0.1", "--port", str(port),
                                "--web-workers", "1"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline and web.poll() is None, "arena web did not start"
                    time.sleep(0.1)
            asyncio.run(run(f"http://127.0.0.1:{port}", redis.Redis(port=server.port), args.streams, args.messages))
        finally:
            web.terminate()
            web.wait(timeout=15)
            server.stop()


if __name__ == "__main__":
    main()
