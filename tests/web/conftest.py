"""End-to-end fixtures: the app on a free port, a worker that plays the bots, and headless Chromium.

Installs what it needs from the registries the first time: Debian's `chromium` package with
apt-get when /usr/bin/chromium is missing (Playwright's own browser download is never used), and
the `playwright` pip package comes with the test extras of setup.cfg.

Each pytest-xdist worker starts, once: its own redis-server (so the RQ worker below plays only these
tests' bots and takes no job another suite expects to find queued), the Flask app from the factory
behind the async front (streams and all) on a thread, `arena worker` as a subprocess, and one browser. Each test gets a fresh browser
context (its own localStorage) and a `shot(name)` helper that saves a screenshot to
tests/web/screenshots/ for review.
"""
from __future__ import annotations

import contextlib

import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from events.redis_process import start_redis
from server import create_app
from tests.front import InProcessFront

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
INSTALL_LOCK = Path("/tmp/tash-kalar-arena-chromium.lock")
TIMEOUT_MS = 20_000


def ensure_chromium() -> str:
    """Debian's Chromium at /usr/bin/chromium, installed with apt-get if missing (one process at a time)."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    with open(INSTALL_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.access(CHROMIUM, os.X_OK):
            if shutil.which("apt-get") is None:
                pytest.fail("Chromium is missing and there is no apt-get to install it: install the 'chromium' package")
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
            for argv in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]):
                done = subprocess.run(sudo + argv, env=env, capture_output=True, text=True, timeout=1500)
                if done.returncode != 0:
                    pytest.fail(f"{' '.join(argv)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            if not os.access(CHROMIUM, os.X_OK):
                pytest.fail(f"apt-get installed 'chromium' but {CHROMIUM} is still missing")
    return CHROMIUM


class LiveServer:
    """The app served on 127.0.0.1 by the async front (streams and all) on a thread, with an RQ
    worker process beside it."""

    def __init__(self, tmp: Path) -> None:
        self.redis = start_redis(tmp / "redis")
        self.app = create_app({"REDIS_URL": self.redis.url})
        self.front = InProcessFront(self.app)
        self.url = self.front.url
        self.worker_log = open(tmp / "worker.log", "w")
        env = {**os.environ, "REDIS_URL": self.redis.url, "PYTHONPATH": str(ROOT),
               "ARENA_REVIEW_SIMULATIONS": "4"}            # a game review's budget: tiny in tests
        self.worker = subprocess.Popen([sys.executable, "-m", "server.cli", "worker"], cwd=ROOT, env=env,
                                       stdout=self.worker_log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        self.front.stop()
        self.worker.terminate()
        try:
            self.worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.worker.kill()
            self.worker.wait()
        self.worker_log.close()
        self.redis.stop()

    # --- the API, as another player or a test set-up would use it -------------------------------
    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def create(self, body: dict, token: str | None = None) -> dict:
        status, created = self.call("POST", "/games", body, token=token)
        assert status == 201, created
        return created

    def view(self, game_id: str, token: str | None = None) -> dict:
        status, view = self.call("GET", f"/games/{game_id}", token=token)
        assert status == 200, view
        return view

    def wait_for(self, game_id: str, check, timeout: float = 30.0) -> dict:
        """Poll the spectator view until `check(view)` holds (the bot plays through the worker)."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.view(game_id)
            if check(view):
                return view
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the game is at {view['version']}: {view.get('pending') or view.get('turn')}")
            time.sleep(0.1)


class Cable:
    """A TCP relay between the browser and the server that a test can unplug: `unplug()` cuts every
    open connection and refuses new ones (accepted, then closed at once) until `plug()`."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.plugged = True
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="cable", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.plugged:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source, sink)

    def _close(self, *socks: socket.socket) -> None:
        for sock in socks:
            with self.lock:
                self.open.discard(sock)
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def unplug(self) -> None:
        self.plugged = False
        with self.lock:
            socks = list(self.open)
        self._close(*socks)

    def plug(self) -> None:
        self.plugged = True

    def close(self) -> None:
        self.unplug()
        self.listener.close()


@pytest.fixture
def cable(live_server):
    relay = Cable(live_server.front.port)
    yield relay
    relay.close()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory):
    server = LiveServer(tmp_path_factory.mktemp("web-e2e"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    executable = ensure_chromium()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


class Shots:
    def __init__(self, page, prefix: str) -> None:
        self.page, self.prefix, self.count = page, prefix, 0
        SCREENSHOTS.mkdir(exist_ok=True)

    def __call__(self, name: str, full_page: bool = True) -> Path:
        self.count += 1
        path = SCREENSHOTS / f"{self.prefix}-{self.count:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


@contextlib.contextmanager
def sized_page(browser, width: int, height: int, prefix: str):
    """A page in a context of its own at a screen size (a touch screen under 500 px wide), its
    screenshots named `prefix`: yields (page, shot, touch); no JavaScript error may happen on it."""
    touch = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch, locale="en-GB")
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page, Shots(page, f"{prefix}-{width}x{height}"), touch
        assert errors == [], f"JavaScript errors on the page: {errors}"
    finally:
        ctx.close()


NOTIFICATION_STUB = """
window.__notifications = [];
window.Notification = class {
  constructor(title, options) { window.__notifications.push({title, body: (options || {}).body}); }
  close() {}
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


@pytest.fixture
def context(browser, request):
    """A fresh browser context (its own storage) at desktop size; notifications recorded in page."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx.add_init_script(NOTIFICATION_STUB)
    ctx.set_default_timeout(TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, request):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"


@pytest.fixture
def shot(page, request):
    return Shots(page, request.node.name.removeprefix("test_")[:40])
