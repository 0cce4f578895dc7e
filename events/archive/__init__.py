"""The archive: finished games leave Redis for one compressed, signed record each, and are read
from it exactly as before.

    codec.py     the archived form of a game (its signed record, chat and roster, compressed)
    storage.py   where archived records live (the filesystem, sharded; an interface for others)
    reader.py    reading an archived game through a bounded per-process cache
    archiver.py  archiving (crash-safe, step by step), the sweeps that find games to archive, restoring

Imports nothing of the store (events/store.py reads through reader.py), so no cycle.
"""
