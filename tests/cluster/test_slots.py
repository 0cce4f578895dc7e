"""No command and no script ever spans two Cluster slots: proved on the key builders, on the code's
multi-key calls and scripts, and by a whole product flow run on a real Cluster.

1. Every builder in events/keys.py tags its key with what it belongs to (the game, the player, the
   index shard), so keys of one owner share a slot; the few keys without a tag are used alone.
2. Every call in the code that names several keys (a multi-key command, a transaction, a script)
   names keys of one owner, read from the source with `ast`; the exceptions run on RQ's own
   single Redis, never on the Cluster.
3. Every Lua script (events/lua/ and those inline in the code) builds no key of its own, and runs
   on the Cluster during a product flow (registration, games with clocks, a bot, notifications,
   the end-of-game job, ratings) that a cross-slot call would have failed.
"""
from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import pkgutil
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from redis.crc import key_slot

from events import keys

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("events", "server", "workers")
SAMPLE_ARGS = {"game_id": "g1", "player_id": "p1", "key": "k1", "name": "info", "token_hash": "ab" * 32,
               "shard": 3, "bucket": 3, "pool": "duel-move-600-0", "channel": "players", "table_id": "t1",
               "worker_name": "w1", "queue_name": "arena", "owner": "p:p1", "name_hex": "616e6e",
               "legacy_key": "arena:{deadlines}:due", "note_id": "yourturn-g1-3-0"}
OWNER = {"game_id": "g1", "player_id": "p1", "owner": "p:p1", "name": keys.name_digest("info")}
# Keys of one purpose kept in one slot on purpose (each group changes together in one MULTI).
GROUPS = {"lobby": "the lobby's feed and the cursors of the buckets relayed into it, changed together",
          "accounts": "account names and sign-in failures of older versions, moved by events/layout.py",
          "ratings": "the ratings of older versions, read alone",
          "deadlines": "the unsharded deadline index of older versions, moved by events/layout.py"}
# Shared data split over tags `<group>.<n>`: each shard's keys change together, shards spread over the masters.
SHARDED = {"deadlines": "a shard of the deadline index and its leases, claimed together",
           "live": "a shard of the live games list, changed alone",
           "lobby": "a bucket of tables: a table, the bucket's open and expiry indexes and changes, in one MULTI",
           "seeks": "the seeks of one pairing pool, paired in one MULTI",
           "followups": "a shard of the follow-up index and its leases, claimed together",
           "archives": "a shard of the archive index, changed alone"}
# Keys read and written alone (never with another key in one command), so their slot is their own.
UNTAGGED = {"player_token": "looked up by the token alone", "worker_pulse": "on the queue Redis, alone",
            "promotion": "a lock on the queue Redis, alone", "legacy_live_games": "an older version's list, moved alone",
            "chat_reports": "a stream appended to alone",
            "rate_limits": "the prefix of flask-limiter's counters, each used alone, on the queue Redis",
            "mail_secret": "a string read alone", "layout": "a string read alone"}
NOT_BUILDERS = {"valid_game_id", "valid_idempotency_key", "deadline_shard", "head_pattern", "game_of_head",
                "name_digest", "lobby_bucket", "live_shard"}
MULTI_KEY = {"mget", "mset", "msetnx", "delete", "unlink", "exists", "touch", "sunion", "sunionstore", "sinter",
             "sinterstore", "sdiff", "sdiffstore", "smove", "rename", "renamenx", "zunionstore", "zinterstore",
             "zunion", "zinter", "zdiff", "zdiffstore", "blpop", "brpop", "brpoplpush", "lmove", "blmove",
             "rpoplpush", "xread", "xreadgroup", "watch", "pfmerge", "pfcount", "copy", "bitop", "sort"}
# Calls whose keys this test cannot see: RQ's on its own Redis, or a pass-through whose callers are checked.
UNSEEN_KEYS = {("workers/queues.py", "cancel"): "RQ's registry, queue and job hashes",
               ("workers/queues.py", "pipelines"): "a transaction of RQ commands on the queue Redis",
               ("workers/recovery.py", "promote_scheduled"): "RQ's scheduled jobs, on the queue Redis",
               ("events/scripts.py", "run_script"): "runs the keys its callers pass (checked here)",
               ("events/attempts.py", "_run"): "counts the bounds server/password_guard.py builds, all of one name "
                                               "or one player (their builders are checked above; run on the Cluster)",
               ("server/streams/hub.py", "_run"): "one XREAD over many streams on a single Redis only",
               ("events/layout.py", "_drain"): "renames an older-layout key to its twin in its slot (checked below)",
               ("events/layout.py", "_signin_failures"): "deletes one older-layout key SCAN found at a time"}


def hash_tag(key: str) -> str | None:
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1:end] if start >= 0 and end > start + 1 else None


def builders() -> list[tuple[str, object]]:
    return [(name, fn) for name, fn in inspect.getmembers(keys, inspect.isfunction)
            if fn.__module__ == keys.__name__ and not name.startswith("_") and name not in NOT_BUILDERS]


@pytest.mark.parametrize("name, builder", builders(), ids=[name for name, _ in builders()])
def test_every_key_builder_tags_its_key_with_its_owner(name, builder):
    params = list(inspect.signature(builder).parameters)
    missing = [p for p in params if p not in SAMPLE_ARGS]
    assert not missing, f"keys.{name} takes {missing}: tell this test which id owns its key"
    built = builder(**{p: SAMPLE_ARGS[p] for p in params})
    for key in built if isinstance(built, list) else [built]:
        tag = hash_tag(key)
        owner = next((OWNER[p] for p in params if p in OWNER), None)
        if owner is not None:
            assert tag == owner, f"keys.{name} -> {key!r} is not tagged with its owner {owner!r}"
        elif tag is not None:
            assert tag in GROUPS or tag.partition(".")[0] in SHARDED and tag.partition(".")[2], \
                f"keys.{name} -> {key!r}: a tag {tag!r} no one owns"
        else:
            assert name in UNTAGGED, f"keys.{name} -> {key!r} has no hash tag and is not known to be used alone"
        if tag is not None:
            assert key_slot(key.encode()) == key_slot(tag.encode())


@pytest.mark.parametrize("shard_key, shards", [(keys.deadlines, keys.DEADLINE_SHARDS), (keys.live_games, keys.LIVE_SHARDS),
                                               (keys.open_tables, keys.LOBBY_BUCKETS)])
def test_the_shards_of_every_sharded_index_spread_over_three_masters(shard_key, shards):
    thirds = Counter(key_slot(shard_key(n).encode()) * 3 // 16384 for n in range(shards))
    assert set(thirds) == {0, 1, 2}
    if shard_key is not keys.deadlines:                                # its tags are an older layout's
        for masters in (3, 4, 5, 6):                                   # the slots split evenly: so are the shards
            share = Counter(key_slot(shard_key(n).encode()) * masters // 16384 for n in range(shards))
            assert max(share.values()) <= -(-shards // masters), (masters, share)


def test_a_table_and_its_buckets_indexes_share_a_slot_and_ids_spread_over_the_buckets():
    for table_id in ("t1", "L0123456789abcd", "x"):
        bucket = keys.lobby_bucket(table_id)
        slots = {key_slot(k.encode()) for k in (keys.table(table_id), keys.open_tables(bucket),
                                                keys.table_expiry(bucket), keys.lobby_changes(bucket))}
        assert len(slots) == 1
    assert {keys.lobby_bucket(f"L{n:014x}") for n in range(64)} == set(range(keys.LOBBY_BUCKETS))
    assert key_slot(keys.lobby_relayed(3).encode()) == key_slot(keys.lobby_feed().encode())
    assert keys.account_name("Ann") == keys.account_name("ANN") != keys.account_name("Bob")
    assert key_slot(keys.signin_failures("ann").encode()) == key_slot(keys.account_name("Ann").encode())


def test_every_older_layout_key_is_set_aside_in_its_own_slot():
    older = [fn(**{p: SAMPLE_ARGS[p] for p in inspect.signature(fn).parameters}) for name, fn in builders()
             if name.startswith("legacy_") and name != "legacy_moving"]
    assert len(older) >= 8 and keys.legacy_live_games() in older
    for key in older:
        assert key_slot(keys.legacy_moving(key).encode()) == key_slot(key.encode()), key


def test_the_shards_of_the_deadline_index_spread_games():
    assert keys.deadline_shard("g1") == keys.deadline_shard("g1") and keys.deadline_shard("g2") != keys.deadline_shard("g1")


# --- 2. the code's multi-key calls, read from the source -------------------------------------------

def sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def calls(tree: ast.AST):
    """(enclosing function, call) for every call in a module (the module itself outside functions)."""
    def walk(node, where):
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call):
                yield where, child
            yield from walk(child, inner)
    yield from walk(tree, tree)


def resolve(node: ast.AST, scope: ast.AST) -> list[ast.AST]:
    """The expressions a key argument stands for: a local name's assigned value, both arms of a
    conditional, each element of a list."""
    if isinstance(node, ast.Starred) and not isinstance(node.value, ast.Call):
        node = node.value
    if isinstance(node, ast.Name):
        assigned = [a.value for a in ast.walk(scope) if isinstance(a, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)]
        assigned += [f.iter for f in ast.walk(scope) if isinstance(f, ast.For)         # a loop over keys
                     and isinstance(f.target, ast.Name) and f.target.id == node.id]
        return [r for value in assigned for r in resolve(value, scope)] or [node]
    if isinstance(node, ast.IfExp):
        return resolve(node.body, scope) + resolve(node.orelse, scope)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [r for elt in node.elts for r in resolve(elt, scope)]
    return [node]


# Builders whose slot is a bucket computed from an id: keys.table(x) is in bucket keys.lobby_bucket(x).
BUCKETED = {"table": "lobby_bucket"}


def key_owner(node: ast.AST, enclosing: dict | None = None) -> str | None:
    """Which slot a `keys.builder(...)` call (or `*keys.game_keys(arg)`) names: '<id parameter>:<its
    argument>' when the key is tagged with an id, 'tag:<tag>' when its tag is fixed, 'bucket:<call>'
    when it is a shard or bucket computed by a keys function (a local name bound to that call is
    followed within the function, `enclosing`), else None."""
    if isinstance(node, ast.Starred):
        node = node.value
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        node = node.elt
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "keys"):
        return None
    if node.func.attr in BUCKETED and node.args:
        return f"bucket:keys.{BUCKETED[node.func.attr]}({ast.unparse(node.args[0])})"
    builder = getattr(keys, node.func.attr)
    params = list(inspect.signature(builder).parameters)
    built = builder(**{p: SAMPLE_ARGS[p] for p in params})
    tag = hash_tag(built[0] if isinstance(built, list) else built)
    for index, param in enumerate(params):
        if param in ("shard", "bucket") and tag not in GROUPS and index < len(node.args):
            return f"bucket:{_bucket_call(node.args[index], enclosing) or ast.unparse(node.args[index])}"
        sample = str(SAMPLE_ARGS[param])
        if tag is not None and tag == sample and index < len(node.args):
            return f"{param}:{ast.unparse(node.args[index])}"         # the key's slot follows this argument
    return f"tag:{tag}" if tag is not None and tag not in OWNER.values() else None


def _bucket_call(arg: ast.AST, enclosing: dict | None) -> str | None:
    """`keys.<bucket function>(x)` as text, when `arg` is that call or a local name bound to it once."""
    if isinstance(arg, ast.Name) and enclosing and id(arg) in enclosing:
        bound = [a.value for a in ast.walk(enclosing[id(arg)]) if isinstance(a, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == arg.id for t in a.targets)]
        arg = bound[0] if len(bound) == 1 else arg
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and getattr(arg.func.value, "id", "") == "keys" \
            and arg.func.attr in BUCKETED.values():
        return ast.unparse(arg)
    return None


def key_arguments(call: ast.Call) -> list[ast.AST] | None:
    """The key expressions of a call that may name several keys; None when it names at most one."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    scripted = [k.value for k in call.keywords if k.arg == "keys"]
    if scripted and any(k.arg == "args" for k in call.keywords):       # a redis-py Script object
        return scripted
    if name == "run_script" and len(call.args) >= 3:
        return [call.args[2]]
    if name in ("evalsha", "eval") and len(call.args) >= 3:
        return call.args[2:3] if isinstance(call.args[2], ast.Starred) else [call, call]
    if name == "xread" and call.args:
        streams = call.args[0]
        if isinstance(streams, ast.Dict):
            return list(streams.keys) if len(streams.keys) > 1 else None
        return [streams, streams]
    if name in MULTI_KEY and call.args:
        if len(call.args) > 1 or isinstance(call.args[0], (ast.Starred, ast.List, ast.ListComp, ast.Name)):
            return list(call.args)
    if name == "pipeline" and not any(k.arg == "transaction" and ast.unparse(k.value) == "False" for k in call.keywords):
        return [TRANSACTION]                                            # its keys: those its function names
    if name == "multi":
        return [TRANSACTION]
    return None


TRANSACTION = ast.Constant("a transaction")
NOT_REDIS = {"os", "path", "store", "presence"}                         # exists(), touch()... not Redis's


def transaction_keys(scope: ast.AST, module: ast.Module, opened: ast.Call) -> list[ast.AST]:
    """The keys a transaction's commands name: calls on the name its pipeline is bound to, from
    there until the name is bound again, and in the module's functions it hands that name to."""
    bound = [(opened.lineno, n) for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.withitem))
             and (getattr(n, "value", None) is opened or getattr(n, "context_expr", None) is opened)]
    if not bound:
        return []
    start, node = bound[0]
    target = node.targets[0] if isinstance(node, ast.Assign) else node.optional_vars
    name = getattr(target, "id", None)
    rebound = [a.lineno for a in ast.walk(scope) if isinstance(a, ast.Assign) and a.lineno > start
               and any(getattr(t, "id", None) == name for t in a.targets)]
    end = min(rebound, default=10 ** 9)
    helpers = {f.name: f for f in module.body if isinstance(f, ast.FunctionDef)}
    found = []
    for c in ast.walk(scope):
        if not isinstance(c, ast.Call) or not start <= c.lineno < end:
            continue
        if isinstance(c.func, ast.Attribute) and getattr(c.func.value, "id", None) == name and c.args:
            found.append(c.args[0])
        elif isinstance(c.func, ast.Name) and c.func.id in helpers and any(getattr(a, "id", None) == name
                                                                           for a in c.args):
            found += [k for k in ast.walk(helpers[c.func.id]) if isinstance(k, ast.Call)
                      and isinstance(k.func, ast.Attribute) and getattr(k.func.value, "id", None) == "keys"
                      and k.func.attr not in NOT_BUILDERS]
    return found


def single_key(node: ast.AST) -> bool:
    """Whether `node` is a call of a key builder that returns one key (not a list of them)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and getattr(node.func.value, "id", None) == "keys"):
        return False
    builder = getattr(keys, node.func.attr)
    return isinstance(builder(**{p: SAMPLE_ARGS[p] for p in inspect.signature(builder).parameters}), str)


def multi_key_calls() -> list[tuple[str, str, ast.Call, set]]:
    """(file, function, call, owners of the keys it names) for every call that may name several keys."""
    found = []
    for path in sources():
        module = ast.parse(path.read_text())
        enclosing = {id(n): f for f in ast.walk(module) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     for n in ast.walk(f)}                              # innermost last: it wins
        for scope, call in calls(module):
            named = key_arguments(call)
            receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
            last = getattr(receiver, "attr", getattr(receiver, "id", ""))
            if named is None or last in NOT_REDIS:
                continue
            if named == [TRANSACTION]:
                opened = call if getattr(call.func, "attr", "") == "pipeline" else None
                if opened is None:
                    continue                                            # .multi(): its pipeline is checked
                named = transaction_keys(scope, module, opened)
            resolved = [n for arg in named for n in resolve(arg, scope)]
            if len(resolved) == 1 and single_key(resolved[0]):
                continue                                                # e.g. exists(key), key = keys.x(...)
            owners = {key_owner(n, enclosing) for n in resolved} or {None}
            found.append((str(path.relative_to(ROOT)), getattr(scope, "name", "<module>"), call, owners))
    return found


def test_every_multi_key_call_in_the_code_names_keys_of_one_owner():
    offenders, seen_exceptions, checked = [], set(), 0
    for where_file, function, call, owners in multi_key_calls():
        if len(owners) == 1 and None not in owners:
            checked += 1
        elif (where_file, function) in UNSEEN_KEYS:
            seen_exceptions.add((where_file, function))
        else:
            offenders.append(f"{where_file}:{call.lineno} in {function}: {ast.unparse(call)[:120]}")
    assert not offenders, "calls that may span slots:\n" + "\n".join(offenders)
    assert seen_exceptions == set(UNSEEN_KEYS), "a listed exception is gone: drop it from UNSEEN_KEYS"
    assert checked >= 8                                                 # the store, streams, notify, clocks, ratings


def test_the_queue_redis_exceptions_really_use_the_queue_connection():
    queues_src = (ROOT / "workers/queues.py").read_text()
    assert "runtime.run_script(queue.connection, _CANCEL" in queues_src
    pipelines = inspect.getsource(importlib.import_module("workers.queues").pipelines)
    assert "queue_redis = queue_for(redis)" in pipelines and "jobs = queue_redis.pipeline()" in pipelines
    chores = inspect.getsource(importlib.import_module("workers.deadline_loop").DeadlineLoop._chores)
    assert "jobs = queue_for(self.redis)" in chores and "promote_scheduled(jobs," in chores


# --- 3. the Lua scripts ------------------------------------------------------------------------------

def scripts() -> dict[str, str]:
    """Every Lua script: events/lua/*.lua and every module-level string of the code that calls Redis."""
    found = {f"events/lua/{p.name}": p.read_text()
             for p in resources.files("events").joinpath("lua").iterdir() if p.name.endswith(".lua")}
    for pkg in PACKAGES:
        for info in pkgutil.walk_packages([str(ROOT / pkg)], prefix=f"{pkg}."):
            module = importlib.import_module(info.name)
            for attr, value in vars(module).items():
                if isinstance(value, str) and "redis.call(" in value:
                    found.setdefault(f"{info.name}.{attr}", value)
    return found


def test_no_script_builds_a_key_of_its_own():
    found = scripts()
    assert len(found) >= 6, sorted(found)
    for name, text in found.items():
        code = "\n".join(line.split("--", 1)[0] for line in text.splitlines())
        assert not re.search(r"""['"]arena:|['"]rq:""", code), f"{name} names a key itself"
        for arg in re.findall(r"redis\.call\(\s*'[A-Z]+'\s*,\s*([^,)]+)", code):
            assert arg.strip().startswith("KEYS[") or arg.strip() in _key_locals(code), \
                f"{name}: a command on {arg.strip()!r}, which is not one of KEYS"


def _key_locals(code: str) -> set[str]:
    """Lua locals bound to KEYS entries (`local log, head = KEYS[1], KEYS[2]`)."""
    bound = set()
    for names in re.findall(r"local\s+([\w,\s]+?)\s*=\s*KEYS\[", code):
        bound.update(n.strip() for n in names.split(","))
    return bound


def test_a_whole_product_flow_runs_every_script_on_the_cluster(product_flow):
    for name, text in scripts().items():
        sha = hashlib.sha1(text.encode()).hexdigest()
        on_cluster = any(product_flow.cluster.get_redis_connection(n).script_exists(sha)[0]
                         for n in product_flow.cluster.get_primaries())
        if text == importlib.import_module("workers.queues")._CANCEL:            # RQ's keys, on the queue Redis
            assert product_flow.queue.script_exists(sha)[0] and not on_cluster, name
        else:
            assert on_cluster, f"{name} never ran on the Cluster in the product flow"


def test_the_product_flow_keeps_game_data_on_the_cluster_and_jobs_on_the_queue_redis(product_flow):
    queue_keys = {k.decode() for k in product_flow.queue.scan_iter(count=1000)}
    cluster_keys = {k.decode() for k in product_flow.cluster.scan_iter(count=1000)}
    workers_own = ("rq:", keys.worker_pulse(""), keys.promotion(""), "LIMITS:")  # RQ, the workers, the limiter
    assert queue_keys and all(k.startswith(workers_own) for k in queue_keys), queue_keys
    assert all(k.startswith("arena:") for k in cluster_keys)
    tags = {hash_tag(k) for k in cluster_keys}
    assert set(product_flow.games) | set(product_flow.players) <= tags
    assert any(t and t.startswith("deadlines.") for t in tags)
