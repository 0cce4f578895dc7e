"""Team play (RULES.md 11): two teams of two, High Form or Deathmatch duel.

Layout: four seats, teammates opposite, so turns alternate A1, B1, A2, B2 and seat i plays colour
i % 2. A team shares one colour of pieces (supply, capacity, score, claimed tasks are by colour);
each player keeps his own school deck, hand and discard pile.

- Sideways cards: the lowest SIDEWAYS cards of every deck lie crosswise. Cards leave a deck only
  from its top, and a card the discard action sends under the deck is laid crosswise while the
  highest crosswise card is straightened, so the crosswise cards are always the bottom
  min(SIDEWAYS, deck size) cards: they are counted, never stored. The end is triggered when a
  turn ends with no upright card left in the player's deck (he drew his last upright card).
- Legends belong to the team: at setup only the teammate who plays first draws legends; at the
  end of a turn the player hands all his legends to his teammate (LegendsPassed), and the
  teammate, not he, draws legends up to 2 and makes the turn's extra legend draws.
- Passing control ({"type": "pass_control"}, ControlPassed): the turn's player hands his legends
  over; his teammate answers the rest of any effect in progress and spends the remaining actions on
  place actions only; then the turn's player claims a task or ends the turn. From that moment no
  flare may be invoked this turn.
"""
from __future__ import annotations

from typing import Any

from .cards import CARDS
from .context import Context
from .errors import RuleError, malformed
from .pending import hand_over
from .shapes import Command
from .state import State, color_of, current_turn, seats_of
from .vocabulary import TEAM_FORMS

SIDEWAYS = 6
RULE = "RULES 11 team play"


def requested(options: dict[str, Any], form: str) -> bool:
    """The `teams` game option, checked: team play exists for High Form and the duel only."""
    teams = options.get("teams", False)
    if not isinstance(teams, bool):
        raise malformed("Say whether the game is played in teams with true or false.")
    if teams and form not in TEAM_FORMS:
        raise RuleError("teams_not_available", "Team play exists only for High Form and the Deathmatch duel.",
                        RULE, malformed=True)
    return teams


def seat_colors(players: int, teams: bool) -> list[int]:
    """Each seat's colour: its own, or in team play its team's (teammates sit opposite)."""
    return [i % 2 if teams else i for i in range(players)]


def team_play(state: State) -> bool:
    return bool(state.get("teams"))


def teammate(state: State, seat: int) -> int:
    return next(i for i in seats_of(state, color_of(state, seat)) if i != seat)


# --- decks and legends -------------------------------------------------------------------------

def sideways(state: State, seat: int) -> int:
    """How many cards of the seat's deck lie crosswise: its bottom ones.

    UNCERTAIN: RULES 11 tells only of the discard action sending cards under the deck. A card an
    effect slides under the deck (Hell Hound) is laid crosswise the same way, and with fewer than
    SIDEWAYS cards in the deck (the end already triggered) nothing is straightened."""
    return min(SIDEWAYS, len(state["decks"][seat])) if team_play(state) else 0


def deck_exhausted(state: State, seat: int) -> bool:
    """RULES 10.1: the seat has drawn its last card (team play: its last upright card)."""
    return len(state["decks"][seat]) <= sideways(state, seat)


def opening_legends(state: State, seat: int) -> int:
    """Legends in the opening hand: 2, none for the teammate who plays second."""
    if team_play(state) and seats_of(state, color_of(state, seat))[0] != seat:
        return 0
    return 2


def legend_drawer(state: State, seat: int) -> int:
    """Who draws the legends at the end of `seat`'s turn: the teammate in team play."""
    return teammate(state, seat) if team_play(state) else seat


def pass_legends(ctx: Context, seat: int) -> None:
    """Hand every legend the seat holds to its teammate (end of turn, passing control).

    UNCERTAIN: the legends are passed at the end of every turn, also one followed by an extra turn
    (Time Elemental), which the player then begins without legends: the rule has no exception."""
    held = [c for c in ctx.state["hands"][seat] if c in CARDS.beings and CARDS.beings[c].is_legend]
    if team_play(ctx.state) and held:
        ctx.emit("LegendsPassed", seat=seat, to=teammate(ctx.state, seat), cards=held)


# --- passing control ---------------------------------------------------------------------------

def control_passed(state: State) -> bool:
    turn = state["turn"]
    return turn is not None and turn.get("control") is not None


def can_pass(state: State, seat: int) -> bool:
    """The turn's player may hand his turn over once, with an action or a decision still open.

    UNCERTAIN: "at the start of any action, or even midway through a card's effect" is read as:
    while he has an action left and nothing is being resolved, or while a decision of his is
    open (an effect's, a summoning's pick-up or orientation); not once only free options (a flare,
    a task) remain, and never back to him."""
    turn, pending = state["turn"], state["pending"]
    if not team_play(state) or turn is None or turn["seat"] != seat or control_passed(state):
        return False
    return pending["seat"] == seat if pending else turn["actions"] > 0


def pass_control(ctx: Context, seat: int, command: Command) -> None:
    """The pass_control command: the teammate takes over, answering any decision now open."""
    s = ctx.state
    if not team_play(s):
        raise RuleError("no_teammate", "Only a team game has a teammate to pass control to.", RULE)
    if not can_pass(s, seat):
        raise RuleError("cannot_pass_control", "You may pass control once, on your own turn, before your "
                        "actions are used up or in the middle of an effect.", RULE)
    mate = teammate(s, seat)
    ctx.emit("ControlPassed", seat=seat, to=mate)
    pass_legends(ctx, seat)
    if s["pending"]:
        hand_over(ctx, mate)


def decider(state: State, seat: int) -> int:
    """Who answers the decisions of `seat`'s effects: the teammate once the turn is handed over."""
    turn = state["turn"]
    return turn["control"] if turn and control_passed(state) and turn["seat"] == seat else seat


def places_only(state: State, seat: int) -> bool:
    """Whether `seat` acts on a teammate's turn, where only place actions are open to him."""
    return control_passed(state) and current_turn(state)["seat"] != seat


def check_turn_command(state: State, seat: int, kind: str) -> None:
    """Refuse what passing control rules out: a teammate's non-place action, any later flare."""
    if places_only(state, seat) and kind != "place":
        raise RuleError("places_only", "On your teammate's turn you may only use their actions to place pieces.",
                        RULE)
    if control_passed(state) and kind == "flare":
        raise RuleError("flares_closed", "No flare may be invoked once control has been passed this turn; end the turn instead.", RULE)
