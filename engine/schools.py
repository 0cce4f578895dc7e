"""School choice at game creation (RULES.md 4.1 step 3, BGA option 101); the design is told in
setup.py. A seat asks for a school by id, for RANDOM or for DRAFT, or every seat asks for one of
the table-wide ways, BANS or MUTUAL; GameCreated records the asks, SchoolBanned the bans,
SchoolDrawn the random outcomes and SchoolChosen the picks, so replay never re-rolls.
"""
from __future__ import annotations

from .cards import EXPANSION_SCHOOLS
from .context import Context
from .errors import RuleError
from .shapes import Command
from .state import State, current_effect

RANDOM, DRAFT, BANS, MUTUAL = "random", "draft", "bans", "mutual"
TABLE_WIDE = (BANS, MUTUAL)         # asked by every seat or by none
CHOICES = (RANDOM, DRAFT) + TABLE_WIDE


def check(asked: list[object], available: tuple[str, ...], choosing: bool = True) -> None:
    """Every ask names an available school (or, when `choosing`, a way of choosing); no school is
    named twice."""
    ways = CHOICES if choosing else ()
    for school in asked:
        if school not in available and school not in ways:
            code = "school_not_available" if school in EXPANSION_SCHOOLS else "unknown_school"
            raise RuleError(code, f"The school {school!r} cannot be played here; choose one of "
                            f"{', '.join(available + ways)}.", "RULES 2.2 school decks", malformed=True)
    wide = {s for s in asked if s in TABLE_WIDE}
    if wide and (len(wide) > 1 or any(s not in wide for s in asked)):
        raise RuleError("mixed_school_choice", "Bans and mutual selection are for the whole table: every seat asks "
                        "for the same one.", "RULES 2.2 school decks", malformed=True)
    if BANS in wide and 2 * len(asked) > len(available):
        raise RuleError("too_many_players_for_bans", f"With bans, {len(asked)} players would leave fewer than "
                        f"{len(asked)} of the {len(available)} schools to draw; choose another way.",
                        "RULES 2.2 school decks", malformed=True)
    named = [s for s in asked if s not in CHOICES]
    if len(set(named)) != len(named):
        raise RuleError("duplicate_school", "Two players chose the same school; each player needs a school of their own.", "RULES 2.2 school decks",
                        malformed=True)


def draw_random(ctx: Context, available: tuple[str, ...] | list[str], ask: str = RANDOM) -> list[str]:
    """Draw the schools of the seats asking `ask` (random ones, or every seat once the bans are in)
    from those no seat named; the schools left to draft or choose."""
    seats = ctx.state["seats"]
    left = [s for s in available if s not in {x["school"] for x in seats}]
    for seat, entry in enumerate(seats):
        if entry["school"] == ask:
            school = ctx.rng().choice(left)
            ctx.emit("SchoolDrawn", seat=seat, school=school)
            left.remove(school)
    return left


def next_drafter(ctx: Context, left: list[str]) -> tuple[int, list[str]] | None:
    """The next drafting seat (in seat order) and the schools it picks from; None when every seat
    has its school. A last school left is the last drafting seat's at once (SchoolChosen)."""
    seat = next((i for i, x in enumerate(ctx.state["seats"]) if x["school"] == DRAFT), None)
    if seat is None:
        return None
    if len(left) == 1:
        ctx.emit("SchoolChosen", seat=seat, school=left[0])
        return next_drafter(ctx, [])
    return seat, left


def options(state: State) -> list[Command]:
    return [{"type": "choose", "school": s} for s in current_effect(state)["schools"]]
