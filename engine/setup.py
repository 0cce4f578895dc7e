"""Creating a game (RULES.md 4): seats and schools, shuffles, opening hands, High Form tasks and
the Deathmatch start pieces, whose placement is the placer's pending decision.

Options: {"form", "seats": [{"school"}], "seed", "teams"}. With "teams": true (High Form or duel)
four seats play in two teams of two, seat i in team i % 2 (engine/teams.py).

School choice: each seat's "school" is a school id of SUPPORTED_SCHOOLS, "random" or "draft"; or
every seat's is "bans", or every seat's "mutual" (BGA's "random after bans" and "mutual selection").
GameCreated records the asks as given. At creation every "random" seat, in seat order, draws its
school from the schools no seat named and none drew before it (SchoolDrawn, a recorded outcome:
replay never re-rolls). Then every "draft" seat, in seat order (the turn order), picks one of the
schools still left as a pending decision {"type": "choose", "school": ...} (SchoolChosen).
With "bans", each seat in seat order bans one school not banned yet (a pending decision answered
the same way; SchoolBanned), then every seat draws its school at random from the others
(SchoolDrawn). With "mutual", each seat in seat order chooses the school of the next seat (the last
seat's choice is the first seat's) from those nobody plays yet, seeing the earlier choices
(SchoolChosen with `by`). The decks are shuffled and the opening hands dealt only once every seat
has its school (`deal`); until then the game is in its setup phase with no turn.
"""
from __future__ import annotations

from typing import Any, cast

from . import drawing, pieces, schools as choice, tasks, teams, turns
from .cards import BASE_SCHOOLS, CARDS
from .context import Context
from .errors import RuleError, malformed
from .geometry import DUEL_START, MELEE_START
from .pending import Options, close, decision, raise_decision
from .evolve import Event
from .shapes import Command
from .state import COMMON, State, current_effect
from .version import rules_stamp
from .vocabulary import FORMS, SEATS, TEAM_SEATS
from .watchers import WATCHERS

SUPPORTED_SCHOOLS = BASE_SCHOOLS + ("nethervoid", "everfrost", "etherweave")


def _validate(options: dict[str, Any], choosing: bool = True) -> tuple[str, list[str], str]:
    """(form, the seats' schools, seed); `choosing` allows "random" and "draft" for a school."""
    if not isinstance(options, dict):
        raise malformed("The game's options must be given as an object with its form and seats.")
    form = options.get("form")
    if form not in FORMS:
        raise RuleError("unknown_form", "There is no such form; choose High Form, a duel or a melee.", "RULES 3 forms", malformed=True)
    seats = options.get("seats")
    if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
        raise malformed("List the seats, each with the school it plays.")
    schools = [x.get("school") for x in seats]
    wanted = (TEAM_SEATS,) if teams.requested(options, form) else SEATS[form]
    if len(schools) not in wanted:
        raise RuleError("wrong_player_count", f"This form is played by {' or '.join(map(str, wanted))} players; add or remove seats.",
                        "RULES 3 forms", malformed=True)
    choice.check(schools, SUPPORTED_SCHOOLS, choosing)
    seed = options.get("seed", "")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        raise malformed("The seed must be a text or a whole number.")
    return form, schools, str(seed)


def _rules_options(options: dict[str, Any]) -> dict[str, Any]:
    """Per-game rule settings kept in the state: how many timeouts in a row abandon a seat."""
    zombie_after = options.get("zombie_after", 3)
    if not isinstance(zombie_after, int) or isinstance(zombie_after, bool) or zombie_after < 1:
        raise malformed("The number of timeouts in a row that abandon a seat must be a whole number of at least 1.")
    return {"zombie_after": zombie_after}


def _capacity(form: str, players: int) -> list[int]:
    return [17 if form == "high_form" else 18 - players, 3]


def new_game(options: dict[str, Any], release: str | None = None) -> list[Event]:
    """The events that create a game: shuffles, hands, tasks, and the first decision or turn.

    `release`: the rules release to create it under (engine/releases.py), by default today's."""
    form, schools, seed = _validate(options)
    n = len(schools)
    team_play = teams.requested(options, form)
    colors = teams.seat_colors(n, team_play)
    k = len(set(colors))
    ctx = Context(cast("State", {}), WATCHERS)          # GameCreated fills it
    ctx.emit("GameCreated", form=form, teams=team_play, seed=seed, rules=rules_stamp(release),
             seats=[{"school": school, "color": c} for school, c in zip(schools, colors)],
             capacity=[_capacity(form, k) for _ in range(k)],
             points=[[0] * n for _ in schools] if form == "melee" else [0] * k,
             impro=[[c != i for c in range(n)] for i in range(n)] if form == "melee" else None,
             options=_rules_options(options))
    wide = schools[0] if schools[0] in choice.TABLE_WIDE else None
    if wide == choice.BANS:
        raise_decision(ctx, BAN, {"kind": "ban", "seat": 0, "schools": list(SUPPORTED_SCHOOLS)}, 0)
    elif wide == choice.MUTUAL:
        _ask_mutual(ctx, 0, list(SUPPORTED_SCHOOLS))
    elif not _ask_draft(ctx, choice.draw_random(ctx, SUPPORTED_SCHOOLS)):
        deal(ctx)
    return ctx.events


def _ask_draft(ctx: Context, left: list[str]) -> bool:
    """Ask the next drafting seat to pick from `left`; False when every seat has its school."""
    drafter = choice.next_drafter(ctx, left)
    if drafter is None:
        return False
    seat, schools = drafter
    raise_decision(ctx, SCHOOL, {"kind": "draft", "seat": seat, "schools": schools}, seat)
    return True


def _school_chosen(ctx: Context, answer: Command) -> None:
    """A drafting seat's pick; the cards are dealt once the last seat has picked."""
    frame, school = current_effect(ctx.state), answer["school"]
    ctx.emit("SchoolChosen", seat=frame["seat"], school=school)
    if _ask_draft(ctx, [s for s in frame["schools"] if s != school]):
        return
    close(ctx)
    deal(ctx)


SCHOOL = decision("school", lambda state: Options(choice.options(state)), _school_chosen,
                  ask="school", prompt="Choose your school")


def _school_banned(ctx: Context, answer: Command) -> None:
    """A seat's ban; once every seat has banned, every seat draws its school from the others."""
    frame, school = current_effect(ctx.state), answer["school"]
    ctx.emit("SchoolBanned", seat=frame["seat"], school=school)
    left = [s for s in frame["schools"] if s != school]
    following = frame["seat"] + 1
    if following < len(ctx.state["seats"]):
        raise_decision(ctx, BAN, {**frame, "seat": following, "schools": left}, following)
        return
    close(ctx)
    choice.draw_random(ctx, left, choice.BANS)
    deal(ctx)


BAN = decision("ban", lambda state: Options(choice.options(state)), _school_banned,
               ask="school", prompt="Ban a school: nobody will play it")


def _ask_mutual(ctx: Context, chooser: int, left: list[str]) -> None:
    """`chooser` picks, from `left`, the school of the seat after it (the last seat: of the first)."""
    receiver = (chooser + 1) % len(ctx.state["seats"])
    raise_decision(ctx, MUTUAL, {"kind": "mutual", "seat": chooser, "for_seat": receiver, "schools": left}, chooser)


def _school_given(ctx: Context, answer: Command) -> None:
    """A seat's choice for the next seat; the cards are dealt once the last seat has chosen."""
    frame, school = current_effect(ctx.state), answer["school"]
    ctx.emit("SchoolChosen", seat=frame["for_seat"], school=school, by=frame["seat"])
    following = frame["seat"] + 1
    if following < len(ctx.state["seats"]):
        _ask_mutual(ctx, following, [s for s in frame["schools"] if s != school])
        return
    close(ctx)
    deal(ctx)


MUTUAL = decision("mutual", lambda state: Options(choice.options(state)), _school_given,
                  ask="school", prompt="Choose the school the next player plays")


def deal(ctx: Context) -> None:
    """Every seat has its school: shuffle, deal tasks and opening hands, then the first decision or turn."""
    s = ctx.state
    for seat, entry in enumerate(s["seats"]):
        drawing.shuffle(ctx, "school", list(CARDS.decks[entry["school"]]), seat=seat)
    drawing.shuffle(ctx, "legends", list(CARDS.decks["legends"]))
    drawing.shuffle(ctx, "flares", list(CARDS.decks["flares"]))
    if s["form"] == "high_form":
        tasks.deal_opening(ctx)
    for seat in range(len(s["seats"])):
        drawing.draw(ctx, seat, "school", 3)
        drawing.draw(ctx, seat, "legends", teams.opening_legends(s, seat))
        drawing.draw(ctx, seat, "flares", 1)
    begin(ctx)


def start_piece_order(state: State) -> list[int]:
    """Colours in the order the placer sets them: BGA's order (RULES 4.3-4.4)."""
    n = len(state["seats"])
    if state["form"] == "duel":
        return [0, 1]
    return [2, 0, 1] if n == 3 else [2, 3, 0]


def begin(ctx: Context) -> None:
    """After dealing: the start-piece decision in a Deathmatch, else the first turn."""
    s = ctx.state
    if s["form"] == "high_form":
        turns.start_turn(ctx, 0)
        return
    placer = len(s["seats"]) - 1
    raise_decision(ctx, START_PIECES, {"kind": "start_pieces", "seat": placer, "colors": start_piece_order(s)}, placer)


def start_piece_squares(state: State) -> list[str]:
    """Squares the next start piece may take."""
    board = state["board"]
    if state["form"] == "duel":
        return list(DUEL_START)
    return [sq for pair in MELEE_START if not any(p in board for p in pair) for sq in pair]


def start_piece_chosen(ctx: Context, square: str) -> None:
    """A start piece placed (two in a duel); the placer places the next, or the first turn begins."""
    s = ctx.state
    frame = current_effect(s)
    placer = frame["seat"]
    if s["form"] == "duel":
        mine = s["seats"][placer]["color"]
        other = 1 - mine
        pieces.place(ctx, square, mine, COMMON, cause="start")
        pieces.place(ctx, DUEL_START[1 - DUEL_START.index(square)], other, COMMON, cause="start")
        remaining: list[int] = []
    else:
        color, *remaining = frame["colors"]
        pieces.place(ctx, square, color, COMMON, cause="start")
    if remaining:
        raise_decision(ctx, START_PIECES, {**frame, "colors": remaining}, placer)
        return
    close(ctx)
    turns.start_turn(ctx, 0)


START_PIECES = decision(
    "start_pieces", lambda state: Options([{"type": "choose", "square": sq} for sq in start_piece_squares(state)]),
    lambda ctx, answer: start_piece_chosen(ctx, answer["square"]),
    ask="square", prompt="Choose where the start pieces go")
