"""Everfrost frozen effects (RULES.md 13.2) and the Everfrost Sentinel's lost actions.

A summoned being with a frozen text resolves its normal effect, then stays face up in play as its
owner's frozen effect instead of being discarded. A seat has at most one: when a second would
enter, the owner chooses which stays (a pending decision) and the other is discarded. Thawing is
a free command ({"type": "thaw"}, engine/actions.py) at the times a flare may be invoked: the card
leaves play, its frozen text resolves as an effect, then the card is discarded. Frozen Chest puts a frozen card
from the discard pile into play, discarding the one in play.

State (both created by their first event, so older states need no migration):
    frozen        [{"card", "turn"} or None] by seat; `turn` is the number of the freezing turn
    lost_actions  [n] by colour: actions the colour's next turn starts without
"""
from __future__ import annotations

from . import teams
from .cards import CARDS
from .context import Context
from .errors import malformed
from .pending import Options, close, decision, raise_decision
from .shapes import Command, FrozenCard
from .state import State, color_of, current_effect, current_turn

THAW_ON_FREEZING_TURN = True
CHOICE = "frozen_choice"


# --- questions ------------------------------------------------------------------------------------

def freezes(card: str) -> bool:
    """Whether the card has a frozen text (the seven Everfrost frozen beings)."""
    being = CARDS.beings.get(card)
    return being is not None and being.frozen is not None


def _slot(state: State, seat: int) -> FrozenCard | None:
    frozen = state.get("frozen")
    return frozen[seat] if frozen else None


def frozen_card(state: State, seat: int) -> str | None:
    slot = _slot(state, seat)
    return slot["card"] if slot else None


def may_thaw_now(state: State, seat: int) -> bool:
    """Whether the seat's frozen card may be thawed now, on its own turn (closed, like flares, once
    a team player has passed control).

    UNCERTAIN (RULES 13.2, 16.4): no official Everfrost leaflet says whether a card may be thawed
    on the very turn it was frozen. BGA allows it, so THAW_ON_FREEZING_TURN is True; set it to
    False to make a frozen card wait for a later turn."""
    slot = _slot(state, seat)
    if slot is None or teams.control_passed(state):
        return False
    return THAW_ON_FREEZING_TURN or slot["turn"] != current_turn(state)["number"]


def thaw_commands(state: State, seat: int) -> list[Command]:
    """The thaw command when the seat may thaw now (the caller knows it is the seat's free time)."""
    return [{"type": "thaw"}] if may_thaw_now(state, seat) else []


# --- entering play ----------------------------------------------------------------------------------

def keep(ctx: Context, seat: int, card: str) -> None:
    """After the summoning effect: keep the card frozen, or ask which of two frozen cards stays."""
    old = frozen_card(ctx.state, seat)
    if old is None:
        ctx.emit("CardFrozen", seat=seat, card=card, source="summon")
        return
    raise_decision(ctx, KEEP_ONE, {"kind": CHOICE, "seat": seat, "card": card, "cards": [old, card]},
                   teams.decider(ctx.state, seat))


def choice_made(ctx: Context, kept: str) -> None:
    frame = current_effect(ctx.state)
    seat, new = frame["seat"], frame["card"]
    close(ctx)
    if kept == new:
        enter(ctx, seat, new, "summon")
    else:
        ctx.emit("CardDiscarded", seat=seat, card=new, deck="school", from_hand=False)


KEEP_ONE = decision(
    CHOICE, lambda state: Options([{"type": "choose", "card": c} for c in current_effect(state)["cards"]]),
    lambda ctx, answer: choice_made(ctx, answer["card"]),
    ask="card", prompt="You may keep one frozen effect: choose the card that stays in play", shows_card=True)


def enter(ctx: Context, seat: int, card: str, source: str) -> None:
    """`card` becomes the seat's frozen effect; the one in play, if any, is discarded."""
    old = frozen_card(ctx.state, seat)
    if old is not None:
        ctx.emit("CardUnfrozen", seat=seat, card=old, reason="replaced")
        ctx.emit("CardDiscarded", seat=seat, card=old, deck="school", from_hand=False)
    ctx.emit("CardFrozen", seat=seat, card=card, source=source)


def from_description(value: object, state: State) -> list[FrozenCard | None] | None:
    """The `frozen` of a position description ({"0": card id}), frozen before the position's turn;
    None when it names none."""
    if not value:
        return None
    if not isinstance(value, dict):
        raise malformed("The frozen cards must map each seat to its frozen card.")
    out: list[FrozenCard | None] = [None] * len(state["seats"])
    for key, card in value.items():
        seat = int(key) if str(key).isdigit() and int(key) < len(out) else None
        if seat is None or not isinstance(card, str) or not freezes(card) \
                or card not in CARDS.decks[state["seats"][seat]["school"]]:
            raise malformed(f"Seat {key} cannot have {card!r} frozen: a frozen card is an Everfrost card of the seat's own school.")
        out[seat] = {"card": card, "turn": 0}
    return out


def revivable(state: State, seat: int) -> list[str]:
    """Frozen cards of the seat's discard pile (Frozen Chest)."""
    return sorted(c for c in set(state["discards"][seat]) if freezes(c))


# --- lost actions (Everfrost Sentinel) ------------------------------------------------------------------

def charge_lost_actions(ctx: Context, seat: int) -> None:
    """At the start of a turn: the actions its colour was made to lose are taken away."""
    s = ctx.state
    owed = s.get("lost_actions", [0] * len(s["capacity"]))[color_of(s, seat)]
    if owed:
        ctx.emit("ActionsLost", seat=seat, count=owed, actions_left=max(0, current_turn(s)["actions"] - owed))
