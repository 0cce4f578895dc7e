"""Attempts counted against bounds, in Redis, counting first: password checks, account-recovery
mails. Each attempt is added to every counter it falls under in one script before the thing it
guards is done, so racing attempts cannot slip past a bound; a refused attempt is taken back at
once, and a caller may give an attempt back (`forgive`) when it turned out not to be a failure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .scripts import lua, run_script

COUNT = lua("count_attempts.lua")


@dataclass(frozen=True)
class Bound:
    key: str            # the counter (every bound of one attempt in one slot)
    limit: int          # attempts allowed in a window
    window: int         # seconds, from the window's first attempt


def count(redis: Any, bounds: list[Bound]) -> int:
    """Count one attempt under every bound: 0 when it may go on, else the seconds to wait (and the
    attempt is not counted)."""
    return int(_run(redis, "count", bounds))


def forgive(redis: Any, bounds: list[Bound]) -> None:
    """Take one counted attempt back from every bound (it was no failure)."""
    _run(redis, "forgive", bounds)


def _run(redis: Any, mode: str, bounds: list[Bound]) -> Any:
    args: list[Any] = [mode]
    for b in bounds:
        args += [b.limit, b.window]
    return run_script(redis, COUNT, keys=[b.key for b in bounds], args=args)
