"""`python -m workers [--queue Q]... [--burst]`: the worker process of `arena worker`, started
without importing the web application (it starts in about half the time: a restarted worker
applies overdue deadlines sooner). `arena serve` and the Procfile start workers this way."""
from __future__ import annotations

import argparse

from .worker import run


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m workers", description=__doc__.splitlines()[0])
    parser.add_argument("--queue", dest="queues", action="append", help="queue to work on (repeatable); default: both")
    parser.add_argument("--burst", action="store_true", help="quit once the queues are empty")
    args = parser.parse_args()
    run(args.queues, burst=args.burst)


if __name__ == "__main__":
    main()
