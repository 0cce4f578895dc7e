"""The front's limits, each from an environment variable (README.md, Configuration); the caps
on open streams per address and per token are kept in Redis for every process (slots.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from functools import cache


@dataclass(frozen=True)
class Limits:
    header_timeout: float = 10.0         # ARENA_HEADER_TIMEOUT: seconds to send a request's line and headers
    keepalive_timeout: float = 5.0       # ARENA_KEEPALIVE_TIMEOUT: idle seconds between requests on a connection
    max_header_bytes: int = 16_384       # ARENA_MAX_HEADER_BYTES: request line plus headers
    max_body_bytes: int = 8 << 20        # ARENA_MAX_BODY_BYTES: a request body (a record import is the largest)
    body_timeout: float = 30.0           # ARENA_BODY_TIMEOUT: seconds to send a request's body
    max_connections: int = 20_000        # ARENA_MAX_CONNECTIONS: open connections per front process
    streams_per_address: int = 64        # ARENA_STREAMS_PER_ADDRESS: open streams per client address, all processes
    streams_per_token: int = 16          # ARENA_STREAMS_PER_TOKEN: open streams per bearer token, all processes
    stream_slot_lease: float = 30.0      # ARENA_STREAM_SLOT_LEASE: seconds a killed process's streams still count
    heartbeat_seconds: float = 15.0      # ARENA_HEARTBEAT_SECONDS: a comment on every stream this often
    stream_recheck_seconds: float = 3.0  # ARENA_STREAM_RECHECK_SECONDS: a stream trusts its token and mutes this long
    retry_after: int = 2                 # ARENA_RETRY_AFTER: seconds in Retry-After on a 429 or 503
    stream_backlog: int = 256            # ARENA_STREAM_BACKLOG: batches queued for a stream that does not read
    stream_shard_keys: int = 128         # ARENA_STREAM_SHARD_KEYS: stream keys per Redis reader connection
    wsgi_threads: int = 8                # WEB_THREADS: threads running the Flask app, per process

    @classmethod
    def from_env(cls) -> "Limits":
        values = {}
        for f in fields(cls):
            raw = os.environ.get(variable(f.name))
            if raw:
                values[f.name] = type(f.default)(raw)
                if values[f.name] <= 0:          # a zero interval or limit would spin or refuse everything
                    raise ValueError(f"{variable(f.name)} must be a positive number, not {raw!r}")
        return cls(**values)


def variable(name: str) -> str:
    """The environment variable of a Limits field."""
    return "WEB_THREADS" if name == "wsgi_threads" else f"ARENA_{name.upper()}"


@cache
def limits() -> Limits:
    """This process's limits (read once)."""
    return Limits.from_env()
