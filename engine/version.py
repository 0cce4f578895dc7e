"""The rules version a game is created with: the engine's rules release and a hash of its card data.

Why: a stored game must be re-decidable by the rules that played it. Every creation event carries
`rules` = rules_stamp(), so `arena check-rules`, `arena verify` and the engine itself can tell which
rules a game began under. A deliberate change of what the rules decide is a new release
(engine/releases.py) and RULES_RELEASE names it (re-record tests/data/corpus in the same commit);
the card hash follows engine/data/cards.json by itself (its content, not its layout).
"""
from __future__ import annotations

import hashlib
import json
from typing import Mapping

from .cards import RAW_CARD_DATA
from .releases import RELEASES, release_named

RULES_RELEASE = "1"                 # the release new games are created under
CARDS_HASH = hashlib.sha256(json.dumps(RAW_CARD_DATA, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def rules_stamp(release: str | None = None) -> dict[str, str]:
    """The stamp of a creation event: `release` (by default the one new games take) and today's cards."""
    return {"engine": release or RULES_RELEASE, "cards": CARDS_HASH}


def reproducible(stamp: Mapping[str, str] | None) -> bool:
    """Can this engine decide a game created under `stamp` again: its release is registered and its
    card data is the one held here (a game older than the stamp: the first release, today's cards)."""
    if stamp is None:
        return True
    release = release_named(stamp)
    return isinstance(release, str) and release in RELEASES and stamp.get("cards") == CARDS_HASH
