"""The web client: the page at `/` (and `/play/<game id>`), its static files, and the data it reads.

The page is plain HTML, CSS and JavaScript modules in the repository's `web/` folder: no build
step and nothing from a CDN (the server may have no internet access). Besides the API, the page
reads two small documents made here from the engine, so nothing is copied by hand:

    GET /cards.json      every card's name, rank, pattern, marked squares and effect summary
    GET /geometry.json   the 69 squares with their coordinates, the coloured and central squares,
                         the forms and the schools a game may be created with
    GET /notices.json    every kind of notification, with its name on the page (events/notices.py)
    GET /push-sw.js      the site's service worker, which shows Web Push messages
    GET /vocabulary      the engine's words (engine/vocabulary.py): forms, ranks, command types
                         and every rule error code with when it is raised; the seats' colours
                         with the letter drawn on their pieces (server/colours.py)
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request, send_from_directory

from engine import geometry
from engine.ai.levels import described_levels
from engine.vocabulary import FORMS, vocabulary
from events import conditionals, lobby, notices

from . import colours

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
CARD_FIELDS = ("id", "name", "deck", "kind", "rank", "anchor", "pattern", "own_square", "marked", "symmetry",
               "summary", "points", "advanced", "type")
FORM_NAMES = {"duel": "Deathmatch (duel)", "high_form": "High Form", "melee": "Melee (3-4 players)"}

blp = Blueprint("web", __name__)


def _root() -> Path:
    return Path(current_app.config.get("WEB_ROOT") or WEB_ROOT)


def _json(body: object) -> Response:
    """A cacheable JSON answer whose ETag changes with its content."""
    text = json.dumps(body, separators=(",", ":"))
    etag = hashlib.sha256(text.encode()).hexdigest()[:20]
    response = Response(text, mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@lru_cache(maxsize=1)
def _card_data() -> dict:
    raw = json.loads(resources.files("engine").joinpath("data/cards.json").read_text(encoding="utf-8"))
    decks, cards = [], {}
    for deck in raw["decks"]:
        decks.append({"id": deck["id"], "name": deck["name"], "kind": deck["kind"]})
        for card in deck["cards"]:
            out = {k: card[k] for k in CARD_FIELDS if k in card}
            for half in ("upper", "lower", "frozen", "warp"):
                if isinstance(card.get(half), dict):
                    out[half] = {k: v for k, v in card[half].items() if k in ("summary", "threshold")}
            cards[card["id"]] = out
    return {"decks": decks, "cards": cards}


def _schools() -> list[str]:
    from engine import setup
    from engine.cards import BASE_SCHOOLS
    return list(getattr(setup, "SUPPORTED_SCHOOLS", BASE_SCHOOLS))


def _choices() -> list[str]:
    """The ways one seat may ask for its school (bans and mutual selection are for the whole table)."""
    try:
        from engine.schools import CHOICES, TABLE_WIDE
    except ImportError:                     # an engine without random or drafted schools
        return []
    return [c for c in CHOICES if c not in TABLE_WIDE]


def _geometry() -> dict:
    return {
        "squares": [{"square": sq, "x": x, "y": y} for sq, (x, y) in geometry.COORD.items()],
        "red": sorted(geometry.RED), "green": sorted(geometry.GREEN), "central": sorted(geometry.CENTRAL),
        "duel_start": list(geometry.DUEL_START), "melee_start": [list(pair) for pair in geometry.MELEE_START],
        "forms": [{"id": f, "name": FORM_NAMES.get(f, f)} for f in ("duel", *(f for f in FORMS if f != "duel"))],
        "schools": _schools(), "school_choices": _choices(),
    }


@blp.route("/")
@blp.route("/play/<game_id>")
@blp.route("/account")
@blp.route("/desk")
@blp.route("/profile/<who>")
@blp.route("/rules")
@blp.route("/learn")
def page(game_id: str | None = None, who: str | None = None) -> Response:
    """The single page: the lobby at `/`, a game at `/play/<id>` (a seat's token rides in the #fragment)."""
    response = send_from_directory(_root(), "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/web/<path:filename>")
def static_file(filename: str) -> Response:
    response = send_from_directory(_root(), filename, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/push-sw.js")
def service_worker() -> Response:
    """The site's service worker (web/js/push-sw.js), served from the root so its scope is the whole site."""
    response = send_from_directory(_root() / "js", "push-sw.js", max_age=0, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/cards.json")
def cards() -> Response:
    return _json(_card_data())


@blp.route("/geometry.json")
def board_geometry() -> Response:
    return _json(_geometry())


@blp.route("/notices.json")
def notice_kinds() -> Response:
    """Every kind of notification with how the page names it (events/notices.py declares them)."""
    return _json({"kinds": notices.served()})


@blp.route("/vocabulary")
@blp.route("/vocabulary.json")
def words() -> Response:
    """The engine's words (forms and their seats, ranks, command types, the catalogue of rule error
    codes), the lobby's school modes and the computer's levels: every list the page needs, once."""
    return _json({**vocabulary(), "school_modes": [{"id": mode, "name": name} for mode, name in lobby.SCHOOL_MODES.items()], "bot_levels": described_levels(),
                  "seat_colours": colours.served(), "conditionals": conditionals.vocabulary()})


def register(app: Flask) -> None:
    app.register_blueprint(blp)
