"""Telling open streams that a player's credentials or mutes just changed.

Streams trust their token and mute checks for a few seconds (server/streams/standing.py). Whoever
revokes a token, closes a session or changes mutes publishes the player's id here, and every
stream process asks again for that player's streams before their next delivery. It is news only:
a message lost (no listener, a reconnecting one) leaves the streams' own bound of a few seconds.
"""
from __future__ import annotations

from typing import Any

from . import keys


def changed(redis: Any, player_id: str) -> None:
    redis.publish(keys.STREAM_TERMS, player_id)
