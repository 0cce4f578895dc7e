"""What one seat knows of a game, and positions sampled from it: the only input of search.

`Knowledge` folds the seat's redacted events (`engine.redact(event, seat)`, what the seat is sent)
through the engine's own reducers, with every card the seat cannot see written as a placeholder
naming its deck ("?northern", "?legends", "?tasks"). So the searchable position is built from the
seat's view by construction: nothing else goes in. `sample` then deals the placeholders: each deck's
cards not seen anywhere, shuffled by the caller's generator, fill its placeholders (others' hands
and every deck's order), and the game seed is replaced by a sampled one, so future shuffles inside
the search are guesses too. Two games that differ only in what the seat cannot see give the same
knowledge, hence, with the same seed, the same samples.

A redacted effect frame shows only its public part, so while an effect waits for an answer the
position is rebuilt from the last quiet moment (no effect, no decision pending) by deciding again
the commands sent since, on each sample.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Mapping, cast

from ..cards import CARDS
from ..decide import advance
from ..errors import RuleError
from ..evolve import fold
from ..position import from_position
from ..releases import release_of
from ..shapes import Command, GameEvent
from ..state import State, clone

HIDDEN = "?"
DECK_OF: dict[str, str] = {card: deck for deck, cards in CARDS.decks.items() for card in cards}
HAND_TAKING = ("BeingSummoned", "CardDiscarded", "FlareInvoked", "WarpPlayed")


def placeholder(deck: str) -> str:
    return HIDDEN + deck


def _deck_id(state: State, deck: str, seat: int | None) -> str:
    """The catalogue deck behind a pile name: a seat's school, or 'legends', 'flares'."""
    return state["seats"][seat]["school"] if deck == "school" and seat is not None else deck


class Knowledge:
    """One seat's knowledge of a game, kept up to date with `observe`."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.state: State = cast("State", {})
        self.anchor: State | None = None          # the last quiet position, while an effect is open
        self.tail: list[Command] = []             # the commands sent since the anchor

    def observe(self, seen: Iterable[Mapping[str, Any]]) -> "Knowledge":
        """Fold more of the seat's redacted events (in order, each once)."""
        for event in seen:
            if event["type"] == "CommandAccepted":
                if quiet(self.state):
                    self.anchor, self.tail = clone(self.state), []
                if not event.get("auto"):
                    self.tail.append(cast("Command", {**event["command"], "seat": event["seat"]}))
            self._fold(dict(event))
        return self

    def _fold(self, event: dict[str, Any]) -> None:
        s, kind = self.state, event["type"]
        if kind == "GameCreated":
            event.setdefault("seed", "")
        elif kind == "PositionSet":
            event["state"] = _from_view(event["state"], self.seat)
        elif kind == "DeckShuffled" and "count" in event:
            event["cards"] = [placeholder(_deck_id(s, event["deck"], event.get("seat")))] * event.pop("count")
        elif kind == "TasksDealt" and "deck_size" in event:
            event["deck"] = [placeholder("tasks")] * event.pop("deck_size")
        elif kind == "CardsDrawn" and "count" in event:
            event["cards"] = [placeholder(_deck_id(s, event["deck"], event["seat"]))] * event.pop("count")
        elif kind == "CardsReturned" and "count" in event:
            event["cards"] = [[d, _take_hidden(s, event["seat"], _deck_id(s, d, event["seat"]))] for d in event.pop("decks")]
            del event["count"]
        elif kind == "LegendsPassed" and "count" in event:
            event["cards"] = [_take_hidden(s, event["seat"], "legends") for _ in range(event.pop("count"))]
        elif kind == "LegendsPassed":
            for card in event["cards"]:
                self._reveal(event["seat"], card)
        elif kind in HAND_TAKING and event.get("from_hand", True):
            self._reveal(event["seat"], event["card"])
        fold(s, [cast("GameEvent", event)])

    def _reveal(self, seat: int, card: str) -> None:
        """A card leaves `seat`'s hand face up. It was in that hand since the turn's kept position
        (a draw drops the checkpoints) and since the last quiet moment, so it is named there too:
        an undo folds the turn's steps again on the kept position, and `sample` decides the tail
        again on the anchor."""
        record = self.state.get("undo")
        kept = record["anchor"] if record else None
        for state in (self.state, kept, self.anchor):
            if state:
                _reveal(state, seat, card)

    def quiet(self) -> bool:
        return quiet(self.state)

    def sample(self, rng: random.Random) -> State | None:
        """One position consistent with what the seat saw, or None when none can be rebuilt (an
        effect opened before any quiet moment, or a command that no sample accepts again)."""
        if quiet(self.state):
            return deal(self.state, rng)
        if self.anchor is None:
            return None
        state = deal(self.anchor, rng)
        try:
            for command in self.tail:
                state = advance(state, command)
        except RuleError:
            return None
        return state


def quiet(state: State) -> bool:
    return bool(state) and not state.get("effect") and not state.get("pending")


def _take_hidden(state: State, seat: int, deck: str) -> str:
    """The placeholder a hidden card leaving `seat`'s hand stands as (one is made if none is left)."""
    token = placeholder(deck)
    if token not in state["hands"][seat]:
        _reveal(state, seat, token)
    return token


def _reveal(state: State, seat: int, card: str) -> None:
    """A card leaves `seat`'s hand face up: it was one of the hand's placeholders of its deck."""
    hand = state["hands"][seat]
    if card in hand:
        return
    token = placeholder(DECK_OF.get(card, card.lstrip(HIDDEN)))
    spare = [i for i, c in enumerate(hand) if c == token] or [i for i, c in enumerate(hand) if c.startswith(HIDDEN)]
    if spare:
        hand[spare[0]] = card
    else:
        hand.append(card)


def _piles(state: State) -> list[list[str]]:
    """Every list of cards in the state, in a fixed order: hands, decks, discards, shared piles, tasks."""
    out = [*state["hands"], *state["decks"], *state["discards"]]
    for pile in (state["legends"], state["flares"]):
        out += [pile["deck"], pile["discard"]]
    tasks = state["tasks"]
    if tasks:
        out += [tasks["current"], tasks["deck"], *tasks["claimed"]]
        if tasks["next"]:
            out.append([tasks["next"]])
    frozen = state.get("frozen") or []
    out.append([f["card"] for f in frozen if f])
    return out


def deal(known: State, rng: random.Random) -> State:
    """A copy of `known` with every placeholder dealt a card of its deck nobody has seen."""
    state = clone(known)
    state.pop("undo", None)                   # search never steps back
    seen = Counter(c for pile in _piles(state) for c in pile if not c.startswith(HIDDEN))
    pools: dict[str, list[str]] = {}
    for pile in _piles(state):
        for i, card in enumerate(pile):
            if not card.startswith(HIDDEN):
                continue
            deck = card[len(HIDDEN):]
            if deck not in pools:
                left = Counter(CARDS.decks.get(deck, ())) - seen
                pools[deck] = sorted(left.elements())
                rng.shuffle(pools[deck])
            pool = pools[deck]
            pile[i] = pool.pop() if pool else rng.choice(CARDS.decks[deck])
    state["rng"] = {"seed": f"search:{rng.getrandbits(64)}", "draws": 0}
    return state


def _from_view(view: Mapping[str, Any], seat: int) -> State:
    """A position set from a seat's view of it (a game started from a given position)."""
    two_sided = view["form"] != "melee"
    seats = view["seats"]
    first = {s["color"]: s["seat"] for s in reversed(seats)}
    scores = {s["seat"]: s for s in view["scores"]}
    position: dict[str, Any] = {
        "form": view["form"], "teams": view["teams"], "seats": [{"school": s["school"]} for s in seats],
        "board": view["notation"], "hands": {str(seat): list(seats[seat].get("hand", []))},
        "discards": {str(s["seat"]): list(s["discard"]) for s in seats},
        "legends": {"deck": [], "discard": list(view["legends"]["discard"])},
        "flares": {"deck": [], "discard": list(view["flares"]["discard"])},
        "supply": {str(c): seats[i]["supply"] for c, i in first.items()},
        "frozen": {str(s["seat"]): s["frozen"] for s in seats if s.get("frozen")},
        "gateways": dict(view.get("gateways") or {}),
    }
    if view["form"] == "duel":
        position["scores"] = {str(c): scores[i]["score"] for c, i in first.items()}
    elif not two_sided:
        position["scores"] = {str(i): scores[i].get("by_color", {}) for i in range(len(seats))}
    if view.get("tasks"):
        t = view["tasks"]
        position["tasks"] = {"current": t["current"], "next": t["next"], "deck": [],
                             "claimed": {str(c): scores[i].get("tasks", []) for c, i in first.items()}}
    if view.get("turn"):
        position["turn"] = {"seat": view["turn"]["seat"], "actions_left": view["turn"]["actions_left"],
                            "number": view["turn"]["number"]}
    state = cast("State", from_position(position)[0]["state"])       # type: ignore[typeddict-item]
    for s in seats:
        i = s["seat"]
        state["decks"][i] = [placeholder(s["school"])] * s["deck_size"]
        if i != seat:
            state["hands"][i] = _hidden_hand(s["school"], s["hand_size"])
    state["legends"]["deck"] = [placeholder("legends")] * view["legends"]["deck_size"]
    state["flares"]["deck"] = [placeholder("flares")] * view["flares"]["deck_size"]
    if state["tasks"] and view.get("tasks"):
        state["tasks"]["deck"] = [placeholder("tasks")] * view["tasks"]["deck_size"]
    return state


def _hidden_hand(school: str, size: int) -> list[str]:
    """A hidden hand of `size` cards, guessed as full hands are made: a flare, two legends, the rest beings."""
    kinds = ["flares", "legends", "legends"][:size]
    return [placeholder(k) for k in kinds] + [placeholder(school)] * (size - len(kinds))


def rehearsal(seen: Iterable[Mapping[str, Any]], seat: int, seed: str) -> State | None:
    """A position for `seat` to rehearse its next turn on while it waits (a conditional reply's
    commands, built on the board): what it knows of the game from its redacted events `seen`, every
    card it cannot see dealt from its knowledge by `seed`, the others' turn cut short where it stands
    and the seat's own begun. Nothing secret goes in, so nothing secret comes out. None before the
    first turn, or while an effect opened before any quiet moment is under way."""
    known = Knowledge(seat).observe(seen)
    base = known.state if known.quiet() else known.anchor
    turn = base.get("turn") if base is not None else None
    if base is None or turn is None or base.get("phase") == "over":
        return None
    state = deal(base, random.Random(seed))
    number = turn["number"] + 1
    begun = {"type": "TurnStarted", "seat": seat, "number": number, "actions": release_of(state).actions_per_turn,
             "extra": False}
    fold(state, [cast("GameEvent", begun)], undoable=False)
    return state
