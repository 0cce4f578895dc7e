"""The game log in words: one English sentence per event worth telling, from redacted events.

Works on what a seat may see (the output of `redact`), so the log never says more than the
events it reads. `names` maps seat numbers to player names, kept as typed. `Narrator` reads a
whole log in order and follows the board, so that every piece it mentions is named with its
owner and rank ("Bob's heroic piece on c2 moves to b3"), undone steps included.
"""
from __future__ import annotations

from typing import Callable, TypeVar, cast

from .cards import RANK_NAMES
from .cards import card_name as _card
from .shapes import (
    ActionForfeited, ActionLossImposed, ActionsGained, ActionsLost, BeingSummoned, CardDiscarded, CardFrozen,
    CardMovedToDeckTop, CardPutUnderDeck, CardsDrawn, CardsReturned, CardUnfrozen, Command, ControlPassed,
    DestructionBonusGranted, ExtraDrawGranted, ExtraTurnGranted, FinalRoundStarted, FlareInvoked, GameEnded,
    GatewayLost, GatewayMarked, ImprovisationUsed, LegendsPassed, PendingBeingCleared, PieceConverted,
    PieceDestroyed, PieceMoved, PiecePickedUp, PiecePlaced, PieceRankChanged, PieceReleased, PieceStored,
    PiecesSwapped, PlayerResigned, PointsScored, SchoolBanned, SchoolChosen, SchoolDrawn, SeatAbandoned, SeatEntry,
    SummoningCountedAsLegend, TaskClaimed, TurnStarted, TurnStepRedone, TurnStepUndone, TurnTimedOut, WarpCopied,
    WarpPlayed,
)
from .view_shapes import CardsHidden, CardsReturnedHidden, SeatView, SeenEvent
from .vocabulary import STEP_COMMANDS

Names = dict[int, str]
Known = dict[str, tuple[int, str]]      # square -> (colour, rank name): the board as the narrator follows it
Sentence = Callable[[SeenEvent, Names], "str | None"]
E = TypeVar("E")
SENTENCES: dict[str, Sentence] = {}


def says(kind: str) -> Callable[[Callable[[E, Names], str | None]], Callable[[E, Names], str | None]]:
    """Register the sentence of event type `kind`, which takes that type as a seat sees it."""
    def register(fn: Callable[[E, Names], str | None]) -> Callable[[E, Names], str | None]:
        SENTENCES[kind] = cast("Sentence", fn)          # describe hands each one events of its own type only
        return fn
    return register


def _who(names: Names, seat: int | None) -> str:
    if seat is None:
        return "Nobody"
    return names.get(seat, f"Seat {seat + 1}")


def _owner(names: Names, color: int) -> str:
    """Who plays `color`: its seats' names (two in team play), else the seat of that number."""
    return getattr(names, "colors", {}).get(color) or _who(names, color)


def _piece(names: Names, color: int, rank: str) -> str:
    return f"{_owner(names, color)}'s {rank} piece"


def _first_up(text: str) -> str:
    """Upper-case the first letter of a sentence that does not start with a name (names are kept
    exactly as typed: "bot C's common piece", never "Bot c's")."""
    return text[:1].upper() + text[1:] if text.startswith("the piece") else text


def _the_piece(names: Names, square: str) -> str:
    """ "Ann's heroic piece on c2" when the narrator knows what stands there, else "the piece on c2"."""
    known = getattr(names, "board", {}).get(square)
    if known is None:
        return f"the piece on {square}"
    return f"{_owner(names, known[0])}'s {known[1]} piece on {square}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


@says("TurnStarted")
def _turn_started(e: TurnStarted, n: Names) -> str:
    return (f"Turn {e['number']}: {_who(n, e['seat'])} plays"
            f"{' an extra turn' if e.get('extra') else ''} with {_count(e['actions'], 'action')}.")


@says("PiecePlaced")
def _placed(e: PiecePlaced, n: Names) -> str:
    return f"{_owner(n, e['color'])} places a {e['rank']} piece on {e['square']}."


@says("PiecePickedUp")
def _picked_up(e: PiecePickedUp, n: Names) -> str:
    return f"{_owner(n, e['color'])} picks up their {e['rank']} piece on {e['square']} (piece shortage)."


@says("BeingSummoned")
def _summoned(e: BeingSummoned, n: Names) -> str:
    return f"{_who(n, e['seat'])} summons {_card(e['card'])} on {e['square']}."


@says("PieceMoved")
def _moved(e: PieceMoved, n: Names) -> str:
    return f"{_first_up(_the_piece(n, e['from']))} {'leaps' if e.get('leap') else 'moves'} to {e['to']}."


@says("PieceDestroyed")
def _destroyed(e: PieceDestroyed, names: Names) -> str:
    how = {"oversummon": "is summoned over", "move": "is captured", "leap": "is captured"}.get(str(e.get("cause")), "is destroyed")
    return f"{_piece(names, e['color'], e['rank'])} on {e['square']} {how}."


@says("PieceConverted")
def _converted(e: PieceConverted, n: Names) -> str:
    return (f"{_owner(n, e['from_color'])}'s {e['from_rank']} piece on {e['square']} is "
            f"converted to {_owner(n, e['to_color'])}'s {e['to_rank']} piece.")


@says("PieceRankChanged")
def _rank_changed(e: PieceRankChanged, names: Names) -> str:
    verb = "upgraded" if e["cause"] == "upgrade" else "downgraded" if e["cause"] == "downgrade" else "changed"
    return f"{_owner(names, e['color'])}'s {e['from_rank']} piece on {e['square']} is {verb} to {e['to_rank']}."


@says("PiecesSwapped")
def _swapped(e: PiecesSwapped, n: Names) -> str:
    return f"{_first_up(_the_piece(n, e['first']))} and {_the_piece(n, e['second'])} swap places."


@says("CardDiscarded")
def _discarded(e: CardDiscarded, n: Names) -> str | None:
    return f"{_who(n, e['seat'])} discards {_card(e['card'])}." if e.get("from_hand") else None


@says("CardsReturned")
def _returned(e: CardsReturned | CardsReturnedHidden, names: Names) -> str:
    if "cards" in e:
        return f"{_who(names, e['seat'])} puts {', '.join(_card(c) for _, c in e['cards'])} under their decks."
    return f"{_who(names, e['seat'])} puts {_count(e['count'], 'card')} under their decks."


@says("CardsDrawn")
def _drawn(e: CardsDrawn | CardsHidden, names: Names) -> str:
    what = {"school": "card", "legends": "legend", "flares": "flare"}[e["deck"]]
    if "cards" in e:
        return f"{_who(names, e['seat'])} draws {', '.join(_card(c) for c in e['cards'])}."
    return f"{_who(names, e['seat'])} draws {_count(e['count'], what)}."


@says("CardMovedToDeckTop")
def _to_deck_top(e: CardMovedToDeckTop, n: Names) -> str:
    return f"{_who(n, e['seat'])} puts {_card(e['card'])} on top of their deck."


@says("CardPutUnderDeck")
def _under_deck(e: CardPutUnderDeck, n: Names) -> str:
    return f"{_who(n, e['seat'])} slides {_card(e['card'])} under their deck."


@says("SummoningCountedAsLegend")
def _counted_as_legend(e: SummoningCountedAsLegend, n: Names) -> str:
    return f"The summoning on {e['square']} counts as a legend summoned."


GATEWAY_MARKED = {"no_gateway": "a Nethervoid being summoned while there was none",
                  "summoned_on_gateway": "summoned onto the old Gateway",
                  "higher_rank": "a heroic being outranks the common Gateway", "effect": "by a card effect",
                  "released": "back from stasis on the Merchant of Time"}
GATEWAY_LOST = {"destroyed": "destroyed", "converted": "converted", "became_legendary": "it became legendary",
                "picked_up": "picked up for lack of pieces", "removed": "taken off the board"}
STEP_WORDS = dict(zip(STEP_COMMANDS, ("takes back a step", "plays a step again")))   # undo, redo


@says("GatewayMarked")
def _gateway_marked(e: GatewayMarked, names: Names) -> str:
    moved = f"; the mark leaves {e['previous']}" if e.get("previous") else ""
    why = GATEWAY_MARKED.get(e["reason"], e["reason"])
    return f"The piece on {e['square']} becomes {_owner(names, e['color'])}'s Gateway ({why}{moved})."


@says("GatewayLost")
def _gateway_lost(e: GatewayLost, names: Names) -> str:
    where = f" on {e['square']}" if e.get("square") else ""
    return f"{_owner(names, e['color'])} loses the Gateway{where} ({GATEWAY_LOST.get(e['reason'], e['reason'])})."


@says("WarpPlayed")
def _warp_played(e: WarpPlayed, n: Names) -> str:
    return f"{_who(n, e['seat'])} plays the warp effect of {_card(e['card'])}, which becomes their pending being."


@says("PendingBeingCleared")
def _pending_cleared(e: PendingBeingCleared, names: Names) -> str:
    if e["reason"] == "returned":
        return f"{_who(names, e['seat'])} takes their pending being, {_card(e['card'])}, back into their hand."
    return f"{_card(e['card'])} is no longer {_who(names, e['seat'])}'s pending being ({e['reason']})."


@says("WarpCopied")
def _warp_copied(e: WarpCopied, names: Names) -> str:
    whose = "its own warp effect" if e["card"] == e["by"] else f"the warp effect of {_card(e['card'])}"
    return f"{_who(names, e['seat'])}'s {_card(e['by'])} resolves {whose}."


@says("DestructionBonusGranted")
def _destruction_bonus(e: DestructionBonusGranted, n: Names) -> str:
    return f"For the rest of the turn, each piece {_who(n, e['seat'])} destroys counts once more."


@says("PieceStored")
def _stored(e: PieceStored, n: Names) -> str:
    return (f"{_piece(n, e['color'], e['rank'])} on {e['square']} is put in stasis on "
            f"{_who(n, e['seat'])}'s Merchant of Time.")


@says("PieceReleased")
def _released(e: PieceReleased, names: Names) -> str:
    where = f"leaps to {e['square']}" if e["square"] else "goes back to its supply"
    return f"{_piece(names, e['color'], e['rank'])} leaves stasis and {where}."


@says("FlareInvoked")
def _flare(e: FlareInvoked, names: Names) -> str:
    halves = " and ".join(h for h, on in (("upper", e.get("upper")), ("lower", e.get("lower"))) if on)
    return f"{_who(names, e['seat'])} invokes {_card(e['card'])} against {_who(names, e['against'])} ({halves} half)."


@says("ActionsGained")
def _actions_gained(e: ActionsGained, n: Names) -> str:
    return f"{_who(n, e['seat'])} gains {_count(e['count'], 'action')}."


@says("ActionForfeited")
def _action_forfeited(e: ActionForfeited, n: Names) -> str:
    return f"{_who(n, e['seat'])} gives up an action."


@says("CardFrozen")
def _frozen(e: CardFrozen, names: Names) -> str:
    where = "from their discard pile into play" if e["source"] == "discard" else "in play"
    return f"{_who(names, e['seat'])} keeps {_card(e['card'])} {where} as their frozen effect."


@says("CardUnfrozen")
def _unfrozen(e: CardUnfrozen, names: Names) -> str:
    if e["reason"] == "thawed":
        return f"{_who(names, e['seat'])} thaws {_card(e['card'])}."
    return f"{_who(names, e['seat'])} discards the frozen {_card(e['card'])}."


@says("ActionLossImposed")
def _action_loss(e: ActionLossImposed, n: Names) -> str:
    return f"{_who(n, e['seat'])}'s opponents will have {_count(e['count'], 'action')} fewer on their next turn."


@says("ActionsLost")
def _actions_lost(e: ActionsLost, n: Names) -> str:
    return f"{_who(n, e['seat'])} has {_count(e['count'], 'action')} fewer this turn."


@says("ExtraTurnGranted")
def _extra_turn(e: ExtraTurnGranted, n: Names) -> str:
    return f"{_who(n, e['seat'])} will play an extra turn."


@says("ExtraDrawGranted")
def _extra_draw(e: ExtraDrawGranted, n: Names) -> str:
    return f"{_who(n, e['seat'])} will draw an extra card at the end of the turn."


@says("ImprovisationUsed")
def _improvised(e: ImprovisationUsed, n: Names) -> str:
    return f"{_who(n, e['seat'])} improvises with a piece of {_owner(n, e['color'])}."


@says("PointsScored")
def _scored(e: PointsScored, names: Names) -> str:
    track = e.get("track")
    where = "" if track is None else f" in {_owner(names, track)}'s colour"
    side = _owner(names, e["side"]) if track is None else _who(names, e["side"])
    return f"{side} scores {_count(e['points'], 'point')}{where} ({e['reason']})."


@says("TaskClaimed")
def _task_claimed(e: TaskClaimed, n: Names) -> str:
    return f"{_who(n, e['seat'])} claims the task {_card(e['task'])}."


@says("FinalRoundStarted")
def _final_round(e: FinalRoundStarted, n: Names) -> str:
    return f"The end is triggered ({e['reason'].replace('_', ' ')}): everyone plays one more turn."


@says("PlayerResigned")
def _resigned(e: PlayerResigned, n: Names) -> str:
    return f"{_who(n, e['seat'])} resigns."


@says("SchoolDrawn")
def _school_drawn(e: SchoolDrawn, n: Names) -> str:
    return f"{_who(n, e['seat'])} plays {e['school'].capitalize()}, drawn at random."


@says("SchoolChosen")
def _school_chosen(e: SchoolChosen, n: Names) -> str:
    if "by" in e:
        return f"{_who(n, e['by'])} chooses {e['school'].capitalize()} for {_who(n, e['seat'])} to play."
    return f"{_who(n, e['seat'])} chooses to play {e['school'].capitalize()}."


@says("SchoolBanned")
def _school_banned(e: SchoolBanned, n: Names) -> str:
    return f"{_who(n, e['seat'])} bans {e['school'].capitalize()}: nobody will play it."


@says("LegendsPassed")
def _legends_passed(e: LegendsPassed | CardsHidden, names: Names) -> str:
    what = ", ".join(_card(c) for c in e["cards"]) if "cards" in e else _count(e["count"], "legend")
    return f"{_who(names, e['seat'])} passes {what} to {_who(names, e.get('to'))}."


@says("ControlPassed")
def _control_passed(e: ControlPassed, n: Names) -> str:
    return f"{_who(n, e['seat'])} hands the turn over to {_who(n, e['to'])}."


@says("TurnTimedOut")
def _timed_out(e: TurnTimedOut, n: Names) -> str:
    return f"{_who(n, e['seat'])} ran out of time; the turn is played automatically."


@says("SeatAbandoned")
def _abandoned(e: SeatAbandoned, n: Names) -> str:
    return f"{_who(n, e['seat'])} has timed out {e['timeouts']} times in a row and is now played automatically."


@says("GameEnded")
def _ended(e: GameEnded, names: Names) -> str:
    result = e["result"]
    winners = " and ".join(_who(names, s) for s in result["winners"])
    how = {"resignation": "by resignation", "abandonment": "by abandonment"}.get(result["reason"],
                                                                                 "at the end of the final round")
    verb = "win" if len(result["winners"]) > 1 else "wins"
    return f"The game is over {how}: {winners} {verb}."


def _steps(n: Names, wanted: Callable[[int], bool]) -> str:
    """The turn's commands (as the narrator followed them) whose versions are `wanted`, in words
    without the player's name: "places on e5, then summons Swordmaster on d5" ('' when unknown)."""
    said = []
    for version, command in getattr(n, "steps", []):
        if wanted(version):
            who = _who(n, command.get("seat"))
            text = describe_command(command, n)
            said.append(text[len(who) + 1:] if text.startswith(who + " ") else text)
    return ", then ".join(said)


@says("TurnStepUndone")
def _undone(e: TurnStepUndone, n: Names) -> str:
    what = _steps(n, lambda v: v > e["to_version"])
    return f"{_who(n, e['seat'])} takes back a step{': ' + what if what else ''}."


@says("TurnStepRedone")
def _redone(e: TurnStepRedone, n: Names) -> str:
    what = _steps(n, lambda v: e["from_version"] < v <= e["to_version"])
    return f"{_who(n, e['seat'])} plays a step again{': ' + what if what else ''}."


def describe(event: SeenEvent, names: Names | None = None) -> str | None:
    """One sentence for `event`, or None for bookkeeping events players do not read."""
    sentence = SENTENCES.get(event["type"])
    return sentence(event, names or {}) if sentence else None


def describe_command(command: Command, names: Names | None = None) -> str:
    """A player's command as a short line of a move list (a redacted discard's `returns` is a count)."""
    who = _who(names or {}, command.get("seat"))
    kind = command["type"]
    if kind == "place":
        return f"{who} places on {command['square']}"
    if kind == "summon":
        return f"{who} summons {_card(command['card'])} on {command['square']}"
    if kind == "discard":
        returns = command.get("returns") or []
        count = returns if isinstance(returns, int) else len(returns)      # redacted: only a count
        returned = f", returning {_count(count, 'card')}" if count else ""
        return f"{who} discards {_card(command['card'])}{returned}"
    if kind == "flare":
        return f"{who} invokes {_card(command['card'])}"
    if kind == "claim_task":
        return f"{who} claims {_card(command['task'])}"
    if kind == "move":
        return f"{who} moves {command['from']}-{command['to']}"
    if kind == "choose":
        picked = next((f"{k} {v}" for k, v in command.items() if k not in ("type", "seat")), "")
        return f"{who} chooses {picked}".rstrip()
    if kind in STEP_COMMANDS:
        return f"{who} {STEP_WORDS[kind]}"

    return f"{who}: {kind.replace('_', ' ')}"


class SeatNames(dict[int, str]):
    """Seat number -> name, plus `colors`: colour -> the names of the seats playing it, and `board`:
    what stands where as the narrator follows it, so that a moved piece is named by its owner."""
    colors: dict[int, str]
    board: Known
    steps: list[tuple[int, Command]]      # the open turn's commands by version, undone ones too


class Narrator:
    """Reads a log in order (redacted events are enough) and tells each event, naming every piece
    with its owner and rank; it follows the board, undo and redo included."""

    def __init__(self, names: Names) -> None:
        self.names = SeatNames(names)
        self.names.colors = {}
        self.names.steps = []
        self.board: Known = {}
        self.kept: dict[int, Known] = {}

    def line(self, version: int, event: SeenEvent) -> str | None:
        """The sentence for the event at `version` (None for bookkeeping), then follow it."""
        self.names.board = self.board
        text = describe(event, self.names)
        self._follow(version, event)
        return text

    def _seats(self, seats: list[SeatEntry] | list[SeatView]) -> None:
        by_color: dict[int, list[str]] = {}
        for i, seat in enumerate(seats):
            by_color.setdefault(seat["color"], []).append(_who(self.names, i))
        self.names.colors = {c: " and ".join(n) for c, n in by_color.items()}

    def _follow(self, version: int, e: SeenEvent) -> None:
        b = self.board
        if e["type"] == "GameCreated":
            b.clear()
            self._seats(e["seats"])
        elif e["type"] == "PositionSet":
            state = e["state"]
            self._seats(state["seats"])
            board = state["board"]
            b.clear()
            if isinstance(board, dict):                                       # a full state
                b.update({sq: (p[1], RANK_NAMES[p[2]]) for sq, p in board.items()})
            else:                                                    # a seat's view
                b.update({p["square"]: (p["color"], p["rank"]) for p in board})
        elif e["type"] == "PiecePlaced" or e["type"] == "BeingSummoned":
            b[e["square"]] = (e["color"], e["rank"])
        elif e["type"] == "PieceMoved":
            moved = b.pop(e["from"], None)
            if moved is not None:
                b[e["to"]] = moved
        elif e["type"] == "PieceDestroyed" or e["type"] == "PiecePickedUp" or e["type"] == "PieceStored":
            b.pop(e["square"], None)
        elif e["type"] == "PieceConverted":
            b[e["square"]] = (e["to_color"], e["to_rank"])
        elif e["type"] == "PieceRankChanged" and e["square"] in b:
            b[e["square"]] = (b[e["square"]][0], e["to_rank"])
        elif e["type"] == "PiecesSwapped":
            first, second = b.pop(e["first"], None), b.pop(e["second"], None)
            b.update({k: v for k, v in ((e["first"], second), (e["second"], first)) if v is not None})
        elif e["type"] == "PieceReleased" and e.get("square"):
            b[e["square"]] = (e["color"], e["rank"])
        elif e["type"] == "CommandAccepted":
            self.kept[version - 1] = dict(b)
            if e["command"].get("type") not in STEP_COMMANDS and "seat" in e:
                self.names.steps.append((version, cast("Command", {**e["command"], "seat": e["seat"]})))
        elif e["type"] == "TurnStarted":
            self.names.steps = []
        elif e["type"] == "TurnStepUndone" or e["type"] == "TurnStepRedone":
            self.kept.setdefault(e["from_version"], dict(b))
            self.board = dict(self.kept.get(e["to_version"], b))
