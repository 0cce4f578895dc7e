"""A rematch is an offer: every player of the finished game accepts on their own call.

    POST   /games/{id}/rematch    offer one (or accept the offer in force): 202 with the offer until
                                  the last acceptance, whose call answers 201 with the new game's id
                                  and the caller's own seat token
    GET    /games/{id}/rematch    the offer, and once the game exists, the caller's own seat
    DELETE /games/{id}/rematch    the offerer withdraws it; any other player declines it

The offer is a game waiting for every human seat (server/starting.py, with each seat's
`answer_by`): a registered player answers as that player, a guest seat with its old seat token,
the computer accepts at once. However many players click, one game results (events/rematches.py).
Each acceptor's seat token in the new game is derived from the credential they answered with
(HMAC-SHA256 keyed with it), so the server keeps only its hash and a guest can fetch it again
with its old token; nobody ever receives another seat's token. Offers expire after
ARENA_REMATCH_TIMEOUT seconds. Everyone is told through notification kind `rematch_offer`, and
everyone following the finished game's stream (with chat=1, which stays open after the game) gets
a `rematch` event with the offer as it stands (events/rematches.standing, no token) at each change.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json

from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from events import accounts, invitations, keys, rematches, roster, tokens
from events.clocks import now
from events.invitations import CANCELLED, InvitationRefused, Pending
from workers import notify

from . import auth, limits, sessions, sse, starting
from . import invitations as waiting
from .context import Arena
from .errors import ApiError
from .games import problems

blp = Blueprint("rematch", __name__, url_prefix="/games", description="Rematches")


class RematchSeatOut(Schema):
    seat = fields.Integer(metadata={"description": "the seat in the new game"})
    previous_seat = fields.Integer()
    name = fields.String()
    player = fields.String(allow_none=True)
    bot = fields.Boolean()
    accepted = fields.Boolean()


class RematchOut(Schema):
    game_id = fields.String(metadata={"description": "the finished game"})
    status = fields.String(metadata={"description": "none | offered | starting | started | declined | withdrawn | expired"})
    text = fields.String(metadata={"description": "how the offer stands, in words"})
    rematch_id = fields.String(allow_none=True, metadata={"description": "the new game's id (it exists once started)"})
    id = fields.String(metadata={"description": "once started: the new game's id"})
    offered_by = fields.Integer(allow_none=True, metadata={"description": "the offerer's seat in the new game"})
    expires = fields.String(allow_none=True)
    seats = fields.List(fields.Nested(RematchSeatOut))
    seat = fields.Integer(allow_none=True, metadata={"description": "your seat in the new game"})
    accepted = fields.Boolean(metadata={"description": "whether you have accepted"})
    token = fields.String(metadata={"description": "once started and accepted: your own seat's token, only yours"})


class Answerer:
    """Who answers for a seat of the finished game: the seat, who must accept for it, and the
    credential the call came with (a bearer token or the session cookie)."""

    def __init__(self, game_id: str) -> None:
        redis = Arena.of().redis
        caller = auth.caller_for_game(redis, game_id, required=True)
        if caller.seat is None:
            raise ApiError(403, "not_your_seat", "Only a player of this game can answer its rematch; start a new game instead.")
        self.seats = roster.seats(redis, game_id)
        self.old_seat = caller.seat
        self.seat = (caller.seat - 1) % len(self.seats)          # everyone moves one seat forward
        self.player = self.seats[caller.seat].get("player")
        self.identity = self.player or f"{invitations.GUEST}{caller.seat}"
        self.credential = auth.bearer() or request.cookies.get(sessions.COOKIE) or ""

    def token(self, offer_id: str) -> str:
        digest = hmac.new(self.credential.encode(), f"rematch:{offer_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _spec(game_id: str, offerer: Answerer) -> starting.GameSpec:
    """The finished game again: same players, schools, teams, time limit; the next seat starts."""
    arena = Arena.of()
    state = arena.service.load(game_id).state
    if state.get("phase") != "over":
        raise ApiError(409, "game_not_over", "The game is still being played; a rematch can start once it is over.")
    info = roster.info(arena.redis, game_id)
    n = len(offerer.seats)
    seats = []
    for old in [*range(1, n), 0]:
        s = offerer.seats[old]
        level = roster.bot_level(s)
        seats.append(starting.Seat(s["name"], state["seats"][old]["school"], s.get("player"), level is not None,
                                   None if level is not None else s.get("player") or f"{invitations.GUEST}{old}",
                                   bot_level=level))
    return starting.GameSpec(state["form"], tuple(seats), teams=bool(state.get("teams")),
                             time_control=info.get("time_control"),
                             rated=info.get("rated", True) is not False or bool(info.get("start_chosen_by_creator")),
                             creator=offerer.player, origin="rematch",
                             extra={"rematch_of": game_id, "offered_by": offerer.seat,
                                    **({"lobby": True} if info.get("lobby") else {})})


def _open(offer_id: str | None) -> Pending | None:
    pending = invitations.load(Arena.of().redis, offer_id) if offer_id else None
    if pending is None or pending.seen_at(now()).status == CANCELLED:
        return None
    return pending


rematch_answers = limits.limited("rematch", "rematches offered and answered", per_address="120/minute",
                                  per_player="30/minute")


@blp.route("/<game_id>/rematch", methods=["POST"])
@rematch_answers
@blp.response(202, RematchOut)
@blp.alt_response(201, schema=RematchOut, description="the last acceptance: the new game has started")
@problems(401, 403, 404, 409, 429)
def offer(game_id: str):
    """Offer a rematch, or accept the offer in force. Answers 202 with the offer while others have
    still to accept; the last acceptance starts the game and answers 201 with its id and your own
    seat's token (only yours: each player gets theirs through their own call)."""
    redis = Arena.of().redis
    me = Answerer(game_id)
    try:
        with rematches.making(redis, game_id) as offer_id:
            if _open(offer_id) is None:
                started = starting.start(_spec(game_id, me))
                offer_id = started.game_id
                rematches.point(redis, game_id, offer_id)
    except rematches.Busy:
        raise ApiError(409, "rematch_busy", "Another player is offering this rematch right now; look again in a moment.") from None
    _accept(offer_id, me)
    _told(game_id, offer_id)
    view = offer_view(game_id, me)
    return view, 201 if view["status"] == "started" else 202


def _accept(offer_id: str, me: Answerer) -> None:
    redis = Arena.of().redis
    token_hash = tokens.token_hash(me.token(offer_id))
    try:
        outcome = invitations.answer(redis, offer_id, me.seat, me.identity, accept=True, now=now(),
                                     token_hash=token_hash)
    except InvitationRefused as refused:
        if refused.code != "invitation_answered":     # accepted before, or started: the view says
            raise
        return
    if me.player:
        accounts.add_seat_token(redis, me.player, token_hash, offer_id, me.seat)
        roster.add_player_game(redis, me.player, offer_id)
    pending = invitations.load(redis, offer_id)
    if outcome == "start":
        waiting.start_waiting(offer_id, pending.spec)
        _tell(pending, me, "started")


def _tell(pending: Pending, me: Answerer, state: str) -> None:
    """Every other registered player of the offer hears how it stands now."""
    spec = pending.spec
    who = spec["seats"][me.seat]["name"]
    for seat, invitee in pending.invited.items():
        if invitations.is_player(invitee) and invitee != me.player:
            note = notify.stated("rematch_offer", pending.game_id, seat, state, who=who, form=spec["info"]["form"],
                                 rematch_of=spec["info"].get("rematch_of"))
            notify.send(Arena.of().redis, invitee, note)


@blp.route("/<game_id>/rematch")
@blp.response(200, RematchOut)
@problems(401, 403, 404)
def show(game_id: str):
    """The rematch offer of this game (status `none` when there is none) and, once the new game
    exists and you accepted, your own seat in it with its token."""
    return offer_view(game_id, Answerer(game_id))


@blp.route("/<game_id>/rematch", methods=["DELETE"])
@rematch_answers
@blp.response(200, RematchOut)
@problems(401, 403, 404, 409, 429)
def refuse(game_id: str):
    """Withdraw your offer, or decline another player's: the offer is cancelled for everyone."""
    redis = Arena.of().redis
    me = Answerer(game_id)
    offer_id = rematches.current(redis, game_id)
    pending = _open(offer_id)
    if pending is None or pending.status != invitations.WAITING:
        raise ApiError(409, "rematch_not_open", "There is no open rematch offer for this game; offer one instead.")
    if pending.spec["info"].get("offered_by") == me.seat:
        if not invitations.withdraw(redis, offer_id, now()):
            raise ApiError(409, "rematch_not_open", "The rematch has started or ended already; look at it again.")
        state = "withdrawn"
    else:
        invitations.answer(redis, offer_id, me.seat, me.identity, accept=False, now=now())
        state = "declined"
    _tell(pending, me, state)
    _told(game_id, offer_id)
    return offer_view(game_id, me)


def _standing(offer_id: str | None) -> Pending | None:
    """The offer as it stands now (a start under way finished, an expiry seen)."""
    pending = invitations.load(Arena.of().redis, offer_id) if offer_id else None
    return waiting.resumed(pending).seen_at(now()) if pending is not None else None


def _told(game_id: str, offer_id: str) -> None:
    """Everyone following the finished game's stream hears how the offer stands now."""
    pending = _standing(offer_id)
    if pending is not None:
        rematches.tell(Arena.of().redis, game_id, pending)


def offer_view(game_id: str, me: Answerer) -> dict:
    """The offer as `me` sees it: who has accepted, until when; once started, my own seat."""
    redis = Arena.of().redis
    offer_id = rematches.current(redis, game_id)
    pending = _standing(offer_id)
    base = {"game_id": game_id, "seat": me.seat, "accepted": False}
    if pending is None or offer_id is None:
        return {**base, "status": "none", "rematch_id": None, "offered_by": None, "expires": None, "seats": [],
                "text": "Nobody has offered a rematch."}
    out = {**base, **rematches.standing(game_id, pending)}
    status, seats = out["status"], out["seats"]
    mine = seats[me.seat]["accepted"]
    out.update(accepted=mine, text=_text(status, seats, mine))
    if status == "started" and mine:
        token = me.token(offer_id)
        if me.player and tokens.seat_of(redis, offer_id, token) is None:    # accepted from another device
            tokens.add_seat_token(redis, offer_id, token, me.seat, me.player)
        out.update(id=offer_id, token=token)
    return out


def _text(status: str, seats: list[dict], mine: bool) -> str:
    waiting_for = [s["name"] for s in seats if not s["accepted"]]
    if status == "offered":
        return (f"Waiting for {' and '.join(waiting_for)} to accept." if mine else
                "A rematch is offered: accept it to play again.")
    return {"starting": "The rematch is starting.", "started": "The rematch has started.",
            "declined": "The rematch was declined.", "withdrawn": "The rematch offer was withdrawn.",
            "expired": "The rematch offer expired."}[status]


def news_source(game_id: str, after: sse.StreamId) -> sse.Source:
    """The finished game's rematch news after `after`, as `rematch` events (the same for everyone:
    each viewer then asks GET /games/{id}/rematch for its own view, and its token once started)."""
    return sse.Source(keys.rematch_news(game_id), after, render_news)


def render_news(entries, viewer=None) -> list[sse.Frame]:
    frames = []
    for sid, fields_ in entries:
        text = sid.decode() if isinstance(sid, bytes) else sid
        frames.append(sse.Frame(sse.parse_id(text), sse.frame(text, "rematch", json.loads(sse.field(fields_, "data")))))
    return frames
