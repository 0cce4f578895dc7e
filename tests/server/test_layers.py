"""The layers keep their places (issue 12, point 7): the HTTP layer imports the workers only to
schedule work (and to start a worker process), and every Lua script lives under events/lua/."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the server may take from workers/: scheduling entry points.
SCHEDULING = {
    "workers.followup": "the GameService's follow-up hook, given once by the app (server/context.py)",
    "workers.due": "indexing what is due when (vacation re-timing, invitation expiry)",
    "workers.notify": "sending a notification, which schedules its webhook and e-mail",
    "workers.worker": "`arena worker` starting a worker process",
    "workers.settings": "the workers' settings, to start them (`arena serve`) and to time reminders",
}
# Not scheduling, still imported; each named so that a new one fails here and a gone one is dropped.
NOT_YET_MOVED = {
    "workers.email": "e-mail preferences and unsubscribe tokens (server/email_prefs.py)",
    "workers.urlguard": "checking a webhook URL when it is registered (server/players.py)",
    "workers.recovery": "counting live workers by their pulse for /health",
    "workers.layout": "moving keys of older layouts at start-up and in `arena migrate`",
}


def imports_of_workers(path: Path) -> set[str]:
    """Every `workers...` module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and \
                node.module.split(".")[0] == "workers":
            if node.module == "workers":
                found.update(f"workers.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "workers")
    return found


def test_the_server_imports_the_workers_only_to_schedule():
    used: dict[str, list[str]] = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        for module in imports_of_workers(path):
            used.setdefault(module, []).append(str(path.relative_to(ROOT)))
    unexpected = {m: files for m, files in used.items() if m not in SCHEDULING and m not in NOT_YET_MOVED}
    assert not unexpected, f"the server imports workers/ beyond scheduling: {unexpected}"
    gone = set(NOT_YET_MOVED) - set(used)
    assert not gone, f"no longer imported, drop from NOT_YET_MOVED: {gone}"


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
