"""The envelope around each stored event, and the canonical JSON that is hashed and stored.

An engine event is a plain dict `{"type": "PiecePlaced", **payload}`. The store keeps it inside an
envelope that says which game, at which version (contiguous from 1: the concurrency token clients
send back), when, on whose behalf, in which payload schema version, and where it sits in the hash
chain. The first event's envelope also carries the seed commitment (see hashchain.py); the events of
a command played on a seat's behalf carry `via` (events/conditionals.py: "conditional"), inside the
hash, so the mark cannot be added or taken off afterwards. Envelopes without it read as before.

Canonical JSON: keys sorted, no whitespace, UTF-8, no NaN. The same bytes are hashed and written
one per line into exported records, so a verifier in any language can rebuild them from the
parsed object. Redis keeps each envelope's canonical JSON less what every envelope of a game
repeats: the game id (its log's key says it) and a schema version of 1, with its two hashes in
base64url (43 characters, not 64 hex digits: the hashes are nearly half of a stored envelope)
(`to_stored`); a reader puts them back (`many_from_stored`), and envelopes stored whole by older
versions read the same.

The hashes stay stored: each is an HMAC keyed with the game's seed, so recomputing them on a read
needs the seed and the hash before the first envelope read, and a stream's render (pure, shared
by its viewers) has neither.
"""
from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

SYSTEM: Literal["system"] = "system"
SHORT_HASH = 43                     # characters of a SHA-256 in base64url without padding
_HEX = re.compile("[0-9a-f]{64}")
Actor = int | Literal["system"]
FIELDS = ("game_id", "version", "type", "schema_version", "time", "actor", "payload", "prev_hash", "hash")
OPTIONAL_FIELDS = ("commitment", "via")
VIA_CONDITIONAL = "conditional"     # `via`: the command was played for its seat by a conditional reply


class EnvelopeError(ValueError):
    """A stored or exported envelope that is not well formed."""


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def format_time(moment: datetime) -> str:
    """UTC, microseconds, 'Z': sortable as text and the same in every process."""
    if moment.tzinfo is None:
        raise ValueError("envelope times must be timezone-aware")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class Envelope:
    game_id: str
    version: int
    type: str
    schema_version: int
    time: str
    actor: Actor
    payload: dict[str, Any] = field(repr=False)
    prev_hash: str
    hash: str
    commitment: str | None = None
    via: str | None = None

    def body(self) -> dict[str, Any]:
        """Every field the hash covers: all but the hash itself."""
        out = {"game_id": self.game_id, "version": self.version, "type": self.type,
               "schema_version": self.schema_version, "time": self.time, "actor": self.actor,
               "payload": self.payload, "prev_hash": self.prev_hash}
        if self.commitment is not None:
            out["commitment"] = self.commitment
        if self.via is not None:
            out["via"] = self.via
        return out

    def to_dict(self) -> dict[str, Any]:
        return {**self.body(), "hash": self.hash}

    def to_json(self) -> str:
        return canonical_json(self.to_dict())

    def to_stored(self) -> str:
        """The form kept in the game's log: canonical JSON without the game id, without the
        schema version when it is 1, and with the hashes in base64url."""
        out = self.to_dict()
        del out["game_id"]
        if out["schema_version"] == 1:
            del out["schema_version"]
        out["hash"], out["prev_hash"] = _short(self.hash), _short(self.prev_hash)
        return canonical_json(out)

    def event(self) -> dict[str, Any]:
        """The engine's form of the event (payload as stored: upcast it before replaying)."""
        return {"type": self.type, **self.payload}

    @classmethod
    def from_dict(cls, data: Any) -> "Envelope":
        """Strict: exactly the envelope's fields, each of the right JSON type."""
        if not isinstance(data, dict):
            raise EnvelopeError("an envelope is a JSON object")
        missing = [f for f in FIELDS if f not in data]
        extra = [f for f in data if f not in FIELDS and f not in OPTIONAL_FIELDS]
        if missing or extra:
            raise EnvelopeError(f"envelope fields: missing {missing}, unexpected {extra}")
        _expect(data, "game_id", str)
        _expect(data, "type", str)
        _expect(data, "time", str)
        _expect(data, "prev_hash", str)
        _expect(data, "hash", str)
        _expect(data, "payload", dict)
        for name in ("version", "schema_version"):
            if not _is_int(data[name]) or data[name] < 1:
                raise EnvelopeError(f"envelope {name} must be a whole number from 1")
        if not (_is_int(data["actor"]) or data["actor"] == SYSTEM):
            raise EnvelopeError("envelope actor must be a seat number or 'system'")
        if data.get("commitment") is not None:
            _expect(data, "commitment", str)
        if data.get("via") is not None:
            _expect(data, "via", str)
        return cls(**data)

    @classmethod
    def many_from_stored(cls, texts: list[str] | list[bytes], game_id: str) -> list["Envelope"]:
        """Envelopes of `game_id` this store wrote itself (to_stored, or whole), parsed as one JSON
        array: no field checks, and no dataclass __init__ (a frozen dataclass's costs as much as the
        JSON parse); loading a game does this per event."""
        if not texts:
            return []
        joined = b"[" + b",".join(texts) + b"]" if isinstance(texts[0], bytes) else "[" + ",".join(texts) + "]"
        out = []
        for data in json.loads(joined):
            env = object.__new__(cls)
            env.__dict__.update(data)
            if "game_id" not in data:
                env.__dict__["game_id"] = game_id
            if "schema_version" not in data:
                env.__dict__["schema_version"] = 1
            if "commitment" not in data:
                env.__dict__["commitment"] = None
            if "via" not in data:
                env.__dict__["via"] = None
            if len(data["hash"]) == SHORT_HASH:
                env.__dict__["hash"] = _hex(data["hash"])
            if len(data["prev_hash"]) == SHORT_HASH:
                env.__dict__["prev_hash"] = _hex(data["prev_hash"])
            out.append(env)
        return out

    @classmethod
    def from_json(cls, text: str | bytes) -> "Envelope":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise EnvelopeError(f"envelope is not valid JSON: {exc}") from None
        return cls.from_dict(data)


def _short(digest: str) -> str:
    """A SHA-256 in hex as stored: base64url without padding (a hash of another shape as it is)."""
    if len(digest) != 64 or not _HEX.fullmatch(digest):
        return digest
    return base64.urlsafe_b64encode(bytes.fromhex(digest)).decode("ascii")[:SHORT_HASH]


def _hex(stored: str) -> str:
    return base64.urlsafe_b64decode(stored + "=").hex()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _expect(data: dict[str, Any], name: str, kind: type) -> None:
    if not isinstance(data[name], kind):
        raise EnvelopeError(f"envelope {name} must be a {kind.__name__}")
