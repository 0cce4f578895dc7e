"""What the event store and the game service refuse, as exception types the callers switch on.

Engine rule errors are not here: `engine.RuleError` passes through the service unchanged.
"""
from __future__ import annotations


class StoreError(Exception):
    """Base of every error raised by `events`."""


class GameNotFound(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} already exists")
        self.game_id = game_id


class ConflictError(StoreError):
    """The game is not at the version the writer expected: someone else appended first."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id!r} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class VersionNotFound(StoreError):
    def __init__(self, game_id: str, version: int, latest: int) -> None:
        super().__init__(f"game {game_id!r} has no version {version} (latest {latest})")
        self.game_id = game_id
        self.version = version
        self.latest = latest


class IdempotencyKeyReused(StoreError):
    """The idempotency key was used before with a different command body."""

    def __init__(self, game_id: str, key: str) -> None:
        super().__init__(f"idempotency key {key!r} was used for a different command in game {game_id!r}")
        self.game_id = game_id
        self.key = key


class ChainBroken(StoreError):
    """The batch does not continue the stored hash chain (a bug, or a tampered head)."""


class GameNotOver(StoreError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} has not ended: its record would reveal hidden cards")
        self.game_id = game_id


class RecordRejected(StoreError):
    """An imported record that does not verify; `version` names the first bad event, if one is."""

    def __init__(self, reason: str, version: int | None = None) -> None:
        super().__init__(reason if version is None else f"event {version}: {reason}")
        self.reason = reason
        self.version = version


class RecordMalformed(RecordRejected):
    """An import that is not a record at all: no valid game id, no list of events."""


class RecordUnfinished(RecordRejected):
    """A record of a game that has not ended: imported, it would be a live game nobody can play."""


class NotReplicated(StoreError):
    """The master has the write but no replica confirmed it in time: answer 'retry', not 'done'."""

    def __init__(self, key: str, wanted: int, confirmed: int, timeout_ms: int) -> None:
        super().__init__(f"{confirmed} of {wanted} replicas confirmed the write of {key!r} within {timeout_ms} ms")
        self.key = key
