"""Card definitions: the project's card data loaded once into frozen objects.

The data file (engine/data/cards.json) is written by tools/build_card_data.py from the shared
reference. Each being gets its distinct pattern orientations precomputed, so pattern matching is a
loop over small tuples.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Collection, Mapping

from .card_steps import Part, Step, UnknownCardKey, UnknownCardWord, part, steps
from .task_checks import TaskCheck, checks
from .geometry import ORIENTATIONS
from .vocabulary import RANKS as RANK_WORDS

RANKS = {name: level for level, name in enumerate(RANK_WORDS, start=1)}
RANK_NAMES = {v: k for k, v in RANKS.items()}
BASE_SCHOOLS = ("northern", "southern", "highland", "sylvan")
EXPANSION_SCHOOLS = ("everfrost", "nethervoid", "etherweave")
ANCHORS = ("being", "free")     # a pattern laid around the being's square, or anywhere (patterns.FREE)
TASK_TYPES = ("destruction", "colored", "summoning", "pattern", "enemy")   # RULES 2.2: the five types of task


@dataclass(frozen=True)
class Orientation:
    """One way to lay a pattern on the board: offsets already rotated/mirrored."""

    index: int
    cells: tuple[tuple[int, int, int], ...]     # (dx, dy, minimum rank)
    marked: tuple[tuple[int, int, str], ...]     # (dx, dy, kind)


@dataclass(frozen=True)
class Being:
    id: str
    name: str
    deck: str
    rank: int
    anchor: str
    own_square: int | None          # minimum rank of the own piece required on the being square
    orientations: tuple[Orientation, ...]
    steps: tuple[Step, ...]
    summary: str
    frozen: Part | None = None          # Everfrost: the effect of thawing the card
    warp: Part | None = None            # Etherweave: the warp effect

    @property
    def is_legend(self) -> bool:
        return self.deck == "legends"


@dataclass(frozen=True)
class Flare:
    id: str
    name: str
    upper: Part
    lower: Part


@dataclass(frozen=True)
class Task:
    id: str
    name: str
    type: str
    advanced: bool
    points: int
    checks: tuple[TaskCheck, ...]      # all must hold (engine/tasks.py decides each)
    summary: str


@dataclass(frozen=True)
class Catalogue:
    """Every card by id, and each deck's card ids in order; read-only, like the cards in it."""

    beings: Mapping[str, Being]
    flares: Mapping[str, Flare]
    tasks: Mapping[str, Task]
    decks: Mapping[str, tuple[str, ...]]


# The keys a card of each kind may hold (`symmetry` is the reference's count of distinct
# orientations: the engine works them out itself, tests/engine/test_card_data.py compares the two).
CARD_KEYS = {
    "being": frozenset({"id", "name", "deck", "kind", "rank", "anchor", "pattern", "marked", "symmetry",
                        "own_square", "summary", "steps", "frozen", "warp"}),
    "flare": frozenset({"id", "name", "deck", "kind", "upper", "lower"}),
    "task": frozenset({"id", "name", "deck", "kind", "type", "advanced", "points", "summary", "checks"}),
}


def _known_keys(raw: dict[str, Any], kind: str) -> None:
    unknown = sorted(set(raw) - CARD_KEYS[kind])
    if unknown:
        raise UnknownCardKey(f"{raw['id']}: unknown key(s) {unknown} in a {kind}")


def _word(card: str, name: str, value: Any, words: Collection[str]) -> str:
    """`value` of the card's field `name`, refused naming the card unless it is one of `words`."""
    if not isinstance(value, str) or value not in words:
        raise UnknownCardWord(f"{card}: {name} {value!r}")
    return value


def _rank(card: str, word: Any) -> int:
    return RANKS[_word(card, "rank", word, RANKS)]


def _orientations(raw: dict[str, Any]) -> tuple[Orientation, ...]:
    seen: set[Any] = set()
    out = []
    for index, turn in enumerate(ORIENTATIONS):
        cells = tuple(sorted((*turn(x, y), _rank(raw["id"], r)) for x, y, r in raw["pattern"]))
        marked = tuple(sorted((*turn(x, y), k) for x, y, k in raw["marked"]))
        if (cells, marked) in seen:
            continue
        seen.add((cells, marked))
        out.append(Orientation(index, cells, marked))
    return tuple(out)


def _being(raw: dict[str, Any]) -> Being:
    own = raw["own_square"]
    return Being(
        id=raw["id"], name=raw["name"], deck=raw["deck"], rank=_rank(raw["id"], raw["rank"]),
        anchor=_word(raw["id"], "anchor", raw["anchor"], ANCHORS),
        own_square=_rank(raw["id"], own) if own else None, orientations=_orientations(raw),
        steps=steps(raw["steps"], raw["id"]), summary=raw["summary"],
        frozen=_part(raw, "frozen"), warp=_part(raw, "warp"),
    )


def _part(raw: dict[str, Any], name: str) -> Part | None:
    return part(raw[name], f"{raw['id']} {name}") if raw.get(name) else None


def _read() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(resources.files("engine").joinpath("data/cards.json").read_text(encoding="utf-8"))
    return loaded


RAW_CARD_DATA = _read()


def load(raw: dict[str, Any] = RAW_CARD_DATA) -> Catalogue:
    beings: dict[str, Being] = {}
    flares: dict[str, Flare] = {}
    tasks: dict[str, Task] = {}
    decks: dict[str, tuple[str, ...]] = {}
    for deck in raw["decks"]:
        decks[deck["id"]] = tuple(c["id"] for c in deck["cards"])
        for c in deck["cards"]:
            kind = _word(c["id"], "kind", c.get("kind"), CARD_KEYS)
            _known_keys(c, kind)
            _word(c["id"], "deck", c.get("deck"), (deck["id"],))     # a legend is a card of the legends deck
            if kind == "being":
                beings[c["id"]] = _being(c)
            elif kind == "flare":
                flares[c["id"]] = Flare(c["id"], c["name"], part(c["upper"], f"{c['id']} upper", threshold=True),
                                            part(c["lower"], f"{c['id']} lower", threshold=True))
            else:
                tasks[c["id"]] = Task(c["id"], c["name"], _word(c["id"], "type", c["type"], TASK_TYPES),
                                          c["advanced"], c["points"], checks(c["checks"], c["id"]), c["summary"])
    return Catalogue(MappingProxyType(beings), MappingProxyType(flares), MappingProxyType(tasks), MappingProxyType(decks))


CARDS = load()


def card_kind(card_id: str) -> str | None:
    """'being', 'legend', 'flare', 'task' or None for an unknown id."""
    if card_id in CARDS.beings:
        return "legend" if CARDS.beings[card_id].is_legend else "being"
    if card_id in CARDS.flares:
        return "flare"
    if card_id in CARDS.tasks:
        return "task"
    return None


def card_name(card_id: str) -> str:
    """The card's printed name (for sentences a player reads); an unknown id as it is."""
    for table in (CARDS.beings, CARDS.flares, CARDS.tasks):
        if card_id in table:
            return table[card_id].name
    return card_id
