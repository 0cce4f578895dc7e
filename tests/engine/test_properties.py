"""Property tests over random games: replay equals the live state at every step; every listed
command is accepted; commands outside the list are refused and change nothing."""
import random

from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.cards import CARDS
from engine.geometry import SQUARES
from engine.selfplay import pick
from engine.state import active_seat

FORMS = st.sampled_from([("duel", ["northern", "sylvan"]), ("high_form", ["highland", "southern"]),
                         ("melee", ["northern", "sylvan", "highland"]),
                         ("melee", ["sylvan", "highland", "southern", "northern"])])
ALL_CARDS = sorted(CARDS.beings) + sorted(CARDS.flares)


def _near_misses(rng: random.Random, seat: int) -> list[dict]:
    """Plausible commands, most of them illegal at any given moment."""
    sq = rng.choice(SQUARES)
    return [
        {"seat": seat, "type": "place", "square": sq},
        {"seat": seat, "type": "summon", "card": rng.choice(ALL_CARDS), "square": sq},
        {"seat": seat, "type": "choose", "square": sq},
        {"seat": seat, "type": "move", "from": sq, "to": rng.choice(SQUARES)},
        {"seat": seat, "type": "skip"},
        {"seat": seat, "type": "end_turn"},
        {"seat": (seat + 1) % 2, "type": "place", "square": sq},
    ]


def _check_game(form, schools, seed, check_every_command):
    rng = random.Random(seed)
    events = engine.new_game({"form": form, "seats": [{"school": s} for s in schools], "seed": str(seed)})
    state = engine.replay(events)
    steps = 0
    while state["phase"] != "over":
        seat = active_seat(state)
        listed = engine.legal_commands(state, seat)
        assert listed, "a game that is not over always offers its active seat something"
        sample = listed if check_every_command else rng.sample(listed, min(5, len(listed)))
        for command in sample:
            engine.decide(state, command)
        for command in _near_misses(rng, seat):
            if command not in listed and command["seat"] == seat:
                before = engine.replay([], state)
                try:
                    engine.decide(state, command)
                except engine.RuleError:
                    pass
                else:
                    raise AssertionError(f"accepted a command outside the list: {command}")
                assert state == before
        new = engine.decide(state, pick(rng, listed))
        events += new
        state = engine.replay(new, state)
        assert engine.replay(events) == state
        steps += 1
    return steps


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FORMS, st.integers(min_value=0, max_value=10**6))
def test_replay_equals_live_state_and_listed_commands_are_accepted(form_schools, seed):
    form, schools = form_schools
    assert _check_game(form, schools, seed, check_every_command=False) > 0


def test_every_listed_command_is_accepted_throughout_whole_games():
    for seed, (form, schools) in enumerate([("duel", ["northern", "sylvan"]), ("high_form", ["highland", "sylvan"]),
                                            ("melee", ["northern", "sylvan", "highland"])]):
        _check_game(form, schools, seed, check_every_command=True)
