"""The runnable product: the README's first screen and the Procfile (its settings: tests/test_settings.py)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_opens_with_exactly_two_commands_make_run_and_make_test():
    readme = (ROOT / "README.md").read_text()
    first_screen = readme[:readme.index("\n## ")]
    commands = [line.split("#")[0].strip() for block in re.findall(r"```sh\n(.*?)```", first_screen, re.S)
                for line in block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_procfile_runs_the_web_a_game_worker_and_webhook_deliveries_in_a_process_of_their_own():
    lines = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    assert {"web", "worker", "notifier"} <= set(lines)
    assert lines["web"].startswith("arena web ") and lines["stream"].startswith("arena stream ")
    assert lines["worker"] == "python -m workers --queue ${ARENA_QUEUE:-arena}"
    assert lines["notifier"] == "python -m workers --queue ${ARENA_NOTIFY_QUEUE:-arena-notify}"
    assert "--with-scheduler" not in (ROOT / "Procfile").read_text()
