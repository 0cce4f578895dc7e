"""`python -m workers [--queue Q]... [--burst]`: the worker process of `arena worker`, started
without importing the web application (it starts in about half the time: a restarted worker
applies overdue deadlines sooner). `arena serve` and the Procfile start workers this way."""
from __future__ import annotations

import argparse
import os

from .worker import run


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m workers", description=__doc__.splitlines()[0])
    parser.add_argument("--queue", dest="queues", action="append", help="queue to work on (repeatable); default: all")
    parser.add_argument("--burst", action="store_true", help="quit once the queues are empty")
    parser.add_argument("--nice", type=int, default=0, help="run this much nicer than other processes (bot workers)")
    args = parser.parse_args()
    if args.nice:
        os.nice(args.nice)
    run(args.queues, burst=args.burst)


if __name__ == "__main__":
    main()
