"""The archived form of a finished game: one compressed, signed blob that rebuilds its record exactly.

    TKA1\\n<zlib of canonical JSON {"format", "format_version", "record", "commitment", "events",
                                    "chat", "roster"}>

`record` is the game's signed record (events/record.py) without its events; `events` holds each
envelope as [type, schema_version, time, actor, payload], in version order, and its `via` after
them when it has one (a command played by a conditional reply). What every envelope
repeats (the game id, the version, the previous hash) or can recompute (its own hash, an HMAC of
its body keyed with the seed the GameEnded event reveals) is left out: the 64 hex digits of two
hashes per event do not compress, and are three quarters of a compressed record otherwise.
Decoding recomputes the chain and refuses a blob whose last hash is not the record's `head_hash`
(which the record's Ed25519 signature covers): a changed byte anywhere is caught on every read.
Each event's canonical body is put together from its line's text (the payload as written), so a
read hashes without serialising every payload again.

`chat` is the game's chat channels (outside the hash chain, as in a record exported with its
chat): each message as its stream id and the JSON Redis held, byte for byte; `roster` who sat
where and the time control, so an archive alone tells the whole game.
"""
from __future__ import annotations

from typing import Any

import json
import zlib
from dataclasses import dataclass

from ..envelope import Envelope, canonical_json
from ..hashchain import GENESIS, canonical_hash

MAGIC = b"TKA1\n"
FORMAT = "tash-kalar-arena/archive"
FORMAT_VERSION = 1
LEVEL = 9


class ArchiveDamaged(ValueError):
    """A blob that is not an archived record, or whose chain does not end at its head hash."""


@dataclass(frozen=True)
class Archived:
    """A decoded archive: the record's header, its envelopes (chain recomputed), chat and roster."""
    header: dict[str, Any]
    envelopes: list[Envelope]
    chat: dict[str, list[list[str]]]            # channel -> [message id, message JSON] in order
    roster: dict[str, Any]

    def messages(self, channel: str) -> list[dict[str, Any]]:
        """A channel's messages as events/chat.py reads them from Redis."""
        return [{"id": mid, "channel": channel, **json.loads(data)} for mid, data in self.chat.get(channel, [])]

    @property
    def game_id(self) -> str:
        return str(self.header["game_id"])

    @property
    def version(self) -> int:
        return len(self.envelopes)

    @property
    def head_hash(self) -> str:
        return self.envelopes[-1].hash

    def record(self) -> dict[str, Any]:
        """The signed record, exactly as exported when archived."""
        return {**self.header, "events": [env.to_dict() for env in self.envelopes]}


def encode(record: dict[str, Any], chat: dict[str, list[list[str]]], roster: dict[str, Any]) -> bytes:
    """The blob of a finished game's signed record, its chat and roster."""
    events = record["events"]
    head = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "record": {k: v for k, v in record.items() if k != "events"},
            "commitment": events[0].get("commitment"), "chat": chat, "roster": roster}
    lines = [canonical_json(head)]
    lines += [canonical_json([e["type"], e["schema_version"], e["time"], e["actor"], e["payload"],
                              *([e["via"]] if e.get("via") is not None else [])]) for e in events]
    return MAGIC + zlib.compress("\n".join(lines).encode(), LEVEL)


def is_archive(data: bytes) -> bool:
    return data.startswith(MAGIC)


def decode(data: bytes) -> Archived:
    """The archive in `data`, its hash chain recomputed and checked against the head hash."""
    if not is_archive(data):
        raise ArchiveDamaged("not an archived game record")
    try:
        first, *lines = zlib.decompress(data[len(MAGIC):]).decode("utf-8").split("\n")
        body = json.loads(first)
        rows = json.loads("[" + ",".join(lines) + "]")
        header = body["record"]
        game_id, seed = header["game_id"], rows[-1][4]["seed"]
    except (ValueError, KeyError, IndexError, TypeError, zlib.error) as exc:
        raise ArchiveDamaged(f"archived record unreadable: {exc!r}") from None
    if body.get("format") != FORMAT or body.get("format_version") != FORMAT_VERSION:
        raise ArchiveDamaged(f"unknown archive format {body.get('format')!r} {body.get('format_version')!r}")
    envelopes, prev, game_json = [], GENESIS, canonical_json(game_id)
    texts: dict[str, Any] = {}                                # the canonical JSON of the few types, times and actors
    for version, (row, line) in enumerate(zip(rows, lines), start=1):
        kind, schema_version, time, actor, payload, *marked = row
        fields = {"game_id": game_id, "version": version, "type": kind, "schema_version": schema_version,
                  "time": time, "actor": actor, "payload": payload, "prev_hash": prev}
        committed = ""
        if version == 1 and body.get("commitment") is not None:
            fields["commitment"] = body["commitment"]
            committed = f'"commitment":{canonical_json(body["commitment"])},'
        kind_json, time_json, actor_json, schema_json = (
            texts.get(v) or texts.setdefault(v, canonical_json(v)) for v in (kind, time, actor, schema_version))
        start = 5 + len(kind_json) + len(schema_json) + len(time_json) + len(actor_json)    # '[k,s,t,a,' before it
        end, via_json = -1, ""
        if marked:                                                # ',<via>]' after the payload
            fields["via"] = marked[0]
            via_json = f',"via":{canonical_json(marked[0])}'
            end = -2 - len(canonical_json(marked[0]))
        prev = canonical_hash(seed, f'{{"actor":{actor_json},{committed}"game_id":{game_json},'
                                    f'"payload":{line[start:end]},"prev_hash":"{prev}",'
                                    f'"schema_version":{schema_json},"time":{time_json},'
                                    f'"type":{kind_json},"version":{version}{via_json}}}')
        envelopes.append(Envelope(**fields, hash=prev))
    if prev != header.get("head_hash") or len(envelopes) != header.get("version"):
        raise ArchiveDamaged(f"archived game {game_id}: its events do not end at the recorded head hash")
    return Archived(header, envelopes, body.get("chat") or {}, body.get("roster") or {})
