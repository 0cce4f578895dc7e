"""The async front (server/streams/) over a Flask app the test made, served by uvicorn on a thread
of the test's process: real HTTP and the real stream tier, with the app's own settings and Redis."""
from __future__ import annotations

import threading
import time

import uvicorn

from events.redis_process import free_port
from server.streams.front import create_front

START_SECONDS = 30


class InProcessFront:
    def __init__(self, app, host: str = "127.0.0.1") -> None:
        self.port = free_port()
        self.url = f"http://{host}:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(lambda: create_front(app), factory=True, host=host, port=self.port,
                                                    log_level="warning", access_log=False, timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, name=f"front-{self.port}", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "the front did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
