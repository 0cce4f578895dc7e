"""Snapshots: the state at every N-th version, kept as a disposable cache.

Loading a game (or rewinding it to any version V) reads the snapshot at the largest multiple of N
at or below V and replays at most N-1 events after it, so a rewind costs what loading the latest
does. Snapshots are keyed by an engine fingerprint: when anything that shapes a folded state
changes, old snapshots are simply never found again and the states are rebuilt from the log.
Dropping every snapshot changes nothing but the time the next load takes (a test proves
snapshot + tail == full replay). A game keeps only its newest few in Redis (store.SNAPSHOTS_KEPT:
a rewind further back folds from the start, a few milliseconds), and none once it is over and its
end-of-game work is done (workers/endgame.py).

The fingerprint covers every line the fold can run: the source of engine/evolve.py (where every
reducer is registered) and of every engine module it imports, directly or not, found by reading
their import statements (function-level ones too), plus the card data file and the event
versions. A module the fold never reaches (the rules that decide) does not invalidate snapshots.
"""
from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Mapping

import engine
from engine.evolve import REDUCERS

SNAPSHOT_FORMAT = 1
DEFAULT_EVERY = 50
ENGINE_DIR = Path(engine.__file__).resolve().parent
FOLD_ROOT = "engine.evolve"
FOLD_DATA = ("data/cards.json",)


def module_path(root: Path, name: str) -> Path | None:
    """The file of engine module `name` ("engine.x.y") under `root` (the engine folder), if any."""
    parts = name.split(".")[1:]
    for candidate in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def imports_of(root: Path, name: str) -> set[str]:
    """The engine modules that module `name` imports anywhere in its body (relative or absolute,
    at the top, in a function or under `if TYPE_CHECKING:`)."""
    path = module_path(root, name)
    if path is None:
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package, found = _package_of(name, path), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "engine")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            if base.split(".")[0] != "engine":
                continue
            for alias in node.names:        # `from . import x` names a module; `from .x import y` a name of x
                sub = f"{base}.{alias.name}"
                found.add(sub if module_path(root, sub) else base)
    return {m for m in found if module_path(root, m) is not None and m != name}


def reachable(root: Path, start: str) -> list[str]:
    """Every engine module `start` imports, directly or through others, itself included, sorted.
    (Package __init__ files count only where imported from: what they import is no code the fold
    calls.)"""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports_of(root, name))
    return sorted(seen)


def fold_modules(root: Path = ENGINE_DIR, reducers: Mapping[str, Callable[..., Any]] = REDUCERS) -> list[str]:
    """The engine modules the fold can run: evolve, the module of every registered reducer (should
    one ever be registered elsewhere) and all they import."""
    starts = {FOLD_ROOT} | {fn.__module__ for fn in reducers.values()}
    return sorted({m for start in starts for m in reachable(root, start)})


def engine_fingerprint(root: Path = ENGINE_DIR, reducers: Mapping[str, Callable[..., Any]] = REDUCERS) -> str:
    """Changes whenever what a folded state means may change: any line of the fold's modules, the
    card data or the event versions. Without the source (a stripped install) it cannot tell, so
    it fails rather than keep snapshots that might be stale."""
    digest = hashlib.sha256(json.dumps([SNAPSHOT_FORMAT, sorted(engine.EVENT_VERSIONS.items())]).encode())
    paths = [module_path(root, m) for m in fold_modules(root, reducers)]
    for path in [p for p in paths if p is not None] + [root / d for d in FOLD_DATA]:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


FINGERPRINT = engine_fingerprint()


def encode(version: int, head_hash: str, state: dict[str, Any]) -> str:
    return json.dumps({"version": version, "hash": head_hash, "state": state}, separators=(",", ":"))


def decode(data: str) -> tuple[int, str, dict[str, Any]]:
    snap: dict[str, Any] = json.loads(data)
    return snap["version"], snap["hash"], snap["state"]


def due(after: int, upto: int, every: int) -> list[int]:
    """The snapshot versions in (after, upto]."""
    first = (after // every + 1) * every
    return list(range(first, upto + 1, every))


def fold(state: dict[str, Any] | None, events: list[dict[str, Any]], first_version: int, every: int,
         keep_from: int = 0) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Replay `events` (versions first_version, first_version + 1, ...) onto `state` (the state
    before them; None for nothing), returning the end state and the states at the snapshot versions
    from `keep_from` on passed on the way (each captured state costs a copy, so a rewind to an
    early move captures none of the states the store would not keep)."""
    last = first_version + len(events) - 1
    captured: dict[int, dict[str, Any]] = {}
    start = 0
    for version in due(max(first_version, keep_from) - 1, last, every):
        cut = version - first_version + 1
        state = engine.replay(events[start:cut], state)
        captured[version] = state
        start = cut
    if start < len(events) or state is None:
        state = engine.replay(events[start:], state)
    return state, captured
