"""The warp command (RULES.md 13.3): {"type": "warp", "card": id}.

At the times a flare may be invoked, except in the first round, a player without a pending being
may play the warp effect of an Etherweave card in hand: no pattern, no action, nothing put on the
board. The card becomes the pending being (engine/etherweave.py) and stays in the hand; its warp
text resolves like any effect, and the card is not discarded afterwards.
"""
from __future__ import annotations

from . import etherweave, summon, teams
from .cards import card_kind, card_name
from .context import Context
from .effects.frame import new_frame
from .errors import NO_SUCH_CARD, RuleError, malformed
from .shapes import Command
from .state import State


def warp_commands(state: State, seat: int) -> list[Command]:
    """Every warp open to the seat now (the caller knows it is the seat's free time)."""
    if not _open(state, seat):
        return []
    return [{"type": "warp", "card": c} for c in dict.fromkeys(state["hands"][seat]) if etherweave.has_warp(c)]


def _open(state: State, seat: int) -> bool:
    return not etherweave.first_round(state) and etherweave.pending_being(state, seat) is None \
        and not teams.control_passed(state)


def warp(ctx: Context, seat: int, command: Command) -> None:
    """Play a card's warp effect: it becomes the pending being, then its warp text resolves."""
    s = ctx.state
    card = command.get("card")
    if not isinstance(card, str) or card_kind(card) is None:
        raise malformed(NO_SUCH_CARD)
    if card not in s["hands"][seat]:
        raise RuleError("card_not_in_hand", f"{card_name(card)} is not in your hand; play a card you hold.", etherweave.RULE)
    if not etherweave.has_warp(card):
        raise RuleError("no_warp_effect", f"{card_name(card)} has no warp effect; choose a card that has one.", etherweave.RULE)
    if etherweave.first_round(s):
        raise RuleError("warp_first_round", "No warp effect may be played in the first round; wait for your next turn.", etherweave.RULE)
    if etherweave.pending_being(s, seat) is not None:
        raise RuleError("pending_being_exists", "You already have a pending being; summon or lose it first.",
                        etherweave.RULE)
    if teams.control_passed(s):
        raise RuleError("warps_closed", "No warp may be played once control has been passed this turn.",
                        "RULES 11 team play")
    ctx.emit("WarpPlayed", seat=seat, card=card)
    summon.run_effect(ctx, new_frame(seat, card, ["warp"], kind=etherweave.WARP_FRAME))
