"""Where a stored game comes from, so that every view of it says so and only genuine games are rated.

    local     played on this server; its record is signed with this server's key
    trusted   imported, signed by this server's key or one of ARENA_TRUSTED_KEYS
    foreign   imported, validly signed by a key not trusted here (`key_id` names it)
    unsigned  imported without a signature, or with one that does not fit the record (re-labelled,
              re-hashed or edited after signing)

Games played here carry no marker. An import writes `meta:provenance` (origin, key id, the
signature, the head hash it is for) before it appends the events. The marker speaks only for the
events it was written with: when the game's head hash is another (two imports raced for one id,
and the other's events won), the game reads as unsigned, never as more than it is.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import keys
from .replies import text
from .signing import SignatureCheck

MARKER = "provenance"
RATED_ORIGINS = ("local", "trusted")


@dataclass(frozen=True)
class Provenance:
    origin: str
    key_id: str | None = None
    signature: dict | None = None       # the imported record's signature block, kept for its exports

    @property
    def rated(self) -> bool:
        return self.origin in RATED_ORIGINS

    def view(self) -> dict[str, Any]:
        return {"origin": self.origin, "key_id": self.key_id, "rated": self.rated}


LOCAL = Provenance("local")
UNSIGNED = Provenance("unsigned")


def of_import(check: SignatureCheck, record: dict[str, Any]) -> Provenance:
    """What an imported record's signature check makes of it."""
    if check.status == "trusted":
        return Provenance("trusted", check.key_id, record["signature"])
    if check.status == "unknown":
        return Provenance("foreign", check.key_id, record["signature"])
    return UNSIGNED


def mark(redis: Any, game_id: str, provenance: Provenance, head_hash: str) -> None:
    """Record an import's provenance; written before its events, so no imported game lacks one."""
    redis.hset(keys.meta(game_id, MARKER), mapping={
        "origin": provenance.origin, "key_id": provenance.key_id or "", "head_hash": head_hash,
        "signature": json.dumps(provenance.signature) if provenance.signature else ""})


def read(redis: Any, game_id: str) -> Provenance:
    stored = redis.hgetall(keys.meta(game_id, MARKER))
    if not stored:
        return LOCAL
    fields = {text(k): text(v) for k, v in stored.items()}
    if fields.get("head_hash") != text(redis.hget(keys.head(game_id), "hash")):
        return UNSIGNED
    signature = json.loads(fields["signature"]) if fields.get("signature") else None
    return Provenance(fields.get("origin") or "unsigned", fields.get("key_id") or None, signature)


def counts_for_ratings(redis: Any, game_id: str) -> bool:
    return read(redis, game_id).rated
