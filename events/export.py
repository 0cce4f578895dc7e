"""Export a game's record: `python -m events.export GAME_ID [-o RECORD.json] [--unfinished]`.

Reads from the store events.connect() chooses (REDIS_CLUSTER_URL, REDIS_URL or the embedded server); the record format is in
record.py, and `python -m events.verify RECORD.json` checks it.
"""
from __future__ import annotations

import argparse
import sys

from .connection import connect
from .errors import StoreError
from .record import dumps_record, write_record
from .service import GameService


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m events.export", description="Export a game's record.")
    parser.add_argument("game_id")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    parser.add_argument("--unfinished", action="store_true",
                        help="export a game still running (the record then holds its seed and hidden cards)")
    args = parser.parse_args(argv)
    try:
        record = GameService(connect()).export_record(args.game_id, allow_unfinished=args.unfinished)
    except StoreError as exc:
        print(f"cannot export: {exc}", file=sys.stderr)
        return 1
    if args.output:
        write_record(record, args.output)
    else:
        sys.stdout.write(dumps_record(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
