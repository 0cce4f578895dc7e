"""Check an exported game record offline: `python -m events.verify RECORD.json`.

In order: every event is a well-formed envelope; the seed in the first event matches the
commitment published with it; the hash chain is intact (each hash keyed with that seed, see
hashchain.py); every payload fits its schema; the seed revealed at the end is the committed one;
the creation events are what the seed gives; every move's events are what the rules and the seed
give for its command (decided again, under the rules release the game was created with,
engine/releases.py); and the replay ends in the recorded final state. The first failure is reported
with the version of the first bad event. Then the signature (signing.py), against the public keys
given with --key: "consistent, signed by <key id>", "consistent but unsigned" or "consistent but
unknown signer <key id>"; a signature that does not fit the record fails.

A record created under rules this engine does not hold (a release it does not know, or other card
data: `rules` in its first event) cannot be decided again here; after the chain, seed and signature
checks it is reported as "...; decided under rules engine R cards C, not held here: moves not
re-decided", with exit status 0: the record is intact, only its moves are not re-checked.

Exit status: 0 consistent (signed or not, re-decided or not), 1 invalid or badly signed, 2 unreadable.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any, Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

import engine
from engine.audit import foreign_rules, redecide

from .envelope import Envelope, EnvelopeError
from .hashchain import commitment_matches, first_bad_version
from .record import FORMAT, RecordError, loads_record
from .schemas import REGISTRY, SchemaError, SchemaRegistry
from .signing import check, key_id, public_key_from_option


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str
    version: int | None = None      # the first bad event, when the fault lies in one
    events: int = 0
    foreign: dict[str, str] | None = None   # the rules it was decided under, when not held here (moves not re-decided)


class _Bad(Exception):
    def __init__(self, reason: str, version: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.version = version


def verify_text(data: str | bytes, registry: SchemaRegistry = REGISTRY) -> Verdict:
    try:
        record = loads_record(data)
    except RecordError as exc:
        return Verdict(False, str(exc), exc.version)
    return verify_record(record, registry)


def verify_record(record: dict[str, Any], registry: SchemaRegistry = REGISTRY) -> Verdict:
    try:
        count, foreign = _verify(record, registry)
    except _Bad as bad:
        return Verdict(False, bad.reason, bad.version, len(record.get("events") or []))
    if foreign is not None:
        return Verdict(True, "chain intact, seed commitment kept", None, count, foreign)
    return Verdict(True, "chain intact, seed commitment kept, creation and shuffles re-derived, "
                         "replay matches the final state", None, count)


def _verify(record: dict[str, Any], registry: SchemaRegistry) -> tuple[int, dict[str, str] | None]:
    if record.get("format") != FORMAT or not isinstance(record.get("events"), list) or not record["events"]:
        raise _Bad("not a game record (format, events)")
    envelopes = _envelopes(record["events"])
    game_id = record.get("game_id")
    seed = _committed_seed(envelopes[0])
    bad = first_bad_version(envelopes, seed, game_id)
    if bad is not None:
        raise _Bad("event does not match its hash or its place in the chain", bad)
    events = _payloads(envelopes, registry)
    _revealed(envelopes, events, seed, record)
    foreign = foreign_rules(events)
    final = _redecided(events) if foreign is None else None
    if record.get("version") != len(envelopes) or record.get("head_hash") != envelopes[-1].hash:
        raise _Bad("record header does not name the last event's version and hash")
    if foreign is None and final != record.get("final_state"):
        raise _Bad("replaying the events does not give the recorded final state")
    return len(envelopes), foreign


def _envelopes(raw: list[Any]) -> list[Envelope]:
    out = []
    for version, item in enumerate(raw, start=1):
        try:
            out.append(Envelope.from_dict(item))
        except (EnvelopeError, TypeError) as exc:
            raise _Bad(f"malformed envelope: {exc}", version) from None
    return out


def _committed_seed(first: Envelope) -> str:
    """The seed the first event holds, checked against the commitment published with it."""
    payload = first.payload
    if first.type == "GameCreated":
        seed = payload.get("seed")
    elif first.type == "PositionSet":
        seed = (payload.get("state") or {}).get("rng", {}).get("seed")
    else:
        raise _Bad("a game starts with GameCreated or PositionSet", 1)
    if not isinstance(seed, str) or not isinstance(first.commitment, str) \
            or not commitment_matches(first.commitment, seed):
        raise _Bad("the first event's seed does not match its commitment", 1)
    return seed


def _payloads(envelopes: Sequence[Envelope], registry: SchemaRegistry) -> list[dict[str, Any]]:
    events = []
    for env in envelopes:
        try:
            events.append({"type": env.type, **registry.load(env.type, env.schema_version, env.payload)})
        except SchemaError as exc:
            raise _Bad(f"payload does not fit its schema: {exc}", env.version) from None
    return events


def _revealed(envelopes: Sequence[Envelope], events: list[dict[str, Any]], seed: str, record: dict[str, Any]) -> None:
    last = events[-1]
    if last["type"] == "GameEnded":
        if last["seed"] != seed:
            raise _Bad("the seed revealed at the end is not the committed one", len(events))
    elif record.get("seed") != seed:
        raise _Bad("an unfinished game's record must carry its committed seed")


def _redecided(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Decide the game again with engine/audit.py (the one path the corpus check and `arena
    check-rules` also take): the creation events must be what the game's options and seed give,
    and each move's events exactly what the rules and the seed give for its command, so every
    draw, reshuffle, deal after a draft and autoplay is re-derived rather than trusted. Then the
    final state of the replay."""
    try:
        divergence = redecide(events)
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        raise _Bad(f"the engine cannot replay these events: {exc!r}") from None
    if divergence is not None:
        raise _Bad(f"the events are not what the rules and the seed give: {divergence.reason}", divergence.index + 1)
    return _replayed({}, events, 1)


def _replayed(state: dict[str, Any], events: list[dict[str, Any]], first_version: int) -> dict[str, Any]:
    try:
        return engine.replay(events, state)
    except (KeyError, ValueError, IndexError, TypeError) as exc:
        raise _Bad(f"the engine cannot replay these events: {exc!r}", first_version) from None


def report(data: str | bytes, trusted: Sequence[Ed25519PublicKey] = ()) -> tuple[int, str]:
    """(exit status, one plain line) for a record checked for consistency, then for its signature."""
    try:
        record = loads_record(data)
    except RecordError as exc:
        return 1, _failed(Verdict(False, str(exc), exc.version))
    verdict = verify_record(record)
    if not verdict.ok:
        return 1, _failed(verdict)
    signature = check(record, {key_id(k): k for k in trusted})
    detail = f"{_rules_note(verdict.foreign)}({verdict.events} events; {verdict.reason}"
    if signature.status == "trusted":
        return 0, f"consistent, signed by {signature.key_id}{detail})"
    if signature.status == "unknown":
        hint = "" if trusted else "; name the signer's key with --key or --server"
        return 0, f"consistent but unknown signer {signature.key_id}{detail}{hint})"
    if signature.status == "unsigned":
        return 0, f"consistent but unsigned{detail})"
    return 1, "FAILED: the signature does not fit the record (changed after signing, or not made by its key)"


def _rules_note(foreign: dict[str, str] | None) -> str:
    if foreign is None:
        return " "
    return (f"; decided under rules engine {foreign.get('engine')} cards {foreign.get('cards')}, which this "
            "server does not hold, so its moves were not decided again ")


def _failed(verdict: Verdict) -> str:
    where = f" at version {verdict.version}" if verdict.version is not None else ""
    return f"FAILED{where}: {verdict.reason}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m events.verify", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a record written by GameService.export_record / events.record")
    parser.add_argument("--key", action="append", default=[],
                        help="a trusted signer's public key: base64 of 32 bytes, PEM, or a file (repeatable)")
    args = parser.parse_args(argv)
    try:
        with open(args.record, "rb") as source:
            data = source.read()
        trusted = [public_key_from_option(k) for k in args.key]
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.record} or a key: {exc}", file=sys.stderr)
        return 2
    status, line = report(data, trusted)
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
