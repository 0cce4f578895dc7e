"""Configuration of the workers, only from environment variables (documented in README.md).

    REDIS_URL                  Redis to use; unset: the embedded redis-server under ARENA_DATA_DIR
    ARENA_DATA_DIR             where the embedded Redis and the game archive live (default ./var)
    ARENA_QUEUE                queue of game jobs: bot moves, end of game (arena)
    ARENA_NOTIFY_QUEUE         queue of webhook deliveries, worked by a process of its own (arena-notify)
    ARENA_BOT_QUEUE            queue of the computer players' moves, worked by processes of their own (arena-bots)
    ARENA_BOT_CONCURRENCY      how many bot worker processes `arena serve` starts (1)
    ARENA_BOT_NICE             how much nicer than the others a bot worker runs (10): thinking never delays a deadline
    ARENA_SECRET               the server secret bots derive their seeds from (else one kept in Redis)
    ARENA_DEADLINE_POLL        seconds a deadline loop sleeps at most between looks at the index (0.1)
    ARENA_DEADLINE_LEASE       seconds a loop's claim on a due deadline lasts before another may take it (5)
    ARENA_REMINDER_FRACTION    share of the time after which "deadline soon" is sent (0.8)
    ARENA_BOT_DELAY            seconds a bot waits before it plays (0)
    ARENA_REVIEW_SIMULATIONS   the game review's budget: simulations per move judged (24)
    ARENA_WEBHOOK_TIMEOUT      seconds to wait for a webhook receiver (5)
    ARENA_WEBHOOK_RETRIES      seconds between webhook attempts, comma-separated (10,60,300,1800,7200)
    ARENA_INBOX_SIZE           notifications kept per player for the stream (1000)
    ARENA_ARCHIVE_AFTER        seconds after its end-of-game work a finished game leaves Redis for the archive (259200)
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return float(raw) if raw not in (None, "") else default


def _intervals(name: str, default: tuple[int, ...]) -> tuple[int, ...]:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    return tuple(int(part) for part in raw.split(",") if part.strip())


@dataclass(frozen=True)
class Settings:
    queue: str = "arena"
    notify_queue: str = "arena-notify"
    bot_queue: str = "arena-bots"
    bot_concurrency: int = 1
    bot_nice: int = 10
    deadline_poll: float = 0.1
    deadline_lease: float = 5.0
    reminder_fraction: float = 0.8
    bot_delay: float = 0.0
    review_simulations: int = 24
    webhook_timeout: float = 5.0
    webhook_retries: tuple[int, ...] = (10, 60, 300, 1800, 7200)
    inbox_size: int = 1000
    archive_after: float = 3 * 86400.0
    data_dir: Path = Path("./var")

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            queue=os.environ.get("ARENA_QUEUE") or cls.queue,
            notify_queue=os.environ.get("ARENA_NOTIFY_QUEUE") or cls.notify_queue,
            bot_queue=os.environ.get("ARENA_BOT_QUEUE") or cls.bot_queue,
            bot_concurrency=max(1, int(_float("ARENA_BOT_CONCURRENCY", cls.bot_concurrency))),
            bot_nice=int(_float("ARENA_BOT_NICE", cls.bot_nice)),
            deadline_poll=_float("ARENA_DEADLINE_POLL", cls.deadline_poll),
            deadline_lease=_float("ARENA_DEADLINE_LEASE", cls.deadline_lease),
            reminder_fraction=_float("ARENA_REMINDER_FRACTION", cls.reminder_fraction),
            bot_delay=_float("ARENA_BOT_DELAY", cls.bot_delay),
            review_simulations=max(1, int(_float("ARENA_REVIEW_SIMULATIONS", cls.review_simulations))),
            webhook_timeout=_float("ARENA_WEBHOOK_TIMEOUT", cls.webhook_timeout),
            webhook_retries=_intervals("ARENA_WEBHOOK_RETRIES", cls.webhook_retries),
            inbox_size=int(_float("ARENA_INBOX_SIZE", cls.inbox_size)),
            archive_after=_float("ARENA_ARCHIVE_AFTER", cls.archive_after),
            data_dir=Path(os.environ.get("ARENA_DATA_DIR") or "./var"),
        )

    @property
    def archive_dir(self) -> Path:
        return self.data_dir / "archive"
