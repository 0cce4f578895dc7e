"""Conditional replies: a waiting seat's next turn, queued in advance, played for it when it comes.

While the others play, a seat may queue rules "if they ..., then I ...": a trigger on what the other
seats do before its next turn, as the seat itself will see it (its redacted events, with the steps
an undo took back left out), and a whole turn of commands. When that turn comes, the follow-up hook
of the append that gave it (workers/followup.py; or a deadline loop catching up after a crash)
tries the rules in order against the real position, hand included: the first that matches and
whose every command is legal is played through GameService.play_turn as one step, each of its
envelopes marked `via: "conditional"`. Then every rule is dropped and the seat is told what became
of each (`told`).

Private: rules live beside the game (keys.conditionals), never in its log, and only the seat's own
reads show them. Exactly once: the turn is appended at the version the seat's turn stood at before
its first command, under an idempotency key made of the seat and that version, so a second run
after a crash (the rules not dropped yet) answers with the first run's result instead of playing
again. A rule is for the seat's first turn that starts after it was queued, never a later one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, cast

import engine
from engine import Command, State
from engine.cards import card_name
from engine.geometry import SQUARE_SET
from engine.narrate import describe_command
from engine.state import active_seat, color_of
from engine.undo import undone_moves
from engine.vocabulary import ANSWERS, TURN_COMMANDS

from . import crash_points, keys
from .envelope import VIA_CONDITIONAL, canonical_json
from .errors import ConflictError
from .redaction import engine_event
from .scripts import lua, run_script

# A trigger kind (what a seat sees the others do): the event it looks for, the event field each of
# its narrowing fields (each optional) is compared with, and whether the piece must be the seat's.
_LOOKS_FOR: dict[str, tuple[str, dict[str, str], bool]] = {
    "summon": ("BeingSummoned", {"card": "card", "square": "square"}, False),     # a being summoned
    "destroyed": ("PieceDestroyed", {"square": "square"}, True),               # a piece of mine destroyed
    "moved": ("PieceMoved", {"square": "from"}, True),                         # a piece of mine moved (from)
    "flare": ("FlareInvoked", {"card": "card"}, False),                        # a flare invoked
    "task": ("TaskClaimed", {"task": "task"}, False),                          # a task claimed
}
# Each kind and the fields that narrow it; "anything" (whatever they did) is a fallback, last in a list.
TRIGGERS: dict[str, tuple[str, ...]] = {**{k: tuple(narrowing) for k, (_, narrowing, _) in _LOOKS_FOR.items()},
                                        "anything": ()}
COMMANDS = tuple(c for c in TURN_COMMANDS + ANSWERS if c != "pass_control")
MAX_RULES = 10
MAX_COMMANDS = 12
MAX_COMMAND_CHARS = 400
FIRED = "conditionals.fired"            # the crash point after a reply's append, before it is settled
_SETTLE = lua("settle_conditionals.lua")


class BadRules(ValueError):
    """Rules that are not well formed: the message says which part and why."""


def vocabulary() -> dict[str, Any]:
    """What GET /vocabulary serves of conditional replies."""
    return {"triggers": {kind: list(narrowed) for kind, narrowed in TRIGGERS.items()},
            "commands": list(COMMANDS), "max_rules": MAX_RULES, "max_commands": MAX_COMMANDS}


# --- the rules ---------------------------------------------------------------------------------------

def parse(data: Any) -> list[dict[str, Any]]:
    """Rules from a request body's `rules`, checked for shape only (legality is the turn's business)."""
    if not isinstance(data, list) or len(data) > MAX_RULES:
        raise BadRules(f"The rules must be a list of at most {MAX_RULES} rules (rules).")
    return [_rule(i, rule) for i, rule in enumerate(data)]


def _rule(i: int, rule: Any) -> dict[str, Any]:
    where = f"rules[{i}]"
    if not isinstance(rule, dict) or set(rule) != {"when", "then"}:
        raise BadRules(f"Each rule needs a trigger as \"when\" and a list of commands as \"then\", nothing else ({where}).")
    when, then = rule["when"], rule["then"]
    if not isinstance(when, dict) or when.get("kind") not in TRIGGERS:
        raise BadRules(f"A trigger's kind is one of {', '.join(TRIGGERS)} ({where}.when.kind).")
    extra = set(when) - {"kind", *TRIGGERS[when["kind"]]}
    if extra:
        raise BadRules(f"A '{when['kind']}' trigger takes only {', '.join(TRIGGERS[when['kind']]) or 'its kind'} ({where}.when).")
    _known(where, when, "card", set(engine.CARDS.beings) | set(engine.CARDS.flares))
    _known(where, when, "task", set(engine.CARDS.tasks))
    _known(where, when, "square", SQUARE_SET)
    if not isinstance(then, list) or not 1 <= len(then) <= MAX_COMMANDS:
        raise BadRules(f"A reply is a list of 1 to {MAX_COMMANDS} commands, as /legal lists them ({where}.then).")
    for j, command in enumerate(then):
        if not isinstance(command, dict) or command.get("type") not in COMMANDS:
            raise BadRules(f"A command's type is one of {', '.join(COMMANDS)} ({where}.then[{j}].type).")
        if len(canonical_json(command)) > MAX_COMMAND_CHARS:
            raise BadRules(f"A command is at most {MAX_COMMAND_CHARS} characters long ({where}.then[{j}]).")
    return {"when": dict(when), "then": [{k: v for k, v in c.items() if k not in ("seat", "squares")} for c in then]}


def _known(where: str, when: dict[str, Any], field: str, known: Any) -> None:
    if field in when and when[field] not in known:
        raise BadRules(f"{when[field]!r} is not a known {field} ({where}.when.{field}).")


# --- storage -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Queued:
    """A seat's rules, with the game's version and turn number when they were queued."""
    rules: list[dict[str, Any]]
    version: int
    turn: int
    raw: str

    def view(self) -> dict[str, Any]:
        return {"rules": self.rules, "queued_at": self.version}


def queue(redis: Any, game_id: str, seat: int, rules: list[dict[str, Any]], version: int, turn: int) -> Queued:
    """Replace the seat's rules (an empty list withdraws them)."""
    if not rules:
        withdraw(redis, game_id, seat)
        return Queued([], version, turn, "")
    raw = canonical_json({"rules": rules, "version": version, "turn": turn})
    redis.hset(keys.conditionals(game_id), str(seat), raw)
    return Queued(rules, version, turn, raw)


def queued(redis: Any, game_id: str, seat: int) -> Queued | None:
    raw = redis.hget(keys.conditionals(game_id), str(seat))
    return _decode(raw) if raw is not None else None


def withdraw(redis: Any, game_id: str, seat: int) -> None:
    """Drop the seat's rules: withdrawn, or the seat moved by itself."""
    redis.hdel(keys.conditionals(game_id), str(seat))


def told(redis: Any, game_id: str, seat: int) -> dict[str, Any] | None:
    """What became of the seat's rules when its last turn with rules came."""
    raw = redis.hget(keys.conditional_outcomes(game_id), str(seat))
    return json.loads(raw) if raw is not None else None


def _decode(raw: Any) -> Queued:
    text = raw.decode() if isinstance(raw, bytes) else raw
    data = json.loads(text)
    return Queued(data["rules"], data["version"], data["turn"], text)


# --- when the turn comes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Told:
    """What became of one seat's rules, as it was told (`appended`: a reply was appended just now)."""
    seat: int
    outcome: dict[str, Any]
    appended: bool = False


def fire(service: Any, game_id: str, state: dict[str, Any], held: dict[Any, Any] | None = None) -> list[Told]:
    """Deal with every seat's rules whose turn has come (`state`: the game's latest, as the hook
    has it; `held`: the rules queued, as the append read them in its own round trip, else read
    here). When a reply was appended now, that append's own follow-up ran, for the newer version."""
    redis = service.store.redis
    if held is None:
        held = redis.hgetall(keys.conditionals(game_id))
    told = []
    for field, raw in sorted(held.items()):
        seat, rules = int(field), _decode(raw)
        if not _still_waiting(state, seat, rules):
            told.append(_settle(service, game_id, seat, rules, state.get("phase") == "over"))
    return [t for t in told if t is not None]


def _still_waiting(state: dict[str, Any], seat: int, rules: Queued) -> bool:
    """Whether the seat's next turn after the rules were queued has not come yet, seen from the
    state alone (no log read): the same turn is under way, and not the seat's."""
    turn = state.get("turn")
    if state.get("phase") == "over":
        return False
    if not turn:
        return True
    return bool(turn["number"] == rules.turn and turn["seat"] != seat)


@dataclass(frozen=True)
class _Turn:
    """The seat's turn the rules are for: the version it stood at before its first command, and
    what the seat saw of the others since its turn before (undone steps left out)."""
    before: int
    seen: list[dict[str, Any]]


def _settle(service: Any, game_id: str, seat: int, rules: Queued, over: bool) -> Told | None:
    turn = _turn_for(service, game_id, seat, rules.version)
    if turn is None:
        if not over:
            return None                 # an extra turn, or a melee's other seats, before the seat's
        return _tell(service.store.redis, game_id, seat, rules, _unplayed(rules, None, "The game ended before your turn came."))
    state = service.load(game_id, turn.before).state
    if active_seat(state) != seat:
        return _tell(service.store.redis, game_id, seat, rules,
                     _unplayed(rules, turn.before, "Your turn began with another player's decision."))
    outcome = plan(state, seat, rules.rules, turn.seen)
    outcome["version"] = turn.before
    appended = False
    if outcome["played"] is not None:
        commands = rules.rules[outcome["played"]]["then"]
        try:
            result = service.play_turn(game_id, seat, commands, expected_version=turn.before,
                                       idempotency_key=f"conditional-{seat}-{turn.before}", via=VIA_CONDITIONAL)
            appended = not result.replayed
        except ConflictError:           # the seat, a clock or a resignation came first
            outcome["results"][outcome["played"]] = _result(outcome["played"], "too_late",
                                                            "The game moved on before it could be played.")
            outcome["played"] = None
        except engine.RuleError as refused:     # not seen: decided as `plan` did; never left owed for ever
            outcome["results"][outcome["played"]] = _result(outcome["played"], "refused", refused.message)
            outcome["played"] = None
        crash_points.reached(FIRED)
    return _tell(service.store.redis, game_id, seat, rules, outcome, appended)


def _unplayed(rules: Queued, version: int | None, reason: str) -> dict[str, Any]:
    return {"version": version, "played": None, "results": [_result(i, "too_late", reason) for i in range(len(rules.rules))]}


def _tell(redis: Any, game_id: str, seat: int, rules: Queued, outcome: dict[str, Any], appended: bool = False) -> Told:
    run_script(redis, _SETTLE, [keys.conditionals(game_id), keys.conditional_outcomes(game_id)],
               [seat, rules.raw, canonical_json(outcome)])
    return Told(seat, outcome, appended)


def _turn_for(service: Any, game_id: str, seat: int, queued_at: int) -> _Turn | None:
    """The seat's first turn started after version `queued_at`, from the log as the seat reads it."""
    envelopes = service.store.read(game_id)
    seen = [(env.version, engine.redact(engine_event(env), seat)) for env in envelopes]
    start = next((v for v, e in seen if v > queued_at and e["type"] == "TurnStarted" and e["seat"] == seat), None)
    if start is None:
        return None
    previous = max((v for v, e in seen if v < start and e["type"] == "TurnEnded" and e["seat"] == seat), default=0)
    first = next((v for v, e in seen if v > start and e["type"] == "CommandAccepted"), None)
    before = first - 1 if first is not None else envelopes[-1].version
    undone = undone_moves(seen[:before])
    window, move = [], 0
    for version, event in seen[:before]:
        if event["type"] == "CommandAccepted":
            move = version
        if version > previous and move not in undone and event.get("seat") != seat:
            window.append(dict(event))
    return _Turn(before, _with_owners(seen[:before], window))


def _with_owners(seen: list[tuple[int, Any]], window: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The window's moves, each with the colour of the piece moved (from every piece's last
    placing, summoning or conversion before it)."""
    owner: dict[Any, int] = {}
    for _, event in seen:
        kind = event["type"]
        if kind == "PiecePlaced" or kind == "BeingSummoned":
            owner[event["piece"]] = event["color"]
        elif kind == "PieceConverted":
            owner[event["piece"]] = event["to_color"]
    return [{**e, "color": owner.get(e["piece"])} if e["type"] == "PieceMoved" else e for e in window]


def plan(state: State, seat: int, rules: list[dict[str, Any]], seen: list[dict[str, Any]]) -> dict[str, Any]:
    """Which rule plays at `state` (the seat's turn, before its first command), and why each other
    does not: the first that matches what the seat saw and whose commands are all legal in turn."""
    mine = color_of(state, seat)
    results, played = [], None
    for i, rule in enumerate(rules):
        if played is not None:
            results.append(_result(i, "not_tried", "An earlier reply was played."))
        elif not matches(rule["when"], seen, mine):
            results.append(_result(i, "no_match", f"They did not {describe_trigger(rule['when'])}."))
        else:
            refusal = _refusal(state, seat, rule["then"])
            if refusal is None:
                played = i
                results.append(_result(i, "played", "Played for you as your turn."))
            else:
                results.append(_result(i, "refused", refusal))
    return {"played": played, "results": results}


def _refusal(state: State, seat: int, commands: list[dict[str, Any]]) -> str | None:
    for n, command in enumerate(commands, start=1):
        mine = cast(Command, {**command, "seat": seat})
        try:
            state = engine.replay(engine.decide(state, mine), state)
        except engine.RuleError as refused:
            return f"Command {n} ({_said(mine)}) was not legal: {refused.message}"
    return None


def _said(command: Command) -> str:
    """A command in words without its player ("summons Titan on e5"), or its type when not well formed."""
    try:
        return describe_command(command, {command["seat"]: ""}).strip()
    except (KeyError, TypeError):
        return str(command.get("type"))


def matches(when: dict[str, Any], seen: list[dict[str, Any]], mine: int) -> bool:
    """Whether the others did what `when` names, among the events the seat saw."""
    kind = when["kind"]
    if kind == "anything":
        return True
    return any(_fits(when, event, mine) for event in seen)


def _fits(when: dict[str, Any], event: dict[str, Any], mine: int) -> bool:
    kind, narrowing, own = _LOOKS_FOR[when["kind"]]
    return event["type"] == kind and (not own or event["color"] == mine) \
        and all(when[field] == event[named] for field, named in narrowing.items() if field in when)


def describe_trigger(when: dict[str, Any]) -> str:
    """A trigger in words, after "if they" (the page says the same)."""
    card = f" {card_name(when['card'])}" if "card" in when else ""
    square = when.get("square")
    kind = when["kind"]
    if kind == "summon":
        return f"summon{card or ' a being'}" + (f" on {square}" if square else "")
    if kind == "destroyed":
        return "destroy a piece of yours" + (f" on {square}" if square else "")
    if kind == "moved":
        return "move a piece of yours" + (f" from {square}" if square else "")
    if kind == "flare":
        return f"invoke{card or ' a flare'}"
    if kind == "task":
        return f"claim {card_name(when['task'])}" if "task" in when else "claim a task"
    return "do anything"


def _result(rule: int, result: str, reason: str) -> dict[str, Any]:
    return {"rule": rule, "result": result, "reason": reason}
