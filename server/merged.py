"""Several Redis streams served as one SSE stream: a game's log with its chat channels.

Each part is an ordinary `sse.Source` (its key, its resume point, its render). The parts' frames
are interleaved as they come, each part in its own order, and every frame's SSE id is rewritten to
the position in *every* part (`Merged.cursor`, e.g. "12;players=1717171717171-0"): whatever frame
a client saw last, sending its id back as Last-Event-ID resumes every part exactly after what it
was sent, so nothing is repeated and nothing is missed. The frames are those `sse.frame` writes
("id: <part's id>" first); only that first line changes.

What the viewer may read can grow while the stream is open: a seat reads the spectators' chat
once the game is over. Those parts (`Merged.joining`) join the stream right after the log's
GameEnded frame, from where the client's cursor had them (the start, unless it resumed one), and
the ids then name them too; a client that reconnects gets the same parts from the same places.

The parts share one hash tag (a game's keys do), so they live in one slot of a Redis Cluster and
one XREAD may follow them all. The async tier follows each part with its usual follower
(server/streams/tier.py) and merges them (server/streams/interleave.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from . import sse

Cursor = Callable[[Sequence[sse.StreamId]], str]
OPENED = sse.CONNECTED.strip()                  # each part's follower says it; the merged stream once
JOIN_AFTER = "event: GameEnded\n"               # the log's frame after which the joining parts are read


@dataclass(frozen=True)
class Merged:
    parts: tuple[sse.Source, ...]
    cursor: Cursor                              # the SSE id naming each part's position
    presence: tuple[str, str] | None = None     # (game id, viewer id): counted as watching while open
    unchanged: Callable[[], bool] | None = None  # False once what it was opened with changed (mutes):
                                                 # the stream then ends, and the client resumes from its id
    joining: tuple[sse.Source, ...] = ()        # parts readable once the game is over: they join after
                                                 # the first part's GameEnded (the cursor names them last)

    def __post_init__(self) -> None:
        tags = {_hash_tag(part.key) for part in (*self.parts, *self.joining)}
        if len(tags) != 1 or None in tags:
            raise ValueError(f"merged streams must share one hash tag (one slot on a Cluster): {tags}")

    def backlogs(self, redis: Any) -> list[sse.Backlog]:
        return [sse.read_after(redis, part, part.after) for part in self.parts]


class Positions:
    """Where each part stands in what one client was sent; relabels frames with the cursor."""

    def __init__(self, merged: Merged) -> None:
        self.cursor = merged.cursor
        self.at = [part.after for part in merged.parts]
        self.waiting = list(merged.joining)     # parts yet to join (once the log has ended)
        self.ended = False                      # the log has sent GameEnded

    def relabel(self, part: int, text: str) -> str:
        """Frames of one part (as sse.frame writes them; comments but the opening one left alone)
        with merged ids."""
        out = []
        for piece in text.split("\n\n"):
            if piece.startswith("id: "):
                own, _, rest = piece.partition("\n")
                self.at[part] = sse.parse_id(own[4:])
                piece = f"id: {self.cursor(self.at)}\n{rest}"
                if part == 0 and rest.startswith(JOIN_AFTER):
                    self.ended = True
            if piece and piece != OPENED:
                out.append(piece + "\n\n")
        return "".join(out)

    def joined(self) -> list[sse.Source]:
        """The parts that join now (once, after the log's GameEnded), each given its place."""
        if not self.ended or not self.waiting:
            return []
        joining, self.waiting = self.waiting, []
        self.at += [part.after for part in joining]
        return joining


def _hash_tag(key: str) -> str | None:
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1:end] if start >= 0 and end > start + 1 else None
