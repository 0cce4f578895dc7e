"""Every Redis key the project uses, built in one place.

On a Redis Cluster (events/connection.py) a command or script may touch several keys only when
they hash to one slot, so every key carries the hash tag of what it belongs to:

    arena:{g1}:log             a game's stream of envelopes, entry id "<version>-0"
    arena:{g1}:head            hash: version, hash (the last event's)
    arena:{g1}:snapshots       hash: version -> snapshot JSON (a disposable cache)
    arena:{g1}:idem:<key>      an idempotency record, expires after a day
    arena:{g1}:meta:<name>     small per-game data owned by other layers (seats, tokens, clock, rating)
    arena:{g1}:pending         a game waiting for invited players to accept (events/invitations.py)
    arena:player:{p1}[:<what>] a player's profile, games, inbox, notified ids, rating, webhook failures
    arena:{deadlines.<n>}:due  shard n of the deadline index (games spread over 16 shards)
    arena:{followups.<n>}:due  shard n of the follow-up index: games whose follow-up may be owed
    arena:ptoken:<hash>        a player token's owner: read and written alone, never with another key
    arena:name:{<digest>}      an account name's owner (and its sign-in failures), one slot per name
    arena:{live.<n>.<k>}:games shard n of the live games list (8 shards, k spreads their slots)
    arena:{lobby.<n>.<k>}:...  bucket n of the lobby: its tables, open and expiry indexes, changes (8)
    arena:{seeks.<pool>}:...   the quick-match seeks of one form and time control
    arena:{lobby}:feed         the lobby's feed, relayed from the buckets' changes

Ids are restricted to letters, digits, `_` and `-` (as RQ job ids are), so an id can never contain
a brace or a colon and change which part of the key is hashed, nor a '.' and share a shard's tag.
tests/cluster/test_slots.py walks every builder here and every script and proves the rule.
"""
from __future__ import annotations

import hashlib
import itertools
import re
import zlib

from redis.crc import REDIS_CLUSTER_HASH_SLOTS as CLUSTER_SLOTS, key_slot

PREFIX = "arena"
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_-]{1,128}")
_META_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
STREAM_TERMS = f"{PREFIX}:stream-terms"    # pub/sub channel (no key): a player whose tokens, sessions or mutes changed


class InvalidKeyPart(ValueError):
    """A game id, idempotency key or meta name with characters a key may not hold."""


def valid_game_id(game_id: str) -> bool:
    return isinstance(game_id, str) and _ID.fullmatch(game_id) is not None


def valid_idempotency_key(key: str) -> bool:
    return isinstance(key, str) and _IDEMPOTENCY_KEY.fullmatch(key) is not None


def _game(game_id: str) -> str:
    if not valid_game_id(game_id):
        raise InvalidKeyPart(f"game id must be 1-64 letters, digits, '_' or '-': {game_id!r}")
    return f"{PREFIX}:{{{game_id}}}"


def log(game_id: str) -> str:
    return f"{_game(game_id)}:log"


def head(game_id: str) -> str:
    return f"{_game(game_id)}:head"


def snapshots(game_id: str) -> str:
    return f"{_game(game_id)}:snapshots"


def idempotency(game_id: str, key: str) -> str:
    if not valid_idempotency_key(key):
        raise InvalidKeyPart(f"idempotency key must be 1-128 letters, digits, '_' or '-': {key!r}")
    return f"{_game(game_id)}:idem:{key}"


def no_idempotency(game_id: str) -> str:
    """A placeholder key in the game's slot, passed to scripts when a command has no key.

    Its empty suffix is not a valid idempotency key, so it never names a real record."""
    return f"{_game(game_id)}:idem:"


def meta(game_id: str, name: str) -> str:
    """A key for another layer's small per-game data (e.g. the HTTP layer's seat tokens hash)."""
    if not isinstance(name, str) or _META_NAME.fullmatch(name) is None:
        raise InvalidKeyPart(f"meta name must be lower-case letters, digits and '_': {name!r}")
    return f"{_game(game_id)}:meta:{name}"


# The meta keys of a game, each named for what it holds (the strings are those of earlier versions).

def roster_seats(game_id: str) -> str:
    """hash: seat number -> JSON of who sits there (name, player, bot) (events/roster.py)."""
    return meta(game_id, "seats")


def roster_info(game_id: str) -> str:
    """string: JSON of the game's form and time control as created (events/roster.py)."""
    return meta(game_id, "info")


def seat_players(game_id: str) -> str:
    """hash: registered player id -> the seat they hold (events/roster.py)."""
    return meta(game_id, "players")


def review(game_id: str) -> str:
    """string: JSON of the game's review: status, budget and judged moves (events/reviews.py)."""
    return meta(game_id, "review")


def seat_tokens(game_id: str) -> str:
    """hash: seat token hash -> seat number, or '<seat>:<player>' for a player's seat (events/tokens.py)."""
    return meta(game_id, "tokens")


def game_reservation(game_id: str) -> str:
    """string, expiring: who holds the game id before its log exists ('lobby', 'import'; events/game_ids.py)."""
    return meta(game_id, "reserved")


def clock(game_id: str) -> str:
    """hash: json -> the game's clock folded up to a version (events/clocks.py), a cache."""
    return meta(game_id, "clock")


def wait_claim(game_id: str) -> str:
    """hash: the wait (first version) and seat whose follow-up was claimed, so each wait is planned once,
    and the seat waited for before it (mover), so its announcement can be made again."""
    return meta(game_id, "turn")


def finish_marks(game_id: str) -> str:
    """hash: markers of the end-of-game steps done (standings, archived, done) (workers/endgame.py)."""
    return meta(game_id, "finish")


def game_rating(game_id: str) -> str:
    """string: JSON plan of the rating change the game makes, first writer wins (events/ratings.py)."""
    return meta(game_id, "rating")


def game_form_rating(game_id: str) -> str:
    """string: JSON of the per-form rating change the game made, first writer wins (workers/results.py)."""
    return meta(game_id, "form_rating")


def follow_up(game_id: str) -> str:
    """string: the version whose follow-up (clocks, bots, notifications, end of game) is not known to
    be done; set by the append itself (events/lua/append.lua), cleared once it ran (events/followup.py)."""
    return meta(game_id, "followup")


def conditionals(game_id: str) -> str:
    """hash: seat -> JSON of the conditional replies the seat queued (events/conditionals.py), private
    to the seat and outside the log until one is played."""
    return meta(game_id, "conditionals")


def conditional_outcomes(game_id: str) -> str:
    """hash: seat -> JSON of what became of the seat's conditional replies when its turn came."""
    return meta(game_id, "conditional_told")


def moves(game_id: str) -> str:
    """list: JSON of one entry per move (its first and last version, seat, kind), written at append
    beside the log (events/moves.py); rebuilt from the log for games stored before it existed."""
    return meta(game_id, "moves")


def archived(game_id: str) -> str:
    """hash: the stub a finished game leaves in Redis once its log, snapshots, moves index and chat
    went to the archive (events/archive/): where its record lives, its version, head hash, form,
    players, result and rules. Present means "read this game from the archive"."""
    return meta(game_id, "archived")


def archiving(game_id: str) -> str:
    """string, expiring: the worker archiving the game now, so two sweeps do not both do it."""
    return meta(game_id, "archiving")


def head_pattern() -> str:
    """A SCAN pattern matching the head key of every stored game (`game_of_head` reads the id back)."""
    return f"{PREFIX}:{{*}}:head"


def game_of_head(key: str | bytes) -> str:
    text = key.decode() if isinstance(key, bytes) else key
    return text[len(PREFIX) + 2:text.index("}")]


def game_keys(game_id: str) -> list[str]:
    """The fixed keys of a game (idempotency and meta keys are found with SCAN on the tag)."""
    return [log(game_id), head(game_id), snapshots(game_id)]


def rematch(game_id: str) -> str:
    """string: the id of the game offered as this finished game's rematch (events/rematches.py)."""
    return meta(game_id, "rematch")


def rematch_lock(game_id: str) -> str:
    """string, seconds long: held while one caller makes this game's rematch offer (events/rematches.py)."""
    return meta(game_id, "rematch_lock")


def rematch_news(game_id: str) -> str:
    """stream: how this finished game's rematch offer stands, each time it changes (events/rematches.py);
    the game's own stream carries it after GameEnded."""
    return meta(game_id, "rematch_news")


def game_notes(game_id: str) -> str:
    """hash: seat -> JSON of that seat's private notes on the game (events/notes.py)."""
    return meta(game_id, "notes")


def pending_game(game_id: str) -> str:
    """hash: a game waiting for its invited players (events/invitations.py), before its log exists."""
    return f"{_game(game_id)}:pending"


# Every meta name a game may have: a game nobody moved in expires with all of them (events/unmoved.py).
# A layer that adds a per-game meta key adds its name here.
GAME_META_NAMES = ("seats", "players", "info", "tokens", "clock", "turn", "finish", "unmoved", "followup", "moves",
                   "rating", "form_rating", "provenance", "archived", "archiving", "reserved", "rematch",
                   "rematch_lock", "rematch_news", "conditionals", "conditional_told", "notes")


def all_game_keys(game_id: str) -> list[str]:
    """Every fixed, meta, chat and presence key of a game, for expiring or keeping all at once."""
    return [*game_keys(game_id), pending_game(game_id), *(meta(game_id, name) for name in GAME_META_NAMES),
            chat(game_id, "players"), chat(game_id, "spectators"), presence(game_id)]


# --- keys of other layers that are not a game's: registered players --------------------------------

def _player(player_id: str) -> str:
    if not valid_game_id(player_id):
        raise InvalidKeyPart(f"player id must be 1-64 letters, digits, '_' or '-': {player_id!r}")
    return f"{PREFIX}:player:{{{player_id}}}"


def player(player_id: str) -> str:
    """hash: name, password, created, webhook_url, webhook_secret; title "BOT" for a bot account."""
    return _player(player_id)


def player_games(player_id: str) -> str:
    """set: ids of the games the player has a seat in."""
    return f"{_player(player_id)}:games"


def player_invitations(player_id: str) -> str:
    """sorted set: '<game id>.<seat>' of every invitation the player received -> when it was made."""
    return f"{_player(player_id)}:invitations"


def player_token(token_hash: str) -> str:
    """string: the player id a (hashed) player token belongs to."""
    return f"{PREFIX}:ptoken:{token_hash}"


# --- keys of the workers: deadlines, notifications, ratings -----------------------------------------

DEADLINE_SHARDS = 16


def deadline_shard(game_id: str) -> int:
    """The shard of the deadline index a game's members live in, the same in every process."""
    return zlib.crc32(game_id.encode()) % DEADLINE_SHARDS


def _sharded(group: str, shard: int, shards: int, tags: list[str] | None = None) -> str:
    """The start of every key of shard `shard` of a sharded group: `arena:{<tag>}`, the tag
    `<group>.<shard>` or `tags[shard]`."""
    if not isinstance(shard, int) or not 0 <= shard < shards:
        raise InvalidKeyPart(f"{group} shard must be 0-{shards - 1}: {shard!r}")
    return f"{PREFIX}:{{{tags[shard] if tags else f'{group}.{shard}'}}}"


def _evenly_spread(group: str, shards: int) -> list[str]:
    """Tags for the shards of a group whose slots are evenly spaced over the Cluster's slots: shard
    n's tag is the first `<group>.<n>.<k>` that hashes near the middle of the n-th of `shards` equal
    slot ranges, so masters serving equal ranges serve shares of the shards as even as can be
    (plain `<group>.<n>` tags put 4 of 8 on one of 3 masters)."""
    width = CLUSTER_SLOTS / shards
    tags = []
    for n in range(shards):
        middle = (n + 0.5) * width
        tags.append(next(tag for tag in (f"{group}.{n}.{k}" for k in itertools.count())
                         if abs(key_slot(tag.encode()) - middle) < width / 8))
    return tags


def _deadline_shard(shard: int) -> str:
    return _sharded("deadlines", shard, DEADLINE_SHARDS)


def deadlines(shard: int) -> str:
    """sorted set, one shard of the deadline index (events/due.py): what is due when. Member
    "<kind>:<game>[:<wait>]" (kind: one of due.KINDS: timeout, remind, bot, finish, digest, announce,
    invitation, outbox, whose "game" is a player's id) in the game's shard (deadline_shard), score:
    when it is due (epoch seconds). Each worker's deadline loop claims the due ones of every shard
    (events/lua/claim_deadlines.lua). Shares a slot with its leases; the shards' tags
    `{deadlines.<n>}` spread them over a Cluster's masters (no id holds a '.')."""
    return f"{_deadline_shard(shard)}:due"


def deadline_leases(shard: int) -> str:
    """sorted set: members of deadlines(shard) a loop has claimed -> when its claim lapses (epoch
    seconds); a lapsed claim (its loop died) is offered again."""
    return f"{_deadline_shard(shard)}:leases"


def _follow_up_shard(shard: int) -> str:
    return _sharded("followups", shard, DEADLINE_SHARDS)


def follow_ups(shard: int) -> str:
    """sorted set, one shard of the follow-up index (events/followup.py): game id -> when a deadline
    loop should look whether the game's follow-up got done (epoch seconds). A game is in the shard
    deadline_shard(game) picks; the shards' tags `{followups.<n>}` spread them over a Cluster."""
    return f"{_follow_up_shard(shard)}:due"


def archive_due(shard: int) -> str:
    """sorted set, one shard of the archive index (events/archive/): finished game id -> when its
    end-of-game work was done (epoch seconds); the sweeps archive those ended long enough ago.
    A game is in the shard deadline_shard(game) picks; the tags `{archives.<n>}` spread the shards."""
    return f"{_sharded('archives', shard, DEADLINE_SHARDS)}:due"


def follow_up_leases(shard: int) -> str:
    """sorted set: games of follow_ups(shard) a loop has claimed -> when its claim lapses."""
    return f"{_follow_up_shard(shard)}:leases"


def worker_pulse(worker_name: str) -> str:
    """string, expiring within seconds: present while the worker process of that name is alive."""
    return f"{PREFIX}:pulse:{worker_name}"


def promotion(queue_name: str) -> str:
    """lock (redis-py), expiring within a second: the loop moving the queue's due scheduled RQ jobs."""
    return f"{PREFIX}:promotion:{queue_name}"


def inbox(player_id: str) -> str:
    """stream: the player's notifications (the entry id is the SSE event id), capped."""
    return f"{_player(player_id)}:inbox"


def notified(player_id: str) -> str:
    """sorted set: notification id -> time sent, so a notification is delivered once."""
    return f"{_player(player_id)}:notified"


def notify_outbox(player_id: str) -> str:
    """hash: notification id -> its JSON, for notifications in the inbox whose e-mail and webhook
    are not handed to the queue yet; written with the inbox entry (events/inbox.py)."""
    return f"{_player(player_id)}:outbox"


def handed_over(player_id: str, note_id: str) -> str:
    """string on the queue Redis, set in the transaction that queues a notification's e-mail and
    webhook, and deleted once its outbox entry is gone: a notification is handed over once."""
    if not valid_idempotency_key(note_id):
        raise InvalidKeyPart(f"notification id must be 1-128 letters, digits, '_' or '-': {note_id!r}")
    return f"{_player(player_id)}:handed:{note_id}"


def webhook_failures(player_id: str) -> str:
    """stream: failed webhook deliveries (delivery id, attempt, error), capped."""
    return f"{_player(player_id)}:webhook_failures"


def rating(player_id: str) -> str:
    """string: the player's rating JSON {mu, sigma, games} (workers/ratings.py)."""
    return f"{_player(player_id)}:rating"


def rated(player_id: str) -> str:
    """hash: game id -> the rating JSON that game left the player with, so a game counts once."""
    return f"{_player(player_id)}:rated"


def legacy_ratings() -> str:
    """hash: player id -> rating JSON, as older versions kept every rating in one slot; read as a
    fallback for players not rated since."""
    return f"{PREFIX}:{{ratings}}:players"


# --- keys of people: accounts, sessions, API tokens, lobby, chat, presence, e-mail, vacation -------
# A player's own data sits in the player's slot ({<player id>}); a game's chat and presence in the
# game's slot, beside its log. What everybody shares is split so that no slot carries every write:
# one key per account name, the live games and the lobby's tables in buckets of their own tags,
# quick-match seeks in one key per pairing pool (form and time control).

def name_digest(name: str) -> str:
    """The hash tag of an account name: its lower-cased form's SHA-256 (any text, fixed length)."""
    return hashlib.sha256(name.lower().encode()).hexdigest()


def account_name(name: str) -> str:
    """string: the id of the player whose account has this name (regardless of case); SET NX makes
    names unique, one key (and slot) per name."""
    return f"{PREFIX}:name:{{{name_digest(name)}}}"


def signin_failures(name: str) -> str:
    """string, expiring: failed sign-ins for a name (regardless of case) in the current window."""
    return f"{account_name(name)}:failures"


def signin_failures_from(name: str, key: str) -> str:
    """string, expiring: failed sign-ins for a name from one place (`key`: a digest of the client
    address, or 'd' and a device's), beside the name's other counters."""
    return f"{account_name(name)}:failures:{_owner(key)}"


def password_checks(player_id: str, key: str) -> str:
    """string, expiring: wrong current passwords sent to change an account's password, by one
    credential (`key`: its digest) or by all ('all')."""
    return f"{_player(player_id)}:password_checks:{_owner(key)}"


def devices(player_id: str) -> str:
    """hash: digest of a device secret -> when it lapses: browsers that signed in to the account
    before (their device cookie lets them past the per-name sign-in brake)."""
    return f"{_player(player_id)}:devices"


def sessions(player_id: str) -> str:
    """hash: session secret hash -> JSON {csrf, created, expires}; deleted whole to sign out everywhere."""
    return f"{_player(player_id)}:sessions"


def player_token_list(player_id: str) -> str:
    """hash: token hash -> JSON {id, label, created}: the player's API tokens, for listing and revoking."""
    return f"{_player(player_id)}:tokens"


def mutes(player_id: str) -> str:
    """set: ids of the players whose chat messages this player does not want to see."""
    return f"{_player(player_id)}:mutes"


def table_prefs(player_id: str) -> str:
    """hash: the account's preferences at the table (events/table_prefs.py), '1' on, '0' off."""
    return f"{_player(player_id)}:table"


def email_settings(player_id: str) -> str:
    """hash: address, and one flag per kind of e-mail ('1' on, '0' off)."""
    return f"{_player(player_id)}:email"


def push_subscriptions(player_id: str) -> str:
    """hash: subscription id -> JSON {endpoint, p256dh, auth, created} of each browser that opted in
    to Web Push (events/push.py)."""
    return f"{_player(player_id)}:push"


def push_settings(player_id: str) -> str:
    """hash: one flag per kind of push ('1' on, '0' off); a kind never set has its default."""
    return f"{_player(player_id)}:push_kinds"


def account_link(player_id: str, key: str) -> str:
    """string, expiring with its link: one signed link mailed to the player (address confirmation,
    password reset) not used yet; deleting it uses the link up (events/account_links.py)."""
    return f"{_player(player_id)}:link:{_owner(key)}"


def account_mails(player_id: str, key: str) -> str:
    """string, expiring: account mails (`key`: 'verify' or 'reset') sent to the player in the window."""
    return f"{_player(player_id)}:account_mails:{_owner(key)}"


def email_owner(name: str) -> str:
    """string: the player whose confirmed e-mail address `name` is (regardless of case)."""
    return f"{PREFIX}:email:{{{name_digest(name)}}}"


def email_turn_sent(player_id: str, game_id: str) -> str:
    """string, expiring after the interval: a "your turn" e-mail for this game was sent lately."""
    if not valid_game_id(game_id):
        raise InvalidKeyPart(f"game id must be 1-64 letters, digits, '_' or '-': {game_id!r}")
    return f"{_player(player_id)}:email_turn:{game_id}"


def mail_secret() -> str:
    """string: the key that signs unsubscribe links when ARENA_SECRET is not set."""
    return f"{PREFIX}:mail_secret"


def email_failures(player_id: str) -> str:
    """stream: failed e-mail deliveries (kind, attempt, error), capped."""
    return f"{_player(player_id)}:email_failures"


def vacation(player_id: str) -> str:
    """string: JSON list of [start, end] epoch-second intervals when the player's clocks are paused."""
    return f"{_player(player_id)}:vacation"


def desk(player_id: str) -> str:
    """hash: game id -> JSON of how the game stands for the player, written after every change to it
    (events/desk.py): the desk and "your games" read it instead of loading each game."""
    return f"{_player(player_id)}:desk"


def desk_seen(player_id: str) -> str:
    """hash: game id -> the latest version of the game the player looked at (events/desk.py)."""
    return f"{_player(player_id)}:desk_seen"


def time_zone(player_id: str) -> str:
    """string: JSON list of [since epoch seconds, IANA zone name]: the player's time zone and when each
    was chosen (events/time_zones.py)."""
    return f"{_player(player_id)}:time_zone"


def results(player_id: str) -> str:
    """hash: game id -> JSON of the player's result in that finished game (for the profile)."""
    return f"{_player(player_id)}:results"


def form_ratings(player_id: str) -> str:
    """hash: form -> rating JSON {mu, sigma, games}; history in results()."""
    return f"{_player(player_id)}:form_ratings"


LOBBY_BUCKETS = 8


def lobby_bucket(table_id: str) -> int:
    """The bucket of the lobby a table lives in, the same in every process."""
    if not valid_game_id(table_id):
        raise InvalidKeyPart(f"table id must be 1-64 letters, digits, '_' or '-': {table_id!r}")
    return zlib.crc32(table_id.encode()) % LOBBY_BUCKETS


_LOBBY_TAGS = _evenly_spread("lobby", LOBBY_BUCKETS)


def _lobby_bucket(bucket: int) -> str:
    return _sharded("lobby", bucket, LOBBY_BUCKETS, _LOBBY_TAGS)


def table(table_id: str) -> str:
    """string: JSON of one lobby table (seats taken, options, status, game id once started), in its
    bucket (lobby_bucket), beside the bucket's indexes: a join changes all three in one MULTI."""
    return f"{_lobby_bucket(lobby_bucket(table_id))}:table:{table_id}"


def open_tables(bucket: int) -> str:
    """sorted set: id of each open table of the bucket -> when it was opened."""
    return f"{_lobby_bucket(bucket)}:open"


def table_expiry(bucket: int) -> str:
    """sorted set: id of each open table of the bucket -> when it expires if nobody joins."""
    return f"{_lobby_bucket(bucket)}:expiry"


def lobby_changes(bucket: int) -> str:
    """stream, capped: each change to a table of the bucket, written with the change; relayed in
    order into lobby_feed() (events/lobby.py), so a crash between the two loses no entry."""
    return f"{_lobby_bucket(bucket)}:changes"


def lobby_relayed(bucket: int) -> str:
    """string: the last entry of lobby_changes(bucket) relayed into the feed (in the feed's slot)."""
    _lobby_bucket(bucket)                           # refuses a bucket that does not exist
    return f"{PREFIX}:{{lobby}}:relayed:{bucket}"


def lobby_feed() -> str:
    """stream: every change to the lobby (a table opened, changed, started, closed, expired; seeks
    paired), capped: what the live lobby list follows."""
    return f"{PREFIX}:{{lobby}}:feed"


_POOL = re.compile(r"[a-z0-9_-]{1,64}")


def seek_pool(pool: str) -> str:
    """hash: player id -> JSON of a quick-match seek (player, form, time control, ordinal, since)
    of one pairing pool (a form and a time control, events/lobby.pool_of): seeks paired together
    are taken off one key in one MULTI."""
    if not isinstance(pool, str) or _POOL.fullmatch(pool) is None:
        raise InvalidKeyPart(f"seek pool must be 1-64 lower-case letters, digits, '_' or '-': {pool!r}")
    return f"{PREFIX}:{{seeks.{pool}}}:waiting"


def seeking(player_id: str) -> str:
    """string, expiring in seconds: the player is making a seek now (one at a time, events/lobby.py)."""
    return f"{_player(player_id)}:seeking"


def player_seek(player_id: str) -> str:
    """string: the pool of the player's waiting seek (one seek per player)."""
    return f"{_player(player_id)}:seek"


def seek_match(player_id: str) -> str:
    """string, expiring: JSON {game_id, form} of the game the player's last seek was paired into."""
    return f"{_player(player_id)}:seek_match"


LIVE_SHARDS = 8
_LIVE_TAGS = _evenly_spread("live", LIVE_SHARDS)


def live_shard(game_id: str) -> int:
    """The shard of the live-games list a game is in."""
    return zlib.crc32(game_id.encode()) % LIVE_SHARDS


def live_games(shard: int) -> str:
    """sorted set, one shard of the list of running games: id -> when it last changed (each move
    writes it, so the list is spread over LIVE_SHARDS tags; events/presence.py merges them)."""
    return f"{_sharded('live', shard, LIVE_SHARDS, _LIVE_TAGS)}:games"


def chat(game_id: str, channel: str) -> str:
    """stream: a game's chat in one channel ('players' or 'spectators'), outside its hash chain."""
    if channel not in ("players", "spectators"):
        raise InvalidKeyPart(f"chat channel must be 'players' or 'spectators': {channel!r}")
    return f"{_game(game_id)}:chat:{channel}"


def chat_reports() -> str:
    """stream: reported chat messages (game, channel, message, reporter, reason) for moderators."""
    return f"{PREFIX}:chat_reports"


def presence(game_id: str) -> str:
    """sorted set: viewer (player id or 'anon:<n>') -> until when (epoch seconds) they watch the game."""
    return f"{_game(game_id)}:presence"


# --- keys of the HTTP layer's limits ----------------------------------------------------------------

_OWNER = re.compile(r"[A-Za-z0-9_.:-]{1,80}")


def _owner(owner: str) -> str:
    if not isinstance(owner, str) or _OWNER.fullmatch(owner) is None:
        raise InvalidKeyPart(f"owner must be 1-80 letters, digits, '_', '.', ':' or '-': {owner!r}")
    return owner


def unmoved_games(owner: str) -> str:
    """sorted set: ids of the games `owner` ('p:<player>' or 'a:<address>') created that nobody has
    moved in yet -> when each stops counting (epoch seconds)."""
    return f"{PREFIX}:unmoved:{{{_owner(owner)}}}"


def tables_of(owner: str) -> str:
    """sorted set: the open lobby tables `owner` ('p:<player>' or 'a:<address>') opened -> when each
    expires unless someone joins (events/lobby.py caps how many at once)."""
    return f"{PREFIX}:tables:{{{_owner(owner)}}}"


def stream_slots(owner: str) -> str:
    """sorted set: the open streams of `owner` ('a:<address hash>' or 't:<token hash>') in every
    front process -> when the lease of each lapses (epoch seconds), renewed while it is open
    (server/streams/slots.py)."""
    return f"{PREFIX}:streams:{{{_owner(owner)}}}"


def rate_limits() -> str:
    """the prefix of flask-limiter's counters (server/limits.py)."""
    return f"{PREFIX}:limits"


# --- the layout: which version of the key layout the data is in (events/layout.py) ----------------

LAYOUT = 1                          # the number of today's layout


def layout() -> str:
    """string: the number (LAYOUT) of the last layout migration applied to this Redis (or Cluster)."""
    return f"{PREFIX}:layout"


# Keys of older versions, read only to move their data to the keys above (events/layout.py).

MOVING = ":moving"


def legacy_moving(legacy_key: str) -> str:
    """The twin an older-layout key is renamed to while its contents are moved (events/layout.py),
    in the key's own slot: its tag, or the whole key as the tag when it has none."""
    return f"{legacy_key}{MOVING}" if "{" in legacy_key else f"{{{legacy_key}}}{MOVING}"


def legacy_deadlines() -> str:
    """sorted set: the unsharded deadline index (member -> when due)."""
    return f"{PREFIX}:{{deadlines}}:due"


def legacy_deadline_leases() -> str:
    """sorted set: the unsharded deadline index's claims (member -> when the claim lapses)."""
    return f"{PREFIX}:{{deadlines}}:leases"


def legacy_table(table_id: str) -> str:
    """string: a lobby table when every table shared the {lobby} slot."""
    if not valid_game_id(table_id):
        raise InvalidKeyPart(f"table id must be 1-64 letters, digits, '_' or '-': {table_id!r}")
    return f"{PREFIX}:{{lobby}}:table:{table_id}"


def legacy_open_tables() -> str:
    """sorted set: every open table -> when it was opened, in the one {lobby} slot."""
    return f"{PREFIX}:{{lobby}}:open"


def legacy_seeks() -> str:
    """hash: player id -> seek JSON, every pool in the one {lobby} slot."""
    return f"{PREFIX}:{{lobby}}:seeks"


def legacy_live_games() -> str:
    """sorted set: every running game -> when it last changed, in one key."""
    return f"{PREFIX}:live"


def legacy_account_names() -> str:
    """hash: lower-cased account name -> player id, every name in one {accounts} slot."""
    return f"{PREFIX}:{{accounts}}:names"


def legacy_signin_failures(name_hex: str) -> str:
    """string, expiring: sign-in failures for a name (its UTF-8 bytes in hex, cut at 128) in {accounts}."""
    return f"{PREFIX}:{{accounts}}:failures:{name_hex}"
