"""The one configuration: every setting of every process, typed, built once from the environment.

    from events.settings import Settings, current
    settings = Settings.load()          # the environment over the TOML file ARENA_CONFIG names, checked
    create_app(settings=settings)       # the app, the stream tier and the workers are each given it

Each field declares its variable (`env`): the README's settings table lists exactly these, and a
test reads both. A value is parsed by the field's type (a bool takes 1/0, true/false, yes/no,
on/off; a tuple takes comma-separated items) and checked against its bounds, so a wrong value
stops the process at start with a message that names the variable, not a job hours later.
The rate limits (ARENA_LIMIT_*) are declared beside the views they guard (server/limits.py): here
they are only the values set, in `rate_limits`. A name that was renamed stays accepted as a
deprecated alias (DEPRECATED), with one warning per process.

`current()` is the process's settings, built on first use; the entry points build theirs first and
pass it on (server:create_app, the stream tier, the workers), the event store's own few look-ups
(the data directory, the secret, replication...) read the same object through `current()`.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import threading
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, UnionType
from typing import Any, Callable, Mapping

log = logging.getLogger("arena.settings")
CONFIG_FILE_ENV = "ARENA_CONFIG"
RATE_LIMIT_PREFIX = "ARENA_LIMIT_"
FALSE = ("0", "false", "no", "off")
TRUE = ("1", "true", "yes", "on")


class SettingsError(ValueError):
    """A setting that cannot be used: the message names the variable and says what it takes."""


def setting(env: str, default: Any, *, minimum: float | None = None, above: float | None = None) -> Any:
    """A field read from variable `env`; a number may be bounded (`minimum` inclusive, `above` exclusive)."""
    factory: Any = (lambda: default) if isinstance(default, (dict, list)) else dataclasses.MISSING
    return field(default=default if factory is dataclasses.MISSING else dataclasses.MISSING,
                 default_factory=factory, metadata={"env": env, "minimum": minimum, "above": above})


@dataclass(frozen=True)
class Settings:
    # --- where the data lives ---------------------------------------------------------------------
    redis_url: str | None = setting("REDIS_URL", None)
    redis_cluster_url: str | None = setting("REDIS_CLUSTER_URL", None)
    wait_replicas: int = setting("ARENA_WAIT_REPLICAS", 1, minimum=0)
    wait_ms: int = setting("ARENA_WAIT_MS", 1000, minimum=0)
    data_dir: Path = setting("ARENA_DATA_DIR", Path("./var"))
    archive_after: float = setting("ARENA_ARCHIVE_AFTER", 3 * 86400.0, minimum=0)
    archive_cache: int = setting("ARENA_ARCHIVE_CACHE", 128, minimum=1)
    signing_key: str = setting("ARENA_SIGNING_KEY", "")
    trusted_keys: tuple[str, ...] = setting("ARENA_TRUSTED_KEYS", ())
    secret: str | None = setting("ARENA_SECRET", None)
    follow_up_grace: float = setting("ARENA_FOLLOW_UP_GRACE", 5.0, minimum=0)
    pause_at: str | None = setting("ARENA_PAUSE_AT", None)
    pause_flag: str | None = setting("ARENA_PAUSE_FLAG", None)

    # --- the web front: where it listens, and its transport limits (server/streams/) ---------------
    host: str = setting("ARENA_HOST", "127.0.0.1")
    port: int = setting("PORT", 8000, minimum=1)
    web_concurrency: int = setting("WEB_CONCURRENCY", 2, minimum=1)
    web_threads: int = setting("WEB_THREADS", 8, above=0)
    access_log: bool = setting("ARENA_ACCESS_LOG", True)
    proxy_hops: int = setting("ARENA_PROXY_HOPS", 0, minimum=0)
    header_timeout: float = setting("ARENA_HEADER_TIMEOUT", 10.0, above=0)
    keepalive_timeout: float = setting("ARENA_KEEPALIVE_TIMEOUT", 5.0, above=0)
    max_header_bytes: int = setting("ARENA_MAX_HEADER_BYTES", 16_384, above=0)
    body_timeout: float = setting("ARENA_BODY_TIMEOUT", 30.0, above=0)
    max_connections: int = setting("ARENA_MAX_CONNECTIONS", 20_000, above=0)
    streams_per_address: int = setting("ARENA_STREAMS_PER_ADDRESS", 64, above=0)
    streams_per_token: int = setting("ARENA_STREAMS_PER_TOKEN", 16, above=0)
    stream_slot_lease: float = setting("ARENA_STREAM_SLOT_LEASE", 30.0, above=0)
    heartbeat_seconds: float = setting("ARENA_HEARTBEAT_SECONDS", 15.0, above=0)
    stream_recheck_seconds: float = setting("ARENA_STREAM_RECHECK_SECONDS", 3.0, above=0)
    retry_after: int = setting("ARENA_RETRY_AFTER", 2, above=0)
    stream_backlog: int = setting("ARENA_STREAM_BACKLOG", 256, above=0)
    stream_shard_keys: int = setting("ARENA_STREAM_SHARD_KEYS", 128, above=0)

    # --- the API's limits (server/limits.py) ----------------------------------------------------------
    max_body: int = setting("ARENA_MAX_BODY", 64 * 1024, above=0)
    max_import_body: int = setting("ARENA_MAX_IMPORT_BODY", 2 * 1024 * 1024, above=0)
    max_unmoved_games: int = setting("ARENA_MAX_UNMOVED_GAMES", 20, minimum=0)
    unmoved_game_ttl: int = setting("ARENA_UNMOVED_GAME_TTL", 7 * 24 * 3600, above=0)
    invitation_timeout: int = setting("ARENA_INVITATION_TIMEOUT", 3 * 24 * 3600, above=0)
    rematch_timeout: int = setting("ARENA_REMATCH_TIMEOUT", 24 * 3600, above=0)
    lobby_table_ttl: int = setting("ARENA_LOBBY_TABLE_TTL", 24 * 3600, above=0)
    max_open_tables: int = setting("ARENA_MAX_OPEN_TABLES", 3, minimum=0)
    bot_account_games: int = setting("ARENA_BOT_ACCOUNT_GAMES", 20, minimum=0)
    secure_cookies: bool = setting("ARENA_SECURE_COOKIES", False)
    rate_limits_on: bool = setting("ARENA_RATE_LIMITS", True)
    rate_limits: Mapping[str, str] = setting(RATE_LIMIT_PREFIX + "*", {})
    signin_failures_per_address: int = setting("ARENA_SIGNIN_FAILURES_PER_ADDRESS", 10, above=0)
    signin_address_window: int = setting("ARENA_SIGNIN_ADDRESS_WINDOW", 15 * 60, above=0)
    signin_failures_per_name: int = setting("ARENA_SIGNIN_FAILURES_PER_NAME", 100, above=0)
    signin_name_window: int = setting("ARENA_SIGNIN_NAME_WINDOW", 3600, above=0)
    account_mails: int = setting("ARENA_ACCOUNT_MAILS", 3, minimum=0)
    operator_token: str = setting("ARENA_OPERATOR_TOKEN", "")
    vacation_days: float = setting("ARENA_VACATION_DAYS", 30.0, minimum=0)
    webhook_allow: tuple[str, ...] = setting("ARENA_WEBHOOK_ALLOW", ())

    # --- the workers (workers/) -------------------------------------------------------------------------
    queue: str = setting("ARENA_QUEUE", "arena")
    notify_queue: str = setting("ARENA_NOTIFY_QUEUE", "arena-notify")
    bot_queue: str = setting("ARENA_BOT_QUEUE", "arena-bots")
    bot_concurrency: int = setting("ARENA_BOT_CONCURRENCY", 1, minimum=1)
    bot_nice: int = setting("ARENA_BOT_NICE", 10, minimum=0)
    deadline_poll: float = setting("ARENA_DEADLINE_POLL", 0.1, above=0)
    deadline_lease: float = setting("ARENA_DEADLINE_LEASE", 5.0, above=0)
    reminder_fraction: float = setting("ARENA_REMINDER_FRACTION", 0.8, minimum=0)
    bot_delay: float = setting("ARENA_BOT_DELAY", 0.0, minimum=0)
    review_simulations: int = setting("ARENA_REVIEW_SIMULATIONS", 24, minimum=1)
    webhook_timeout: float = setting("ARENA_WEBHOOK_TIMEOUT", 5.0, above=0)
    webhook_retries: tuple[int, ...] = setting("ARENA_WEBHOOK_RETRIES", (10, 60, 300, 1800, 7200))
    inbox_size: int = setting("ARENA_INBOX_SIZE", 1000, minimum=1)

    # --- e-mail (workers/email.py) ------------------------------------------------------------------------
    smtp_url: str | None = setting("ARENA_SMTP_URL", None)
    smtp_ca_file: str | None = setting("ARENA_SMTP_CA_FILE", None)
    mail_from: str = setting("ARENA_MAIL_FROM", "Tash-Kalar Arena <arena@localhost>")
    public_url: str = setting("ARENA_PUBLIC_URL", "http://localhost:8000")
    email_turn_interval: float = setting("ARENA_EMAIL_TURN_INTERVAL", 3600.0, minimum=0)
    email_retries: tuple[int, ...] = setting("ARENA_EMAIL_RETRIES", (30, 120, 600, 3600))

    # --- browser push (events/push.py) ---------------------------------------------------------------------
    vapid_key: str = setting("ARENA_VAPID_KEY", "")
    vapid_subject: str = setting("ARENA_VAPID_SUBJECT", "mailto:operator@tash-kalar-arena.invalid")

    def __post_init__(self) -> None:
        object.__setattr__(self, "rate_limits", MappingProxyType(dict(self.rate_limits)))
        object.__setattr__(self, "public_url", self.public_url.rstrip("/"))

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        """The environment's settings over those of the TOML file ARENA_CONFIG names (if any)."""
        environ = os.environ if environ is None else environ
        path = environ.get(CONFIG_FILE_ENV)
        return cls.from_mapping({**(read_file(Path(path)) if path else {}), **environ})

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> "Settings":
        """Settings from variables (text, or already typed: a test's or a TOML file's values)."""
        values = with_aliases(values)
        found: dict[str, Any] = {"rate_limits": {k: str(v) for k, v in values.items()
                                                 if k.startswith(RATE_LIMIT_PREFIX) and v not in (None, "")}}
        for f in fields():
            raw = values.get(env_name(f))
            if raw is not None and raw != "" and f.name != "rate_limits":
                found[f.name] = parsed(f, raw)
        return cls(**found)

    def overridden(self, values: Mapping[str, Any]) -> "Settings":
        """These settings with some variables set otherwise (create_app's config, a test's)."""
        named = {k: v for k, v in values.items() if k in BY_ENV or k.startswith(RATE_LIMIT_PREFIX)}
        if not named:
            return self
        changed = Settings.from_mapping(named)
        fresh = {f.name: getattr(changed, f.name) for f in fields() if env_name(f) in named}
        fresh["rate_limits"] = {**self.rate_limits, **changed.rate_limits}
        return dataclasses.replace(self, **fresh)

    @property
    def largest_body(self) -> int:
        """The largest request body any endpoint takes: the front reads no more before a thread is taken."""
        return max(self.max_body, self.max_import_body)

    @property
    def archive_dir(self) -> Path:
        return self.data_dir / "archive"


def fields() -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(Settings)


def env_name(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata["env"])


BY_ENV = {env_name(f): f for f in dataclasses.fields(Settings)}


def variables() -> list[str]:
    """Every variable a setting is read from (ARENA_LIMIT_* as one), in declaration order."""
    return [env_name(f) for f in fields()]


# --- parsing ------------------------------------------------------------------------------------------

def _kind(f: dataclasses.Field[Any]) -> Any:
    """The field's type without `| None`: int, float, bool, str, Path or tuple[...]."""
    hint = typing.get_type_hints(Settings)[f.name]
    if isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union:
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    return hint


def parsed(f: dataclasses.Field[Any], raw: Any) -> Any:
    """`raw` (text, or a TOML value) as field `f` holds it; SettingsError when it does not fit."""
    kind, name = _kind(f), env_name(f)
    try:
        value = _PARSERS.get(typing.get_origin(kind) or kind, lambda r, k: k(r))(raw, kind)
    except (TypeError, ValueError):
        raise SettingsError(f"{name} must be {_WORDS.get(typing.get_origin(kind) or kind, 'text')}, "
                            f"not {raw!r}") from None
    _check_bounds(f, value)
    return value


def _bool(raw: Any, _: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text not in FALSE + TRUE:
        raise ValueError(text)
    return text in TRUE


def _number(raw: Any, kind: Any) -> Any:
    if isinstance(raw, bool):
        raise TypeError(raw)
    number = float(raw)
    if kind is int and not number.is_integer():
        raise ValueError(raw)
    return int(number) if kind is int else number


def _tuple(raw: Any, kind: Any) -> tuple[Any, ...]:
    item = typing.get_args(kind)[0]
    parts = raw if isinstance(raw, (list, tuple)) else str(raw).split(",")
    return tuple(item(str(p).strip()) for p in parts if str(p).strip())


_PARSERS: dict[Any, Callable[[Any, Any], Any]] = {bool: _bool, int: _number, float: _number, tuple: _tuple,
                                                   str: lambda r, _: str(r), Path: lambda r, _: Path(str(r))}
_WORDS = {bool: "1 or 0 (true/false, yes/no, on/off)", int: "a whole number", float: "a number",
          tuple: "a comma-separated list (of whole numbers where the README says so)"}


def _check_bounds(f: dataclasses.Field[Any], value: Any) -> None:
    minimum, above = f.metadata["minimum"], f.metadata["above"]
    if minimum is not None and value < minimum:
        raise SettingsError(f"{env_name(f)} must be at least {minimum}, not {value!r}")
    if above is not None and value <= above:
        raise SettingsError(f"{env_name(f)} must be a positive number, not {value!r}")


def read_file(path: Path) -> dict[str, Any]:
    """The settings of a TOML file: top-level keys named as the variables (`ARENA_WAIT_MS = 500`)."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{CONFIG_FILE_ENV}={path}: cannot read it as TOML ({exc})") from None
    unknown = [k for k in data if k not in BY_ENV and k not in DEPRECATED and not k.startswith(RATE_LIMIT_PREFIX)]
    if unknown:
        raise SettingsError(f"{CONFIG_FILE_ENV}={path}: no such setting {', '.join(sorted(unknown))} "
                            "(README.md, Configuration, lists them)")
    return data


# --- names that changed ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Alias:
    """A variable that was renamed: its value goes to `now`, converted by `convert` when the meaning moved."""
    now: str
    why: str
    convert: Callable[[Any], Any] = lambda value: value


DEPRECATED: dict[str, Alias] = {
    "ARENA_MAX_BODY_BYTES": Alias("ARENA_MAX_IMPORT_BODY", "the largest body any request may carry is a record "
                                  "import's; the front reads no more than ARENA_MAX_IMPORT_BODY (ARENA_MAX_BODY for "
                                  "every other endpoint)"),
    "ARENA_FORWARDED_ALLOW_IPS": Alias("ARENA_PROXY_HOPS", "one name for the proxies whose X-Forwarded-For is "
                                       "trusted, on the front and in the Flask app alike; a proxy's addresses are "
                                       "taken as one proxy (ARENA_PROXY_HOPS=1)", lambda value: 1 if value else 0),
}
_warned: set[str] = set()
_warned_lock = threading.Lock()


def with_aliases(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """`values` with each deprecated name's value under its new name (unless that is set too),
    warning once per process per name."""
    old = [name for name in DEPRECATED if values.get(name) not in (None, "")]
    if not old:
        return values
    moved = dict(values)
    for name in old:
        alias = DEPRECATED[name]
        _warn_once(name, f"{name} is deprecated and will go: set {alias.now} instead ({alias.why})")
        if moved.get(alias.now) in (None, ""):
            moved[alias.now] = alias.convert(moved[name])
    return moved


def _warn_once(name: str, message: str) -> None:
    with _warned_lock:
        if name in _warned:
            return
        _warned.add(name)
    log.warning(message)


# --- this process's settings -----------------------------------------------------------------------------

_current: list[Settings] = []
_lock = threading.Lock()


def current() -> Settings:
    """This process's settings: those an entry point installed, else the environment's (read once)."""
    if not _current:
        with _lock:
            if not _current:
                _current.append(Settings.load())
    return _current[0]


def install(settings: Settings) -> Settings:
    """Make `settings` this process's (an entry point that built its own, or a test's)."""
    with _lock:
        _current[:] = [settings]
    return settings


def forget() -> None:
    """Read the environment again at the next `current()` (tests change it between cases)."""
    with _lock:
        _current.clear()
