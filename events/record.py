"""Exported game records: every event of a game, unredacted, in a file anyone can verify.

Layout (JSON, one event per line, so a damaged line names its event):

    {"final_state":{...},"format":"tash-kalar-arena/record","format_version":1,"game_id":"g1",...,"events":[
    {envelope 1 in canonical JSON},
    ...
    {envelope N in canonical JSON}
    ]}

`seed` appears in the header only for a game exported before its end (then the record is an
operator's, holding every secret); a finished game reveals its seed in its GameEnded event.
`engine` names the engine (snapshots.FINGERPRINT) that wrote it: verifying replays the events,
so a record verifies with the engine that played it.

    python -m events.export GAME_ID [-o RECORD.json] [--unfinished]   # from REDIS_URL or embedded
"""
from __future__ import annotations

import json
from typing import Any, Sequence

from .envelope import Envelope, canonical_json

FORMAT = "tash-kalar-arena/record"
FORMAT_VERSION = 1
_EVENTS_OPEN = ',"events":['
_EVENTS_CLOSE = "]}"


class RecordError(ValueError):
    """A record that cannot be read; `version` names the event at fault when one is."""

    def __init__(self, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.version = version


def build_record(game_id: str, envelopes: Sequence[Envelope], final_state: dict[str, Any], seed: str | None = None,
                 engine: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "game_id": game_id, "engine": engine,
        "version": envelopes[-1].version, "head_hash": envelopes[-1].hash, "final_state": final_state,
        "events": [env.to_dict() for env in envelopes],
    }
    if seed is not None:
        record["seed"] = seed
    return record


def dumps_record(record: dict[str, Any]) -> str:
    header = {k: v for k, v in record.items() if k != "events"}
    lines = [canonical_json(header)[:-1] + _EVENTS_OPEN]
    events = [canonical_json(e) for e in record["events"]]
    lines.extend(e + "," for e in events[:-1])
    lines.extend(events[-1:])
    lines.append(_EVENTS_CLOSE)
    return "\n".join(lines) + "\n"


def loads_record(data: str | bytes) -> dict[str, Any]:
    """Parse a record; a damaged event line raises RecordError with that event's version.

    Records laid out otherwise (pretty-printed by hand) are read as plain JSON; an archived game's
    file (events/archive/codec.py) is decoded to the record it holds."""
    from .archive import codec
    if isinstance(data, bytes) and codec.is_archive(data):
        try:
            return codec.decode(data).record()
        except codec.ArchiveDamaged as exc:
            raise RecordError(str(exc)) from None
    lines = data.split(b"\n") if isinstance(data, bytes) else data.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    raw = [line.decode("utf-8") if isinstance(line, bytes) else line for line in lines[:1]]
    if len(lines) < 2 or not raw[0].endswith(_EVENTS_OPEN) or _as_text(lines[-1]) != _EVENTS_CLOSE:
        return _plain(data)
    try:
        header = json.loads(raw[0][:-len(_EVENTS_OPEN)] + "}")
    except ValueError as exc:
        raise RecordError(f"record header is not valid JSON: {exc}") from None
    events = []
    body = lines[1:-1]
    for index, line in enumerate(body):
        version = index + 1
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError:
            raise RecordError(f"event {version} is not valid UTF-8", version) from None
        last = index == len(body) - 1
        if not last:
            if not text.endswith(","):
                raise RecordError(f"event {version} does not end its line with ','", version)
            text = text[:-1]
        try:
            events.append(json.loads(text))
        except ValueError as exc:
            raise RecordError(f"event {version} is not valid JSON: {exc}", version) from None
    if not isinstance(header, dict):
        raise RecordError("record header must be a JSON object")
    return {**header, "events": events}


def _as_text(line: str | bytes) -> str:
    return line.decode("utf-8", "replace") if isinstance(line, bytes) else line


def _plain(data: str | bytes) -> dict[str, Any]:
    try:
        record = json.loads(data)
    except ValueError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    return record


def write_record(record: dict[str, Any], path: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(dumps_record(record))

