"""Starting from a given position (puzzles, teaching, tests): one `PositionSet` event holding the
whole state, built from a description of the board, hands, decks, supplies, scores and turn.

    {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}],
     "board": "5/7/9/9/2a3b2/9/9/7/5"  or  [{"square": "c5", "seat": 0, "rank": "common"}],
     "hands": {"0": [...]}, "decks": {"0": [...]}, "discards": {...},
     "legends": {"deck": [...], "discard": [...]}, "flares": {...},
     "supply": {"0": {"non_legendary": 10, "legendary": 3}}, "scores": {"0": 4},
     "tasks": {"current": [...], "next": "...", "deck": [...], "claimed": {"0": [...]}},
     "turn": {"seat": 0, "actions_left": 2}, "seed": "...", "gateways": {"0": "e5"},
     "frozen": {"0": "everfrost-ice-queen"}}

With "teams": true (four seats, engine/teams.py) the board, supplies, scores and claimed tasks are
keyed by team colour (0 or 1), hands, decks and discards by seat.
"""
from __future__ import annotations

import random
from typing import Any, cast

from . import frost, gateway, teams
from .cards import CARDS, RANKS, card_kind
from .errors import malformed
from .evolve import Event
from .geometry import parse_square
from .notation import from_text
from .setup import _capacity, _rules_options, _validate
from .shapes import Pile, PositionSet, Tasks
from .state import State
from .tasks import opening_layout
from .version import rules_stamp


def _by_seat(value: Any, n: int, default: Any, what: str) -> list[Any]:
    out = [default() for _ in range(n)]
    if value is None:
        return out
    if not isinstance(value, dict):
        raise malformed(f"The {what} must be given per seat, keyed by seat number.")
    for key, item in value.items():
        if not str(key).isdigit() or int(key) >= n:
            raise malformed(f"The {what} name seat {key!r}, which this game does not have.")
        out[int(key)] = item
    return out


def _board(value: Any, n: int) -> dict[str, tuple[int, int]]:
    if value is None:
        return {}
    if isinstance(value, str):
        try:
            board = from_text(value)
        except ValueError as exc:
            raise malformed(f"The board could not be read: {exc}.") from None
    elif isinstance(value, list):
        board = {}
        for item in value:
            sq = parse_square(item.get("square")) if isinstance(item, dict) else None
            if sq is None or item.get("rank") not in RANKS or not isinstance(item.get("seat"), int) or sq in board:
                raise malformed("Each piece of the board needs a square, a seat and a rank, with one piece a square.")
            board[sq] = (item["seat"], RANKS[item["rank"]])
    else:
        raise malformed("Give the board as a notation text or as a list of pieces.")
    if any(not 0 <= c < n for c, _ in board.values()):
        raise malformed("A piece of the board belongs to a seat this game does not have.")
    return board


def _cards(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or any(card_kind(c) is None for c in value if isinstance(c, str)) \
            or not all(isinstance(c, str) for c in value):
        raise malformed(f"The {what} must be a list of cards.")
    return list(value)


def from_position(position: dict[str, Any], release: str | None = None) -> list[Event]:
    """A game started from a described position, under `release` (by default today's)."""
    form, schools, seed = _validate(position, choosing=False)
    n = len(schools)
    team_play = teams.requested(position, form)
    colors = teams.seat_colors(n, team_play)
    k = len(set(colors))
    board = _board(position.get("board"), k)
    hands = [_cards(h, "hands") for h in _by_seat(position.get("hands"), n, list, "hands")]
    discards = [_cards(d, "discards") for d in _by_seat(position.get("discards"), n, list, "discards")]
    given = _by_seat(position.get("decks"), n, lambda: None, "decks")
    decks = [_cards(d, "decks") if d is not None else
             _rest(CARDS.decks[schools[i]], hands[i] + discards[i], f"{seed}:deck:{i}") for i, d in enumerate(given)]
    capacity = []
    supplies = _by_seat(position.get("supply"), k, dict, "supply")
    for color in range(k):
        on = [sum(1 for c, r in board.values() if c == color and (r == 3) == leg) for leg in (False, True)]
        default = _capacity(form, k)
        nonleg = supplies[color].get("non_legendary", default[0] - on[0])
        leg = supplies[color].get("legendary", default[1] - on[1])
        if not isinstance(nonleg, int) or not isinstance(leg, int) or nonleg < 0 or leg < 0:
            raise malformed("The pieces in supply must be counted in whole numbers of at least 0.")
        capacity.append([nonleg + on[0], leg + on[1]])
    turn = position.get("turn") or {}
    seat = turn.get("seat", 0)
    actions = turn.get("actions_left", 2)
    if not isinstance(seat, int) or not 0 <= seat < n or not isinstance(actions, int) or actions < 0:
        raise malformed("The turn must name the seat to play and the actions it has left.")
    state: State = {
        "form": form, "teams": team_play, "seats": [{"school": s, "color": c} for s, c in zip(schools, colors)],
        "capacity": capacity, "removed": [[0, 0] for _ in range(k)],
        "board": {sq: [i + 1, c, r] for i, (sq, (c, r)) in enumerate(sorted(board.items()))},
        "next_piece": len(board) + 1, "hands": hands, "decks": decks, "discards": discards,
        "legends": _shared(position.get("legends"), "legends", hands, seed),
        "flares": _shared(position.get("flares"), "flares", hands, seed),
        "tasks": _tasks(position.get("tasks"), form, k, seed), "points": _points(position.get("scores"), form, k),
        "impro": [[c != i for c in range(n)] for i in range(n)] if form == "melee" else None,
        "phase": "play", "effect": None, "pending": None, "final": None, "result": None,
        "rng": {"seed": seed, "draws": 0}, "options": _rules_options(position),
        "turn": {"seat": seat, "number": turn.get("number", 2), "actions": actions, "extra": False,
                 "discarded": False, "flared": False, "destroyed": [], "summons": [], "draws": [],
                 "extra_turn": False, "modifiers": [], "triggered": False},
    }
    gateways = gateway.from_description(position.get("gateways"), state)
    if gateways:
        state["gateways"] = gateways
    frozen = frost.from_description(position.get("frozen"), state)
    if frozen:
        state["frozen"] = frozen
    return [PositionSet(type="PositionSet", state=state, rules=rules_stamp(release))]


def _rest(cards: tuple[str, ...], used: list[str], seed: str) -> list[str]:
    """A deck left unstated: the cards nobody holds, shuffled from the seed (the order is then
    part of the PositionSet event, so replay never shuffles)."""
    rest = [c for c in cards if c not in used]
    random.Random(seed).shuffle(rest)
    return rest


def _shared(value: Any, what: str, hands: list[list[str]], seed: str) -> Pile:
    if value is None:
        return {"deck": _rest(CARDS.decks[what], [c for h in hands for c in h], f"{seed}:{what}"), "discard": []}
    if not isinstance(value, dict):
        raise malformed(f"The {what} must have a deck and a discard pile.")
    return {"deck": _cards(value.get("deck", []), what), "discard": _cards(value.get("discard", []), what)}


def _tasks(value: Any, form: str, n: int, seed: str) -> Tasks | None:
    if form != "high_form":
        return None
    if value is None:
        rng = random.Random(f"{seed}:tasks")
        deck = list(CARDS.decks["tasks"])
        rng.shuffle(deck)
        current, nxt, deck = opening_layout(rng, deck)
        return {"current": current, "next": nxt, "deck": deck, "claimed": [[] for _ in range(n)]}
    current = value.get("current", [])
    for t in current + value.get("deck", []) + ([value["next"]] if value.get("next") else []):
        if t not in CARDS.tasks:
            raise malformed(f"There is no task {t!r}.")
    claimed = _by_seat(value.get("claimed"), n, list, "claimed tasks")
    return {"current": list(current), "next": value.get("next"), "deck": list(value.get("deck", [])),
            "claimed": claimed}


def _points(value: Any, form: str, n: int) -> list[Any]:
    scores = _by_seat(value, n, lambda: 0 if form != "melee" else {}, "scores")
    if form != "melee":
        if not all(isinstance(x, int) for x in scores):
            raise malformed("The scores must be whole numbers.")
        return scores
    out = []
    for seat, by_color in enumerate(scores):
        row = [0] * n
        for c, p in (by_color or {}).items():
            row[int(c)] = p
        out.append(row)
    return out



