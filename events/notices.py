"""Every kind of notification, declared once with each of its renderings.

A notification is stored in the player's inbox (events/inbox.py) as JSON whose `type` is one of
these kinds; its webhook carries the kind as `X-Arena-Event` (workers/webhooks.py); its e-mail, for
the kinds a player may want mailed, takes `subject` (workers/email.py); the page (GET
/notices.json) takes `label` for the news list and `link` to say whether the note links its game.
A kind with `push` may go to the browsers the player opted in on (Web Push, events/push.py and
workers/push.py), on unless the player turned it off when `push` is True, off until turned on when
False; its push shows `subject` as the title and the note's text as the body.
A kind with `texts` has its inbox text made here, from one template per `state` of it.

    notices.text("rematch_offer", "offered", who="Ann", form="duel")
    notices.subject("your_turn", game="ab12")
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Kind:
    name: str
    label: str                          # the page's name for it
    subject: str                        # the e-mail subject (str.format with the note's fields and `game`)
    link: bool = True                   # the page links the note to its game
    texts: dict[str, str] = field(default_factory=dict)     # state -> inbox text (str.format)
    push: bool | None = None            # pushed to the player's browsers: on by default, off, or never


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("your_turn", "Your turn", "Your turn in game {game}", push=True),
    Kind("deadline_soon", "Time runs out soon", "Your time runs out in game {game}", push=True),
    Kind("opponent_moved", "An opponent moved", "An opponent moved in game {game}"),
    Kind("conditional_reply", "Conditional reply", "Your conditional replies in game {game}", push=True),
    Kind("game_over", "Game over", "Game {game} is over", push=True),
    Kind("chat_mention", "Mentioned in chat", "{who} mentioned you in game {game}", push=True),
    Kind("invitation", "Invitation", "{who} invites you to a game", push=True, texts={
        "offered": "{who} invites you to a game of {form} (seat {seat_number}). Accept or decline it."}),
    Kind("invitation_answered", "Invitation answered", "Your invitation was answered"),
    Kind("invitation_expired", "Invitation expired", "An invitation expired", link=False),
    Kind("table_expired", "Table expired", "Your lobby table expired", link=False),
    Kind("rematch_offer", "Rematch", "{who} offers a rematch of game {game}", push=True, texts={
        "offered": "{who} offers a rematch of your game of {form} (you would play seat {seat_number}). "
                   "Accept or decline it on the game's page.",
        "started": "The rematch of your game of {form} has started: everyone accepted.",
        "declined": "{who} declined the rematch of your game of {form}.",
        "withdrawn": "{who} withdrew the rematch offer of your game of {form}.",
        "expired": "The rematch offer of your game of {form} expired: not everyone accepted in time."}),
)}


def kind(name: str) -> Kind:
    if name not in KINDS:
        raise ValueError(f"unknown notification kind {name!r}")
    return KINDS[name]


def _words(fields: dict[str, Any]) -> dict[str, Any]:
    out = dict(fields)
    if isinstance(out.get("form"), str):
        out["form"] = out["form"].replace("_", " ")
    if isinstance(out.get("seat"), int):
        out["seat_number"] = out["seat"] + 1
    return out


def text(name: str, state: str, **fields: Any) -> str:
    """The inbox text of a kind declared with `texts`, in the given state."""
    return kind(name).texts[state].format(**_words(fields))


def ref(name: str, state: str) -> int:
    """A number per state of the kind, so that each state's notification has its own id."""
    return list(kind(name).texts).index(state)


def subject(name: str, **fields: Any) -> str:
    """The e-mail subject of a notification of this kind (missing fields read as 'someone')."""
    class Some(dict[str, Any]):
        def __missing__(self, key: str) -> str:
            return "Someone" if key == "who" else ""
    return kind(name).subject.format_map(Some(_words(fields)))


def pushed() -> dict[str, bool]:
    """The kinds that may be pushed to a browser, each with whether it is on by default."""
    return {k.name: k.push for k in KINDS.values() if k.push is not None}


def push_message(note: dict[str, Any]) -> dict[str, Any]:
    """What a browser shows for a pushed notification: a title, a body and the page a click opens."""
    name, game = note["type"], str(note.get("game_id", ""))
    return {"id": note["id"], "kind": name, "title": subject(name, **{**note, "game": game}),
            "body": str(note.get("text", ""))[:1000], "url": f"/play/{game}" if kind(name).link and game else "/"}


def served() -> list[dict[str, Any]]:
    """What the page reads (GET /notices.json); `push`: the kind may be pushed to a browser."""
    return [{"kind": k.name, "label": k.label, "link": k.link, "push": k.push is not None} for k in KINDS.values()]
