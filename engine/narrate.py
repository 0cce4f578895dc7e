"""The game log in words: one English sentence per event worth telling, from redacted events.

Works on what a seat may see (the output of `redact`), so the log never says more than the
events it reads. `names` maps seat numbers to player names, kept as typed. `Narrator` reads a
whole log in order and follows the board, so that every piece it mentions is named with its
owner and rank ("Bob's heroic piece on c2 moves to b3"), undone steps included.
"""
from __future__ import annotations

from typing import Any, Callable

from .cards import RANK_NAMES
from .cards import card_name as _card
from .shapes import Command
from .vocabulary import STEP_COMMANDS

Names = dict[int, str]


def _who(names: Names, seat: int | None) -> str:
    if seat is None:
        return "Nobody"
    return names.get(seat, f"Seat {seat + 1}")


def _owner(names: Names, color: int) -> str:
    """Who plays `color`: its seats' names (two in team play), else the seat of that number."""
    return getattr(names, "colors", {}).get(color) or _who(names, color)


def _piece(e: dict[str, Any], names: Names, color_key: str = "color", rank_key: str = "rank") -> str:
    return f"{_owner(names, e[color_key])}'s {e[rank_key]} piece"


def _first_up(text: str) -> str:
    """Upper-case the first letter of a sentence that does not start with a name (names are kept
    exactly as typed: "bot C's common piece", never "Bot c's")."""
    return text[:1].upper() + text[1:] if text.startswith("the piece") else text


def _the_piece(e: dict[str, Any], names: Names, square_key: str) -> str:
    """ "Ann's heroic piece on c2" when the narrator knows what stands there, else "the piece on c2"."""
    known = e.get("pieces", {}).get(e[square_key])
    if known is None:
        return f"the piece on {e[square_key]}"
    return f"{_owner(names, known[0])}'s {known[1]} piece on {e[square_key]}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _drawn(e: dict[str, Any], names: Names) -> str:
    what = {"school": "card", "legends": "legend", "flares": "flare"}[e["deck"]]
    if "cards" in e:
        return f"{_who(names, e['seat'])} draws {', '.join(_card(c) for c in e['cards'])}."
    return f"{_who(names, e['seat'])} draws {_count(e['count'], what)}."


def _destroyed(e: dict[str, Any], names: Names) -> str:
    how = {"oversummon": "is summoned over", "move": "is captured", "leap": "is captured"}.get(str(e.get("cause")), "is destroyed")
    return f"{_piece(e, names)} on {e['square']} {how}."


def _scored(e: dict[str, Any], names: Names) -> str:
    track = "" if e.get("track") is None else f" in {_owner(names, e['track'])}'s colour"
    side = _owner(names, e["side"]) if e.get("track") is None else _who(names, e["side"])
    return f"{side} scores {_count(e['points'], 'point')}{track} ({e['reason']})."


def _ended(e: dict[str, Any], names: Names) -> str:
    result = e["result"]
    winners = " and ".join(_who(names, s) for s in result["winners"])
    how = {"resignation": "by resignation", "abandonment": "by abandonment"}.get(result["reason"],
                                                                                 "at the end of the final round")
    verb = "win" if len(result["winners"]) > 1 else "wins"
    return f"The game is over {how}: {winners} {verb}."


def _legends_passed(e: dict[str, Any], names: Names) -> str:
    what = ", ".join(_card(c) for c in e["cards"]) if "cards" in e else _count(e["count"], "legend")
    return f"{_who(names, e['seat'])} passes {what} to {_who(names, e['to'])}."


def _returned(e: dict[str, Any], names: Names) -> str:
    if "cards" in e:
        return f"{_who(names, e['seat'])} puts {', '.join(_card(c) for _, c in e['cards'])} under their decks."
    return f"{_who(names, e['seat'])} puts {_count(e['count'], 'card')} under their decks."


def _flare(e: dict[str, Any], names: Names) -> str:
    halves = " and ".join(h for h in ("upper", "lower") if e.get(h))
    return f"{_who(names, e['seat'])} invokes {_card(e['card'])} against {_who(names, e['against'])} ({halves} half)."


def _rank_changed(e: dict[str, Any], names: Names) -> str:
    verb = "upgraded" if e["cause"] == "upgrade" else "downgraded" if e["cause"] == "downgrade" else "changed"
    return f"{_owner(names, e['color'])}'s {e['from_rank']} piece on {e['square']} is {verb} to {e['to_rank']}."


GATEWAY_MARKED = {"no_gateway": "a Nethervoid being summoned while there was none",
                  "summoned_on_gateway": "summoned onto the old Gateway",
                  "higher_rank": "a heroic being outranks the common Gateway", "effect": "by a card effect",
                  "released": "back from stasis on the Merchant of Time"}
GATEWAY_LOST = {"destroyed": "destroyed", "converted": "converted", "became_legendary": "it became legendary",
                "picked_up": "picked up for lack of pieces", "removed": "taken off the board"}
STEP_WORDS = dict(zip(STEP_COMMANDS, ("takes back a step", "plays a step again")))   # undo, redo


def _gateway_marked(e: dict[str, Any], names: Names) -> str:
    moved = f"; the mark leaves {e['previous']}" if e.get("previous") else ""
    why = GATEWAY_MARKED.get(e["reason"], e["reason"])
    return f"The piece on {e['square']} becomes {_owner(names, e['color'])}'s Gateway ({why}{moved})."


def _gateway_lost(e: dict[str, Any], names: Names) -> str:
    where = f" on {e['square']}" if e.get("square") else ""
    return f"{_owner(names, e['color'])} loses the Gateway{where} ({GATEWAY_LOST.get(e['reason'], e['reason'])})."


def _frozen(e: dict[str, Any], names: Names) -> str:
    where = "from their discard pile into play" if e["source"] == "discard" else "in play"
    return f"{_who(names, e['seat'])} keeps {_card(e['card'])} {where} as their frozen effect."


def _unfrozen(e: dict[str, Any], names: Names) -> str:
    if e["reason"] == "thawed":
        return f"{_who(names, e['seat'])} thaws {_card(e['card'])}."
    return f"{_who(names, e['seat'])} discards the frozen {_card(e['card'])}."


def _pending_cleared(e: dict[str, Any], names: Names) -> str:
    if e["reason"] == "returned":
        return f"{_who(names, e['seat'])} takes their pending being, {_card(e['card'])}, back into their hand."
    return f"{_card(e['card'])} is no longer {_who(names, e['seat'])}'s pending being ({e['reason']})."


def _warp_copied(e: dict[str, Any], names: Names) -> str:
    whose = "its own warp effect" if e["card"] == e["by"] else f"the warp effect of {_card(e['card'])}"
    return f"{_who(names, e['seat'])}'s {_card(e['by'])} resolves {whose}."


def _released(e: dict[str, Any], names: Names) -> str:
    where = f"leaps to {e['square']}" if e["square"] else "goes back to its supply"
    return f"{_piece(e, names)} leaves stasis and {where}."


SENTENCES: dict[str, Callable[[dict[str, Any], Names], str | None]] = {
    "TurnStarted": lambda e, n: f"Turn {e['number']}: {_who(n, e['seat'])} plays"
                                f"{' an extra turn' if e.get('extra') else ''} with {_count(e['actions'], 'action')}.",
    "PiecePlaced": lambda e, n: f"{_owner(n, e['color'])} places a {e['rank']} piece on {e['square']}.",
    "PiecePickedUp": lambda e, n: f"{_owner(n, e['color'])} picks up their {e['rank']} piece on {e['square']} "
                                  f"(piece shortage).",
    "BeingSummoned": lambda e, n: f"{_who(n, e['seat'])} summons {_card(e['card'])} on {e['square']}.",
    "PieceMoved": lambda e, n: f"{_first_up(_the_piece(e, n, 'from'))} {'leaps' if e.get('leap') else 'moves'} "
                               f"to {e['to']}.",
    "PieceDestroyed": _destroyed,
    "PieceConverted": lambda e, n: f"{_owner(n, e['from_color'])}'s {e['from_rank']} piece on {e['square']} is "
                                   f"converted to {_owner(n, e['to_color'])}'s {e['to_rank']} piece.",
    "PieceRankChanged": _rank_changed,
    "PiecesSwapped": lambda e, n: f"{_first_up(_the_piece(e, n, 'first'))} and {_the_piece(e, n, 'second')} swap places.",
    "CardDiscarded": lambda e, n: f"{_who(n, e['seat'])} discards {_card(e['card'])}." if e.get("from_hand") else None,
    "CardsReturned": _returned,
    "CardsDrawn": _drawn,
    "CardMovedToDeckTop": lambda e, n: f"{_who(n, e['seat'])} puts {_card(e['card'])} on top of their deck.",
    "CardPutUnderDeck": lambda e, n: f"{_who(n, e['seat'])} slides {_card(e['card'])} under their deck.",
    "SummoningCountedAsLegend": lambda e, n: f"The summoning on {e['square']} counts as a legend summoned.",
    "GatewayMarked": _gateway_marked,
    "GatewayLost": _gateway_lost,
    "WarpPlayed": lambda e, n: f"{_who(n, e['seat'])} plays the warp effect of {_card(e['card'])}, "
                               f"which becomes their pending being.",
    "PendingBeingCleared": _pending_cleared,
    "WarpCopied": _warp_copied,
    "DestructionBonusGranted": lambda e, n: f"For the rest of the turn, each piece {_who(n, e['seat'])} "
                                            f"destroys counts once more.",
    "PieceStored": lambda e, n: f"{_piece(e, n)} on {e['square']} is put in stasis on "
                                f"{_who(n, e['seat'])}'s Merchant of Time.",
    "PieceReleased": _released,
    "FlareInvoked": _flare,
    "ActionsGained": lambda e, n: f"{_who(n, e['seat'])} gains {_count(e['count'], 'action')}.",
    "ActionForfeited": lambda e, n: f"{_who(n, e['seat'])} gives up an action.",
    "CardFrozen": _frozen,
    "CardUnfrozen": _unfrozen,
    "ActionLossImposed": lambda e, n: f"{_who(n, e['seat'])}'s opponents will have {_count(e['count'], 'action')} "
                                      f"fewer on their next turn.",
    "ActionsLost": lambda e, n: f"{_who(n, e['seat'])} has {_count(e['count'], 'action')} fewer this turn.",
    "ExtraTurnGranted": lambda e, n: f"{_who(n, e['seat'])} will play an extra turn.",
    "ExtraDrawGranted": lambda e, n: f"{_who(n, e['seat'])} will draw an extra card at the end of the turn.",
    "ImprovisationUsed": lambda e, n: f"{_who(n, e['seat'])} improvises with a piece of {_owner(n, e['color'])}.",
    "PointsScored": _scored,
    "TaskClaimed": lambda e, n: f"{_who(n, e['seat'])} claims the task {_card(e['task'])}.",
    "FinalRoundStarted": lambda e, n: f"The end is triggered ({e['reason'].replace('_', ' ')}): everyone plays one more turn.",
    "PlayerResigned": lambda e, n: f"{_who(n, e['seat'])} resigns.",
    "SchoolDrawn": lambda e, n: f"{_who(n, e['seat'])} plays {e['school'].capitalize()}, drawn at random.",
    "SchoolChosen": lambda e, n: f"{_who(n, e['seat'])} chooses to play {e['school'].capitalize()}.",
    "LegendsPassed": _legends_passed,
    "ControlPassed": lambda e, n: f"{_who(n, e['seat'])} hands the turn over to {_who(n, e['to'])}.",
    "TurnTimedOut": lambda e, n: f"{_who(n, e['seat'])} ran out of time; the turn is played automatically.",
    "SeatAbandoned": lambda e, n: f"{_who(n, e['seat'])} has timed out {e['timeouts']} times in a row and is "
                                  f"now played automatically.",
    "GameEnded": _ended,
    "TurnStepUndone": lambda e, n: f"{_who(n, e['seat'])} takes back a step (back to the position of "
                                   f"version {e['to_version']}).",
    "TurnStepRedone": lambda e, n: f"{_who(n, e['seat'])} plays a step again (forward to the position of "
                                   f"version {e['to_version']}).",
}


def describe(event: dict[str, Any], names: Names | None = None) -> str | None:
    """One sentence for `event`, or None for bookkeeping events players do not read."""
    sentence = SENTENCES.get(event["type"])
    return sentence(event, names or {}) if sentence else None


def describe_command(command: Command, names: Names | None = None) -> str:
    """A player's command as a short line of a move list."""
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
    """Seat number -> name, plus `colors`: colour -> the names of the seats playing it."""
    colors: dict[int, str]


class Narrator:
    """Reads a log in order (redacted events are enough) and tells each event, naming every piece
    with its owner and rank; it follows the board, undo and redo included."""

    def __init__(self, names: Names) -> None:
        self.names = SeatNames(names)
        self.names.colors = {}
        self.board: dict[str, tuple[int, str]] = {}       # square -> (colour, rank name)
        self.kept: dict[int, dict[str, tuple[int, str]]] = {}

    def line(self, version: int, event: dict[str, Any]) -> str | None:
        """The sentence for the event at `version` (None for bookkeeping), then follow it."""
        kind = event["type"]
        if kind in ("PieceMoved", "PiecesSwapped"):
            event = {**event, "pieces": dict(self.board)}
        text = describe(event, self.names)
        self._follow(version, event)
        return text

    def _seats(self, seats: list[dict[str, Any]]) -> None:
        by_color: dict[int, list[str]] = {}
        for i, seat in enumerate(seats):
            by_color.setdefault(seat["color"], []).append(_who(self.names, i))
        self.names.colors = {c: " and ".join(n) for c, n in by_color.items()}

    def _follow(self, version: int, e: dict[str, Any]) -> None:
        kind, b = e["type"], self.board
        if kind == "GameCreated":
            b.clear()
            self._seats(e["seats"])
        elif kind == "PositionSet":
            state = e["state"]
            self._seats(state["seats"])
            board = state["board"]
            b.clear()
            if isinstance(board, dict):                                       # a full state
                b.update({sq: (p[1], RANK_NAMES[p[2]]) for sq, p in board.items()})
            else:                                                    # a seat's view
                b.update({p["square"]: (p["color"], p["rank"]) for p in board})
        elif kind in ("PiecePlaced", "BeingSummoned"):
            b[e["square"]] = (e["color"], e["rank"])
        elif kind == "PieceMoved":
            moved = b.pop(e["from"], None)
            if moved is not None:
                b[e["to"]] = moved
        elif kind in ("PieceDestroyed", "PiecePickedUp", "PieceStored"):
            b.pop(e["square"], None)
        elif kind == "PieceConverted":
            b[e["square"]] = (e["to_color"], e["to_rank"])
        elif kind == "PieceRankChanged" and e["square"] in b:
            b[e["square"]] = (b[e["square"]][0], e["to_rank"])
        elif kind == "PiecesSwapped":
            first, second = b.pop(e["first"], None), b.pop(e["second"], None)
            b.update({k: v for k, v in ((e["first"], second), (e["second"], first)) if v is not None})
        elif kind == "PieceReleased" and e.get("square"):
            b[e["square"]] = (e["color"], e["rank"])
        elif kind == "CommandAccepted":
            self.kept[version - 1] = dict(b)
        elif kind in ("TurnStepUndone", "TurnStepRedone"):
            self.kept.setdefault(e["from_version"], dict(b))
            self.board = dict(self.kept.get(e["to_version"], b))

