"""What a seat is shown: the shapes of `player_view` and of a redacted event (engine/views.py).

A view is the only form of the state that leaves the server for a seat, so its type is where the
secrets are written down. Hidden from a seat (None: a spectator): the cards of another seat's hand
(only `hand_size`), the order and cards of every deck, its own too (only `deck_size` or `count`),
the task deck (only `deck_size`), the seed until GameEnded, the legends teammates pass each other
(shown to the two of them), the options of a decision another seat answers. Everything else of
the state is public and shown to all.

No `from __future__ import annotations`, as in engine/shapes.py: tests/engine/test_view_shapes.py
reads the required and optional keys of each type at run time.
"""
from typing import Any, Literal, NotRequired, TypedDict, Union, final

from .shapes import (
    ActionForfeited, ActionLossImposed, ActionsGained, ActionsLost, ActionTaken, BeingSummoned, CardDiscarded,
    CardFrozen, CardMovedToDeckTop, CardPutUnderDeck, CardUnfrozen, CardsDrawn, CardsReturned, Command,
    CommandAccepted, ControlPassed, DestructionBonusGranted, ExtraDrawGranted, ExtraTurnGranted, FinalRound,
    FinalRoundStarted, FlareInvoked, GameCreatedPublic, GameEnded, GameResult, GatewayLost, GatewayMarked, ImprovisationUsed,
    LegendsPassed, PendingBeingCleared, PieceConverted, PieceDestroyed, PieceMoved, PiecePickedUp, PiecePlaced,
    PieceRankChanged, PieceReleased, PieceStored, PiecesSwapped, PlayerResigned, PointsScored, SchoolBanned, SchoolChosen,
    SchoolDrawn, SeatAbandoned, SeatOptionsSet, SummoningCountedAsLegend, SummonModifierGranted, SummonModifierUsed, TaskClaimed,
    TimeoutStreakEnded, TurnEnded, TurnStarted, TurnStepRedone, TurnStepUndone, TurnTimedOut, WarpCopied,
    WarpPlayed,
)

# --- player_view -------------------------------------------------------------------------------------

class BoardSquare(TypedDict):
    square: str
    seat: int                       # the owner: the first seat playing the piece's colour
    color: int
    rank: str                       # common | heroic | legendary


class Supply(TypedDict):
    non_legendary: int              # pieces off the board and still in the game
    legendary: int


class Stasis(TypedDict):
    color: int
    rank: str


class SeatView(TypedDict):
    seat: int
    school: str
    color: int
    hand_size: int
    deck_size: int                  # the deck's order is hidden from everyone, its owner too
    discard: list[str]              # face up
    supply: Supply
    frozen: str | None              # Everfrost: the frozen card, face up
    pending_being: str | None       # Etherweave: the warped being waiting to be summoned, face up
    stasis: Stasis | None           # Etherweave: the piece on the seat's Merchant of Time
    sideways: NotRequired[int]      # team play: how many of the deck's bottom cards lie crosswise
    hand: NotRequired[list[str]]    # the viewer's own seat only (every seat once the game is over)
    confirm_turn_end: bool          # the seat ends its turns itself, with `end_turn` (engine/confirm.py)
    banned: NotRequired[str]        # school bans: the school this seat banned
    chosen_by: NotRequired[int]     # mutual selection: the seat that chose this seat's school


class Score(TypedDict):
    seat: int
    score: int                      # two-sided: the side's score; melee: the weakest colour's points
    tasks: NotRequired[list[str]]   # High Form: the tasks the side claimed
    by_color: NotRequired[dict[str, int]]   # melee: points against each other colour ("0", "1", ...)
    improvisations: NotRequired[list[int]]  # melee: the colours still lending a piece


class PileView(TypedDict):
    deck_size: int                  # the legends' or flares' deck, face down
    discard: list[str]


class DeckTrack(TypedDict):
    """engine/tracker.py: one deck's cards a seat has not seen."""
    deck: str                       # a school, "legends" or "flares" (GET /cards: the deck's list)
    size: int                       # cards in the deck's list
    seen: list[str]                 # the list's cards this view shows (discards, own hand, ...), sorted
    unseen: int                     # the rest of the list, shown nowhere in this view
    in_deck: int                    # of which this many lie in the deck
    in_hands: int                   # and the rest in hands this view does not show


class TasksView(TypedDict):
    current: list[str]
    next: str | None
    deck_size: int
    claimable: NotRequired[list[str]]   # to the seat on turn only, while the game is on


class TurnView(TypedDict):
    seat: int
    number: int
    actions_left: int
    discarded: bool
    extra: bool
    control: int | None             # team play: the teammate the turn was handed to


class PendingPublic(TypedDict):
    """A pending decision as the log shows it to all: who answers what, without the options."""

    seat: int                       # who answers
    kind: str
    ask: str
    prompt: str
    can_skip: bool
    card: NotRequired[str]


class PendingView(PendingPublic):
    """A pending decision in a seat's view: the public part, and its options to the seat that answers."""

    info: NotRequired[dict[str, Any]]
    options: NotRequired[list[Command]]   # to the seat that answers only


class EffectView(TypedDict, total=False):
    """The public part of the effect being resolved (absent keys: the frame has none)."""

    seat: int
    card: str
    kind: str                       # summon | flare | thaw | warp
    part: str                       # the part of the card running: steps, upper, lower, ...
    origin: str | None              # the square the effect is centred on
    marked: list[list[str]]         # [square, mark] of each square the effect marked


class PlayerView(TypedDict):
    """The state as one seat (or a spectator) may see it: GET /games/{id} and PositionSet."""

    form: str
    teams: bool
    status: Literal["setup", "playing", "finished"]
    board: list[BoardSquare]        # by square
    notation: str                   # the board in engine/notation.py's text
    seats: list[SeatView]
    scores: list[Score]             # by seat
    legends: PileView
    flares: PileView
    turn: TurnView | None
    active_seat: int | None         # whose input the game waits for
    pending: PendingView | None
    effect: EffectView | None
    final_round: FinalRound | None
    result: GameResult | None
    target: int                     # the score that triggers the end
    gateways: dict[str, str]        # Nethervoid: colour ("0", ...) -> the square of its Gateway
    gateway: str | None             # the game's one Gateway, if any
    tasks: NotRequired[TasksView]   # High Form only
    deck_tracker: list[DeckTrack]   # per deck in play, the cards this seat has not seen (engine/tracker.py)


# --- redact: the events whose payload a seat sees changed ------------------------------------------

class DeckShuffledSeen(TypedDict):
    """A shuffle without the order: how many cards the deck holds."""

    type: Literal["DeckShuffled"]
    count: int
    deck: str
    seat: NotRequired[int]
    from_discard: NotRequired[bool]


class TasksDealtSeen(TypedDict):
    """The tasks on show, and the task deck as a size."""

    type: Literal["TasksDealt"]
    current: list[str]
    deck_size: int
    next: str
    shuffled: NotRequired[bool]


@final
class CardsHidden(TypedDict):
    """Cards another seat draws or passes: how many, not which (LegendsPassed: to any seat but the
    two teammates)."""

    type: Literal["CardsDrawn", "LegendsPassed"]
    count: int
    seat: int
    deck: NotRequired[str]          # CardsDrawn
    to: NotRequired[int]            # LegendsPassed


@final
class CardsReturnedHidden(TypedDict):
    """Another seat's discard returns: how many cards went under which decks, not which cards."""

    type: Literal["CardsReturned"]
    count: int
    decks: list[str]
    seat: int


class DiscardSeen(TypedDict):
    """Another seat's discard command: how many cards it put under its decks, not which."""

    type: Literal["discard"]
    card: str
    returns: int


class CommandAcceptedSeen(TypedDict):
    type: Literal["CommandAccepted"]
    command: Command | DiscardSeen
    seat: int
    auto: NotRequired[bool]


class PositionSetSeen(TypedDict):
    """A game started from a position: the position as the seat's view."""

    type: Literal["PositionSet"]
    state: PlayerView
    rules: NotRequired[dict[str, str]]


class ResolutionAdvancedSeen(TypedDict):
    type: Literal["ResolutionAdvanced"]
    effect: EffectView | None
    pending: PendingPublic | None


# Every event as a seat may read it: the redacted forms above, and the events shown as they are.
SeenEvent = Union[
    GameCreatedPublic, DeckShuffledSeen, TasksDealtSeen, CardsHidden, CardsReturnedHidden, CommandAcceptedSeen,
    PositionSetSeen, ResolutionAdvancedSeen,
    CardsDrawn, CardsReturned, LegendsPassed, CommandAccepted,    # to the seat they belong to
    ActionForfeited, ActionLossImposed, ActionTaken, ActionsGained, ActionsLost, BeingSummoned, CardDiscarded,
    CardFrozen, CardMovedToDeckTop, CardPutUnderDeck, CardUnfrozen, ControlPassed, DestructionBonusGranted,
    ExtraDrawGranted, ExtraTurnGranted, FinalRoundStarted, FlareInvoked, GameEnded, GatewayLost, GatewayMarked,
    ImprovisationUsed, PendingBeingCleared, PieceConverted, PieceDestroyed, PieceMoved, PiecePickedUp,
    PiecePlaced, PieceRankChanged, PieceReleased, PieceStored, PiecesSwapped, PlayerResigned, PointsScored,
    SchoolBanned, SchoolChosen, SchoolDrawn, SeatAbandoned, SummonModifierGranted, SummonModifierUsed,
    SummoningCountedAsLegend, TaskClaimed, TimeoutStreakEnded, TurnEnded, TurnStarted, TurnStepRedone, SeatOptionsSet,
    TurnStepUndone, TurnTimedOut, WarpCopied, WarpPlayed,
]
