"""A pytest plugin: every problem+json answer the tests get from the app, checked against the API
document at the end of the run.

Why: /openapi.json lists, per operation, the refusals it can give (server/apidoc.py); this is the
proof that it lists every one the suite actually sees. Each answer of an app in this process (Flask
test clients and the werkzeug servers of tests/server/served.py; not the servers started as
processes) is taken from Flask's `request_finished` signal as (operation, status, code); one whose
status the operation does not document is a finding. Each pytest-xdist worker writes what it saw to
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

DIR = "ARENA_TEST_PROBLEMS_DIR"
SEEN: set[tuple[str, int, str]] = set()            # ("METHOD /path", status, code)
_documented: dict[str, set[int]] = {}


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def _spec_statuses(app: Flask) -> dict[str, set[int]]:
    """"METHOD /path" -> the statuses it documents (read once: every app of the suite has one spec)."""
    if not _documented:
        spec = app.extensions["openapi"].spec.to_dict() if "openapi" in app.extensions else {}
        for path, item in spec.get("paths", {}).items():
            for method, op in item.items():
                if isinstance(op, dict) and method != "parameters":
                    _documented[f"{method.upper()} {path}"] = {int(c) for c in op.get("responses", {}) if c.isdigit()}
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
    rows = {"seen": sorted(SEEN), "documented": {k: sorted(v) for k, v in _documented.items()}}
    (folder / f"{worker or 'main'}.json").write_text(json.dumps(rows))
    if worker is None:
        _check(session, folder)


def _check(session: pytest.Session, folder: Path) -> None:
    seen: set[tuple[str, int, str]] = set()
    documented: dict[str, list[int]] = {}
    for part in folder.glob("*.json"):
        if part.name != "problems-seen.json":
            rows = json.loads(part.read_text())
            seen |= {tuple(row) for row in rows["seen"]}           # type: ignore[misc]
            documented.update(rows["documented"])
    (folder / "problems-seen.json").write_text(json.dumps(sorted(seen), indent=0))
    undocumented = sorted(row for row in seen if row[1] not in documented.get(row[0], [row[1]]))
    if undocumented:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"  {op} -> {status} {code}" for op, status, code in undocumented]
        if reporter is not None:
            reporter.write_line("answers the API document does not list (server/apidoc.py, `problems(...)`):\n"
                                + "\n".join(lines), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        shutil.rmtree(folder, ignore_errors=True)
