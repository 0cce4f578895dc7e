"""E-mail that brings players back: "your turn", "deadline soon", "game over" and a daily digest.

Sent through the SMTP server named by ARENA_SMTP_URL with smtplib:

    smtp://[user:password@]host[:25]                 plain (or ?starttls=1 to upgrade with STARTTLS)
    smtp+starttls://[user:password@]host[:587]       STARTTLS
    smtps://[user:password@]host[:465]               TLS from the first byte

STARTTLS is required when asked for: a server that does not offer it is an error, never a
fallback to plain text. TLS checks the server's certificate and name against the system's CAs;
ARENA_SMTP_CA_FILE names a PEM file of CAs to trust instead (a self-hosted mail server's own CA,
or a test's). The user name and password are sent only after TLS is up when TLS is asked for.

Each player chooses an address and which kinds they want (events/email_prefs.py, which also
signs the unsubscribe tokens and keeps the failures; the profile's preferences page). `offer` is
called by workers/notify.py for every new notification: a "your turn" goes out at most once per
game per ARENA_EMAIL_TURN_INTERVAL seconds and never while the player is watching that game
(stream presence) or is on vacation, checked again when the job runs. Mail is delivered by a job
on the notification queue with retries (ARENA_EMAIL_RETRIES); every failed attempt is recorded in
the player's `email_failures` and shown to them. The digest is a member `digest:<player>` of the
deadline index, due once a day: it lists the games waiting for the player, those with the least
time left first; while the player is on vacation none goes out, and the next is due on their
return. Every mail has a one-click unsubscribe link (a signed token, RFC 8058
List-Unsubscribe-Post too) that turns off its kind.
"""
from __future__ import annotations

import smtplib
import ssl
import time
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from rq import Retry, get_current_job

from engine.state import active_seat
from events import GameNotFound, email_prefs, game_clock, keys, notices, pauses, presence, roster, vacations
from events.replies import text
from events.settings import Settings

from . import queues, runtime

TIMEOUT = 20


# --- offering and delivering ------------------------------------------------------------------------

def may_offer(note: dict[str, Any], settings: Settings) -> bool:
    """Whether `offer` might queue a mail for this notification (its kind is mailed, SMTP is set up)."""
    return note.get("type") in email_prefs.KINDS and bool(settings.smtp_url)


def offer(redis: Any, player_id: str, note: dict[str, Any], settings: Settings,
          pipeline: Any = None, now: float | None = None) -> bool:
    """Queue an e-mail for a new notification if the player wants one now (in `pipeline`, a
    transaction on the queues' Redis, when given); True if queued. Offering one notification again
    decides as the first time did (its own "your turn" marker does not stop it)."""
    kind = note.get("type")
    if not may_offer(note, settings):
        return False                    # no SMTP server: no mail, and no read of the player's preferences
    prefs = email_prefs.preferences(redis, player_id)
    if not prefs["verified"] or not prefs["kinds"][kind]:
        return False                    # no address, one not verified yet, or a kind turned off
    game_id = note.get("game_id")
    if kind == "your_turn":
        if _not_now(redis, player_id, game_id, runtime.now() if now is None else now):
            return False                # watching the game, or away
        sent = keys.email_turn_sent(player_id, game_id)
        if not redis.set(sent, note["id"], nx=True, ex=max(1, int(settings.email_turn_interval))) and \
                text(redis.get(sent)) != note["id"]:
            return False                # one "your turn" per game per interval
    link = f"{settings.public_url}/play/{game_id}"
    subject = notices.subject(kind, **{**note, "game": game_id})
    body = f"{note.get('text') or subject}\n\nPlay: {link}\n"
    enqueue(redis, settings, player_id, kind, subject, body, game_id, f"mail-{note['id']}", pipeline)
    return True


def _retry(settings: Settings) -> Retry | None:
    """RQ's retries of a mail job: the ARENA_EMAIL_RETRIES intervals, if any."""
    return Retry(max=len(settings.email_retries), interval=list(settings.email_retries)) if settings.email_retries else None


def enqueue(redis: Any, settings: Settings, player_id: str, kind: str, subject: str, body: str,
            game_id: str | None, job_id: str, pipeline: Any = None) -> None:
    queues.enqueue(queues.notify_queue(redis, settings), "workers.email.deliver_job", player_id, kind, subject, body,
                   game_id, job_id=job_id, retry=_retry(settings), job_timeout=TIMEOUT * 3, pipeline=pipeline)


def deliver_job(player_id: str, kind: str, subject: str, body: str, game_id: str | None) -> str:
    """The RQ job: send one e-mail (re-checking what may have changed since it was queued)."""
    redis = runtime.connection()
    job, settings = get_current_job(), runtime.settings()
    attempt = 1 if job is None or job.retries_left is None else len(settings.email_retries) - job.retries_left + 1
    return deliver(redis, settings, player_id, kind, subject, body, game_id, attempt)


def deliver(redis: Any, settings: Settings, player_id: str, kind: str, subject: str, body: str, game_id: str | None,
            attempt: int = 1) -> str:
    prefs = email_prefs.preferences(redis, player_id)
    if not prefs["verified"] or not prefs["kinds"].get(kind):
        return "unsubscribed"
    if kind == "your_turn" and game_id:
        reason = _not_now(redis, player_id, game_id, runtime.now())
        if reason:
            return reason
    link = f"{settings.public_url}/email/unsubscribe?token={email_prefs.unsubscribe_token(redis, player_id, kind)}"
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = settings.mail_from, prefs["address"], subject
    message["List-Unsubscribe"] = f"<{link}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(f"{body}\nTo stop these e-mails ({kind.replace('_', ' ')}), open: {link}\n")
    try:
        send(settings, message)
    except (OSError, smtplib.SMTPException) as err:
        email_prefs.record_failure(redis, player_id, kind, subject, attempt, f"{type(err).__name__}: {err}",
                                   time.time())
        raise
    return "sent"


def send_account_mail(redis: Any, settings: Settings, address: str, subject: str, body: str, job_id: str) -> None:
    """Queue a mail about the account itself (an address to confirm, a password reset link) to
    `address`, whatever the preferences: it is how an address gets verified."""
    queues.enqueue(queues.notify_queue(redis, settings), "workers.email.account_mail_job", address, subject, body,
                   job_id=job_id, retry=_retry(settings), job_timeout=TIMEOUT * 3)


def account_mail_job(address: str, subject: str, body: str) -> str:
    """The RQ job: send one account mail."""
    settings = runtime.settings()
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = settings.mail_from, address, subject
    message.set_content(body)
    send(settings, message)
    return "sent"


def _not_now(redis: Any, player_id: str, game_id: str, now: float) -> str | None:
    """Why no "your turn" goes out now: the player is 'watching' that game, or is 'away' on vacation
    (their clocks stand still; the inbox has the notification for their return)."""
    if presence.watching(redis, game_id, player_id):
        return "watching"
    return "away" if vacations.away_until(redis, player_id, now) is not None else None


def send(settings: Settings, message: EmailMessage) -> None:
    """Hand the message to the SMTP server of ARENA_SMTP_URL (see the module docstring)."""
    url = settings.smtp_url
    if not url:
        raise smtplib.SMTPException("no ARENA_SMTP_URL is set")
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    tls_first = parts.scheme == "smtps"
    starttls = parts.scheme == "smtp+starttls" or query.get("starttls", ["0"])[0] in ("1", "true", "yes")
    if parts.scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise smtplib.SMTPException(f"ARENA_SMTP_URL must be smtp://, smtp+starttls:// or smtps://, not {parts.scheme}://")
    port = parts.port or (465 if tls_first else 587 if starttls else 25)
    context = ssl.create_default_context(cafile=settings.smtp_ca_file)
    client = smtplib.SMTP_SSL(parts.hostname, port, timeout=TIMEOUT, context=context) if tls_first \
        else smtplib.SMTP(parts.hostname, port, timeout=TIMEOUT)
    with client:
        if starttls:
            client.starttls(context=context)
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


# --- the daily digest ---------------------------------------------------------------------------------

def waiting_games(redis: Any, service: Any, player_id: str, now: float) -> list[dict[str, Any]]:
    """The games waiting for the player, the least time left first (untimed games last)."""
    out = []
    for game_id in roster.player_games(redis, player_id):
        try:
            state = service.load(game_id).state
        except GameNotFound:
            continue
        seating = roster.seating_of(redis, game_id)
        seat = next((s for s, p in seating.players.items() if p == player_id), None)
        if state.get("phase") == "over" or seat is None or active_seat(state) != seat:
            continue
        end = pauses.deadline(redis, game_clock.current(redis, service, game_id, seating.tc), seating)
        out.append({"game_id": game_id, "form": state["form"], "left": None if end is None else max(0.0, end - now),
                    "opponents": [seating.name(s) for s in range(len(seating.seats)) if s != seat]})
    return sorted(out, key=lambda g: (g["left"] is None, g["left"] or 0.0, g["game_id"]))


def digest(redis: Any, service: Any, settings: Settings, player_id: str, now: float) -> float | None:
    """Queue the player's digest if games wait for them; when the next one is due (None: turned off).
    None while the player is on vacation: the next one is due when they are back."""
    prefs = email_prefs.preferences(redis, player_id)
    if not prefs["verified"] or not prefs["kinds"]["digest"]:
        return None
    back = vacations.away_until(redis, player_id, now)
    if back is not None:
        return back
    games = waiting_games(redis, service, player_id, now)
    if games and settings.smtp_url:
        lines = [f"- {g['form']} against {', '.join(g['opponents'])}: "
                 f"{'no time limit' if g['left'] is None else _left(g['left']) + ' left'} "
                 f"{settings.public_url}/play/{g['game_id']}" for g in games]
        enqueue(redis, settings, player_id, "digest", f"{len(games)} game(s) waiting for you",
                "Games waiting for your move, the most urgent first:\n\n" + "\n".join(lines) + "\n", None,
                f"mail-digest-{player_id}-{int(now)}")
    return now + email_prefs.DIGEST_EVERY


def _left(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours / 24:.1f} days" if hours >= 48 else f"{hours:.1f} hours" if hours >= 1 else f"{seconds / 60:.0f} minutes"
