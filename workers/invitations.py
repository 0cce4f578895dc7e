"""Invitations that run out: the game waiting for them is cancelled, and both sides are told.

When a game's invitation deadline (a member `invitation:<game>` of the deadline index, added by
server/invitations.py) comes due, a game still waiting is cancelled in the same step the answers
take (events/invitations.expire), so a last acceptance and the expiry never both win. Then every
invitee and the inviter (a registered creator) get an `invitation_expired` notification in their
inbox, on their stream and by webhook. A notification's id is the same however often this runs
(a loop that died mid-way, a member dealt with twice), so each player is told once.
"""
from __future__ import annotations

from typing import Any

from events import invitations, rematches, unmoved
from events.invitations import CANCELLED, WAITING

from . import notify
from events.settings import Settings

EXPIRED = "invitation_expired"


def expire(redis: Any, game_id: str, settings: Settings, now: float) -> float | None:
    """Cancel and tell, if the game still waited at its deadline; when to look again (None: done)."""
    stands = invitations.expire(redis, game_id, now)
    if stands is None:
        return None
    if stands[0] == WAITING:
        pending = invitations.load(redis, game_id)
        return pending.deadline if pending is not None else None
    if stands != (CANCELLED, EXPIRED):
        return None                             # started, or declined (the decline told the creator)
    pending = invitations.load(redis, game_id)
    if pending is None:
        return None
    unmoved.release(redis, game_id, pending.spec.get("owners", []))
    tell(redis, pending, settings, now)
    return None


def tell(redis: Any, pending: invitations.Pending, settings: Settings, now: float) -> None:
    spec, game_id = pending.spec, pending.game_id
    if spec["info"].get("origin") == "rematch":
        rematches.tell(redis, spec["info"]["rematch_of"], pending)     # on the finished game's stream
        for seat, pid in pending.invited.items():
            if invitations.is_player(pid):
                note = notify.stated("rematch_offer", game_id, seat, "expired", form=spec["info"]["form"],
                                     rematch_of=spec["info"].get("rematch_of"))
                notify.send(redis, pid, note, settings, now=now)
        return
    form = spec["info"]["form"].replace("_", " ")
    silent = [s for s, answer in pending.answers.items() if answer == "invited"]
    names = ", ".join(spec["seats"][s]["name"] for s in silent) or "nobody"
    for seat, pid in pending.invited.items():
        note = notify.notification(EXPIRED, game_id, seat, 0, invitation=invitations.invitation_id(game_id, seat),
                                   text=f"The invitation to a game of {form} {_with(spec, seat)} has expired: not "
                                        f"everyone accepted in time. The game is cancelled.")
        notify.send(redis, pid, note, settings, now=now)
    creator = spec.get("creator")
    if creator:
        seat = spec.get("creator_seat")
        note = notify.notification(EXPIRED, game_id, -1 if seat is None else seat, 0, waiting_for=silent,
                                   text=f"Your invitation to a game of {form} {_with(spec, seat)} has expired: {names} "
                                        f"did not accept in time. The game is cancelled.")
        notify.send(redis, creator, note, settings, now=now)


def _with(spec: dict[str, Any], seat: int | None) -> str:
    """'with Bob and Cy': the game named by the other players, as a person knows it (not by its id)."""
    others = [s["name"] for i, s in enumerate(spec["seats"]) if i != seat]
    return "with " + (" and ".join([", ".join(others[:-1]), others[-1]]) if len(others) > 1 else others[0])
