"""The shapes of the engine's data: the state, commands and events, as TypedDicts.

The engine works on plain JSON-able dicts (they snapshot, compare with == and copy fast); these
types say what those dicts hold, for the public functions (engine/api.py) and their callers, and
inside the engine (engine/state.py `State` is GameState, each reducer of evolve.py takes its event's
type). tests/engine/test_shapes.py checks that every event, command and state of the recorded
corpus and of random games fits them exactly.

No `from __future__ import annotations` here: the types are evaluated, so `NotRequired` is seen
at run time and the test can read each type's required and optional keys.
"""
from typing import Any, Collection, Literal, NotRequired, TypedDict, Union, cast, final

# --- commands ------------------------------------------------------------------------------------

class Squares(TypedDict, total=False):
    """What a client shows a listed choice with (engine/display.py); display only, decide ignores it."""

    being: str                      # the being square (summon, orientation)
    pattern: list[str]              # the squares of every fitting pattern
    affects: list[str]              # the squares the choice changes
    destroys: list[str]             # the squares whose piece the choice removes from the board
    marks: list[list[str]]          # [square, kind] of each marked square
    path: list[str]                 # a move's or a direction's squares


Command = TypedDict("Command", {
    "type": str,                        # engine/vocabulary.py COMMAND_TYPES (or the clock's "timeout")
    "seat": NotRequired[int],           # who sends it (always in `legal_commands`, never inside CommandAccepted)
    "square": NotRequired[str],         # place, summon, choose a square
    "card": NotRequired[str],           # summon, discard, flare, warp, choose a card
    "returns": NotRequired[list[str]],  # discard: the cards put under their decks
    "improvise": NotRequired[int],      # summon: the colour lending a piece (melee)
    "against": NotRequired[int],        # flare: the colour it is invoked against
    "orientation": NotRequired[int],    # choose an orientation
    "color": NotRequired[int],          # choose a colour
    "direction": NotRequired[str],      # choose a direction (n, ne, ...)
    "option": NotRequired[str],         # choose a branch of an effect
    "school": NotRequired[str],         # choose a school (draft)
    "task": NotRequired[str],           # claim_task
    "from": NotRequired[str],           # move
    "to": NotRequired[str],             # move
    "to_version": NotRequired[int],     # undo, redo
    "squares": NotRequired[Squares],          # display only (annotated_commands); decide ignores it
})


def without(command: Command, keys: Collection[str]) -> Command:
    """The command without some of its keys (its seat, its display-only squares)."""
    return cast(Command, {k: v for k, v in command.items() if k not in keys})


# --- pending decisions (engine/pending.py) ---------------------------------------------------------

class Pending(TypedDict):
    """The decision a game waits for (`state["pending"]`, the `pending` of ResolutionAdvanced)."""

    seat: int                       # who answers: the rule's seat, or the teammate holding control
    kind: str                       # the registered kind: which options, which answer (pending.DECISIONS)
    ask: str                        # what an answer names: square, color, orientation, card, school, or an effect's ask
    prompt: str                     # the question in a player's words
    can_skip: bool                  # whether {"type": "skip"} answers it (optional effect steps only)
    card: NotRequired[str]          # the card being resolved, for kinds that declare `shows_card`
    info: NotRequired[dict[str, Any]]   # what an effect's question shows besides its options (effects only)


# --- the state (engine/state.py) -------------------------------------------------------------------

class SeatEntry(TypedDict):
    school: str                     # a school id ("draft", "bans" or "mutual" until it has one)
    color: int
    banned: NotRequired[str]        # with bans: the school this seat banned
    chosen_by: NotRequired[int]     # with mutual selection: the seat that chose this seat's school
    resigned: NotRequired[bool]


class Pile(TypedDict):
    deck: list[str]                 # index 0 is the top
    discard: list[str]


class Tasks(TypedDict):
    current: list[str]
    next: str | None
    deck: list[str]
    claimed: list[list[str]]        # by colour


class SummonModifier(TypedDict):
    """A change to the turn's next summoning, granted by an effect (engine/summon.py reads them)."""

    modifier: str                   # war-summoning, use-color-of, void-summoning, ...
    count: int
    scope: str | None
    color: NotRequired[int]         # use-color-of: the colour the pattern is built from


class Turn(TypedDict):
    seat: int
    number: int
    actions: int                    # actions left
    extra: bool                     # an extra turn
    discarded: bool
    flared: bool
    destroyed: list[list[int]]      # [colour, rank] of each enemy piece this turn's summonings destroyed
    summons: list[list[Any]]        # [square, rank] of each summoning this turn
    draws: list[str]                # extra draws granted (deck names)
    extra_turn: bool                # an extra turn follows
    modifiers: list[SummonModifier]     # granted and not yet used
    triggered: str | Literal[False]     # an end trigger met before this extra turn (False: none)
    control: NotRequired[int]       # the teammate the turn was handed to (team play)
    warps: NotRequired[list[str]]   # warps played this turn (Etherweave)
    destruction_bonus: NotRequired[int]


class FinalRound(TypedDict):
    seat: int
    turn: int
    reason: str


class Standing(TypedDict):
    seat: int
    score: int
    key: list[int]                  # score, then the tie-break keys (RULES 10.3), compared as a list
    place: int                      # 1 for the winners


class GameResult(TypedDict):
    reason: str                     # end_of_game, resignation, abandonment, ...
    winners: list[int]              # seats
    standings: list[Standing]       # best first


class Rng(TypedDict):
    seed: str
    draws: int                      # shuffles and draws so far: the next generator's seed


class FrozenCard(TypedDict):
    card: str                       # the seat's card under Everfrost's ice
    turn: int                       # the turn number it was frozen on


class UndoStep(TypedDict):
    version: int                    # the position the step was decided on
    events: list["GameEvent"]       # what it caused (the folded events themselves)


class UndoRecord(TypedDict):
    """The current turn's checkpoints (engine/checkpoints.py)."""

    seat: int                       # the seat whose decisions are kept
    anchor: "GameState"             # the position its first kept decision was taken on, without undo and version
    steps: list[UndoStep]
    at: int | None                  # the step the game stands at after an undo; None at the live head
    head: NotRequired[int]          # the version the first undo left (only while `at` is not None)


Board = dict[str, list[int]]         # square -> [piece id, colour, rank 1..3]


class GameState(TypedDict):
    """The folded state of one game (what `replay` returns); lists are by seat unless said."""

    form: str                       # high_form | duel | melee
    teams: bool
    seats: list[SeatEntry]
    capacity: list[list[int]]       # by colour: [non-legendary, legendary] pieces
    removed: list[list[int]]        # by colour: pieces out of the game
    board: Board
    next_piece: int
    hands: list[list[str]]
    decks: list[list[str]]
    discards: list[list[str]]
    legends: Pile
    flares: Pile
    tasks: Tasks | None             # High Form only
    points: list[Any]               # by colour (melee: by seat, then colour)
    impro: list[list[bool]] | None  # melee: improvised summonings left, by seat then colour
    phase: str                      # setup | play | over
    turn: Turn | None
    effect: dict[str, Any] | None   # the frame of the rule a pending decision waits in
    pending: Pending | None
    final: FinalRound | None
    result: GameResult | None
    rng: Rng
    options: dict[str, Any]         # per-game rule settings (zombie_after)
    release: NotRequired[str]       # the rules release it is decided under, unless the first (engine/releases.py)
    version: NotRequired[int]       # events folded so far (absent once the game is over)
    undo: NotRequired[UndoRecord]   # the current turn's checkpoints (engine/checkpoints.py)
    timeouts: NotRequired[list[int]]    # timeouts in a row
    zombies: NotRequired[list[int]]     # seats that abandoned
    confirm_turn_end: NotRequired[list[int]]    # seats that end their turns themselves (engine/confirm.py)
    gateways: NotRequired[list[int | None]]     # by colour: the Nethervoid Gateway's piece id
    frozen: NotRequired[list[FrozenCard | None]]   # Everfrost, by seat
    lost_actions: NotRequired[list[int]]        # by colour
    pending_beings: NotRequired[list[str | None]]   # Etherweave
    stasis: NotRequired[list[list[Any] | None]]     # Etherweave: [piece, colour, rank, gateway]


# --- events (one TypedDict per event type of engine/evolve.py) ------------------------------------

class ActionForfeited(TypedDict):
    type: Literal["ActionForfeited"]
    actions_left: int
    seat: int


class ActionLossImposed(TypedDict):
    type: Literal["ActionLossImposed"]
    colors: list[int]
    count: int
    seat: int


class ActionTaken(TypedDict):
    type: Literal["ActionTaken"]
    action: str
    actions_left: int
    seat: int


class ActionsGained(TypedDict):
    type: Literal["ActionsGained"]
    actions_left: int
    count: int
    seat: int


class ActionsLost(TypedDict):
    type: Literal["ActionsLost"]
    actions_left: int
    count: int
    seat: int


class BeingSummoned(TypedDict):
    type: Literal["BeingSummoned"]
    card: str
    color: int
    piece: int
    rank: str
    reused: bool
    seat: int
    square: str


class CardDiscarded(TypedDict):
    type: Literal["CardDiscarded"]
    card: str
    deck: str
    from_hand: bool
    seat: int


class CardFrozen(TypedDict):
    type: Literal["CardFrozen"]
    card: str
    seat: int
    source: str


class CardMovedToDeckTop(TypedDict):
    type: Literal["CardMovedToDeckTop"]
    card: str
    seat: int


class CardPutUnderDeck(TypedDict):
    type: Literal["CardPutUnderDeck"]
    card: str
    seat: int


class CardUnfrozen(TypedDict):
    type: Literal["CardUnfrozen"]
    card: str
    reason: str
    seat: int


@final
class CardsDrawn(TypedDict):
    type: Literal["CardsDrawn"]
    cards: list[str]
    deck: str
    seat: int


@final
class CardsReturned(TypedDict):
    type: Literal["CardsReturned"]
    cards: list[list[str]]
    seat: int


class CommandAccepted(TypedDict):
    type: Literal["CommandAccepted"]
    command: Command
    seat: int
    auto: NotRequired[bool]


class ControlPassed(TypedDict):
    type: Literal["ControlPassed"]
    seat: int
    to: int


class DeckShuffled(TypedDict):
    type: Literal["DeckShuffled"]
    cards: list[str]
    deck: str
    seat: NotRequired[int]
    from_discard: NotRequired[bool]


class DestructionBonusGranted(TypedDict):
    type: Literal["DestructionBonusGranted"]
    seat: int


class ExtraDrawGranted(TypedDict):
    type: Literal["ExtraDrawGranted"]
    deck: str
    seat: int


class ExtraTurnGranted(TypedDict):
    type: Literal["ExtraTurnGranted"]
    seat: int


class FinalRoundStarted(TypedDict):
    type: Literal["FinalRoundStarted"]
    reason: str
    seat: int
    turn: int


class FlareInvoked(TypedDict):
    type: Literal["FlareInvoked"]
    against: int
    card: str
    lower: bool
    seat: int
    upper: bool


class GameCreatedPublic(TypedDict):
    """GameCreated but its seed: what every seat sees of it (engine/view_shapes.py)."""

    type: Literal["GameCreated"]
    capacity: list[list[int]]
    form: str
    impro: list[list[bool]] | None
    options: dict[str, Any]
    points: list[Any]
    seats: list[SeatEntry]
    teams: bool
    rules: NotRequired[dict[str, str]]


class GameCreated(GameCreatedPublic):
    seed: str


class GameEnded(TypedDict):
    type: Literal["GameEnded"]
    result: GameResult
    seed: str


class GatewayLost(TypedDict):
    type: Literal["GatewayLost"]
    color: int
    piece: int
    reason: str
    square: str


class GatewayMarked(TypedDict):
    type: Literal["GatewayMarked"]
    color: int
    piece: int
    previous: str | None
    reason: str
    square: str


class ImprovisationUsed(TypedDict):
    type: Literal["ImprovisationUsed"]
    color: int
    seat: int


@final
class LegendsPassed(TypedDict):
    type: Literal["LegendsPassed"]
    cards: list[str]
    seat: int
    to: int


class PendingBeingCleared(TypedDict):
    type: Literal["PendingBeingCleared"]
    card: str
    reason: str
    seat: int


class PieceConverted(TypedDict):
    type: Literal["PieceConverted"]
    by: int
    credited: bool
    from_color: int
    from_rank: str
    piece: int
    square: str
    to_color: int
    to_rank: str
    weight: NotRequired[int]


class PieceDestroyed(TypedDict):
    type: Literal["PieceDestroyed"]
    by: int | None
    cause: str
    color: int
    credited: bool
    piece: int
    rank: str
    square: str
    removed: NotRequired[bool]
    weight: NotRequired[int]


PieceMoved = TypedDict("PieceMoved", {"type": Literal["PieceMoved"], "from": str, "leap": bool, "piece": int, "to": str})

class PiecePickedUp(TypedDict):
    type: Literal["PiecePickedUp"]
    cause: str
    color: int
    piece: int
    rank: str
    square: str


class PiecePlaced(TypedDict):
    type: Literal["PiecePlaced"]
    cause: str
    color: int
    piece: int
    rank: str
    square: str


class PieceRankChanged(TypedDict):
    type: Literal["PieceRankChanged"]
    cause: str
    color: int
    from_rank: str
    piece: int
    square: str
    to_rank: str


class PieceReleased(TypedDict):
    type: Literal["PieceReleased"]
    color: int
    piece: int
    rank: str
    seat: int
    square: str


class PieceStored(TypedDict):
    type: Literal["PieceStored"]
    color: int
    gateway: bool
    piece: int
    rank: str
    seat: int
    square: str


class PiecesSwapped(TypedDict):
    type: Literal["PiecesSwapped"]
    first: str
    second: str


class PlayerResigned(TypedDict):
    type: Literal["PlayerResigned"]
    seat: int


class PointsScored(TypedDict):
    type: Literal["PointsScored"]
    points: int
    reason: str
    side: int
    track: int | None


class PositionSet(TypedDict):
    type: Literal["PositionSet"]
    state: GameState
    rules: NotRequired[dict[str, str]]       # the rules version the game was created with


class ResolutionAdvanced(TypedDict):
    type: Literal["ResolutionAdvanced"]
    effect: dict[str, Any] | None
    pending: Pending | None


class SchoolBanned(TypedDict):
    type: Literal["SchoolBanned"]
    school: str
    seat: int


class SchoolChosen(TypedDict):
    type: Literal["SchoolChosen"]
    school: str
    seat: int
    by: NotRequired[int]            # mutual selection: the seat that chose it (else the seat itself)


class SchoolDrawn(TypedDict):
    type: Literal["SchoolDrawn"]
    school: str
    seat: int


class SeatAbandoned(TypedDict):
    type: Literal["SeatAbandoned"]
    seat: int
    timeouts: int


class SummonModifierGranted(TypedDict):
    type: Literal["SummonModifierGranted"]
    modifier: SummonModifier
    seat: int


class SummonModifierUsed(TypedDict):
    type: Literal["SummonModifierUsed"]
    modifier: SummonModifier
    seat: int


class SummoningCountedAsLegend(TypedDict):
    type: Literal["SummoningCountedAsLegend"]
    seat: int
    square: str


class TaskClaimed(TypedDict):
    type: Literal["TaskClaimed"]
    color: int
    seat: int
    task: str


class TasksDealt(TypedDict):
    type: Literal["TasksDealt"]
    current: list[str]
    deck: list[str]
    next: str
    shuffled: NotRequired[bool]


class SeatOptionsSet(TypedDict):
    type: Literal["SeatOptionsSet"]
    seat: int
    confirm_turn_end: bool


class TimeoutStreakEnded(TypedDict):
    type: Literal["TimeoutStreakEnded"]
    seat: int


class TurnEnded(TypedDict):
    type: Literal["TurnEnded"]
    number: int
    seat: int


class TurnStarted(TypedDict):
    type: Literal["TurnStarted"]
    actions: int
    extra: bool
    number: int
    seat: int
    triggered: NotRequired[str]


class TurnStepRedone(TypedDict):
    type: Literal["TurnStepRedone"]
    from_version: int
    seat: int
    to_version: int


class TurnStepUndone(TypedDict):
    type: Literal["TurnStepUndone"]
    from_version: int
    seat: int
    to_version: int


class TurnTimedOut(TypedDict):
    type: Literal["TurnTimedOut"]
    seat: int
    streak: int


class WarpCopied(TypedDict):
    type: Literal["WarpCopied"]
    by: str
    card: str
    seat: int


class WarpPlayed(TypedDict):
    type: Literal["WarpPlayed"]
    card: str
    seat: int



GameEvent = Union[
    SeatOptionsSet,
    ActionForfeited, ActionLossImposed, ActionTaken, ActionsGained, ActionsLost, BeingSummoned,
    CardDiscarded, CardFrozen, CardMovedToDeckTop, CardPutUnderDeck, CardUnfrozen, CardsDrawn,
    CardsReturned, CommandAccepted, ControlPassed, DeckShuffled, DestructionBonusGranted,
    ExtraDrawGranted, ExtraTurnGranted, FinalRoundStarted, FlareInvoked, GameCreated, GameEnded,
    GatewayLost, GatewayMarked, ImprovisationUsed, LegendsPassed, PendingBeingCleared,
    PieceConverted, PieceDestroyed, PieceMoved, PiecePickedUp, PiecePlaced, PieceRankChanged,
    PieceReleased, PieceStored, PiecesSwapped, PlayerResigned, PointsScored, PositionSet,
    ResolutionAdvanced, SchoolBanned, SchoolChosen, SchoolDrawn, SeatAbandoned, SummonModifierGranted,
    SummonModifierUsed, SummoningCountedAsLegend, TaskClaimed, TasksDealt, TimeoutStreakEnded,
    TurnEnded, TurnStarted, TurnStepRedone, TurnStepUndone, TurnTimedOut, WarpCopied, WarpPlayed,
]
EVENT_SHAPES: dict[str, Any] = {t.__annotations__["type"].__args__[0]: t for t in GameEvent.__args__}  # type: ignore[attr-defined]
