"""Generated: every being's pattern fits in each of its orientations, and near misses do not."""
import random

import pytest

import engine
from engine.cards import CARDS
from engine.geometry import AT, COORD
from engine.patterns import Pieces, Scan, being_square_ok, fits_at
from tests.engine.helpers import legal, position

BEINGS = [b for b in CARDS.beings.values() if b.anchor == "being"]
CASES = [(b.id, o.index) for b in BEINGS for o in b.orientations]
TARGET = "e5"


def _layout(being, index, rank_shift=None, drop=None, enemy=None):
    o = next(o for o in being.orientations if o.index == index)
    tx, ty = COORD[TARGET]
    pieces = []
    for k, (dx, dy, need) in enumerate(o.cells):
        if k == drop:
            continue
        rank = need - 1 if k == rank_shift else need
        seat = 1 if k == enemy else 0
        pieces.append({"square": AT[(tx + dx, ty + dy)], "seat": seat,
                       "rank": {1: "common", 2: "heroic", 3: "legendary"}[rank]})
    return o, pieces


def _state(being, pieces):
    return position(board=pieces, hands={"0": [being.id]}, supply={"0": {"non_legendary": 10, "legendary": 3}})


def _fits(being, pieces):
    state = _state(being, pieces)
    return {f.orientation for f in fits_at(state["board"], being, TARGET, 0)}, state


@pytest.mark.parametrize("card,index", CASES)
def test_pattern_fits_in_each_orientation_and_the_summon_is_legal(card, index):
    being = CARDS.beings[card]
    _, pieces = _layout(being, index)
    found, state = _fits(being, pieces)
    assert index in found
    assert {"type": "summon", "card": card, "square": TARGET} in legal(state)


@pytest.mark.parametrize("card,index", CASES)
def test_pattern_with_one_piece_missing_does_not_fit(card, index):
    being = CARDS.beings[card]
    o = next(o for o in being.orientations if o.index == index)
    for k in range(len(o.cells)):
        _, pieces = _layout(being, index, drop=k)
        found, state = _fits(being, pieces)
        assert found == set()
        with pytest.raises(engine.RuleError) as err:
            engine.decide(state, {"seat": 0, "type": "summon", "card": card, "square": TARGET})
        assert err.value.code == "pattern_not_matched"


@pytest.mark.parametrize("card,index", CASES)
def test_pattern_with_a_piece_too_low_or_an_enemy_piece_misses_that_orientation(card, index):
    being = CARDS.beings[card]
    o = next(o for o in being.orientations if o.index == index)
    for k, (dx, dy, need) in enumerate(o.cells):
        kind = {"rank_shift": k} if need > 1 else {"enemy": k}
        _, pieces = _layout(being, index, **kind)
        found, _ = _fits(being, pieces)
        assert index not in found


@pytest.mark.parametrize("seed", range(6))
def test_the_scan_of_a_whole_board_finds_exactly_the_fits_cell_by_cell_matching_finds(seed):
    """`Scan.fits` (bit masks, every target at once) against `fits_at` and the being-square rule
    (one target, cell by cell), on random crowded boards, with lent pieces and empty squares
    standing in or not, for every being."""
    rng = random.Random(seed)
    squares = rng.sample(sorted(COORD), rng.randint(20, 45))
    board = {sq: [k + 1, rng.randrange(3), rng.choice((1, 1, 1, 2, 2, 3))] for k, sq in enumerate(squares)}
    for lend, empties in ((frozenset(), 0), (frozenset({1}), 0), (frozenset({1, 2}), 0), (frozenset(), 2),
                          (frozenset({2}), 1)):
        scan = Scan(Pieces(board), 0, lend, empties)
        for being in CARDS.beings.values():
            one_by_one = {sq: sorted(fits) for sq in sorted(COORD) if being_square_ok(board, being, sq)
                          and (fits := fits_at(board, being, sq, 0, lend, empties))}
            assert scan.fits(being) == one_by_one, (being.id, lend, empties)
