"""How a computer player chooses a seat's command in a stored game: from the seat's redacted events
only (its knowledge, engine/ai), seeded from the server secret with the game, the seat and the
version. The bot worker (workers/bots.py) and the hint (GET /games/{id}/hint) both ask here."""
from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any

import engine
from engine import autoplay
from engine.ai import Knowledge, play

log = logging.getLogger(__name__)


def seed(secret: str, game_id: str, seat: int, version: int) -> str:
    """The bot's seed for one decision: the server secret keyed with the game, seat and version."""
    return hmac.new(secret.encode(), f"bot:{game_id}:{seat}:{version}".encode(), hashlib.sha256).hexdigest()


def knowledge(service: Any, game_id: str, seat: int, known: Knowledge | None = None) -> Knowledge:
    """The seat's knowledge, brought up to date from the seat's redacted events."""
    known = known or Knowledge(seat)
    after = known.state.get("version", 0) if known.state else 0
    return known.observe({"type": env["type"], **env["payload"]} for env in service.events(game_id, seat, after))


def choose(service: Any, game_id: str, seat: int, version: int, level: int, secret: str,
           known: Knowledge | None = None) -> tuple[dict[str, Any], Knowledge]:
    """The bot's command for `seat` at `version` (complete, with the seat), and its knowledge."""
    known = knowledge(service, game_id, seat, known)
    state = service.load(game_id).state
    options = engine.legal_commands(state, seat)      # the seat's own /legal
    try:
        return play(known, options, level, seed(secret, game_id, seat, version)), known
    except Exception:                   # noqa: BLE001 - a bot's bug must never stall its game
        log.exception("bot of game %s seat %s: its search failed; the timeout's autoplay plays for it", game_id, seat)
        return {**autoplay.choose(state, seat), "seat": seat}, known
