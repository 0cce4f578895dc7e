"""Reducers: how each event changes the state. Facts only, no rules.

Every reducer of the engine is registered here and nowhere else, the expansions' too: the fold
(`replay`) is this module and what it imports, which is exactly what events/snapshots.py
fingerprints. `apply` mutates a state in place (used by `decide` on its scratch copy and by
`replay` on one fresh copy); `evolve` is the pure form the public API offers.
"""
from __future__ import annotations

from typing import Any, Callable, Literal, Sequence, TypeVar, cast

from . import checkpoints, confirm
from .cards import RANKS
from .releases import FIRST, release_named
from .shapes import (
    ActionForfeited, ActionLossImposed, ActionTaken, ActionsGained, ActionsLost, BeingSummoned, CardDiscarded,
    CardFrozen, CardMovedToDeckTop, CardPutUnderDeck, CardUnfrozen, CardsDrawn, CardsReturned,
    CommandAccepted, ControlPassed, DeckShuffled, DestructionBonusGranted, ExtraDrawGranted, ExtraTurnGranted,
    FinalRoundStarted, FlareInvoked, GameCreated, GameEnded, GameEvent, GatewayLost, GatewayMarked,
    ImprovisationUsed, LegendsPassed, PendingBeingCleared, PieceConverted, PieceDestroyed, PieceMoved,
    PiecePickedUp, PiecePlaced, PieceRankChanged, PieceReleased, PieceStored, PiecesSwapped, PlayerResigned,
    PointsScored, PositionSet, ResolutionAdvanced, SchoolBanned, SchoolChosen, SchoolDrawn, SeatAbandoned, SeatOptionsSet,
    SummonModifierGranted, SummonModifierUsed, SummoningCountedAsLegend, TaskClaimed, TasksDealt,
    TimeoutStreakEnded, TurnEnded, TurnStarted, TurnStepRedone, TurnStepUndone, TurnTimedOut, WarpCopied,
    WarpPlayed,
)
from .state import LEGENDARY, State, clone, color_of, current_turn, dealt_tasks, improvisations, piles, reset

Event = GameEvent
Reducer = Callable[[State, GameEvent], None]
E = TypeVar("E")
REDUCERS: dict[str, Reducer] = {}

# Every event type the engine emits, with its payload schema version.
EVENT_VERSIONS: dict[str, int] = {}


def reducer(name: str, version: int = 1) -> Callable[[Callable[[State, E], None]], Callable[[State, E], None]]:
    """Register the reducer of event type `name`, which takes that type's TypedDict (engine/shapes.py;
    tests/engine/test_reducer_types.py checks the two agree); a second one for the same type is refused."""
    def register(fn: Callable[[State, E], None]) -> Callable[[State, E], None]:
        if name in REDUCERS:
            raise ValueError(f"two reducers for {name}")
        REDUCERS[name] = cast("Reducer", fn)      # the fold hands each reducer events of its own type only
        EVENT_VERSIONS[name] = version
        return fn
    return register


def apply(state: State, event: Event, undoable: bool = True) -> None:
    """Fold one event into `state` in place (what `fold` does with a log of one event): through its
    reducer, then counted and kept for undo when `undoable`, else only counted."""
    version = state.get("version", 0) + 1
    REDUCERS[event["type"]](state, event)
    if undoable:
        checkpoints.follow(state, event, version)
    else:
        checkpoints.count(state, event, version)


def replay(events: Sequence[Event], state: State | None = None) -> State:
    """Fold events through the reducers, from nothing or from a given state (left unchanged)."""
    out = clone(state) if state is not None else cast("State", {})   # GameCreated or PositionSet fills it
    fold(out, events)
    return out


def fold(state: State, events: Sequence[Event], undoable: bool = True) -> None:
    """Fold events into `state` in place (the body of `replay`): each as `apply` does, kept for
    undo, or only counted where a later barrier drops what it would keep (checkpoints.usable), or
    everywhere when not `undoable` (search never steps back).

    The events that keep nothing (all of them when not `undoable`; else those up to the last
    barrier ahead of any undo or redo, most of a whole game's log) are folded in runs
    (`_fold_unkept`); the rest one by one, and so is a short log (a move's events), for which
    finding the runs would cost more than it saves."""
    cut = 0
    if len(events) >= IN_RUNS:
        kinds: list[str] = [event["type"] for event in events]
        cut = checkpoints.unkept(kinds) if undoable else len(kinds)
        if cut:
            _fold_unkept(state, events[:cut], kinds[:cut], undoable)
    rest = events[cut:]
    for event, usable in zip(rest, checkpoints.usable(rest) if undoable else [False] * len(rest)):
        apply(state, event, usable)


IN_RUNS = 64                        # logs this long or longer are folded in runs where they keep nothing

# Events folded one by one even among those that keep nothing: a fresh start or the end of the
# game puts `version` back or drops it, and an undo or redo reads it.
ON_THEIR_OWN = ("GameCreated", "PositionSet", "GameEnded", *checkpoints.STEP_EVENTS)
RESOLUTION = "ResolutionAdvanced"


def _fold_unkept(state: State, events: Sequence[Event], kinds: list[str], drop_checkpoints: bool) -> None:
    """`fold` of events none of which keeps a checkpoint, to the same state, faster: between the
    events ON_THEIR_OWN, each run goes through its reducers with `version` counted once at its end,
    and of its ResolutionAdvanced events only the last one is folded (each replaces the effect and
    the pending decision whole and no other reducer reads them, so the earlier ones would only be
    copied to be thrown away). A barrier among them drops the checkpoints (`undo`), once, at the end."""
    alone = sorted(i for kind in ON_THEIR_OWN for i in _positions(kinds, kind))
    resolutions = _positions(kinds, RESOLUTION)
    start = 0
    for stop in [*alone, len(events)]:
        if "version" not in state and start < stop:    # counting puts the key in place before any other
            apply(state, events[start], drop_checkpoints and kinds[start] in checkpoints.BARRIERS)
            start += 1
        if start < stop:
            superseded = "effect" in state and "pending" in state
            reducers = _UNKEPT if superseded else REDUCERS
            for reduce, event in zip(map(reducers.__getitem__, kinds[start:stop]), events[start:stop]):
                reduce(state, event)
            last = next((i for i in reversed(resolutions) if start <= i < stop), None) if superseded else None
            if last is not None:
                REDUCERS[RESOLUTION](state, events[last])
            state["version"] += stop - start
        if stop < len(events):
            apply(state, events[stop], drop_checkpoints and kinds[stop] in checkpoints.BARRIERS)
        start = stop + 1
    if drop_checkpoints:
        state.pop("undo", None)


def _positions(kinds: list[str], kind: str) -> list[int]:
    """Where `kind` stands in `kinds` (list.index does the scanning)."""
    out: list[int] = []
    try:
        while True:
            out.append(kinds.index(kind, out[-1] + 1 if out else 0))
    except ValueError:
        return out


def evolve(state: State, event: Event) -> State:
    """The state after `event`; `state` itself is left unchanged."""
    new = clone(state)
    apply(new, event)
    return new


# --- setup -------------------------------------------------------------------------------------

@reducer("GameCreated")
def _game_created(s: State, e: GameCreated) -> None:
    reset(s, {
        "form": e["form"], "teams": e["teams"], "seats": [x.copy() for x in e["seats"]],
        "capacity": [list(c) for c in e["capacity"]], "removed": [[0, 0] for _ in e["capacity"]],
        "board": {}, "next_piece": 1,
        "hands": [[] for _ in e["seats"]], "decks": [[] for _ in e["seats"]],
        "discards": [[] for _ in e["seats"]],
        "legends": {"deck": [], "discard": []}, "flares": {"deck": [], "discard": []},
        "tasks": None, "points": clone(e["points"]), "impro": clone(e["impro"]),
        "phase": "setup", "turn": None, "effect": None, "pending": None,
        "final": None, "result": None, "rng": {"seed": e["seed"], "draws": 0},
        "options": clone(e.get("options", {})),
    })
    _stamp_release(s, e.get("rules"))


@reducer("PositionSet")
def _position_set(s: State, e: PositionSet) -> None:
    """A game started from a given position: every part of the state is stated."""
    reset(s, clone(e["state"]))
    _stamp_release(s, e.get("rules"))


def _stamp_release(s: State, stamp: dict[str, str] | None) -> None:
    """The state names the release its game is decided under, unless it is the first (releases.py)."""
    release = release_named(stamp)
    if release != FIRST.name:
        s["release"] = release


@reducer("DeckShuffled")
def _deck_shuffled(s: State, e: DeckShuffled) -> None:
    deck, discard = piles(s, e["deck"], e.get("seat"))
    deck[:] = e["cards"]
    if e.get("from_discard"):
        discard.clear()
    s["rng"]["draws"] += 1


@reducer("CardsDrawn")
def _cards_drawn(s: State, e: CardsDrawn) -> None:
    deck, _ = piles(s, e["deck"], e["seat"])
    del deck[:len(e["cards"])]
    s["hands"][e["seat"]].extend(e["cards"])


@reducer("TasksDealt")
def _tasks_dealt(s: State, e: TasksDealt) -> None:
    claimed = s["tasks"]["claimed"] if s["tasks"] else [[] for _ in s["capacity"]]
    s["tasks"] = {"current": list(e["current"]), "next": e["next"], "deck": list(e["deck"]), "claimed": claimed}
    if e.get("shuffled"):
        s["rng"]["draws"] += 1


@reducer("TurnStarted")
def _turn_started(s: State, e: TurnStarted) -> None:
    s["phase"] = "play"
    s["turn"] = {
        "seat": e["seat"], "number": e["number"], "actions": e["actions"], "extra": e.get("extra", False),
        "discarded": False, "flared": False, "destroyed": [], "summons": [], "draws": [],
        "extra_turn": False, "modifiers": [], "triggered": e.get("triggered", False),
    }


@reducer("CommandAccepted")
def _command_accepted(s: State, e: CommandAccepted) -> None:
    """The command itself, first of its batch: the audit trail and the boundary of a move."""


# --- actions and pieces --------------------------------------------------------------------------

@reducer("ActionTaken")
def _action_taken(s: State, e: ActionTaken) -> None:
    turn = current_turn(s)
    turn["actions"] = e["actions_left"]
    if e["action"] == "discard":
        turn["discarded"] = True


@reducer("ActionsGained")
def _actions_gained(s: State, e: ActionsGained) -> None:
    current_turn(s)["actions"] = e["actions_left"]


@reducer("ActionForfeited")
def _action_forfeited(s: State, e: ActionForfeited) -> None:
    current_turn(s)["actions"] = e["actions_left"]


@reducer("PiecePlaced")
def _piece_placed(s: State, e: PiecePlaced) -> None:
    s["board"][e["square"]] = [e["piece"], e["color"], RANKS[e["rank"]]]
    s["next_piece"] = max(s["next_piece"], e["piece"] + 1)


@reducer("PiecePickedUp")
def _piece_picked_up(s: State, e: PiecePickedUp) -> None:
    del s["board"][e["square"]]


@reducer("BeingSummoned")
def _being_summoned(s: State, e: BeingSummoned) -> None:
    seat = e["seat"]
    s["hands"][seat].remove(e["card"])
    s["board"][e["square"]] = [e["piece"], e["color"], RANKS[e["rank"]]]
    s["next_piece"] = max(s["next_piece"], e["piece"] + 1)
    turn = s["turn"]
    if turn and turn["seat"] == seat:
        turn["summons"].append([e["square"], RANKS[e["rank"]]])


@reducer("PieceMoved")
def _piece_moved(s: State, e: PieceMoved) -> None:
    s["board"][e["to"]] = s["board"].pop(e["from"])


@reducer("PieceDestroyed")
def _piece_destroyed(s: State, e: PieceDestroyed) -> None:
    del s["board"][e["square"]]
    rank = RANKS[e["rank"]]
    if e.get("removed"):
        s["removed"][e["color"]][rank == 3] += 1
    turn = s["turn"]
    if e.get("credited") and turn:
        for _ in range(e.get("weight", 1)):
            turn["destroyed"].append([e["color"], rank])


@reducer("PieceConverted")
def _piece_converted(s: State, e: PieceConverted) -> None:
    piece = s["board"][e["square"]]
    piece[1], piece[2] = e["to_color"], RANKS[e["to_rank"]]
    turn = s["turn"]
    if e.get("credited") and turn:
        for _ in range(e.get("weight", 1)):
            turn["destroyed"].append([e["from_color"], RANKS[e["from_rank"]]])


@reducer("PieceRankChanged")
def _piece_rank_changed(s: State, e: PieceRankChanged) -> None:
    s["board"][e["square"]][2] = RANKS[e["to_rank"]]


@reducer("PiecesSwapped")
def _pieces_swapped(s: State, e: PiecesSwapped) -> None:
    b = s["board"]
    b[e["first"]], b[e["second"]] = b[e["second"]], b[e["first"]]


# --- cards -----------------------------------------------------------------------------------------

@reducer("CardDiscarded")
def _card_discarded(s: State, e: CardDiscarded) -> None:
    seat, card = e["seat"], e["card"]
    if e.get("from_hand", True):
        s["hands"][seat].remove(card)
    piles(s, e["deck"], seat)[1].append(card)


@reducer("CardsReturned")
def _cards_returned(s: State, e: CardsReturned) -> None:
    seat = e["seat"]
    hand = s["hands"][seat]
    for deck, card in e["cards"]:
        hand.remove(card)
        piles(s, deck, seat)[0].append(card)


@reducer("CardPutUnderDeck")
def _card_under_deck(s: State, e: CardPutUnderDeck) -> None:
    """The card being resolved goes under its owner's school deck (Hell Hound)."""
    s["decks"][e["seat"]].append(e["card"])


@reducer("SummoningCountedAsLegend")
def _counted_as_legend(s: State, e: SummoningCountedAsLegend) -> None:
    """The turn's summoning on `square` counts as a legendary one (Gate Master, Iris of Eternity)."""
    for summoned in reversed(current_turn(s)["summons"]):
        if summoned[0] == e["square"]:
            summoned[1] = 3
            break


@reducer("CardMovedToDeckTop")
def _card_to_deck_top(s: State, e: CardMovedToDeckTop) -> None:
    seat = e["seat"]
    s["discards"][seat].remove(e["card"])
    s["decks"][seat].insert(0, e["card"])


@reducer("FlareInvoked")
def _flare_invoked(s: State, e: FlareInvoked) -> None:
    s["hands"][e["seat"]].remove(e["card"])
    current_turn(s)["flared"] = True


@reducer("ExtraDrawGranted")
def _extra_draw(s: State, e: ExtraDrawGranted) -> None:
    current_turn(s)["draws"].append(e["deck"])


@reducer("ExtraTurnGranted")
def _extra_turn(s: State, e: ExtraTurnGranted) -> None:
    current_turn(s)["extra_turn"] = True


@reducer("SummonModifierGranted")
def _modifier_granted(s: State, e: SummonModifierGranted) -> None:
    current_turn(s)["modifiers"].append(e["modifier"].copy())


@reducer("SummonModifierUsed")
def _modifier_used(s: State, e: SummonModifierUsed) -> None:
    current_turn(s)["modifiers"].remove(e["modifier"])


@reducer("ImprovisationUsed")
def _impro_used(s: State, e: ImprovisationUsed) -> None:
    improvisations(s, e["seat"])[e["color"]] = False


# --- school choice and team play --------------------------------------------------------------

@reducer("SchoolDrawn")
def _school_drawn(s: State, e: SchoolDrawn) -> None:
    s["seats"][e["seat"]]["school"] = e["school"]
    s["rng"]["draws"] += 1


@reducer("SchoolChosen")
def _school_chosen(s: State, e: SchoolChosen) -> None:
    s["seats"][e["seat"]]["school"] = e["school"]
    if "by" in e:
        s["seats"][e["seat"]]["chosen_by"] = e["by"]


@reducer("SchoolBanned")
def _school_banned(s: State, e: SchoolBanned) -> None:
    s["seats"][e["seat"]]["banned"] = e["school"]


@reducer("LegendsPassed")
def _legends_passed(s: State, e: LegendsPassed) -> None:
    for card in e["cards"]:
        s["hands"][e["seat"]].remove(card)
        s["hands"][e["to"]].append(card)


@reducer("ControlPassed")
def _control_passed(s: State, e: ControlPassed) -> None:
    current_turn(s)["control"] = e["to"]


# --- effects, scores, end -------------------------------------------------------------------------

@reducer("ResolutionAdvanced")
def _resolution_advanced(s: State, e: ResolutionAdvanced) -> None:
    s["effect"] = clone(e["effect"]) if e["effect"] is not None else None
    s["pending"] = clone(e["pending"]) if e["pending"] is not None else None


@reducer("PointsScored")
def _points_scored(s: State, e: PointsScored) -> None:
    if e.get("track") is None:
        s["points"][e["side"]] += e["points"]
    else:
        s["points"][e["side"]][e["track"]] += e["points"]


@reducer("TaskClaimed")
def _task_claimed(s: State, e: TaskClaimed) -> None:
    tasks = dealt_tasks(s)
    tasks["current"].remove(e["task"])
    tasks["claimed"][e["color"]].append(e["task"])


@reducer("TurnEnded")
def _turn_ended(s: State, e: TurnEnded) -> None:
    current_turn(s)["actions"] = 0


@reducer("FinalRoundStarted")
def _final_round(s: State, e: FinalRoundStarted) -> None:
    s["final"] = {"seat": e["seat"], "turn": e["turn"], "reason": e["reason"]}


@reducer("TurnTimedOut")
def _turn_timed_out(s: State, e: TurnTimedOut) -> None:
    s.setdefault("timeouts", [0] * len(s["seats"]))[e["seat"]] = e["streak"]


@reducer("TimeoutStreakEnded")
def _timeout_streak_ended(s: State, e: TimeoutStreakEnded) -> None:
    s["timeouts"][e["seat"]] = 0


@reducer("SeatOptionsSet")
def _seat_options_set(s: State, e: SeatOptionsSet) -> None:
    confirm.set_in(s, e["seat"], e["confirm_turn_end"])


@reducer("SeatAbandoned")
def _seat_abandoned(s: State, e: SeatAbandoned) -> None:
    s.setdefault("zombies", []).append(e["seat"])


@reducer("PlayerResigned")
def _resigned(s: State, e: PlayerResigned) -> None:
    s["seats"][e["seat"]]["resigned"] = True


@reducer("GameEnded")
def _game_ended(s: State, e: GameEnded) -> None:
    s["phase"] = "over"
    s["pending"] = None
    s["effect"] = None
    s["result"] = clone(e["result"])


# --- Nethervoid Gateway (engine/gateway.py) ---------------------------------------------------

@reducer("GatewayMarked")
def _gateway_marked(s: State, e: GatewayMarked) -> None:
    s.setdefault("gateways", [None] * len(s["capacity"]))[e["color"]] = e["piece"]


@reducer("GatewayLost")
def _gateway_lost(s: State, e: GatewayLost) -> None:
    s["gateways"][e["color"]] = None


# --- Everfrost (engine/frost.py) --------------------------------------------------------------

@reducer("CardFrozen")
def _card_frozen(s: State, e: CardFrozen) -> None:
    if e["source"] == "discard":
        s["discards"][e["seat"]].remove(e["card"])
    _by_seat(s, "frozen")[e["seat"]] = {"card": e["card"], "turn": current_turn(s)["number"]}


@reducer("CardUnfrozen")
def _card_unfrozen(s: State, e: CardUnfrozen) -> None:
    _by_seat(s, "frozen")[e["seat"]] = None


@reducer("ActionLossImposed")
def _action_loss_imposed(s: State, e: ActionLossImposed) -> None:
    owed = s.setdefault("lost_actions", [0] * len(s["capacity"]))
    for color in e["colors"]:
        owed[color] += e["count"]


@reducer("ActionsLost")
def _actions_lost(s: State, e: ActionsLost) -> None:
    current_turn(s)["actions"] = e["actions_left"]
    s["lost_actions"][color_of(s, e["seat"])] = 0


# --- Etherweave (engine/etherweave.py) --------------------------------------------------------

@reducer("WarpPlayed")
def _warp_played(s: State, e: WarpPlayed) -> None:
    _by_seat(s, "pending_beings")[e["seat"]] = e["card"]
    current_turn(s).setdefault("warps", []).append(e["card"])


@reducer("PendingBeingCleared")
def _pending_cleared(s: State, e: PendingBeingCleared) -> None:
    _by_seat(s, "pending_beings")[e["seat"]] = None


@reducer("WarpCopied")
def _warp_copied(s: State, e: WarpCopied) -> None:
    """A fact for the log: the warp runs as part of the copying card's effect."""


@reducer("DestructionBonusGranted")
def _destruction_bonus(s: State, e: DestructionBonusGranted) -> None:
    turn = current_turn(s)
    turn["destruction_bonus"] = turn.get("destruction_bonus", 0) + 1


@reducer("PieceStored")
def _piece_stored(s: State, e: PieceStored) -> None:
    del s["board"][e["square"]]
    rank = RANKS[e["rank"]]
    s["removed"][e["color"]][rank == LEGENDARY] += 1
    _by_seat(s, "stasis")[e["seat"]] = [e["piece"], e["color"], rank, e["gateway"]]


@reducer("PieceReleased")
def _piece_released(s: State, e: PieceReleased) -> None:
    rank = RANKS[e["rank"]]
    s["removed"][e["color"]][rank == LEGENDARY] -= 1
    if e["square"] is not None:
        s["board"][e["square"]] = [e["piece"], e["color"], rank]
    s["stasis"][e["seat"]] = None


# --- undo and redo within a turn (engine/checkpoints.py, engine/undo.py) ----------------------

@reducer("TurnStepUndone")
def _turn_step_undone(s: State, e: TurnStepUndone) -> None:
    checkpoints.restore(s, e["to_version"], e["from_version"], REDUCERS)


@reducer("TurnStepRedone")
def _turn_step_redone(s: State, e: TurnStepRedone) -> None:
    checkpoints.restore(s, e["to_version"], e["from_version"], REDUCERS)


def _by_seat(s: State, key: Literal["frozen", "pending_beings", "stasis"]) -> list[Any]:
    """A by-seat list of the state that its first event creates (frozen, pending_beings, stasis)."""
    empty: list[Any] = [None] * len(s["seats"])
    return cast("list[Any]", s.setdefault(key, empty))


def _superseded(s: State, e: ResolutionAdvanced) -> None:
    """A ResolutionAdvanced a later one replaces, in a run of `_fold_unkept`."""


_UNKEPT: dict[str, Reducer] = {**REDUCERS, RESOLUTION: cast("Reducer", _superseded)}
