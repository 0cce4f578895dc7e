"""The hash chain and the seed commitment.

Each event's hash is HMAC-SHA-256, keyed with the game's seed, over the canonical JSON of its
envelope without the hash; that JSON holds the previous event's hash (`prev_hash`, 64 zeros for
the first event), so every hash covers the whole history before it.

Why keyed with the seed: hashes are shown to players during the game. A plain hash of an event
that hides a few cards (an opponent's draw) could be brute-forced by trying the handful of cards it
might hold; with the seed as key it cannot, until the seed is revealed. The seed is committed in
the first event (`commitment` = SHA-256 of a domain tag and the seed) and revealed in `GameEnded`,
so once a game is over anyone can check the commitment, every hash, and every shuffle.
A caller-chosen seed is only as secret as it is hard to guess; the service makes a random one.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any, Iterable

from .envelope import Envelope, canonical_json

GENESIS = "0" * 64
COMMITMENT_SCHEME = "sha256:"
_SEED_TAG = b"tash-kalar-arena/seed\x00"


def seed_commitment(seed: str) -> str:
    return COMMITMENT_SCHEME + hashlib.sha256(_SEED_TAG + seed.encode("utf-8")).hexdigest()


def commitment_matches(commitment: str, seed: str) -> bool:
    return hmac.compare_digest(commitment, seed_commitment(seed))


def event_hash(seed: str, body: dict[str, Any]) -> str:
    """The hash of an envelope body (every field but `hash`, `prev_hash` included)."""
    return canonical_hash(seed, canonical_json(body))


def canonical_hash(seed: str, body_json: str) -> str:
    """The hash of an envelope body given as its canonical JSON (for a reader that has it as text)."""
    return hmac.new(seed.encode("utf-8"), body_json.encode("utf-8"), hashlib.sha256).hexdigest()


def first_bad_version(envelopes: Iterable[Envelope], seed: str, game_id: str | None = None,
                      prev_hash: str = GENESIS, first_version: int = 1) -> int | None:
    """The version of the first envelope that breaks the chain, or None if all link up.

    Checks that versions run on without gaps, that each envelope names the previous hash and the
    same game, and that its stored hash is the one its body gives.
    """
    expected = first_version
    for env in envelopes:
        if env.version != expected or env.prev_hash != prev_hash:
            return expected
        if game_id is not None and env.game_id != game_id:
            return expected
        if not hmac.compare_digest(env.hash, event_hash(seed, env.body())):
            return expected
        prev_hash = env.hash
        expected += 1
    return None
