"""End of game: final standings, ratings, the archive, and "game over" to every player. Idempotent.

- Standings come from the engine's result (RULES 10.3 tie-breakers: score, then upgraded pieces,
  then all pieces; a resignation or abandonment puts the winning side first), with names.
- Ratings: openskill's Plackett-Luce model, which ranks any number of teams (a duel, a 3-4 player
  melee, team play with seats of one colour as one team). Only registered players have ratings;
  other seats play with a fresh default rating that is not kept. A game is rated once, each
  player's rating kept in the player's own slot (workers/ratings.py).
  An imported game without a trusted signature is never rated (results.is_rated, events/provenance.py).
- Archive: the verifiable, signed record (python -m events.verify) is written once, compressed, as
  the game's archive blob (events/archive/: `<ARENA_DATA_DIR>/archive/games/ab/cd/<game>.tka`,
  with the chat and roster so far), which the archiver takes as it is when the game leaves Redis;
  `<ARENA_DATA_DIR>/archive/<game>.result.json` holds the standings and rating changes. Both are
  written whole and synced (a temporary file, then a rename), so running twice leaves the same.
- Notifications have ids, so each player is told once.
- Each step leaves a marker in `arena:{game}:meta:finish` (standings, archived, done): a job run
  again after its worker died mid-run does each step once (see `finish`).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from events import crash_points, due, keys, roster, unmoved
from events.archive import archiver
from events.archive import index as archive_index
from events.archive.storage import Storage
from events.clocks import format_epoch
from events.durable import write_file

from . import notify, results, runtime, turns
from .ratings import rate
from events.settings import Settings

def standings(state: dict[str, Any], seating: roster.Seating) -> list[dict[str, Any]]:
    rows = []
    for row in state["result"]["standings"]:
        seat = row["seat"]
        info = seating.seats[seat] if seat < len(seating.seats) else {}
        rows.append({"seat": seat, "place": row["place"], "score": row["score"], "tiebreak": row["key"],
                     "color": state["seats"][seat]["color"], "name": seating.name(seat),
                     "player": info.get("player") if not info.get("bot") else None, "bot": bool(info.get("bot"))})
    rows.sort(key=lambda r: (r["place"], r["seat"]))
    return rows


def archive(redis: Any, store: Storage, directory: Path, record: dict[str, Any], summary: dict[str, Any]) -> str:
    """Write the record (as the game's archive blob) and the result; the same content on every run."""
    name = archiver.write_finished(redis, store, record)
    directory.mkdir(parents=True, exist_ok=True)
    write_file(directory / f"{record['game_id']}.result.json",
               (json.dumps(summary, sort_keys=True, indent=1) + "\n").encode())
    return name


def finish(redis: Any, service: Any, game_id: str, settings: Settings) -> dict[str, Any] | None:
    """Everything that follows a game's end, step by step; None if the game is not over.

    Each step leaves a marker in the game's `finish` hash, so a job run again after its worker died
    (or run twice) picks up where it stopped: standings, then the rating (itself once per game),
    then the archive, then the notifications (each once by its id), then `done`."""
    loaded = service.load(game_id)
    state = loaded.state
    if state.get("phase") != "over":
        return None
    unmoved.keep(redis, game_id)            # a finished game stays, even one nobody moved in (bots, timeouts)
    marks = keys.finish_marks(game_id)
    if redis.hexists(marks, "done"):
        done: dict[str, Any] = json.loads(redis.hget(marks, "archived"))
        return done
    seating = roster.seating_of(redis, game_id)
    redis.hsetnx(marks, "standings", json.dumps(standings(state, seating), sort_keys=True))
    rows = json.loads(redis.hget(marks, "standings"))
    crash_points.reached("finish.standings")
    ratings = rate(redis, game_id, rows) if results.is_rated(redis, game_id) else {}
    crash_points.reached("finish.rated")
    summary = _archived(redis, service, game_id, loaded, rows, ratings, settings)
    results.record(redis, game_id, summary, state)
    crash_points.reached("finish.archived")
    _announce(redis, game_id, seating, loaded.version, state["result"], rows, ratings, settings)
    finished = runtime.now()
    service.store.drop_snapshots(game_id)                  # a cache a finished game does not need kept
    archive_index.mark(redis, game_id, finished)           # leaves Redis for the archive ARENA_ARCHIVE_AFTER later
    redis.hset(marks, "done", format_epoch(finished))
    due.drop(redis, [due.member("finish", game_id)])
    return summary


def done(redis: Any, game_id: str) -> bool:
    """Whether the game's end-of-game work is complete."""
    return bool(redis.hexists(keys.finish_marks(game_id), "done"))


def _archived(redis: Any, service: Any, game_id: str, loaded: Any, rows: list[dict[str, Any]], ratings: dict[str, Any],
              settings: Settings) -> dict[str, Any]:
    """The archive written once (the summary it holds is kept in the marker)."""
    marks = keys.finish_marks(game_id)
    kept = redis.hget(marks, "archived")
    if kept:
        summary: dict[str, Any] = json.loads(kept)
        return summary
    record = service.export_record(game_id)
    result = loaded.state["result"]
    summary = {"game_id": game_id, "form": loaded.state["form"], "version": loaded.version,
               "reason": result["reason"], "winners": result["winners"], "ended": record["events"][-1]["time"],
               "standings": rows, "ratings": ratings.get("players", {})}
    archive(redis, service.store.archive.storage, settings.archive_dir, record, summary)
    redis.hset(marks, "archived", json.dumps(summary, sort_keys=True))
    return summary


def _announce(redis: Any, game_id: str, seating: roster.Seating, version: int, result: dict[str, Any], rows: list[dict[str, Any]],
              ratings: dict[str, Any], settings: Settings) -> None:
    """'game over' to every registered player (each notification once, by its id)."""
    winners = " and ".join(seating.name(s) for s in result["winners"])
    for row in rows:
        if row["player"]:
            note = notify.notification("game_over", game_id, row["seat"], version, version=version,
                                       place=row["place"], winners=result["winners"], reason=result["reason"],
                                       standings=rows, rating=ratings.get("players", {}).get(row["player"]),
                                       text=f"{seating.against(row['seat']).capitalize()} is over: {winners} "
                                            f"{'win' if len(result['winners']) > 1 else 'wins'}.")
            notify.send(redis, row["player"], note, settings)
