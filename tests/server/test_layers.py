"""The layers keep their places (issue 12, point 7): the HTTP layer imports the workers only to
schedule work (and to start a worker process), the store (events/) imports neither edge, and
every Lua script lives under events/lua/. (The engine's imports: tests/engine/test_purity.py.)"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the server may take from workers/: scheduling entry points.
SCHEDULING = {
    "workers.followup": "the GameService's follow-up hook, given once by the app (server/context.py)",
    "workers.notify": "sending a notification, which schedules its webhook and e-mail",
    "workers.email": "queueing an account mail: an address to confirm, a password reset link (server/recovery.py)",
    "workers.worker": "`arena worker` starting a worker process",
    "workers.ladder": "`arena bots` playing computer games in worker processes",
    "workers.review": "asking for a game's review, which queues its job on the bot queue",
}


def imports_of(path: Path, package: str) -> set[str]:
    """Every `package...` module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and \
                node.module.split(".")[0] == package:
            if node.module == package:
                found.update(f"{package}.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == package)
    return found


def imports_between(importer: str, imported: str) -> dict[str, list[str]]:
    """module of `imported` -> the files of package `importer` that import it."""
    used: dict[str, list[str]] = {}
    for path in sorted((ROOT / importer).rglob("*.py")):
        for module in imports_of(path, imported):
            used.setdefault(module, []).append(str(path.relative_to(ROOT)))
    return used


def test_the_server_imports_the_workers_only_to_schedule():
    used = imports_between("server", "workers")
    unexpected = {m: files for m, files in used.items() if m not in SCHEDULING}
    assert not unexpected, f"the server imports workers/ beyond scheduling: {unexpected}"


def test_the_store_imports_neither_edge_and_the_workers_not_the_server():
    """events/ is what both edges stand on; the workers never reach into the HTTP layer."""
    for importer, imported in (("events", "workers"), ("events", "server"), ("workers", "server")):
        assert not imports_between(importer, imported), f"{importer}/ imports {imported}/"


def test_no_lua_outside_events_lua():
    """A script in the code (a string holding redis.call) instead of a file under events/lua/."""
    offenders = []
    for package in ("events", "server", "workers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                        re.search(r"redis\.(p?call)\s*\(", node.value):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, f"inline Lua: {offenders}"
    assert len(list((ROOT / "events" / "lua").glob("*.lua"))) >= 10


def test_follow_up_work_runs_from_the_services_hook_not_after_each_command():
    """workers/turns.after_change (the follow-up of a change) is called by the hook, and otherwise
    only where a worker repairs a wait whose follow-up is in doubt (never right after a command)."""
    callers = set()
    for package in ("server", "workers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr == "after_change":
                    callers.add(str(path.relative_to(ROOT)))
    assert callers == {"workers/followup.py", "workers/deadlines.py", "workers/bots.py"}, callers
    context = (ROOT / "server" / "context.py").read_text()
    assert "follow_up=" in context and "followup.hook" in context           # given once, by the app
