"""Where archived records live: a small interface, and the filesystem as its first implementation.

A storage keeps opaque blobs by name. `put` returns only once the blob is durable (written,
synced, renamed into place, its directory synced): the archiver deletes a game's keys from Redis
only after that and after reading the blob back. Names come from `name_of(game_id)`: a two-level
sharded layout (`ab/cd/<game id>.tka`, from the SHA-256 of the id) so no directory holds more than
a few thousand files even with millions of games.

Several machines share an archive by sharing its storage: the same directory on shared storage
(NFS, CephFS...) under every host's ARENA_DATA_DIR/archive, or another implementation of this
interface on an S3-compatible object store (put = PUT Object, get = GET Object; both are atomic
per object, which is all this needs).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Protocol

from ..durable import write_file
from ..settings import current

SUFFIX = ".tka"


class RecordMissing(LookupError):
    """No blob under that name."""


class Storage(Protocol):
    def put(self, name: str, data: bytes) -> None:
        """Keep `data` under `name`, replacing what was there; durable once this returns."""

    def get(self, name: str) -> bytes:
        """The blob under `name`; RecordMissing when there is none."""

    def delete(self, name: str) -> None:
        """Forget the blob under `name` (nothing when there is none)."""

    def describe(self) -> str:
        """Where this storage keeps its blobs, for operators."""


def name_of(game_id: str) -> str:
    """The blob name of a game's archived record: sharded by the id's digest."""
    digest = hashlib.sha256(game_id.encode()).hexdigest()
    return f"{digest[:2]}/{digest[2:4]}/{game_id}{SUFFIX}"


class FileStorage:
    """Blobs as files under `root`, each written atomically and synced."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, name: str) -> Path:
        """The file of the blob `name`, which must lie inside the root."""
        path = (self.root / name).resolve()
        if self.root.resolve() not in path.parents:
            raise ValueError(f"blob name outside the archive: {name!r}")
        return path

    def put(self, name: str, data: bytes) -> None:
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, data)
        _sync_directory(path.parent)

    def get(self, name: str) -> bytes:
        try:
            return self.path(name).read_bytes()
        except FileNotFoundError:
            raise RecordMissing(name) from None

    def delete(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)

    def describe(self) -> str:
        return f"file:{self.root}"


def _sync_directory(directory: Path) -> None:
    """Make a rename in `directory` durable (a crash after put then keeps the new name)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def configured() -> FileStorage:
    """The storage this process archives to: `$ARENA_DATA_DIR/archive/games` (shared by hosts
    that share the directory)."""
    return FileStorage(current().archive_dir / "games")
