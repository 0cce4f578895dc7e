"""A stream's trust in its token and mutes (server/streams/standing.py): news that arrives while a
check is on its way makes the stream ask again, rather than deliver on the answer that was asked before."""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from server.streams.standing import Standing


def test_news_during_a_check_makes_the_stream_ask_again():
    asked, release = [], threading.Event()
    revoked = threading.Event()

    def check() -> bool:
        asked.append(revoked.is_set())
        if len(asked) == 1:
            release.wait(5)                      # the first check is in flight when the news comes
            return True                          # it was asked before the revocation: still fine
        return not revoked.is_set()

    async def run() -> bool:
        standing = Standing(check, "p1", seconds=60)
        with ThreadPoolExecutor(2) as pool:
            first = asyncio.ensure_future(standing.holds(pool))
            await asyncio.sleep(0.05)
            revoked.set()
            standing.expire()                    # the pub/sub news: the token was just revoked
            release.set()
            return await asyncio.wait_for(first, 5)

    assert asyncio.run(run()) is False
    assert asked == [False, True], "asked once before the news and once after it"
