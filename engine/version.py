"""The rules version a game is created with: the engine's rules release and a hash of its card data.

Why: a stored game must be re-decidable by the rules that played it. Every creation event carries
`rules` = RULES_VERSION, so `arena check-rules` and a reader of a record can tell which rules a game
began under. Bump RULES_RELEASE with every deliberate change of what the rules decide (and
re-record tests/data/corpus in the same commit); the card hash follows engine/data/cards.json by
itself (its content, not its layout).
"""
from __future__ import annotations

import hashlib
import json

from .cards import RAW_CARD_DATA

RULES_RELEASE = "1"
CARDS_HASH = hashlib.sha256(json.dumps(RAW_CARD_DATA, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
RULES_VERSION: dict[str, str] = {"engine": RULES_RELEASE, "cards": CARDS_HASH}


def rules_stamp() -> dict[str, str]:
    """A fresh copy of the stamp for a creation event."""
    return dict(RULES_VERSION)
