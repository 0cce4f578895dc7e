"""The desk: every game of a player at a glance, kept as a per-player index so that a player with
two hundred correspondence games is answered from two hash reads, not two hundred loads.

After every change to a game (the GameService's follow-up hook, workers/followup.py) `index`
writes one row per registered player of the game into that player's desk (keys.desk): the facts
of how the game stands (whose turn, the deadline of the seat waited for, the result, the names),
never a secret. A row missing (a game older than the desk, a seat claimed since) is built by
`rows` from the game itself and kept. `saw` records the version a player last looked at
(keys.desk_seen), so the desk can say which games changed since.

    desk.index(redis, service, game_id, state, version)      # the follow-up hook
    desk.rows(redis, service, player_id)                      # Row per game of the player
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from engine.shapes import GameState
from engine.state import active_seat

from . import game_clock, keys, pauses, roster
from .clocks import Clock, now as clock_now, parse_time
from .errors import GameNotFound
from .replies import text

HOW = {"resignation": " by resignation", "abandonment": " by abandonment"}


@dataclass(frozen=True, eq=False)
class Row:
    """How one game stands for one player: facts only; server/game_words.py says them in words.
    Rows are compared (and hashed) by identity: one stored row read again is the same object
    (`rows` decodes each once), so what is made of it can be kept beside it."""
    game_id: str
    seat: int
    form: str
    teams: bool
    names: list[str]                    # every seat's name ("Seat 2" when it has none)
    labels: list[str]                   # the same, a computer's with its level
    active: int | None                  # the seat waited for (None: over, or nobody)
    over: bool
    version: int
    changed_at: float                   # when the game last changed (epoch seconds)
    rated: bool
    deadline: float | None = None       # the player's own deadline, while waited for against a clock
    winners: list[int] = field(default_factory=list)
    how: str = ""                       # " by resignation", " on the tie-break", or ""
    seen: int = 0                       # the version the player last looked at (not stored in the row)

    @property
    def your_turn(self) -> bool:
        return not self.over and self.active == self.seat

    @property
    def changed(self) -> bool:
        """The game moved on since the player last looked at it."""
        return self.version > self.seen

    def side(self, seat: int) -> int:
        """A seat's side: its team in 2 v 2 (seats 0 and 2, 1 and 3), else the seat itself."""
        return seat % 2 if self.teams else seat

    def to_json(self) -> str:
        data = {k: v for k, v in self.__dict__.items() if k not in ("game_id", "seen")}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, game_id: str, raw: str | bytes, seen: int) -> "Row":
        return cls(game_id=game_id, seen=seen, **json.loads(raw))


def facts(game_id: str, seat: int, state: dict[str, Any], version: int, changed_at: float,
          seats: list[dict[str, Any]] | tuple[dict[str, Any], ...], info: dict[str, Any],
          deadline: float | None = None) -> Row:
    """The row of `seat`'s player for a game in `state`, its roster's `seats` and `info`."""
    names = [s.get("name") or f"Seat {i + 1}" for i, s in enumerate(seats)]
    over = state["phase"] == "over"
    result = state.get("result") or {}
    how = HOW.get(result.get("reason", ""), "")
    standings = result.get("standings") or []
    if over and not how and len(standings) > 1 and "key" in standings[0] and standings[0]["key"][0] == standings[1]["key"][0]:
        how = " on the tie-break"
    return Row(game_id, seat, state["form"], bool(state.get("teams")), names,
               [roster.labelled({**s, "name": n}) for s, n in zip(seats, names)],
               None if over else _waiting_for(state), over, version, changed_at,
               roster.fairness(info)["rated"], deadline,
               list(result.get("winners") or []) if over else [], how if over else "")


def index(redis: Any, service: Any, game_id: str, state: dict[str, Any], version: int,
          changed_at: float | None = None, clock: Clock | None = None, mover: int | None = None) -> None:
    """Write the game's row into the desk of each registered player of it; the `mover` seat's
    player has seen this version (their own command). `clock`: the game's, when the caller has it."""
    seating = roster.seating_of(redis, game_id)
    players = seating.players
    if not players:
        return
    at = _changed_at(service, game_id, version) if changed_at is None else changed_at
    waiting = _waiting_for(state)
    end = _deadline(redis, service, game_id, seating, state, clock) if waiting is not None and waiting in players else None
    info = roster.info(redis, game_id)
    pipe = redis.pipeline(transaction=False)
    for seat, pid in players.items():
        row = facts(game_id, seat, state, version, at, seating.seats, info, end if row_waits(state, seat) else None)
        pipe.hset(keys.desk(pid), game_id, row.to_json())
        if seat == mover:
            pipe.hset(keys.desk_seen(pid), game_id, version)
    pipe.execute()


def row_waits(state: dict[str, Any], seat: int) -> bool:
    return state["phase"] != "over" and _waiting_for(state) == seat


def _waiting_for(state: dict[str, Any]) -> int | None:
    return active_seat(cast(GameState, state))


def _deadline(redis: Any, service: Any, game_id: str, seating: roster.Seating, state: dict[str, Any],
              clock: Clock | None) -> float | None:
    """When the seat waited for times out (its vacations and rest added); None without a clock."""
    if not seating.tc.timed or state["phase"] == "over":
        return None
    if clock is None:
        clock = game_clock.current(redis, service, game_id, seating.tc)
    return pauses.deadline(redis, clock, seating)


def set_deadline(redis: Any, player_id: str, game_id: str, deadline: float | None) -> None:
    """The player's deadline in a game moved without a change to the game (a vacation began or ended)."""
    raw = redis.hget(keys.desk(player_id), game_id)
    if raw:
        data = json.loads(raw)
        redis.hset(keys.desk(player_id), game_id, json.dumps({**data, "deadline": deadline}, separators=(",", ":")))


def saw(redis: Any, game_id: str, seat: int | None, version: int) -> None:
    """The registered player of `seat` looked at the game as it stood at `version` (a spectator's
    look, or a guest seat's, is nobody's)."""
    player_id = roster.seating_of(redis, game_id).players.get(seat) if seat is not None else None
    if player_id is not None:
        redis.hset(keys.desk_seen(player_id), game_id, version)


def rows(redis: Any, service: Any, player_id: str) -> tuple[list[Row], list[str]]:
    """A Row for each game the player holds a seat in and that has begun (those missing from the
    desk are built from the game and kept), and the ids of the player's games not begun (waiting
    for invited players, or cancelled)."""
    pipe = redis.pipeline(transaction=False)
    pipe.smembers(keys.player_games(player_id))
    pipe.hgetall(keys.desk(player_id))
    pipe.hgetall(keys.desk_seen(player_id))
    games, stored, seen_raw = pipe.execute()
    stored = {text(k): v for k, v in stored.items()}
    seen = {text(k): int(v) for k, v in seen_raw.items()}
    out, unbegun = [], []
    for game_id in sorted(text(g) for g in games):
        raw = stored.get(game_id)
        if raw is None:
            built = _built(redis, service, player_id, game_id)
            if built is None:
                unbegun.append(game_id)
                continue
            raw = built.to_json()
        out.append(_decoded(game_id, raw, seen.get(game_id, 0)))
    return out, unbegun


@lru_cache(maxsize=8192)
def _decoded(game_id: str, raw: str | bytes, seen: int) -> Row:
    """A stored row, decoded once while it stays the same (a desk of 200 games decodes what changed)."""
    return Row.from_json(game_id, raw, seen)


SECTIONS = ("your_turn", "waiting", "finished")     # the desk's order: yours to play, others', over


def section(row: Row) -> str:
    return "finished" if row.over else "your_turn" if row.your_turn else "waiting"


def ordered(found: list[Row]) -> list[Row]:
    """Yours to play first, the least time left first (no clock: last); then those waiting on
    others, the latest changed first; then the finished ones, the latest ended first."""
    def key(row: Row) -> tuple[int, float, str]:
        part = SECTIONS.index(section(row))
        if part == 0:
            return part, row.deadline if row.deadline is not None else float("inf"), row.game_id
        return part, -row.changed_at, row.game_id
    return sorted(found, key=key)


@dataclass(frozen=True)
class Filters:
    """What the desk shows: a form, an opponent (by name, any case), rated games or unrated ones."""
    form: str | None = None
    opponent: str | None = None
    rated: bool | None = None

    def keep(self, row: Row) -> bool:
        return ((self.form is None or row.form == self.form)
                and (self.opponent is None or self.opponent.casefold() in {n.casefold() for n in opponents(row)})
                and (self.rated is None or row.rated == self.rated))


def opponents(row: Row) -> list[str]:
    """The names of the other side's seats."""
    mine = row.side(row.seat)
    return [n for i, n in enumerate(row.names) if i != row.seat and row.side(i) != mine]


def _built(redis: Any, service: Any, player_id: str, game_id: str) -> Row | None:
    """The player's row of a game not in their desk yet, now kept there; None for a game not begun."""
    seat = roster.seat_of(redis, game_id, player_id)
    if seat is None:
        return None
    try:
        loaded = service.load(game_id)
    except GameNotFound:
        return None
    at = _changed_at(service, game_id, loaded.version)
    seating = roster.seating_of(redis, game_id)
    end = _deadline(redis, service, game_id, seating, loaded.state, None) if row_waits(loaded.state, seat) else None
    row = facts(game_id, seat, loaded.state, loaded.version, at, seating.seats, roster.info(redis, game_id), end)
    redis.hset(keys.desk(player_id), game_id, row.to_json())
    return row


def _changed_at(service: Any, game_id: str, version: int) -> float:
    """When the game changed to `version` (its envelope's recorded time)."""
    envelopes = service.store.read(game_id, after=max(0, version - 1), upto=version)
    return parse_time(envelopes[-1].time) if envelopes else clock_now()
