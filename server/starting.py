"""One way a game starts: a typed `GameSpec` and `start`, for every path that makes a game.

POST /games, a full lobby table, paired quick-match seeks and an accepted rematch all describe the
game they want as a GameSpec and call `start`, so the same rules apply to each in one place:

- consent: a registered player's seat is taken only by that player's own call. A seat whose
  player neither asked for the game (`creator`) nor agreed already (`agreed`: they joined the
  table, made the seek) waits for an invitation to be accepted (server/invitations.py), and so
  does a seat with an explicit `answer_by` (a rematch: every seat answers for itself);
- ownership: the creator's own seat and every seat of a player who agreed is the player's (their
  games list, every device), and no answer ever carries a registered player's seat token to
  anyone else (`Started.seats_for`);
- fairness (issue 21): a creator-chosen `seed` or `setup` is kept, but the game is then unrated
  and says so (`start_chosen_by_creator`); ratings move only for a server-drawn seed and the
  rules' own start;
- limits: a game one caller makes alone counts against that caller's cap of games nobody moved in
  (address and player); a game every player agreed to (table, match, rematch) counts against none.

    spec = GameSpec.from_request(data, creator="p12ab")
    started = start(spec)
    answer = started.answer(for_player="p12ab", guest_links=True)
"""
from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from events import accounts, keys, roster, tokens, unmoved
from events.clocks import format_epoch, now
from events.invitations import invitation_id

from . import invitations, limits
from .context import Arena, settings
from .errors import ApiError
from .launch import launch, unmoved_ttl

ORIGINS = ("create", "table", "match", "rematch")


@dataclass(frozen=True)
class Seat:
    """One seat of a game to start: who plays it, and (a rematch) who must accept it first."""
    name: str
    school: str                         # a school id, or 'random' / 'draft'
    player: str | None = None           # a registered player
    bot: bool = False
    answer_by: str | None = None        # who must accept before the game starts (a player id, or 't:<old seat>')
    bot_level: int | None = None        # the computer's level (None with `bot`: the cheapest)
    title: str | None = None            # "BOT": the player is a bot account

    def roster(self) -> dict:
        played_by = {"bot": True, "bot_level": self.bot_level} if self.bot_level is not None else \
            roster.seat_fields({"bot": self.bot})
        return {"name": self.name, "player": self.player, **played_by, **({"title": self.title} if self.title else {})}


@dataclass(frozen=True)
class GameSpec:
    """Everything a new game is made of, whichever path asks for it."""
    form: str
    seats: tuple[Seat, ...]
    teams: bool = False
    time_control: dict | None = None
    seed: str | None = None             # chosen by the creator (None: the server draws it)
    setup: dict | None = None           # a starting position chosen by the creator
    rated: bool = True                  # what was asked (a casual table: False); fairness may say no
    creator: str | None = None          # the registered player asking, None for an anonymous caller
    agreed: frozenset[str] = frozenset()    # players who agreed by their own call (joined, sought)
    origin: str = "create"
    game_id: str | None = None          # a lobby table's id; else one is drawn
    extra: dict = field(default_factory=dict)   # more roster info (a lobby game: {"lobby": True})

    @classmethod
    def from_request(cls, data: dict, creator: str | None) -> "GameSpec":
        """The spec of POST /games (CreateGameIn as loaded)."""
        seats = tuple(Seat(p["name"], p["school"], p.get("player"), p.get("bot", False) or p.get("bot_level") is not None,
                           bot_level=p.get("bot_level")) for p in data["players"])
        return cls(data["form"], seats, teams=data.get("teams", False), time_control=data.get("time_control"),
                   seed=data.get("seed"), setup=data.get("setup"), creator=creator)

    @property
    def start_chosen_by_creator(self) -> bool:
        return self.seed is not None or self.setup is not None

    @property
    def counts_for_ratings(self) -> bool:
        """Rated only when asked and the start is the rules' own, from a seed the server drew."""
        return self.rated and not self.start_chosen_by_creator

    def invited(self) -> dict[int, str]:
        """Seat -> who must accept it before the game starts."""
        out = {}
        for i, seat in enumerate(self.seats):
            if seat.answer_by:
                out[i] = seat.answer_by
            elif seat.player and not seat.bot and seat.player != self.creator and seat.player not in self.agreed:
                out[i] = seat.player
        return out

    def engine_options(self) -> dict:
        options: dict[str, Any] = {"form": self.form, "seats": [{"school": s.school} for s in self.seats],
                                   "teams": self.teams}
        if self.seed is not None:
            options["seed"] = self.seed
        if (self.time_control or {}).get("kind", "none") != "none":
            options["zombie_after"] = self.time_control.get("zombie_after", 3)
        return options

    def start_text(self) -> str | None:
        """What every seat is told about a start the creator chose (None: the rules' own start)."""
        chosen = [what for what, given in (("the starting position", self.setup), ("the random seed", self.seed))
                  if given is not None]
        if not chosen:
            return None
        return f"The creator chose {' and '.join(chosen)}, so this game is not rated."

    def info(self) -> dict:
        """The roster's info: what the views and the end of the game read."""
        return {"form": self.form, "time_control": self.time_control, "rated": self.counts_for_ratings,
                "start_chosen_by_creator": self.start_chosen_by_creator, "start_text": self.start_text(),
                "origin": self.origin, **self.extra}

    def owners(self) -> list[str]:
        """Whose cap of unmoved games this game counts against: a game made by one caller alone."""
        if self.origin != "create":
            return []
        return [limits.address_owner(), *([f"p:{self.creator}"] if self.creator else [])]

    def stored(self) -> dict:
        """As server/launch.py and a waiting game's record (events/invitations.py) keep it."""
        seats = [s.roster() for s in self.seats]
        return {"options": self.engine_options(), "setup": self.setup, "seats": seats, "info": self.info(),
                "owners": self.owners(), "creator": self.creator,
                "ttl": unmoved_ttl(settings().unmoved_game_ttl, self.time_control),
                "creator_seat": next((i for i, s in enumerate(self.seats) if self.creator and s.player == self.creator),
                                     None)}


@dataclass(frozen=True)
class Started:
    """A game just made (or waiting for its invitations): its id and each seat's token, if issued."""
    game_id: str
    version: int
    waiting: bool
    spec: GameSpec
    tokens: tuple[str | None, ...]
    invitations_expire: float | None = None

    def seat_view(self, seat: int, token: str | None) -> dict:
        s = self.spec.seats[seat]
        invited = self.spec.invited()
        if seat in invited:
            return {"seat": seat, "name": s.name, "player": s.player, "status": "invited",
                    "invitation": invitation_id(self.game_id, seat)}
        return {"seat": seat, "name": s.name, "player": s.player, "status": "claimed",
                **({"token": token} if token else {})}

    def answer(self, for_player: str | None, guest_links: bool) -> dict:
        """The 201 answer for the caller: their own seat's token, and (`guest_links`: the creator of a
        game) the tokens of seats no registered player holds, to hand out as join links. Never the
        token of another registered player's seat."""
        seats = []
        for i, (s, token) in enumerate(zip(self.spec.seats, self.tokens)):
            mine = s.player is not None and s.player == for_player
            handed = mine or (guest_links and s.player is None)
            seats.append(self.seat_view(i, token if handed else None))
        out = {"id": self.game_id, "version": self.version,
               "status": "waiting_for_players" if self.waiting else "playing", "seats": seats,
               **roster.fairness(self.spec.info())}
        if self.invitations_expire is not None:
            out["invitations_expire"] = format_epoch(self.invitations_expire)
        return out


def check_players(redis: Any, spec: GameSpec) -> None:
    """Registered players exist, each takes one seat, and no seat is both a player's and the computer's."""
    named = [s.player for s in spec.seats if s.player]
    if len(named) != len(set(named)):
        raise ApiError(400, "malformed_request", "A registered player may take one seat of a game, not several; name each player once.")
    for s in spec.seats:
        if s.player and not redis.exists(keys.player(s.player)):
            raise ApiError(404, "player_not_found", f"There is no registered player {s.player!r}; check the name.")
        if s.player and s.bot:
            raise ApiError(400, "malformed_request", "A seat is played by a registered player or by the computer, "
                                                     "not both; choose one.")


def with_bot_accounts(redis: Any, spec: GameSpec) -> GameSpec:
    """A bot account's seat is titled BOT, before its name wherever the name shows, and a game with
    a bot account is casual."""
    bots = {s.player for s in spec.seats if accounts.is_bot(redis, s.player)}
    if not bots:
        return spec
    seats = tuple(replace(s, name=roster.titled(s.name, accounts.BOT_TITLE), title=accounts.BOT_TITLE) if s.player in bots else s
                  for s in spec.seats)
    return replace(spec, seats=seats, rated=False)


def validate(spec: GameSpec) -> None:
    """Refuse now what the engine would refuse when the game starts (for a game that waits)."""
    options = spec.engine_options()
    if spec.setup is not None:
        engine.from_position({**options, **spec.setup, "seed": options.get("seed", "check")})
    else:
        engine.new_game({**options, "seed": options.get("seed", "check")})


def start(spec: GameSpec) -> Started:
    """Make the game `spec` describes: at once when no seat waits for an answer, else keep it
    waiting for its invitations. The one place a game comes into being."""
    if spec.origin not in ORIGINS:
        raise ValueError(f"unknown origin {spec.origin!r}")
    redis = Arena.of().redis
    check_players(redis, spec)
    spec = with_bot_accounts(redis, spec)
    stored = spec.stored()
    game_id = spec.game_id or secrets.token_hex(8)
    invited = spec.invited()
    if not invited:
        return _start_now(redis, game_id, spec, stored)
    validate(spec)
    timeout = settings().rematch_timeout if spec.origin == "rematch" else settings().invitation_timeout
    _claim_unmoved_slot(redis, game_id, stored["owners"], timeout)  # until it starts (then counted anew) or is over
    issued = tokens.issue_seat_tokens(redis, game_id, len(spec.seats), skip=invited, players=_own_seat(spec))
    deadline = invitations.invite(game_id, stored, invited, spec.creator, timeout,
                                  kind="rematch_offer" if spec.origin == "rematch" else "invitation")
    unmoved.mark(redis, game_id, stored["owners"], stored["ttl"] + timeout)
    unmoved.arm(redis, game_id, stored["ttl"] + timeout)
    return Started(game_id, 0, True, spec, tuple(issued), deadline)


def _start_now(redis: Any, game_id: str, spec: GameSpec, stored: dict) -> Started:
    _claim_unmoved_slot(redis, game_id, stored["owners"], stored["ttl"])
    try:
        players = {i for i, s in enumerate(spec.seats) if s.player and s.player != spec.creator}
        issued = tokens.issue_seat_tokens(redis, game_id, len(spec.seats), skip=players,   # their accounts act
                                          players=_own_seat(spec))
        game_id, version = launch(game_id, stored)
    except Exception:
        unmoved.release(redis, game_id, stored["owners"])
        raise
    return Started(game_id, version, False, spec, tuple(issued))


def _own_seat(spec: GameSpec) -> dict[int, str]:
    """The creator's own seat, whose token is the creator's (listed with its tokens, events/tokens.py)."""
    return {i: s.player for i, s in enumerate(spec.seats) if s.player and s.player == spec.creator}


def _claim_unmoved_slot(redis: Any, game_id: str, owners: list[str], ttl: int) -> None:
    if not owners:
        return
    moment = now()
    cap = settings().max_unmoved_games
    full = unmoved.claim(redis, owners, game_id, cap=cap, until=moment + ttl, now=moment)
    if full is not None:
        who = "your player" if full.startswith("p:") else "your address"
        wait = max(1, math.ceil(unmoved.frees_in(redis, full, moment)))
        raise ApiError(429, "too_many_unmoved_games",
                       f"{who.capitalize()} has {cap} games nobody has moved in yet: make a move in one (or wait "
                       "until one expires) before creating more.", headers={"Retry-After": str(wait)}, retry_after=wait)
