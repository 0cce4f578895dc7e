"""The Nethervoid Gateway (RULES.md 13.1, the Nethervoid leaflet): which piece carries the glass token.

State: `gateways`, a list by colour of the marked piece's id or None, created by the first Gateway
event (a game without Nethervoid never has the key). Marking is a rule of summoning (`summoned`,
called between `BeingSummoned` and the card's effect) or a card effect (`mark`). Losing the mark is
never decided by the code that removes or changes a piece: `follow` looks after every emitted
event whether each Gateway is still a non-legendary piece of its colour on the board, so any way a
piece can leave (destroyed, converted, upgraded to legendary, picked up, a future effect) is caught.
"""
from __future__ import annotations

from typing import Any, cast

from .cards import CARDS
from .context import Context
from .errors import malformed
from .evolve import Event
from .state import COMMON, LEGENDARY, State, color_of, square_of

NETHERVOID = "nethervoid"
OWN_EVENTS = ("GatewayMarked", "GatewayLost")
LOSS_REASONS = {"PieceDestroyed": "destroyed", "PieceConverted": "converted",
                "PieceRankChanged": "became_legendary", "PiecePickedUp": "picked_up"}


def piece(state: State, color: int) -> int | None:
    """The id of `color`'s Gateway piece, or None."""
    gateways = state.get("gateways")
    return gateways[color] if gateways else None


def square(state: State, color: int) -> str | None:
    """The square of `color`'s Gateway, or None when that colour has no Gateway."""
    pid = piece(state, color)
    return square_of(state, pid) if pid is not None else None


def squares(state: State) -> dict[str, str]:
    """Colour (as a string, for JSON) -> square of its Gateway, for the colours that have one."""
    out = {}
    for color in range(len(state.get("gateways") or ())):
        sq = square(state, color)
        if sq:
            out[str(color)] = sq
    return out


def sole(marked: dict[str, str]) -> str | None:
    """For player_view: the square of the game's one Gateway among the `squares` marked (no two
    seats play the same school, so at most one is Nethervoid), or None."""
    return next(iter(marked.values()), None)


def mark(ctx: Context, color: int, pid: int, reason: str) -> None:
    """Put `color`'s glass token on piece `pid` (moving it from the old Gateway, if any)."""
    if piece(ctx.state, color) == pid:
        return
    ctx.emit("GatewayMarked", color=color, piece=pid, square=square_of(ctx.state, pid), reason=reason,
             previous=square(ctx.state, color))


def summoned(ctx: Context, frame: dict[str, Any], replaced: list[Any] | None) -> None:
    """Leaflet 'When does a piece become the Gateway': applied to a being just put on the board,
    before its effect. `replaced` is the piece that stood on the being square, if any."""
    being = CARDS.beings[frame["card"]]
    if being.deck != NETHERVOID:
        return                                   # legends are not Nethervoid beings
    state, pid = ctx.state, frame["being"]
    color = color_of(state, frame["seat"])
    current = piece(state, color)
    if current is None:
        lost_here = replaced is not None and any(
            e["type"] == "GatewayLost" and e["piece"] == replaced[0] for e in ctx.events)
        mark(ctx, color, pid, "summoned_on_gateway" if lost_here else "no_gateway")
    elif current != pid and _rank(state, current) == COMMON and being.rank > COMMON:
        mark(ctx, color, pid, "higher_rank")


def _rank(state: State, pid: int) -> int:
    return state["board"][cast(str, square_of(state, pid))][2]      # a marked piece is on the board


def follow(ctx: Context, event: Event) -> None:
    """After any event: a Gateway that left the board, changed colour or became legendary loses
    its mark (the leaflet's 'Destruction of the Gateway' and 'Upgrading the Gateway')."""
    gateways = ctx.state.get("gateways")
    if not gateways or event["type"] in OWN_EVENTS:
        return
    for color, pid in enumerate(gateways):
        if pid is None:
            continue
        sq = square_of(ctx.state, pid)
        held = ctx.state["board"][sq] if sq else None
        if held is None or held[1] != color or held[2] == LEGENDARY:
            ctx.emit("GatewayLost", color=color, piece=pid, square=sq or event.get("square"),
                     reason=LOSS_REASONS.get(event["type"], "removed"))


def from_description(value: object, state: State) -> list[int | None] | None:
    """The `gateways` of a position description ({"0": "e5"}), checked against its board; None
    when the description names no Gateway."""
    if not value:
        return None
    if not isinstance(value, dict):
        raise malformed("The Gateways must map each colour to the square of its Gateway.")
    out: list[int | None] = [None] * len(state["capacity"])
    for key, sq in value.items():
        color = int(key) if str(key).isdigit() else -1
        if not _may_hold(state, color, sq):
            raise malformed(f"Colour {key} cannot have a Gateway on {sq!r}: a Gateway is a common or heroic piece of a Nethervoid player.")
        out[color] = state["board"][sq][0]
    return out


def _may_hold(state: State, color: int, sq: object) -> bool:
    """Whether `sq` holds a non-legendary piece of `color`, a colour a Nethervoid seat plays."""
    held = state["board"].get(sq) if isinstance(sq, str) else None
    nether = any(s["school"] == NETHERVOID and s["color"] == color for s in state["seats"])
    return nether and held is not None and held[1] == color and held[2] != LEGENDARY
