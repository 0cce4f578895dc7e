"""Idempotent commands: a command sent with a key is applied once.

The record is written by the append script in the same atomic step as the events, so a command
is never applied without its record nor recorded without being applied. It holds a fingerprint
of the request (seat, command, expected version) and where the first result lies in the log; a
retry with the same body is answered from the log, one with a different body is refused.
Records expire after a day. Refused commands (engine rule errors) leave no record: nothing was
applied, so the key may be used again.
"""
from __future__ import annotations

from typing import Any

import hashlib
import json
from dataclasses import asdict, dataclass

from .envelope import canonical_json

TTL_SECONDS = 24 * 60 * 60


def fingerprint(seat: int | None, command: dict[str, Any], expected_version: int | None) -> str:
    body = {"seat": seat, "command": command, "expected_version": expected_version}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class IdempotencyRecord:
    key: str
    fingerprint: str
    seat: int | None
    first_version: int
    version: int

    def to_json(self) -> str:
        return canonical_json(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> "IdempotencyRecord":
        return cls(**json.loads(text))
