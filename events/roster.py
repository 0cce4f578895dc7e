"""Who sits where in a game: names, registered players, bots, and the time control chosen.

Kept beside the game's log (keys.roster_seats, roster_info, seat_players); the engine knows seats
only by number. Written once when the game is created (before its log, so the first follow-up
already sees it), read by the HTTP layer and the workers alike; the one later change is a guest's
seat claimed by the account the guest signed up for (`claim_seat`).

    roster.save(redis, game_id, seats, info)
    roster.seating_of(redis, game_id)      # cached per process (a claimable one for seconds only)
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.ai import CHEAPEST, LEVELS

from . import keys
from .clocks import TimeControl
from .memo import Memo
from .replication import durable
from .replies import text
from .scripts import lua, run_script

CLAIM_LUA = lua("claim_seat.lua")
CLAIM_SEEN_WITHIN = (5.0, 60.0)     # seconds: how soon every process sees a claim (a guest's seat, a player's)


def save(redis: Any, game_id: str, seats: list[dict[str, Any]], info: dict[str, Any]) -> None:
    """Store the roster, answered once a replica has it (and the seat tokens written before it)."""
    players = {s["player"]: i for i, s in enumerate(seats) if s.get("player")}
    writes = [lambda c: c.hset(keys.roster_seats(game_id), mapping={i: json.dumps(s) for i, s in enumerate(seats)}),
              lambda c: c.set(keys.roster_info(game_id), json.dumps(info))]
    if players:
        writes.append(lambda c: c.hset(keys.seat_players(game_id), mapping=players))
    durable(redis, keys.roster_info(game_id), *writes)
    for pid in players:
        add_player_game(redis, pid, game_id)


def forget(redis: Any, game_id: str, seats: list[dict[str, Any]]) -> None:
    """Take back a roster saved for a game whose creation was then refused."""
    redis.delete(keys.roster_seats(game_id), keys.roster_info(game_id), keys.seat_players(game_id))
    for pid in {s["player"] for s in seats if s.get("player")}:
        redis.srem(keys.player_games(pid), game_id)


def claim_seat(redis: Any, game_id: str, seat: int, player_id: str, guest: str | None = None) -> bool:
    """Make a guest's seat of a game the account `player_id`'s (the guest signed up or in): the
    account then acts for it, lists the game and is told of its turns as any player of a seat is
    (the seat names the player from now on); the game is no longer rated. `guest`: the browser's
    own passwordless player (POST /players) holding the seat now, whose hold passes to the account.
    False when the account holds a seat of the game already or someone else holds this one."""
    if not run_script(redis, CLAIM_LUA, [keys.seat_players(game_id)], [player_id, seat, guest or ""]):
        return False
    stored = info(redis, game_id)
    redis.set(keys.roster_info(game_id), json.dumps({**stored, "rated": False, "claimed_by_guest": True}))
    was = json.loads(redis.hget(keys.roster_seats(game_id), seat) or "{}")
    redis.hset(keys.roster_seats(game_id), seat, json.dumps({**was, "player": player_id, "claimed": True}))
    _seatings.forget(game_id)
    add_player_game(redis, player_id, game_id)
    if guest:
        redis.srem(keys.player_games(guest), game_id)
    return True


def add_player_game(redis: Any, player_id: str, game_id: str) -> None:
    """List the game among the player's games (their profile, vacation and digest read it)."""
    durable(redis, keys.player_games(player_id), lambda c: c.sadd(keys.player_games(player_id), game_id))


def player_games(redis: Any, player_id: str) -> list[str]:
    """Ids of the games the player has a seat in."""
    return sorted(text(g) for g in redis.smembers(keys.player_games(player_id)))


def bot_level(seat: dict[str, Any]) -> int | None:
    """The level of the computer playing a seat, None for a person: a seat saved with "bot": true
    and no level (before levels existed, or asked for so) is played at the cheapest level."""
    if not seat.get("bot"):
        return None
    level = seat.get("bot_level")
    return level if isinstance(level, int) and level in LEVELS else CHEAPEST


def seat_fields(seat: dict[str, Any]) -> dict[str, Any]:
    """What every listing of a game's seats says of who plays it: "bot", the level of a computer's,
    and the title of a bot account's ("BOT")."""
    level = bot_level(seat)
    return {"bot": level is not None, **({"bot_level": level} if level is not None else {}),
            **({"title": seat["title"]} if seat.get("title") else {})}


def labelled(seat: dict[str, Any]) -> str:
    """The seat's name as lists show it: the computer's with its level ("Computer (computer · level 3)")."""
    level = bot_level(seat)
    return f"{seat['name']} (computer · level {level})" if level is not None else seat["name"]


def titled(name: str, title: str) -> str:
    """A bot account's name as every page and list shows it: "BOT Robo"."""
    return name if name.startswith(f"{title} ") else f"{title} {name}"


def seats(redis: Any, game_id: str) -> list[dict[str, Any]]:
    raw = redis.hgetall(keys.roster_seats(game_id))
    return [json.loads(raw[k]) for k in sorted(raw, key=int)]


def info(redis: Any, game_id: str) -> dict[str, Any]:
    raw = redis.get(keys.roster_info(game_id))
    return json.loads(raw) if raw else {}


def fairness(info: dict[str, Any], counts: bool = True) -> dict[str, Any]:
    """`rated`, `start_chosen_by_creator` and `start_text` of a game's views, from its info (server/starting.py
    writes them); `counts`: False when the game never counts anyway (imported without a trusted signature)."""
    return {"rated": counts and info.get("rated", True) is not False,
            "start_chosen_by_creator": bool(info.get("start_chosen_by_creator")),
            "start_text": info.get("start_text")}


def names(redis: Any, game_id: str) -> dict[int, str]:
    return {i: s["name"] for i, s in enumerate(seats(redis, game_id))}


def seat_of(redis: Any, game_id: str, player_id: str) -> int | None:
    """The seat a registered player holds in the game, None when they hold none."""
    seat = redis.hget(keys.seat_players(game_id), player_id)
    return int(seat) if seat is not None else None


@dataclass(frozen=True)
class Seating:
    """A saved roster as the clocks and the follow-up work need it."""
    tc: TimeControl
    seats: tuple[dict[str, Any], ...]

    @property
    def players(self) -> dict[int, str]:
        return {i: s["player"] for i, s in enumerate(self.seats) if s.get("player") and not s.get("bot")}

    @property
    def bots(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.get("bot")}

    @property
    def quiet(self) -> bool:
        """Nothing to schedule or tell while the game runs."""
        return not self.tc.timed and not self.bots and not self.players

    def against(self, seat: int) -> str:
        """The game as its seat's player calls it: "your game against Bob and Cy" (names, not an id)."""
        others = [self.name(i) for i in range(len(self.seats)) if i != seat]
        return f"your game against {', '.join(others[:-1]) + ' and ' if len(others) > 1 else ''}{others[-1] if others else 'nobody'}"

    def name(self, seat: int | None) -> str:
        if seat is None or seat >= len(self.seats):
            return "Nobody"
        return self.seats[seat].get("name") or f"Seat {seat + 1}"


# A roster never changes once saved, but for a guest's seat that an account claims (claim_seat): a
# roster with a seat nobody registered holds is trusted for a few seconds only, so every process
# soon tells the account; any other for a minute (a seat held by a browser's own passwordless
# player may be claimed too).
_seatings: Memo[Seating] = Memo(size=4096, ttl=CLAIM_SEEN_WITHIN[1])


def seating_of(redis: Any, game_id: str) -> Seating:
    """The game's saved roster; each process keeps the ones it has read (an unsaved one is asked again)."""
    known = _seatings.get(game_id)
    if known is not None:
        return known
    pipe = redis.pipeline(transaction=False)
    pipe.get(keys.roster_info(game_id))
    pipe.hgetall(keys.roster_seats(game_id))
    stored, raw = pipe.execute()
    stored = json.loads(stored) if stored else {}
    seating = Seating(TimeControl.from_info(stored.get("time_control")),
                      tuple(json.loads(raw[k]) for k in sorted(raw, key=int)))
    if seating.seats:
        guest = any(not s.get("player") and not s.get("bot") for s in seating.seats)
        _seatings.put(game_id, seating, CLAIM_SEEN_WITHIN[0] if guest else None)
    return seating
