"""Games waiting for invited players: nobody takes a registered player's seat without their consent.

A game that names registered players (other than its creator) is not created at once: what it will
be is kept in a *pending* hash in the game's slot (keys.pending_game), with one invitation per such
seat, until every invitee has accepted on their own authenticated call. The last acceptance is told
to start the game (exactly once: the answer is one Lua script, events/lua/answer_invitation.lua),
and only then does the game's log, and so its clock, exist. A decline, or the deadline passing,
cancels the game for everyone; the pending hash stays, as the game's status, until it expires.

    invitations.create(redis, game_id, spec, {1: "p1234"}, deadline=now + 3600, ttl=86400, now=now)
    outcome = invitations.answer(redis, game_id, seat=1, player="p1234", accept=True, now=now)
    if outcome == "start": ...create the game from invitations.load(redis, game_id).spec...

Each invitee's sorted set (keys.player_invitations) lists the invitations they received. The
deadline is also a member of the deadline index, so the expiry is stored and told when it comes
(`expire`, from workers/invitations.py), not only found by the next one who looks.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import keys
from .replies import text
from .scripts import lua, run_script

ANSWER_LUA = lua("answer_invitation.lua")
WAITING, STARTING, STARTED, CANCELLED = "waiting", "starting", "started", "cancelled"
LIST_LIMIT = 100


class InvitationRefused(Exception):
    """An answer that cannot be taken: `code` says why (not_found, answered, cancelled, expired)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


GUEST = "t:"                # an invitee who is a seat token's holder (a rematch's guest seat), not a player


def is_player(invitee: str) -> bool:
    """Whether an invitee is a registered player (else: the holder of a guest seat's old token)."""
    return not invitee.startswith(GUEST)


def invitation_id(game_id: str, seat: int) -> str:
    return f"{game_id}.{seat}"


def parse_id(iid: str) -> tuple[str, int]:
    """(game id, seat) of an invitation id; InvitationRefused('not_found') when it is not one."""
    game_id, _, seat = iid.rpartition(".")
    if not keys.valid_game_id(game_id) or not seat.isdigit() or len(seat) > 1:
        raise InvitationRefused("invitation_not_found", f"There is no invitation {iid!r}; it may have been withdrawn or have expired.")
    return game_id, int(seat)


@dataclass(frozen=True)
class Pending:
    """A game waiting for invitations, as stored: what to create, who is invited, how it stands."""
    game_id: str
    spec: dict[str, Any] = field(repr=False)          # what server/games.py needs to create the game
    status: str                             # waiting | starting | started | cancelled
    reason: str                             # '' | invitation_declined | invitation_expired
    deadline: float
    created: float
    changed: float                          # when the status last changed
    invited: dict[int, str]                 # seat -> invited player id
    answers: dict[int, str]                 # seat -> invited | accepted | declined

    def seen_at(self, now: float) -> "Pending":
        """The status as of `now`: a waiting game whose deadline passed is cancelled (not stored yet:
        the next answer stores it)."""
        if self.status == WAITING and now >= self.deadline:
            return Pending(self.game_id, self.spec, CANCELLED, "invitation_expired", self.deadline, self.created,
                           self.deadline, self.invited, self.answers)
        return self

    @property
    def status_text(self) -> str:
        if self.status == CANCELLED:
            return f"cancelled: {self.reason.replace('_', ' ')}"
        waiting = [s for s, a in self.answers.items() if a == "invited"]
        if self.status == WAITING:
            return f"waiting for {len(waiting)} invited player{'s' if len(waiting) != 1 else ''} to accept"
        return self.status


def create(redis: Any, game_id: str, spec: dict[str, Any], invited: dict[int, str], *, deadline: float, ttl: int,
           now: float) -> None:
    """Keep a game waiting for `invited` (seat -> player id) until `deadline`; forget it after `ttl`."""
    fields: dict[str, Any] = {"spec": json.dumps(spec), "status": WAITING, "reason": "", "deadline": repr(deadline),
                              "created": repr(now), "at": repr(now), "open": len(invited)}
    for seat, pid in invited.items():
        fields[f"p{seat}"], fields[f"s{seat}"] = pid, "invited"
    pipe = redis.pipeline(transaction=True)
    pipe.hset(keys.pending_game(game_id), mapping=fields)
    pipe.expire(keys.pending_game(game_id), ttl)
    pipe.execute()
    for seat, pid in invited.items():
        if not is_player(pid):
            continue
        pipe = redis.pipeline(transaction=False)
        pipe.zadd(keys.player_invitations(pid), {invitation_id(game_id, seat): now})
        pipe.zremrangebyscore(keys.player_invitations(pid), "-inf", now - ttl)     # forget expired ones
        pipe.expire(keys.player_invitations(pid), ttl)
        pipe.execute()


def load(redis: Any, game_id: str) -> Pending | None:
    raw = redis.hgetall(keys.pending_game(game_id))
    return _pending(game_id, raw) if raw else None


def _pending(game_id: str, raw: dict[str, Any]) -> Pending:
    f = {text(k): text(v) for k, v in raw.items()}
    invited = {int(k[1:]): v for k, v in f.items() if k.startswith("p") and k[1:].isdigit()}
    return Pending(game_id, json.loads(f["spec"]), f["status"], f.get("reason", ""), float(f["deadline"]),
                   float(f["created"]), float(f.get("at", f["created"])), invited,
                   {s: f.get(f"s{s}", "invited") for s in invited})


def answer(redis: Any, game_id: str, seat: int, player: str, *, accept: bool, now: float,
           token_hash: str = "") -> str:
    """Record the player's answer: 'accepted' (others still to answer), 'start' (the last acceptance:
    the caller now creates the game) or 'declined'. An acceptance gives the seat to the player and
    to `token_hash` in the same step. Raises InvitationRefused otherwise."""
    iid = invitation_id(game_id, seat)
    reply = _run_answer(redis, game_id, [seat, player, "accepted" if accept else "declined", repr(now), token_hash])
    outcome = reply[0]
    if outcome in ("missing", "not_yours"):
        raise InvitationRefused("invitation_not_found", f"You have no invitation {iid!r}; look at your invitations again.")
    if outcome == "closed":
        status, reason = reply[1], reply[2]
        if status == CANCELLED:
            raise InvitationRefused(reason or "game_cancelled",
                                    f"This game was cancelled ({(reason or 'cancelled').replace('_', ' ')}); "
                                    "start a new game to play.")
        raise InvitationRefused("invitation_answered", f"This game has {status} already; open it from your games.")
    if outcome == "answered":
        raise InvitationRefused("invitation_answered", f"You have {reply[1]} invitation {iid!r} already; nothing more to do.")
    return outcome


def withdraw(redis: Any, game_id: str, now: float) -> bool:
    """Cancel a game still waiting (a rematch its offerer takes back); False when it no longer waits
    (started, or cancelled already): one step with the answers, so a last acceptance and a
    withdrawal never both win."""
    return _run_answer(redis, game_id, ["", "", "withdraw", repr(now), ""])[0] == "withdrawn"


def expire(redis: Any, game_id: str, now: float) -> tuple[str, str] | None:
    """Cancel a game still waiting once its deadline has passed (one step with the answers, so a
    last acceptance and the expiry never both win); (status, reason) as it then stands, None when
    it is gone."""
    reply = _run_answer(redis, game_id, ["", "", "expire", repr(now), ""])
    if reply[0] == "missing":
        return None
    return (WAITING, "") if reply[0] == "waiting" else (reply[1], reply[2])


def _run_answer(redis: Any, game_id: str, args: list[Any]) -> list[Any]:
    """lua/answer_invitation.lua on the game's pending hash, seat tokens and seat players; its reply as text."""
    reply = run_script(redis, ANSWER_LUA, [keys.pending_game(game_id), keys.seat_tokens(game_id),
                                           keys.seat_players(game_id)], args)
    return [text(r) for r in reply]


def mark(redis: Any, game_id: str, status: str, now: float) -> None:
    redis.hset(keys.pending_game(game_id), mapping={"status": status, "at": repr(now)})


def of_player(redis: Any, player: str, now: float) -> list[tuple[int, Pending]]:
    """(seat, pending game) of the player's invitations still kept, newest first."""
    ids = [text(i) for i in redis.zrevrange(keys.player_invitations(player), 0, LIST_LIMIT - 1)]
    pipe = redis.pipeline(transaction=False)
    parsed = []
    for iid in ids:
        game_id, seat = parse_id(iid)
        parsed.append((game_id, seat))
        pipe.hgetall(keys.pending_game(game_id))
    out = []
    for (game_id, seat), raw in zip(parsed, pipe.execute()):
        if raw:
            out.append((seat, _pending(game_id, raw).seen_at(now)))
    return out
