"""`legal_commands`: every command a seat may send now, each complete and accepted as is."""
from __future__ import annotations

from itertools import combinations

from . import decisions, etherweave, flares, frost, tasks, teams, timeouts, undo, warp
from .cards import CARDS, card_kind
from .geometry import SQUARES
from .patterns import FREE, Fit, Pieces, Scan
from .shapes import Board, Command
from .state import LEGENDARY, State, color_of, current_turn, enemy_colors, improvisations, supply, turn_actor, two_sided
from .summon import lend_colors, may_pick_up, own_of_kind, pattern_color


def legal_commands(state: State, seat: int, discards: bool = True) -> list[Command]:
    """`discards=False` leaves out the discards (computer players list them only when nothing else is open)."""
    if state.get("phase") == "over" or not 0 <= seat < len(state["seats"]):
        return []
    out: list[Command] = []
    pending = state["pending"]
    if pending:
        if pending["seat"] == seat:
            options, can_skip = decisions.options(state)
            out = _seated(options, seat)
            if can_skip:
                out.append({"type": "skip", "seat": seat})
    elif state["turn"] and turn_actor(state) == seat:
        out = _turn_commands(state, seat, discards)
    out += _seated(undo.commands(state, seat), seat)
    if teams.can_pass(state, seat):
        out.append({"type": "pass_control", "seat": seat})
    if two_sided(state):
        out.append({"type": "resign", "seat": seat})
    if timeouts.can_claim_win(state, seat):
        out.append({"type": "claim_win", "seat": seat})
    return out


def _seated(commands: list[Command], seat: int) -> list[Command]:
    """Copies of commands made elsewhere, naming the seat."""
    return [{**c, "seat": seat} for c in commands]


def _own(commands: list[Command], seat: int) -> list[Command]:
    """Commands made for this listing alone (`summons`, also a bot's), the seat written into them."""
    for c in commands:
        c["seat"] = seat
    return commands


def _turn_commands(state: State, seat: int, discards: bool = True) -> list[Command]:
    if teams.places_only(state, seat):
        return _places(state, seat)
    out = _seated(flares.invocations(state, seat) + frost.thaw_commands(state, seat) + warp.warp_commands(state, seat),
                  seat)
    if current_turn(state)["actions"] > 0:
        out += _places(state, seat) + _own(summons(state, seat), seat) + (_discards(state, seat) if discards else [])
    else:
        out.append({"type": "end_turn", "seat": seat})
        if state["form"] == "high_form":
            out += ({"type": "claim_task", "task": t, "seat": seat} for t in tasks.claimable(state, color_of(state, seat)))
    return out


def _places(state: State, seat: int) -> list[Command]:
    color = color_of(state, seat)
    board = state["board"]
    if supply(state, color)[0] == 0 and not any(p[1] == color and p[2] != LEGENDARY for p in board.values()):
        return []
    return [{"type": "place", "square": sq, "seat": seat} for sq in SQUARES if sq not in board]


def summons(state: State, seat: int) -> list[Command]:
    """Every summon open to the seat: with its own pieces, then improvised with each colour that
    may still lend it a piece (melee), for each being in hand. The board is scanned once, lent
    pieces of every such colour allowed, and each fit goes to the ways of summoning it serves."""
    color = color_of(state, seat)
    out: list[Command] = []
    modes: list[int | None] = [None]
    if state["form"] == "melee":
        modes += [c for c in enemy_colors(state, color) if improvisations(state, seat)[c]]
    lends = [(mode, lend_colors(state, seat, mode)) for mode in modes]
    board = state["board"]
    scan = Scan(Pieces(board), pattern_color(state, seat), frozenset().union(*(lend for _, lend in lends)),
                etherweave.empty_allowance(state))
    spare = supply(state, color)
    kinds = {legendary: own_of_kind(board, color, legendary) for legendary in (False, True) if spare[legendary] == 0}
    for card in dict.fromkeys(state["hands"][seat]):
        being = CARDS.beings.get(card)
        if being is None:
            continue
        kind = kinds.get(being.rank == LEGENDARY)          # the supply is out of the being's kind of piece
        if scan.own_only and being.anchor != FREE and (kind is None or len(kind) > len(being.orientations[0].cells)):
            # no lender, and a piece to pick up whatever the fit: only the targets matter
            out += [{"type": "summon", "card": card, "square": target} for target in scan.targets(being)]
            continue
        found = scan.fits(being)
        for mode, lend in lends:
            for target, fits in found.items():
                if lend != scan.lend or mode is not None:
                    fits = [f for f in fits if _serves(board, f, mode, lend)]
                    if not fits:
                        continue
                if kind is not None and not may_pick_up(kind, target, fits):
                    continue
                cmd: Command = {"type": "summon", "card": card, "square": target}
                if mode is not None:
                    cmd["improvise"] = mode
                out.append(cmd)
    return out


def _serves(board: Board, fit: Fit, mode: int | None, lend: frozenset[int]) -> bool:
    """Whether `fit` is one of a summoning's with those lenders: an improvised one borrows."""
    if fit.borrowed is None:
        return mode is None
    return board[fit.borrowed][1] in lend


def _discards(state: State, seat: int) -> list[Command]:
    if current_turn(state)["discarded"]:
        return []
    pending = etherweave.pending_being(state, seat)           # neither discarded nor returned (13.3)
    hand = [c for c in state["hands"][seat] if c != pending]
    out: list[Command] = []
    for card in dict.fromkeys(hand):
        if card_kind(card) != "being":
            continue
        others = list(hand)
        others.remove(card)
        for n in range(len(others) + 1):
            out += [{"type": "discard", "card": card, "returns": returns, "seat": seat}
                    for returns in map(list, dict.fromkeys(combinations(others, n)))]
    return out
