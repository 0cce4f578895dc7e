"""The deck tracker (engine/tracker.py) counts exactly the hidden cards, and only from what is seen."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.cards import CARDS
from engine.selfplay import play_game

GAMES = [("duel", ["northern", "everfrost"], False), ("high_form", ["etherweave", "sylvan"], False),
         ("melee", ["nethervoid", "highland", "southern"], False), ("duel", ["sylvan", "northern", "highland", "southern"], True)]
DECK_OF = {card: deck for deck, cards in CARDS.decks.items() for card in cards}


def _hidden(state: dict, viewer: int | None) -> dict[str, Counter]:
    """A recount from the whole state: by deck, the cards lying face down in a deck or in a hand
    the viewer does not hold, but for the cards a hand shows to all (the one being summoned or
    played, an Etherweave being waiting in its hand)."""
    hidden: dict[str, Counter] = {}
    places = [*state["decks"], state["legends"]["deck"], state["flares"]["deck"],
              *(hand for seat, hand in enumerate(state["hands"]) if seat != viewer)]
    for card in (card for place in places for card in place):
        hidden.setdefault(DECK_OF[card], Counter())[card] += 1
    shown = [state["effect"]["card"]] if state["effect"] and "card" in state["effect"] else []
    for card in {*shown, *(c for c in state.get("pending_beings") or [] if c)}:
        hidden.get(DECK_OF[card], Counter())[card] -= 1
    return {deck: +cards for deck, cards in hidden.items()}


def _positions(form: str, schools: list[str], teams: bool, every: int = 20):
    game = play_game(form, schools, f"tracker-{form}-{len(schools)}", teams)
    assert game.error is None
    state: dict = {}
    for n, event in enumerate(game.events):
        if event["type"] == "CommandAccepted" and n % every < 3 and state.get("phase") == "play":
            yield state                     # where a command left it (mid-command no view is shown)
        state = engine.evolve(state, event)


@pytest.mark.parametrize("form,schools,teams", GAMES)
def test_the_tracker_names_exactly_the_cards_face_down_to_this_seat(form, schools, teams):
    checked = 0
    for state in _positions(form, schools, teams):
        for viewer in [*range(len(state["seats"])), None]:
            tracks = engine.player_view(state, viewer)["deck_tracker"]
            hidden = _hidden(state, viewer)
            assert [t["deck"] for t in tracks] == [*schools, "legends", "flares"]
            for track in tracks:
                face_down = hidden.get(track["deck"], Counter())
                assert Counter(track["seen"]) == Counter(CARDS.decks[track["deck"]]) - face_down, (track["deck"], viewer)
                assert track["unseen"] == sum(face_down.values()) == track["size"] - len(track["seen"])
                assert track["in_deck"] + track["in_hands"] == track["unseen"] and track["in_hands"] >= 0
            checked += 1
    assert checked > 20


def _reshuffled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same game but for what `seat` cannot see: every other hand and every deck dealt anew
    from the same hidden cards, each hand and deck keeping its size."""
    other = engine.replay([], state)
    hands = [h for s, h in enumerate(other["hands"]) if s != seat]
    piles = [*other["decks"], other["legends"]["deck"], other["flares"]["deck"], *hands]
    by_deck: dict[str, list[str]] = {}
    for pile in piles:
        for card in pile:
            by_deck.setdefault(DECK_OF[card], []).append(card)
    for cards in by_deck.values():
        rng.shuffle(cards)
    for pile in piles:
        pile[:] = [by_deck[DECK_OF[card]].pop() for card in pile]
    return other


def test_games_that_differ_only_in_hidden_cards_give_the_same_tracker():
    rng = random.Random(5)
    for form, schools, teams in GAMES[:3]:
        for state in _positions(form, schools, teams, every=40):
            for seat in range(len(state["seats"])):
                other = _reshuffled(state, seat, rng)
                assert other["hands"] != state["hands"] or other["decks"] != state["decks"] or len(state["seats"]) < 2
                assert (engine.player_view(other, seat)["deck_tracker"]
                        == engine.player_view(state, seat)["deck_tracker"])
