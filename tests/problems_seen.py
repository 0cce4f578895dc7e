"""A pytest plugin: every problem+json answer the tests get from the app, checked against the API
document at the end of the run.

Why: /openapi.json lists, per operation, the refusals it can give and the codes each carries
(server/apidoc.py); this is the proof that it lists every one the suite actually sees. Each answer of an app in this process (Flask
test clients and the werkzeug servers of tests/server/served.py; not the servers started as
processes) is taken from Flask's `request_finished` signal as (operation, status, code); one whose
status the operation does not document, or whose code that status does not list, is a finding.
Not seen here: the answers of the stream tier (tests/streams, the in-process front of tests/front.py)
and of servers started as processes, which send no Flask signal to this process. Each pytest-xdist worker writes what it saw to
a file of its own in a directory the controller made; the controller (or a run without workers)
reads them all at the end and fails the run on any finding (the directory, with the union of what
was seen in problems-seen.json, is then left in place to read; otherwise it is removed). Cost: a dict lookup per answer.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, Response, request, request_finished

from engine.errors import ERROR_CODES

DIR = "ARENA_TEST_PROBLEMS_DIR"
OUT = "ARENA_TEST_PROBLEMS_OUT"            # also write what was seen there (server/refusals.json is made from it)
SEEN: set[tuple[str, int, str]] = set()            # ("METHOD /path", status, code)
Documented = dict[str, dict[str, Any]]           # "METHOD /path" -> {status: {"codes": [...], "rules": bool}}
_documented: Documented = {}


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def _spec_statuses(app: Flask) -> Documented:
    """"METHOD /path" -> the refusals it documents (read once: every app of the suite has one spec)."""
    if not _documented:
        spec = app.extensions["openapi"].spec.to_dict() if "openapi" in app.extensions else {}
        for path, item in spec.get("paths", {}).items():
            for method, op in item.items():
                if isinstance(op, dict) and method != "parameters":
                    _documented[f"{method.upper()} {path}"] = {
                        c: {"codes": r.get("x-codes", []), "rules": bool(r.get("x-rule-codes"))}
                        for c, r in op.get("responses", {}).items() if c.isdigit()}
    return _documented


def _record(sender: Flask, response: Response, **_: Any) -> None:
    if response.mimetype != "application/problem+json" or request.url_rule is None:
        return
    operation = f"{request.method} {_openapi_path(request.url_rule.rule)}"
    if operation in _spec_statuses(sender):
        body = response.get_json(silent=True)
        SEEN.add((operation, response.status_code, str(body.get("code", "")) if isinstance(body, dict) else ""))


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):                 # the controller, or a run without workers
        os.environ[DIR] = tempfile.mkdtemp(prefix="problems-seen-")
    request_finished.connect(_record, weak=False)


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = Path(os.environ[DIR])
    worker = getattr(session.config, "workerinput", {}).get("workerid")
    rows = {"seen": sorted(SEEN), "documented": _documented}
    (folder / f"{worker or 'main'}.json").write_text(json.dumps(rows))
    if worker is None:
        _check(session, folder)


def _listed(refusals: dict[str, Any], status: int, code: str) -> bool:
    """Whether the operation documents the status, and the code among those the status lists."""
    listed = refusals.get(str(status))
    return listed is not None and (code in listed["codes"] or (listed["rules"] and code in ERROR_CODES))


def _check(session: pytest.Session, folder: Path) -> None:
    seen: set[tuple[str, int, str]] = set()
    documented: Documented = {}
    for part in folder.glob("*.json"):
        if part.name != "problems-seen.json":
            rows = json.loads(part.read_text())
            seen |= {tuple(row) for row in rows["seen"]}           # type: ignore[misc]
            documented.update(rows["documented"])
    (folder / "problems-seen.json").write_text(json.dumps(sorted(seen), indent=0))
    if os.environ.get(OUT):
        Path(os.environ[OUT]).write_text(json.dumps(sorted(seen), indent=0))
    undocumented = sorted(row for row in seen if row[0] in documented and not _listed(documented[row[0]], *row[1:]))
    if undocumented:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"  {op} -> {status} {code}" for op, status, code in undocumented]
        if reporter is not None:
            reporter.write_line("answers the API document does not list (a status: `problems(...)` on the view; a "
                                "code: server/refusals.json):\n" + "\n".join(lines), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        shutil.rmtree(folder, ignore_errors=True)
