"""The player's commands outside pending decisions: place, summon, discard, flare, claim_task,
end_turn, thaw, resign (and pass_control, engine/teams.py; warp, engine/warp.py).
Each checks its rules in a fixed order and raises a RuleError naming the rule.
"""
from __future__ import annotations

from . import etherweave, flares, frost, pieces, summon, tasks, teams, turns, warp
from .cards import CARDS, RANK_NAMES, card_kind, card_name
from .context import Context
from .effects.frame import new_frame
from .errors import NO_SUCH_CARD, RuleError, malformed
from .geometry import parse_square
from .pending import Options, close, decision, raise_decision
from .shapes import Command
from .state import COMMON, LEGENDARY, State, color_of, current_effect, current_turn, dealt_tasks, enemy_colors, supply, two_sided


def _square(command: Command, key: str = "square") -> str:
    sq = parse_square(command.get(key))
    if sq is None:
        raise malformed(f"That is not a square of the board; give the {key} as a square like e5.")
    return sq


def _in_hand(state: State, seat: int, card: object) -> str:
    if not isinstance(card, str) or card_kind(card) is None:
        raise malformed(NO_SUCH_CARD)
    if card not in state["hands"][seat]:
        raise RuleError("card_not_in_hand", f"{card_name(card)} is not in your hand; play a card you hold.", "RULES 8.1 actions")
    return card


def _spend(state: State) -> None:
    if current_turn(state)["actions"] <= 0:
        raise RuleError("no_actions_left", "You have no action left this turn; invoke a flare, claim a task or end the turn.",
                        "RULES 8.1 actions")


def place(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    sq = _square(command)
    _spend(s)
    if sq in s["board"]:
        raise RuleError("square_occupied", f"{sq} is not empty; place your piece on an empty square.",
                        "RULES 8.1 A place")
    color = color_of(s, seat)
    if supply(s, color)[0] > 0:
        ctx.emit("ActionTaken", seat=seat, action="place", actions_left=current_turn(s)["actions"] - 1)
        pieces.place(ctx, sq, color, COMMON, cause="place")
        return
    if not any(p[1] == color and p[2] != LEGENDARY for p in s["board"].values()):
        raise RuleError("piece_shortage", "Your supply is empty and you have no common or heroic piece on the board to pick up; choose another action.",
                        "RULES 8.1 A place, shortage")
    ctx.emit("ActionTaken", seat=seat, action="place", actions_left=current_turn(s)["actions"] - 1)
    raise_decision(ctx, PLACE_PICKUP, {"kind": "place", "seat": seat, "target": sq}, seat)


def _own_non_legendary(state: State) -> Options:
    """The pieces a place short of supply may pick up: the seat's commons and heroes."""
    frame = current_effect(state)
    color = color_of(state, frame["seat"])
    return Options([{"type": "choose", "square": sq} for sq, p in sorted(state["board"].items())
                    if p[1] == color and p[2] != LEGENDARY and sq != frame["target"]])


def _place_after_pickup(ctx: Context, answer: Command) -> None:
    frame, square = dict(current_effect(ctx.state)), answer["square"]
    pid, color, rank = ctx.state["board"][square]
    ctx.emit("PiecePickedUp", square=square, piece=pid, color=color, rank=RANK_NAMES[rank], cause="shortage")
    close(ctx)
    pieces.place(ctx, frame["target"], color, 1, cause="place")


PLACE_PICKUP = decision("place_pickup", _own_non_legendary, _place_after_pickup, ask="square",
                        prompt="Your supply is empty: choose one of your common or heroic pieces to pick up")


def summon_being(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    card = _in_hand(s, seat, command.get("card"))
    sq = _square(command)
    if card not in CARDS.beings:
        raise RuleError("not_a_being", f"{card_name(card)} is not a being; only beings and legends can be summoned.", "RULES 5.1")
    improvise = command.get("improvise")
    if improvise is not None and (not isinstance(improvise, int) or isinstance(improvise, bool)):
        raise malformed("To improvise, name the colour that lends the piece by its number.")
    _spend(s)
    summon.start(ctx, seat, card, sq, improvise)


def discard(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    card = _in_hand(s, seat, command.get("card"))
    returns = command.get("returns", [])
    if not isinstance(returns, list) or not all(isinstance(c, str) for c in returns):
        raise malformed("The cards to put back must be given as a list of cards.")
    _spend(s)
    if current_turn(s)["discarded"]:
        raise RuleError("discard_used", "You have already discarded this turn; choose another action or end the turn.", "RULES 8.1 C discard")
    if card_kind(card) != "being":
        raise RuleError("not_a_school_being", "Only a being from your school deck can be discarded; choose one of those.", "RULES 8.1 C discard")
    etherweave.check_discard(s, seat, card, returns)
    others = list(s["hands"][seat])
    others.remove(card)
    for c in returns:
        if c not in others:
            raise RuleError("card_not_in_hand", f"{card_name(c)} cannot be put back: it is not among your other cards.",
                            "RULES 8.1 C discard")
        others.remove(c)
    ctx.emit("ActionTaken", seat=seat, action="discard", actions_left=current_turn(s)["actions"] - 1)
    ctx.emit("CardDiscarded", seat=seat, card=card, deck="school", from_hand=True)
    if returns:
        ctx.emit("CardsReturned", seat=seat, cards=[[_deck_of(c), c] for c in returns])


def _deck_of(card: str) -> str:
    return {"being": "school", "legend": "legends", "flare": "flares"}[str(card_kind(card))]


def flare(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    card = _in_hand(s, seat, command.get("card"))
    if card not in CARDS.flares:
        raise RuleError("not_a_flare", f"{card_name(card)} is not a flare; choose one of your flares.", "RULES 8.5 flares")
    color = color_of(s, seat)
    if s["form"] == "melee":
        against = command.get("against")
        if against not in enemy_colors(s, color):
            raise RuleError("choose_opponent", "In a melee, choose the opponent you compare yourself with for this flare.",
                            "RULES 8.5 flares, melee", malformed=against is not None and not isinstance(against, int))
    else:
        against = enemy_colors(s, color)[0]
    if not flares.halves(s, seat, card, against):
        raise RuleError("flare_criteria_not_met", "Neither criterion of this flare is met now; invoke it once one is.", "RULES 8.5 flare criteria")
    flares.invoke(ctx, seat, card, against)


def claim_task(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    if s["form"] != "high_form":
        raise RuleError("no_tasks", "Tasks are claimed only in High Form; this game has none.", "RULES 12")
    task = command.get("task")
    if not isinstance(task, str):
        raise malformed("Name the task to claim, as the current tasks list it.")
    _turn_over(s)
    if task not in dealt_tasks(s)["current"]:
        raise RuleError("task_not_current", f"{card_name(task)} is not one of the current tasks; claim one of those shown.",
                        "RULES 12.1")
    if not tasks.met(s, color_of(s, seat), task):
        raise RuleError("task_not_met", f"You do not meet the criterion of {CARDS.tasks[task].name} now; claim it once you do.",
                        "RULES 12.1")
    turns.end_turn(ctx, claim=task)


def _turn_over(state: State) -> None:
    if current_turn(state)["actions"] > 0:
        raise RuleError("actions_left", "You still have actions left; use them before ending the turn.", "RULES 8.1 actions")


def end_turn(ctx: Context, seat: int, command: Command) -> None:
    _turn_over(ctx.state)
    turns.end_turn(ctx)


def thaw(ctx: Context, seat: int, command: Command) -> None:
    """The frozen card leaves play and its frozen text resolves, then it is discarded (RULES 13.2)."""
    s = ctx.state
    card = frost.frozen_card(s, seat)
    if card is None:
        raise RuleError("nothing_frozen", "You have no frozen effect in play to thaw.", "RULES 13.2 frozen effects")
    if not frost.may_thaw_now(s, seat):
        raise RuleError("thaw_closed", "Your frozen effect cannot be thawed now (not on the turn it was frozen, "
                        "nor after control was passed).", "RULES 13.2 frozen effects")
    ctx.emit("CardUnfrozen", seat=seat, card=card, reason="thawed")
    summon.run_effect(ctx, new_frame(seat, card, ["frozen"], kind="thaw"))


def resign(ctx: Context, seat: int, command: Command) -> None:
    s = ctx.state
    if not two_sided(s):
        raise RuleError("resign_not_allowed", "Players may not resign in a melee; play on, or let your turns time out.", "RULES 10.4 resignation")
    ctx.emit("PlayerResigned", seat=seat)
    turns.end_game(ctx, "resignation", loser_color=color_of(s, seat))


HANDLERS = {
    "place": place, "summon": summon_being, "discard": discard, "flare": flare,
    "claim_task": claim_task, "end_turn": end_turn, "resign": resign, "pass_control": teams.pass_control,
    "thaw": thaw, "warp": warp.warp,
}
