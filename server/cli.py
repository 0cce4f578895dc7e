"""The `arena` command line.

    arena serve                 everything in one command: Redis (embedded unless REDIS_URL), the web
                                front on PORT (8000), a game worker (with the deadline loop) and a
                                webhook worker; Ctrl-C stops them all
    arena web                   the web front only: uvicorn, streams served natively, the Flask app
                                on threads (--gthread: the Flask app alone under gunicorn)
    arena stream                the stream endpoints only (uvicorn), for a path-routing proxy
    arena worker [--queue Q]    an RQ worker with its deadline loop (default: every queue)
    arena bots --form F --levels A,B --games N --seed S --records DIR   computer levels against each other
    arena bot --server URL --token T --level N   a computer player outside the server, through the public API
    arena selfplay              random legal games played by the engine, with a progress bar
    arena replay GAME [--move N]    the board of a stored game after move N (default: now)
    arena export GAME [-o FILE]     a finished game's verifiable record
    arena import FILE           store a record (after verifying it) under its own game id
    arena verify FILE [--key PUBKEY | --server URL]   check a record offline: hash chain, seed,
                                replay; then its signature against the given or fetched keys
    arena check-rules           before a deploy: list the stored games whose moves would now decide
                                differently (exit 1 if any)
    arena cluster-check         the Redis Cluster (nodes, slots, replicas) and the queue Redis in use
    arena migrate               move what older versions kept in single-slot keys to the sharded ones
    arena archive --older-than DAYS   finished games out of Redis into the archive (a full pass)
    arena restore GAME          an archived game back into Redis
                                (web and worker processes do it at start; safe to run again)

Configuration: environment variables over an optional TOML file named by ARENA_CONFIG, read once
into the settings object events/settings.py declares (README.md lists them all).
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import replace
from typing import Any

import click

from engine.vocabulary import FORMS
from events.settings import current, install

STOP_SECONDS = 15.0


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Tash-Kalar Arena: an asynchronous game server for Tash-Kalar."""


# --- running ---------------------------------------------------------------------------------------

def _gunicorn(host: str, port: int, workers: int, threads: int) -> list[str]:
    """gunicorn with threaded workers for the Flask app alone (a stream would hold a thread each:
    route the stream paths to `arena stream`)."""
    import gunicorn
    extra = ["--no-control-socket"] if gunicorn.version_info >= (27,) else []      # no shared ~/.gunicorn socket
    return [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--worker-class", "gthread",
            "--workers", str(workers), "--threads", str(threads), "--graceful-timeout", "5", "--preload",
            "--access-logfile", "-", *extra, "server:create_app()"]


def web_options(command):
    """The web server's options, shared by `serve` and `web`; each defaults to its environment variable."""
    for option in reversed([
        click.option("--host", default=lambda: current().host, show_default="ARENA_HOST or 127.0.0.1"),
        click.option("--port", type=int, default=lambda: current().port, show_default="PORT or 8000"),
        click.option("--web-workers", type=int, default=lambda: current().web_concurrency,
                     show_default="WEB_CONCURRENCY or 2"),
        click.option("--threads", type=int, default=lambda: current().web_threads, show_default="WEB_THREADS or 8"),
    ]):
        command = option(command)
    return command


def _die_with_parent() -> None:
    """Linux: a child gets SIGTERM if `arena serve` itself is killed, so nothing is left behind."""
    if sys.platform.startswith("linux"):
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)      # PR_SET_PDEATHSIG


FILES_WANTED = 16384                # open files for 10,000 streams, slow clients and Redis (README)


@main.command()
@web_options
def serve(host: str, port: int, web_workers: int, threads: int) -> None:
    """Run Redis (embedded unless REDIS_URL), the web server and the workers; Ctrl-C stops all."""
    from .streams.front import raise_fd_limit
    files = raise_fd_limit()            # before the children start: they inherit it (the embedded Redis too)
    if files < FILES_WANTED:
        click.echo(f"arena serve: at most {files} open files per process (the hard limit): about as many streams "
                   f"and connections; raise it (README, 'Operating-system limits') for more", err=True)
    url, embedded = _redis()
    settings = current()
    env = {**os.environ, "REDIS_URL": url}
    worker = [sys.executable, "-m", "workers", "--queue"]
    web = [sys.executable, "-m", "server.cli", "web", "--host", host, "--port", str(port),
           "--web-workers", str(web_workers), "--threads", str(threads)]
    commands = {"web": web,
                "worker": worker + [settings.queue], "notifier": worker + [settings.notify_queue],
                **{bot_process(i): worker + [settings.bot_queue, "--nice", str(settings.bot_nice)]
                   for i in range(settings.bot_concurrency)}}
    children: dict[str, subprocess.Popen] = {}
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    restarted: dict[str, float] = {}

    def start(name: str) -> subprocess.Popen:
        return subprocess.Popen(commands[name], env=env, start_new_session=True, preexec_fn=_die_with_parent)
    try:
        for name in commands:
            children[name] = start(name)
        click.echo(f"Tash-Kalar Arena: open http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/ and play. "
                   f"(Redis: {url}; Ctrl-C stops everything.)",
                   err=True)
        while not stop.wait(0.2):
            for name in [n for n in commands if n != "web"]:    # workers keep nothing: one that died starts again
                if children[name].poll() is not None and time.monotonic() - restarted.get(name, 0.0) > 1.0:
                    click.echo(f"arena serve: the {name} exited; starting it again", err=True)
                    children[name], restarted[name] = start(name), time.monotonic()
            gone = [name for name, p in children.items() if p.poll() is not None and name == "web"]
            if gone:
                click.echo(f"arena serve: {', '.join(gone)} exited; stopping the rest", err=True)
                break
    finally:
        _stop(children)
        if embedded is not None:
            embedded.stop()
    sys.exit(0 if stop.is_set() else 1)


def bot_process(i: int) -> str:
    """The name `arena serve` gives its i-th bot worker (ARENA_BOT_CONCURRENCY of them)."""
    return "bots" if i == 0 else f"bots-{i + 1}"


def _redis() -> tuple[str, Any]:
    """REDIS_URL, or the embedded server's socket (and the server, when this command started it)."""
    from events.connection import queue_url
    from events.embedded import EmbeddedRedis, data_dir
    configured = current().redis_url
    if configured:
        return configured, None
    started = not EmbeddedRedis(data_dir()).is_running()
    return queue_url(), EmbeddedRedis(data_dir()) if started else None


def _stop(children: dict[str, subprocess.Popen]) -> None:
    for p in children.values():
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for p in children.values():
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@main.command()
@web_options
@click.option("--gthread", is_flag=True, help="the Flask app alone under gunicorn (no stream: those URLs answer 501; route them to `arena stream`)")
def web(host: str, port: int, web_workers: int, threads: int, gthread: bool) -> None:
    """Run the web front only: streams on the event loop, the Flask app on WEB_THREADS threads."""
    if gthread:
        argv = _gunicorn(host, port, web_workers, threads)
        os.execv(argv[0], argv)
    _front("create_web", host, port, web_workers, threads)


@main.command()
@web_options
def stream(host: str, port: int, web_workers: int, threads: int) -> None:
    """Run the stream endpoints only (route /games/*/stream and /players/me/stream here)."""
    _front("create_stream", host, port, web_workers, threads)


def _front(factory: str, host: str, port: int, workers: int, threads: int) -> None:
    from .streams import front
    url = _redis()[0]
    os.environ.update(REDIS_URL=url, WEB_THREADS=str(threads))     # for uvicorn's worker processes
    install(replace(current(), redis_url=url, web_threads=threads))   # and for this one
    front.run(factory, host, port, workers)


@main.command()
@click.option("--queue", "queue_names", multiple=True, help="queue to work on (repeatable); default: every queue")
@click.option("--burst", is_flag=True, help="quit once the queues are empty")
@click.option("--scheduler/--no-scheduler", default=False, hidden=True,
              help="ignored: the deadline loop moves scheduled jobs (RQ's scheduler is not used)")
def worker(queue_names: tuple[str, ...], burst: bool, scheduler: bool) -> None:
    """Run an RQ worker and its deadline loop: timeouts, reminders, bots, end of game, webhooks."""
    from workers.worker import run
    run(list(queue_names) or None, burst=burst)


# --- games -----------------------------------------------------------------------------------------

@main.command()
@click.option("--games", type=int, default=20, show_default=True)
@click.option("--form", type=click.Choice(FORMS), default="duel", show_default=True)
@click.option("--players", type=int, default=None, help="3 or 4 for a melee")
@click.option("--teams", is_flag=True, help="team play (4 players; duel or high_form)")
@click.option("--seed", type=int, default=1, show_default=True)
def selfplay(games: int, form: str, players: int | None, teams: bool, seed: int) -> None:
    """Play random legal games with the engine and report how they went."""
    from engine.selfplay import play_game, schools_for
    players = players or (4 if teams else 3 if form == "melee" else 2)
    rng = random.Random(seed)
    outcomes = []
    started = time.perf_counter()
    with click.progressbar(range(games), label=f"{form}, {players} players") as bar:
        for i in bar:
            extra = {"teams": True} if teams else {}
            outcomes.append(play_game(form, schools_for(rng, players), f"{seed}-{i}", **extra))
    done = [o for o in outcomes if o.finished]
    wins = Counter(w for o in done if len(o.winners) == 1 for w in o.winners)
    errors = [o.error for o in outcomes if o.error]
    click.echo(f"{len(done)}/{games} finished in {time.perf_counter() - started:.1f} s; "
               f"mean turns {sum(o.turns for o in done) / max(1, len(done)):.1f}, "
               f"wins per seat {dict(sorted(wins.items()))}, errors {len(errors)}")
    for error in errors[:10]:
        click.echo(f"  error: {error}")
    sys.exit(1 if errors else 0)


@main.command()
@click.option("--form", type=click.Choice(FORMS), default="duel", show_default=True)
@click.option("--levels", required=True, help="two levels, A,B (GET /vocabulary: bot_levels; or 'random')")
@click.option("--games", type=int, default=10, show_default=True)
@click.option("--seed", default="1", show_default=True)
@click.option("--records", type=click.Path(file_okay=False), help="directory to write every game's verifiable record to")
@click.option("--processes", type=int, default=os.cpu_count() or 1, show_default=True, help="games played in parallel")
def bots(form: str, levels: str, games: int, seed: str, records: str | None, processes: int) -> None:
    """Play GAMES games between two computer levels (seats alternating; in a melee, A against the
    rest) and print one JSON line: games, wins by level, draws, illegal, cpu_per_decision, summons_per_game."""
    import functools
    import json
    from multiprocessing import Pool

    from engine.ai import LEVELS
    from workers import ladder
    names = [n.strip() for n in levels.split(",")]
    if len(names) != 2 or any(n != "random" and not (n.isdigit() and int(n) in LEVELS) for n in names):
        raise click.BadParameter(f"give two levels of {sorted(LEVELS)} (or 'random'), such as 1,3", param_hint="--levels")
    jobs = ladder.jobs(form, names[0], names[1], games, seed, 3 if form == "melee" else 2)
    with Pool(max(1, processes)) as pool:
        results = pool.map(functools.partial(ladder.play, records=records), jobs, chunksize=1)
    click.echo(json.dumps(ladder.summary(results, list(dict.fromkeys(names))), sort_keys=True))


@main.command()
@click.option("--server", required=True, help="the Arena server's URL, e.g. https://arena.example")
@click.option("--token", required=True, help="the bot account's player token")
@click.option("--level", type=int, default=3, show_default=True, help="the computer level it plays at (GET /vocabulary)")
@click.option("--poll", type=float, default=2.0, show_default=True,
              help="seconds at most between looks when nothing happens (it waits on its notification stream)")
@click.option("--tables/--no-tables", default=False, show_default=True, help="also join open casual lobby tables")
def bot(server: str, token: str, level: int, poll: float, tables: bool) -> None:
    """Play as a bot account through the public API: accept invitations, play every game where it is to move."""
    from engine.ai import LEVELS

    from .bot_client import Bot, NotABotAccount, http, stream_wait
    if level not in LEVELS:
        raise click.BadParameter(f"choose one of {sorted(LEVELS)}", param_hint="--level")
    send = http(server, token)
    try:
        Bot(send, level, token, wait=stream_wait(server, token, send), tables=tables).run(poll)
    except NotABotAccount as refused:
        raise click.ClickException(str(refused)) from None


def _service():
    from events import GameService, connect
    redis = connect()
    return redis, GameService(redis)


def _names(redis, game_id: str) -> dict[int, str]:
    from events.roster import seating_of
    seating = seating_of(redis, game_id)
    return {i: seating.name(i) for i in range(len(seating.seats))}


@main.command()
@click.argument("game")
@click.option("--move", "move", type=int, default=None, help="after move N (0: the setup); default: now")
def replay(game: str, move: int | None) -> None:
    """Print the board of a stored game after a move."""
    from engine.narrate import describe_command
    from events import GameNotFound

    from events import moves as moves_index
    from events.redaction import redact_envelope

    from .history import move_versions
    redis, service = _service()
    try:
        index = moves_index.read(service.store, game)
        moves = move_versions([redact_envelope(env, None) for env in index.envelopes], index.version)
    except GameNotFound:
        raise click.ClickException(f"no game {game!r}") from None
    n = len(moves) - 1 if move is None else move
    if not 0 <= n < len(moves):
        raise click.ClickException(f"game {game} has moves 0 to {len(moves) - 1}")
    version, start = moves[n]
    state = service.load(game, version).state
    names = _names(redis, game)
    what = "setup" if n == 0 else describe_command({**start["payload"]["command"], "seat": start["payload"]["seat"]},
                                                   names)
    click.echo(f"Game {game}, {state['form']}: move {n} of {len(moves) - 1} (version {version}): {what}")
    click.echo(board_picture(state["board"]))
    click.echo(_status(state, names))


def board_picture(board: dict) -> str:
    """The board as rows of squares ('.' empty; a/b/c/d a colour's common piece, upper case a heroic
    one, with '*' a legendary one), each row labelled with its first square; then the notation."""
    from engine import to_text
    from engine.notation import ROWS
    lines = []
    for row in ROWS:
        cells = [". " if sq not in board else _token(board[sq][1], board[sq][2]) for sq in row]
        lines.append(f"{row[0]:>4}  " + " " * (9 - len(row)) + "".join(cells).rstrip())
    return "\n".join(lines) + f"\n     {to_text(board)}"


def _token(color: int, rank: int) -> str:
    letter = "abcd"[color]
    return letter + " " if rank == 1 else letter.upper() + " " if rank == 2 else letter.upper() + "*"


def _status(state: dict, names: dict[int, str]) -> str:
    from engine.state import active_seat
    if state["phase"] == "over":
        winners = " and ".join(names.get(s, f"Seat {s + 1}") for s in state["result"]["winners"])
        return f"Over ({state['result']['reason']}): {winners} won."
    seat = active_seat(state)
    return f"Waiting for {names.get(seat, f'Seat {seat + 1}')} (seat {seat})."


@main.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="file (default: standard output)")
@click.option("--unfinished", is_flag=True, help="export a running game (the record then holds its secrets)")
def export(game: str, output: str | None, unfinished: bool) -> None:
    """Write a game's record (verifiable with `arena verify`)."""
    from events.errors import StoreError
    from events.record import dumps_record
    _, service = _service()
    try:
        record = service.export_record(game, allow_unfinished=unfinished)
    except StoreError as exc:
        raise click.ClickException(f"cannot export {game}: {exc}") from None
    text = dumps_record(record)
    if output:
        with open(output, "w", encoding="utf-8") as out:
            out.write(text)
        click.echo(f"wrote {output}: {len(record['events'])} events", err=True)
    else:
        click.echo(text, nl=False)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def import_(file: str) -> None:
    """Store a finished game's record, after verifying it, under its own game id (marked by its signer)."""
    from events.errors import StoreError
    from events.record import RecordError, loads_record
    redis, service = _service()
    try:
        with open(file, "rb") as source:
            record = loads_record(source.read())
        created = service.import_record(record)
    except (RecordError, StoreError, ValueError) as exc:
        raise click.ClickException(f"cannot import {file}: {exc}") from None
    origin = service.provenance(created.game_id)
    signer = f" by {origin.key_id}" if origin.key_id else ""
    click.echo(f"imported game {created.game_id} ({created.version} events), {origin.origin}{signer}"
               + ("" if origin.rated else ": it never counts for ratings"))


@main.command()
@click.option("--older-than", "days", type=float, required=True,
              help="archive the finished games that ended at least this many days ago (0: every finished game)")
def archive(days: float) -> None:
    """Move finished games out of Redis into the archive (a full pass: the archive index, then every stored game)."""
    from events.archive import archiver
    redis, service = _service()
    now, older_than, plain = time.time(), days * 86400, current().archive_dir
    done = archiver.sweep(redis, service, now, older_than, limit=10 ** 9, plain_records=plain)
    done.update(archiver.walk(redis, service, now, older_than, plain_records=plain))
    click.echo(f"archived {done['archived']} games; " + ", ".join(f"{k}: {v}" for k, v in sorted(done.items())
                                                                  if k != "archived"))
    if done["failed"]:
        sys.exit(1)


@main.command()
@click.argument("game")
def restore(game: str) -> None:
    """Bring an archived game back into Redis (its log, moves index and chat); sweeps then leave it there."""
    from events.archive import archiver
    redis, service = _service()
    outcome = archiver.restore_game(redis, service, game)
    if outcome != "restored":
        raise click.ClickException(f"game {game!r} is not archived")
    click.echo(f"restored game {game}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--key", "key_texts", multiple=True,
              help="a trusted signer's public key: base64 of 32 bytes, PEM, or a file holding one (repeatable)")
@click.option("--server", help="fetch the trusted keys from this server's GET /keys (e.g. https://arena.example)")
def verify(file: str, key_texts: tuple[str, ...], server: str | None) -> None:
    """Check a record offline (hash chain, seed, shuffles, replay), then who signed it."""
    from events.signing import public_key_from_option, public_key_from_text
    from events.verify import report
    try:
        trusted = [public_key_from_option(k) for k in key_texts]
        if server:
            trusted += [public_key_from_text(k["public_key"]) for k in _published_keys(server)]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"cannot read the keys: {exc}") from None
    with open(file, "rb") as source:
        status, line = report(source.read(), trusted)
    click.echo(line)
    sys.exit(status)


def _published_keys(server: str) -> list[dict]:
    """The keys a server signs its records with (not those it trusts: that trust is its own)."""
    import json
    import urllib.request
    with urllib.request.urlopen(server.rstrip("/") + "/keys", timeout=10) as answer:
        body = json.loads(answer.read(1 << 20))
    return list(body["keys"])


@main.command("check-rules")
@click.option("--verbose", "-v", is_flag=True, help="also list the games that still decide as recorded")
def check_rules(verbose: bool) -> None:
    """Re-decide every stored game under its rules release; list those whose moves would now decide
    differently (exit 1), and those created under rules this engine does not hold (not decided)."""
    from engine.version import rules_stamp
    from events import connect
    from events.rules_check import check_all
    checked = changed = foreign = 0
    for game in check_all(connect()):
        checked += 1
        created = "unstamped" if game.rules is None else f"engine {game.rules.get('engine')} cards {game.rules.get('cards')}"
        if not game.held:
            foreign += 1
            click.echo(f"{game.game_id}: decided under rules {created}, which this engine does not hold: not decided again")
        elif game.divergence is not None:
            changed += 1
            click.echo(f"{game.game_id}: differs at version {game.divergence.index + 1} "
                       f"(created under rules {created}): {game.divergence.reason}")
        elif verbose:
            click.echo(f"{game.game_id}: {game.events} events decide as recorded (rules {created})")
    today = rules_stamp()
    held = f", {foreign} under rules not held here" if foreign else ""
    click.echo(f"{checked} games checked under rules engine {today['engine']} cards {today['cards']}: "
               f"{changed} would decide differently{held}")
    sys.exit(1 if changed else 0)



@main.command("cluster-check")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
def cluster_check(as_json: bool) -> None:
    """Report the Cluster's nodes, slots and replicas and the queue Redis; exit 1 if Arena cannot run on them."""
    import json

    from events.topology import check, describe
    report = check()
    click.echo(json.dumps(report.as_dict(), indent=1) if as_json else "\n".join(describe(report)))
    sys.exit(0 if report.ok else 1)


@main.command()
def migrate() -> None:
    """Move data older versions kept in single-slot keys (deadline index, lobby, live games, account
    names) to today's sharded keys; a full pass, safe to repeat (run it once the last old process stopped)."""
    from events import connect, lobby
    from events import layout
    moved = layout.migrate(connect(), time.time(), lobby.table_ttl())
    click.echo(", ".join(f"{what}: {count}" for what, count in sorted(moved.items())) or "nothing to move")


if __name__ == "__main__":
    main()
