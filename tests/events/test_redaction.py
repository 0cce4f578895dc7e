"""No read made for one seat shows another seat's hidden cards or any deck's hidden order.

Full games go through the service; after every command each seat and a spectator read the new
events, the latest state and a rewound state, and every read is searched for card ids the reader
may not know. What a reader may know: cards that were ever public (a discard pile, the card being
summoned or invoked, the task row) and, for a seat, cards that were ever in its own hand. A state
view is held to more: it may show none of the cards now in other hands or in any deck, except
the one card whose summoning or invocation is being resolved (still in hand until it lands).
"""
import json
import random

import pytest

import engine
from events import GameService

from .games import random_script

CARD_IDS = set(engine.CARDS.beings) | set(engine.CARDS.flares) | set(engine.CARDS.tasks)


def mentioned(read: object) -> set[str]:
    text = json.dumps(read)
    return {card for card in CARD_IDS if f'"{card}"' in text}


def piles(state: dict) -> dict[str, set[str]]:
    decks = set().union(*state["decks"], state["legends"]["deck"], state["flares"]["deck"])
    discards = set().union(*state["discards"], state["legends"]["discard"], state["flares"]["discard"])
    public = set(discards)
    if state["tasks"]:
        decks |= set(state["tasks"]["deck"])
        public |= set(state["tasks"]["current"]) | {state["tasks"]["next"]} | set().union(*state["tasks"]["claimed"])
    return {"decks": decks, "public": public | announced(state), "hands": set().union(*state["hands"])}


def announced(state: dict) -> set[str]:
    """The card being summoned or invoked: public since its command, though still in hand."""
    return {frame["card"] for frame in (state["effect"], state["pending"]) if frame and frame.get("card")}


class Knowledge:
    """What each reader may know, event by event."""

    def __init__(self, state: dict) -> None:
        self.universe: set[str] = set()
        self.public: set[str] = set()
        self.own: dict[int, set[str]] = {s: set() for s in range(len(state["seats"]))}
        self.observe(state)

    def observe(self, state: dict) -> None:
        p = piles(state)
        self.universe |= p["decks"] | p["hands"] | p["public"]
        self.public |= p["public"] | (self.universe - p["decks"] - p["hands"] - p["public"])   # in play
        for seat, hand in enumerate(state["hands"]):
            self.own[seat] |= set(hand)

    def hidden_from(self, state: dict, reader: int | None, strict: bool = False) -> set[str]:
        others = set().union(*(h for s, h in enumerate(state["hands"]) if s != reader))
        secret = others | piles(state)["decks"]
        if strict:
            return secret - announced(state)
        return secret - self.public - (self.own[reader] if reader is not None else set())


def play_and_read(service: GameService, form: str, seed: str, game_id: str) -> int:
    script = random_script(form, seed)
    service.create_game(script.options, game_id=game_id)
    state = engine.replay(script.events[:script.created])
    knowledge = Knowledge(state)
    for event in script.events[:script.created]:
        knowledge.observe(engine.evolve(state, event))
    readers = [*range(len(state["seats"])), None]
    rng = random.Random(seed)
    version, reads, history = script.created, 0, [state]
    for command in script.commands:
        result = service.execute(game_id, command["seat"], {k: v for k, v in command.items() if k != "seat"},
                                 expected_version=version)
        for event in script.events[version:result.version]:
            state = engine.evolve(state, event)
            knowledge.observe(state)
        version = result.version
        history.append((version, state))
        assert not mentioned(result.events) & knowledge.hidden_from(state, command["seat"])
        if state["phase"] == "over":
            break
        past_version, past_state = history[rng.randrange(1, len(history))]
        for reader in readers:
            assert not mentioned(service.view(game_id, reader).view) & knowledge.hidden_from(state, reader, strict=True)
            assert not mentioned(service.view(game_id, reader, at=past_version).view) \
                & knowledge.hidden_from(past_state, reader, strict=True)
            recent = service.events(game_id, reader, after=version - 8)
            assert not mentioned(recent) & knowledge.hidden_from(state, reader)
            assert state["rng"]["seed"] not in json.dumps(recent)
            reads += 4
    assert state["phase"] == "over"
    revealed = service.events(game_id, None, after=version - 1)[-1]
    assert revealed["type"] == "GameEnded" and revealed["payload"]["seed"] == seed
    return reads


@pytest.mark.parametrize("form", ["duel", "high_form", "melee"])
def test_no_read_for_one_seat_holds_another_seats_hidden_cards_or_a_decks_order(redis_client, form, game_id):
    service = GameService(redis_client, snapshot_every=20)
    assert play_and_read(service, form, f"redaction-{form}", game_id) > 500


def test_the_leak_detector_would_catch_an_unredacted_draw(redis_client, game_id):
    service = GameService(redis_client)
    script = random_script("duel", "detector")
    state = engine.replay(script.events[:script.created])
    knowledge = Knowledge(state)
    draw = next(e for e in script.events if e["type"] == "CardsDrawn" and e["seat"] == 1 and e["deck"] == "school")
    assert mentioned(draw) & knowledge.hidden_from(state, 0)
    assert not mentioned(engine.redact(draw, 0)) & knowledge.hidden_from(state, 0)
    shuffle = next(e for e in script.events if e["type"] == "DeckShuffled")
    assert mentioned(shuffle) & knowledge.hidden_from(state, shuffle.get("seat"))
