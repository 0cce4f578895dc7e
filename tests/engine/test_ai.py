"""Computer players: they see only their seat's view, never send an illegal command, and a seed
decides everything (engine/ai)."""
import random
from collections import Counter

import pytest

import engine
from engine.ai import CHEAPEST, LEVELS, Knowledge, play
from engine.ai.knowledge import HIDDEN, deal
from engine.ai.match import level_player, play_game
from engine.cards import CARDS
from engine.state import active_seat

FORMS = [  # (form, schools, teams): every form, and every school among them
    ("duel", ["northern", "sylvan"], False), ("high_form", ["highland", "southern"], False),
    ("melee", ["everfrost", "nethervoid", "etherweave"], False),
    ("melee", ["northern", "highland", "sylvan", "southern"], False),
    ("high_form", ["sylvan", "everfrost", "nethervoid", "highland"], True),
    ("duel", ["etherweave", "southern", "northern", "everfrost"], True),
]


def _options(form, schools, teams, seed):
    return {"form": form, "seats": [{"school": s} for s in schools], "seed": seed, "teams": teams}


def _knowledge(events, seat):
    return Knowledge(seat).observe(engine.redact(e, seat) for e in events)


def test_no_illegal_command_in_ten_thousand_decisions_at_the_cheapest_level():
    decisions, games = 0, 0
    while decisions < 10_000:
        form, schools, teams = FORMS[games % len(FORMS)]
        played = play_game(_options(form, schools, teams, f"prop-{games}"),
                           [level_player(CHEAPEST)] * len(schools), f"prop-{games}")
        assert played.illegal == 0
        assert played.state["phase"] == "over", f"game {games} ({form}) did not end"
        decisions += sum(played.decisions.values())
        games += 1


@pytest.mark.parametrize("form,schools,teams", FORMS)
def test_a_searching_level_plays_every_form_and_school(form, schools, teams):
    """The club level (the search, as the stronger levels run it with more simulations) in seat 0
    through the first turns of every form, teams and expansion school among them."""
    played = play_game(_options(form, schools, teams, "forms"), [level_player(3)] + [level_player(CHEAPEST)] * (len(schools) - 1),
                       "forms", limit=4 * len(schools) + 4)
    assert played.illegal == 0 and played.decisions[0] >= 3


def _sample_is_consistent(state, seat, sample):
    assert sample["board"] == state["board"] and sample["hands"][seat] == state["hands"][seat]
    assert sample["discards"] == state["discards"]
    for i in range(len(state["seats"])):
        assert len(sample["hands"][i]) == len(state["hands"][i])
        assert len(sample["decks"][i]) == len(state["decks"][i])
    assert len(sample["legends"]["deck"]) == len(state["legends"]["deck"])
    every = Counter(c for pile in (*sample["hands"], *sample["decks"], *sample["discards"], sample["legends"]["deck"],
                                   sample["legends"]["discard"], sample["flares"]["deck"], sample["flares"]["discard"])
                    for c in pile)
    assert not [c for c in every if c.startswith(HIDDEN)]
    for card, n in every.items():
        deck = next(d for d, cards in CARDS.decks.items() if card in cards)
        assert n <= CARDS.decks[deck].count(card), card
    assert sample["rng"]["seed"] != state["rng"]["seed"]


@pytest.mark.parametrize("form,schools,teams", FORMS)
def test_a_sample_keeps_what_the_seat_saw_and_deals_the_rest(form, schools, teams):
    played = play_game(_options(form, schools, teams, "sample"), [level_player(CHEAPEST)] * len(schools), "sample")
    events = played.events[: len(played.events) * 2 // 3]
    state = engine.replay(events)
    for seat in range(len(schools)):
        knowledge = _knowledge(events, seat)
        if knowledge.quiet():
            _sample_is_consistent(state, seat, deal(knowledge.state, random.Random(seat)))


def test_hidden_cards_change_nothing_the_bot_does():
    """Two games that differ only in the opponent's hand and the decks' order: same command."""
    position = {"form": "duel", "seats": [{"school": "northern"}, {"school": "sylvan"}], "board": "5/7/9/9/2a3b2/9/9/7/5",
                "hands": {"0": list(CARDS.decks["northern"][:3]), "1": list(CARDS.decks["sylvan"][:3])},
                "turn": {"seat": 0, "actions_left": 2}, "seed": "one"}
    other = {**position, "hands": {**position["hands"], "1": list(CARDS.decks["sylvan"][3:6])}, "seed": "two"}
    one, two = engine.from_position(position), engine.from_position(other)
    assert engine.replay(one)["hands"][1] != engine.replay(two)["hands"][1]
    options = engine.legal_commands(engine.replay(one), 0)
    assert options == engine.legal_commands(engine.replay(two), 0)
    for level in LEVELS:
        assert play(_knowledge(one, 0), options, level, "s") == play(_knowledge(two, 0), options, level, "s")


def test_a_bot_answers_the_decision_its_own_summoning_raised():
    """While an effect waits for the bot, the position is rebuilt from before the summoning."""
    played = play_game(_options("duel", ["northern", "highland"], False, "effect"), [level_player(2)] * 2, "effect")
    for n, event in enumerate(played.events):
        state = engine.replay(played.events[: n + 1])
        seat = active_seat(state)
        if event["type"] == "ResolutionAdvanced" and state["pending"] and state["turn"] and seat == state["turn"]["seat"]:
            knowledge = _knowledge(played.events[: n + 1], seat)
            assert not knowledge.quiet()
            sample = knowledge.sample(random.Random(1))
            assert sample is not None and sample["pending"]["kind"] == state["pending"]["kind"]
            options = engine.legal_commands(state, seat)
            assert play(knowledge, options, 3, "x") in options
            return
    pytest.fail("no decision raised by an effect in this game")


def test_every_seat_follows_an_undo_of_a_step_after_a_summoning():
    """An undo folds the turn's kept steps again on the kept position; a card another seat summoned
    from its hand earlier in that turn was a placeholder there, and must be known there too."""
    schools = ["northern", "sylvan"]
    played = play_game(_options("duel", schools, False, "undo"), [level_player(CHEAPEST)] * 2, "undo")
    undone = 0
    for n in [n for n, e in enumerate(played.events) if e["type"] == "CommandAccepted"]:     # between commands
        state = engine.replay(played.events[:n])
        seat = active_seat(state)
        if seat is None or not (state.get("undo") or {}).get("steps") or len(state["undo"]["steps"]) < 2:
            continue
        if not any(c["type"] == "undo" for c in engine.legal_commands(state, seat)):
            continue
        events = played.events[:n] + engine.decide(state, {"type": "undo", "seat": seat})
        truth = engine.replay(events)
        for viewer in range(len(schools)):
            knowledge = _knowledge(events, viewer)
            assert knowledge.state["board"] == truth["board"]
            assert [len(h) for h in knowledge.state["hands"]] == [len(h) for h in truth["hands"]]
        undone += 1
    assert undone >= 5
