"""The deadline index: what is due when, claimed by one deadline loop at a time.

A sorted set, split into keys.DEADLINE_SHARDS shards (keys.deadlines(n)) so that a Redis Cluster
spreads it over its masters, holds a member per thing that must happen at a time, scored by that
time (epoch seconds); a game's members all live in the game's shard (keys.deadline_shard):

    timeout:<game>:<wait>   the wait's deadline: time the seat out
    remind:<game>:<wait>    "deadline soon" for that wait
    bot:<game>:<wait>       a bot is to play that wait (enqueue its job; look again later)
    finish:<game>           the game is over: see that its end-of-game work gets done
    announce:<game>:<wait>  the wait's notifications, pledged before it is claimed and dropped once
                            sent: due only if its claimer died first (workers/turns.py)
    digest:<player>         the player's daily e-mail digest (events/email_settings.py; sent by workers/email.py)
    invitation:<game>       a game waiting for invited players: cancel it at its deadline (workers/invitations.py)
    outbox:<player>         the player's notifications whose e-mail and webhook may not be handed over yet
                            (events/inbox.py): indexed before each is stored, due a grace after the last

Members are added when a wait begins (workers/turns.py, in the transaction that claims the wait)
and dropped when the next one begins. Every worker's deadline loop (workers/deadline_loop.py)
claims the due ones of every shard with events/lua/claim_deadlines.lua: a claimed member moves
to its shard's leases set until its loop releases it, so two loops never deal with one member at once, and the lease of
a loop that died lapses and the member is offered again.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable

from . import keys
from .replies import text
from .scripts import lua, run_script

KINDS = ("timeout", "remind", "bot", "finish", "digest", "announce", "invitation", "outbox")
_CLAIM = lua("claim_deadlines.lua")
_RELEASE = lua("release_deadline.lua")


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


def _shard(name: str) -> int:
    """The shard of a member: its game's (any member, even of a kind this version does not know,
    is added and released through here, so it is always found where it was put)."""
    parts = name.split(":")
    return keys.deadline_shard(parts[1] if len(parts) > 1 else name)


def _by_shard(names: Iterable[str]) -> dict[int, list[str]]:
    shards: dict[int, list[str]] = {}
    for name in names:
        shards.setdefault(_shard(name), []).append(name)
    return shards


def add(client: Any, items: dict[str, float], only_new: bool = False, only_later: bool = False) -> None:
    """Index `items` (member -> when due; `only_new`: leave those indexed already; `only_later`: move
    those indexed already only to a later time); `client` may be a pipeline."""
    for shard, names in _by_shard(items).items():
        client.zadd(keys.deadlines(shard), {name: items[name] for name in names}, nx=only_new, gt=only_later)


def drop(client: Any, members: Iterable[str]) -> None:
    """Take members out of the index and out of the leases (a loop dealing with one finds it gone)."""
    for shard, names in _by_shard(members).items():
        client.zrem(keys.deadlines(shard), *names)
        client.zrem(keys.deadline_leases(shard), *names)


@dataclass(frozen=True)
class Claimed:
    items: list[Due]
    unknown: list[str]                  # members this version cannot parse (released at once)
    next_at: float | None               # when the earliest member left in the index is due


_turns = itertools.count()


def claim(redis: Any, now: float, lease: float, count: int) -> Claimed:
    """Claim up to `count` members due at `now`, each for `lease` seconds, from every shard in turn
    (one script per shard, each on its own slot). Each call starts at the next shard, so a backlog
    (everything overdue after an outage) is worked off in every shard alike."""
    items, unknown, heads = [], [], []
    first = next(_turns) % keys.DEADLINE_SHARDS
    for shard in [(first + i) % keys.DEADLINE_SHARDS for i in range(keys.DEADLINE_SHARDS)]:
        if len(items) + len(unknown) >= count:
            heads.append(now)                       # shards not looked at may hold due members
            break
        answer = run_script(redis, _CLAIM, [keys.deadlines(shard), keys.deadline_leases(shard)],
                                    [f"{now:.6f}", lease, count - len(items) - len(unknown)])
        if text(answer[0]):
            heads.append(float(text(answer[0])))
        for raw, score in zip(answer[1::2], answer[2::2]):
            name = text(raw)
            item = parse(name, float(text(score)))
            if item is None:
                unknown.append(name)
            else:
                items.append(item)
    return Claimed(items, unknown, min(heads) if heads else None)


def release(redis: Any, name: str, again: float | None = None, later: bool = False) -> None:
    """The loop has dealt with `name`; `again`: index it anew, due then (unless it was dropped
    meanwhile). `later`: never sooner than it now stands (an outbox a sender just pushed later)."""
    shard = _shard(name)
    run_script(redis, _RELEASE, [keys.deadlines(shard), keys.deadline_leases(shard)],
               [name, "" if again is None else f"{again:.6f}", *(["later"] if later else [])])


def when(redis: Any, name: str) -> float | None:
    """When `name` is due (None: not in the index)."""
    score = redis.zscore(keys.deadlines(_shard(name)), name)
    return None if score is None else float(score)
