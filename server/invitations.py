"""Invitations: a registered player named in a new game answers before anyone plays their seat.

    GET  /players/me/invitations                  the invitations you received, open ones first
    POST /players/me/invitations/{id}/accept      -> your seat's token (the last acceptance starts the game)
    POST /players/me/invitations/{id}/decline     -> the game is cancelled for everyone

A game waiting for invitations is shown by GET /games/{id} with status `waiting_for_players`, then
`cancelled` (status_text says why: declined or expired) or, once started, as any game. The store
is events/invitations.py; each invitee is told through the notifications path (inbox, stream and
webhook: kind `invitation`), and a creator who is a registered player hears each answer.
"""
from __future__ import annotations

from flask import Flask
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from events import GameNotFound, accounts, due, invitations, keys, roster, tokens, unmoved
from events.clocks import format_epoch, now
from events.invitations import CANCELLED, STARTING, WAITING, InvitationRefused, Pending
from workers import notify

from . import auth
from .context import Arena
from .apidoc import problems
from .errors import ApiError, problem
from .launch import launch
from .limits import bot_has_room, limited

blp = Blueprint("invitations", __name__, url_prefix="/players", description="Invitations to play")
STATUS = {WAITING: "waiting_for_players", STARTING: "starting", CANCELLED: "cancelled", "started": "started"}
RESTART_AFTER = 10.0            # seconds a start may take before a reader starts the game itself


class InvitationOut(Schema):
    id = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    status = fields.String(metadata={"description": "invited | accepted | declined | expired | cancelled | started"})
    game_status = fields.String()
    form = fields.String()
    name = fields.String(metadata={"description": "the name the seat will carry"})
    players = fields.List(fields.Dict())
    invited_by = fields.String(allow_none=True)
    invited_by_name = fields.String(metadata={"description": "the inviter's name"})
    created = fields.String()
    expires = fields.String()
    kind = fields.String(metadata={"description": "invitation, or rematch_offer"})
    rated = fields.Boolean()
    start_chosen_by_creator = fields.Boolean()
    start_text = fields.String(allow_none=True, metadata={"description": "the creator chose the start: said here"})


class InvitationsOut(Schema):
    invitations = fields.List(fields.Nested(InvitationOut))


class AcceptedOut(Schema):
    id = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String(metadata={"description": "your seat's token (your player token acts for the seat too)"})
    game_status = fields.String()


class DeclinedOut(Schema):
    id = fields.String()
    game_id = fields.String()
    game_status = fields.String()


# --- what the creation and the views show ---------------------------------------------------------

def seat_status(pending: Pending, seat: int) -> str:
    if seat not in pending.invited:
        return "claimed"
    return pending.answers[seat]


def pending_view(game_id: str, seat: int | None) -> dict | None:
    """GET /games/{id} of a game that is not started: its seats and how the invitations stand."""
    arena = Arena.of()
    pending = invitations.load(arena.redis, game_id)
    if pending is None or pending.status == "started":
        return None
    pending = resumed(pending).seen_at(now())
    spec = pending.spec
    return {"id": game_id, "version": 0, "latest": 0, "seat": seat, "status": STATUS[pending.status],
            "status_text": pending.status_text, "form": spec["info"]["form"], "teams": spec["options"]["teams"],
            "players": [{"seat": i, "name": s["name"], "player": s.get("player"), **roster.seat_fields(s),
                         "status": seat_status(pending, i)} for i, s in enumerate(spec["seats"])],
            "time_control": spec["info"].get("time_control"), "clocks": None, **roster.fairness(spec["info"]),
            "invitations": {"expires": format_epoch(pending.deadline), "reason": pending.reason or None}}


def not_started(game_id: str) -> ApiError | None:
    """The refusal for acting on a game still waiting for its players (None: no such pending game)."""
    pending = invitations.load(Arena.of().redis, game_id)
    if pending is None or pending.status == "started":
        return None
    pending = pending.seen_at(now())
    if pending.status == CANCELLED:
        return ApiError(409, "game_cancelled", f"This game was {pending.status_text}; start a new game to play.")
    return ApiError(409, "game_not_started", f"This game has not started: {pending.status_text}; look again once everyone has accepted.")


def register(app: Flask) -> None:
    """An unknown game may be one still waiting for its players: say so instead of 404."""
    app.register_error_handler(GameNotFound, _game_not_found)
    app.register_error_handler(InvitationRefused, lambda e: problem(
        404 if e.code == "invitation_not_found" else 409, e.code, e.detail))


def _game_not_found(err: GameNotFound):
    refusal = not_started(err.game_id) if keys.valid_game_id(err.game_id) else None
    if refusal is None:
        return problem(404, "game_not_found", f"There is no game {err.game_id!r}; check the link.")
    return problem(refusal.status, refusal.code, refusal.detail)


def resumed(pending: Pending) -> Pending:
    """A start that was cut short (its process died) is finished by whoever looks at the game next."""
    if pending.status != STARTING or now() - pending.changed < RESTART_AFTER:
        return pending
    start_waiting(pending.game_id, pending.spec)
    return invitations.load(Arena.of().redis, pending.game_id) or pending


def start_waiting(game_id: str, spec: dict) -> None:
    launch(game_id, spec)
    invitations.mark(Arena.of().redis, game_id, "started", now())


# --- creating the invitations (POST /games) --------------------------------------------------------

def invite(game_id: str, spec: dict, invited: dict[int, str], creator: str | None, timeout: int,
           kind: str = "invitation") -> float:
    """Keep the game waiting for `invited` (seat -> player, or 't:<token hash>' for a guest seat of a
    rematch) and tell each registered one (notification `kind`); the deadline."""
    arena = Arena.of()
    moment = now()
    deadline = moment + timeout
    invitations.create(arena.redis, game_id, spec, invited, deadline=deadline, ttl=spec["ttl"] + timeout, now=moment)
    due.add(arena.redis, {due.member("invitation", game_id): deadline})        # told when it runs out
    who = inviter_name(spec)
    said = spec["info"].get("start_text")
    for seat, pid in invited.items():
        if not invitations.is_player(pid) or pid == creator:
            continue
        iid = invitations.invitation_id(game_id, seat)
        note = notify.stated(kind, game_id, seat, "offered", who=who, form=spec["info"]["form"], invitation=iid,
                             by=creator, expires=format_epoch(deadline),
                             **({"rematch_of": spec["info"]["rematch_of"]} if "rematch_of" in spec["info"] else {}))
        if said:
            note["text"] += f" {said}"
        notify.send(arena.redis, pid, note)
    return deadline


def inviter_name(spec: dict) -> str:
    """Who invites: the offerer's seat name (a rematch), the creator's seat name, else their account's
    name (a creator who does not play)."""
    seat = spec["info"].get("offered_by", spec.get("creator_seat"))
    if seat is not None:
        return spec["seats"][seat]["name"]
    account = accounts.load(Arena.of().redis, spec["creator"]) if spec.get("creator") else None
    return account.name if account is not None and account.name else "Someone"


# --- the invitee's side ------------------------------------------------------------------------------

def _listed(seat: int, pending: Pending) -> dict:
    answer = pending.answers[seat]
    status = answer if answer != "invited" else ("expired" if pending.reason == "invitation_expired" else
                                                  "cancelled" if pending.status == CANCELLED else "invited")
    if pending.status == "started":
        status = "started"
    spec = pending.spec
    return {"id": invitations.invitation_id(pending.game_id, seat), "game_id": pending.game_id, "seat": seat,
            "status": status, "game_status": STATUS[pending.status], "form": spec["info"]["form"],
            "name": spec["seats"][seat]["name"],
            "players": [{"seat": i, "name": s["name"], "status": seat_status(pending, i), **roster.seat_fields(s)}
                        for i, s in enumerate(spec["seats"])],
            "invited_by": spec.get("creator"), "invited_by_name": inviter_name(spec), "created": format_epoch(pending.created),
            "expires": format_epoch(pending.deadline), **roster.fairness(spec["info"]),
            "kind": "rematch_offer" if spec["info"].get("origin") == "rematch" else "invitation"}


@blp.route("/me/invitations")
@blp.response(200, InvitationsOut)
@problems(401)
def my_invitations():
    """The invitations you received (kept until they expire), those still open first."""
    arena = Arena.of()
    pid = auth.require_player(arena.redis)
    rows = [_listed(seat, p) for seat, p in invitations.of_player(arena.redis, pid, now())]
    rows.sort(key=lambda r: r["status"] != "invited")
    return {"invitations": rows}


def _answer(iid: str, accept: bool, token: str = "") -> tuple[str, int, str, str]:
    arena = Arena.of()
    pid = auth.require_player(arena.redis)
    if accept:
        bot_has_room(arena.redis, pid)
    game_id, seat = invitations.parse_id(iid)
    outcome = invitations.answer(arena.redis, game_id, seat, pid, accept=accept, now=now(),
                                 token_hash=tokens.token_hash(token) if token else "")
    return pid, seat, game_id, outcome


@blp.route("/me/invitations/<iid>/accept", methods=["POST"])
@limited("answer", "invitations answered", per_address="300/minute", per_player="60/minute")
@blp.response(200, AcceptedOut)
@problems(401, 404, 409, 429)
def accept(iid: str):
    """Take the seat you were invited to: its token is yours. The last acceptance starts the game."""
    arena = Arena.of()
    token = tokens.new_token()
    pid, seat, game_id, outcome = _answer(iid, True, token)
    accounts.add_seat_token(arena.redis, pid, tokens.token_hash(token), game_id, seat)
    roster.add_player_game(arena.redis, pid, game_id)
    pending = invitations.load(arena.redis, game_id)
    if outcome == "start":
        start_waiting(game_id, pending.spec)
    _tell_creator(pending, seat, "accepted")
    return {"id": iid, "game_id": game_id, "seat": seat, "token": token,
            "game_status": "started" if outcome == "start" else STATUS[WAITING]}


@blp.route("/me/invitations/<iid>/decline", methods=["POST"])
@limited("answer", "invitations answered", per_address="300/minute", per_player="60/minute")
@blp.response(200, DeclinedOut)
@problems(401, 404, 409)
def decline(iid: str):
    """Refuse the seat: the game is cancelled for everyone."""
    arena = Arena.of()
    _, seat, game_id, _ = _answer(iid, False)
    pending = invitations.load(arena.redis, game_id)
    unmoved.release(arena.redis, game_id, pending.spec["owners"])
    _tell_creator(pending, seat, "declined")
    return {"id": iid, "game_id": game_id, "game_status": STATUS[CANCELLED]}


def _tell_creator(pending: Pending | None, seat: int, answer: str) -> None:
    creator = pending.spec.get("creator") if pending else None
    if not creator:
        return
    name = pending.spec["seats"][seat]["name"]
    note = notify.notification("invitation_answered", pending.game_id, seat, 0, answer=answer,
                               invitation=invitations.invitation_id(pending.game_id, seat),
                               text=f"{name} has {answer} your invitation to game {pending.game_id}.")
    notify.send(Arena.of().redis, creator, note)
