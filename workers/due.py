"""The deadline index: what is due when, claimed by one deadline loop at a time.

One sorted set (keys.deadlines()) holds a member per thing that must happen at a time, scored by
that time (epoch seconds):

    timeout:<game>:<wait>   the wait's deadline: time the seat out
    remind:<game>:<wait>    "deadline soon" for that wait
    bot:<game>:<wait>       a bot is to play that wait (enqueue its job; look again later)
    finish:<game>           the game is over: see that its end-of-game work gets done

Members are added when a wait begins (workers/turns.py, in the transaction that claims the wait)
and dropped when the next one begins. Every worker's deadline loop (workers/deadline_loop.py)
claims the due ones with events/lua/claim_deadlines.lua: a claimed member moves to the leases
set until its loop releases it, so two loops never deal with one member at once, and the lease of
a loop that died lapses and the member is offered again.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable

from events import keys

from . import runtime

KINDS = ("timeout", "remind", "bot", "finish")
_CLAIM = resources.files("events").joinpath("lua/claim_deadlines.lua").read_text()
_RELEASE = resources.files("events").joinpath("lua/release_deadline.lua").read_text()


@dataclass(frozen=True)
class Due:
    kind: str
    game_id: str
    wait: int | None
    at: float                           # when it was due

    @property
    def member(self) -> str:
        return member(self.kind, self.game_id, self.wait)


def member(kind: str, game_id: str, wait: int | None = None) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown deadline kind {kind!r}")
    return f"{kind}:{game_id}" if wait is None else f"{kind}:{game_id}:{wait}"


def parse(text: str, at: float) -> Due | None:
    """The member's parts; None for a member this version does not know."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in KINDS or not keys.valid_game_id(parts[1]):
        return None
    if len(parts) == 3 and not parts[2].isdigit():
        return None
    return Due(parts[0], parts[1], int(parts[2]) if len(parts) == 3 else None, at)


def wait_members(game_id: str, wait: int) -> list[str]:
    """Every member a wait may have."""
    return [member(kind, game_id, wait) for kind in ("timeout", "remind", "bot")]


def add(client: Any, items: dict[str, float], only_new: bool = False) -> None:
    """Index `items` (member -> when due; `only_new`: leave those indexed already); `client` may be a pipeline."""
    if items:
        client.zadd(keys.deadlines(), items, nx=only_new)


def drop(client: Any, members: Iterable[str]) -> None:
    """Take members out of the index and out of the leases (a loop dealing with one finds it gone)."""
    members = list(members)
    if members:
        client.zrem(keys.deadlines(), *members)
        client.zrem(keys.deadline_leases(), *members)


@dataclass(frozen=True)
class Claimed:
    items: list[Due]
    unknown: list[str]                  # members this version cannot parse (released at once)
    next_at: float | None               # when the earliest member left in the index is due


def claim(redis: Any, now: float, lease: float, count: int) -> Claimed:
    """Claim up to `count` members due at `now`, each for `lease` seconds."""
    answer = runtime.run_script(redis, _CLAIM, [keys.deadlines(), keys.deadline_leases()],
                                [f"{now:.6f}", lease, count])
    head = _text(answer[0])
    items, unknown = [], []
    for raw, score in zip(answer[1::2], answer[2::2]):
        text = _text(raw)
        item = parse(text, float(_text(score)))
        if item is None:
            unknown.append(text)
        else:
            items.append(item)
    return Claimed(items, unknown, float(head) if head else None)


def release(redis: Any, name: str, again: float | None = None) -> None:
    """The loop has dealt with `name`; `again`: index it anew, due then (unless it was dropped meanwhile)."""
    runtime.run_script(redis, _RELEASE, [keys.deadlines(), keys.deadline_leases()],
                       [name, "" if again is None else f"{again:.6f}"])


def when(redis: Any, name: str) -> float | None:
    """When `name` is due (None: not in the index)."""
    score = redis.zscore(keys.deadlines(), name)
    return None if score is None else float(score)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else ("" if value is None else str(value))
