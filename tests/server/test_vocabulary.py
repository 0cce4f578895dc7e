"""The engine's vocabulary as the server publishes it: GET /vocabulary and the OpenAPI catalogue."""
from __future__ import annotations

import re
from pathlib import Path

from engine.ai.levels import LEVELS
from engine.errors import ERROR_CODES
from engine.vocabulary import vocabulary
from events import conditionals
from events.lobby import SCHOOL_MODES
from server.colours import SEAT_COLOURS

WEB = Path(__file__).resolve().parents[2] / "web" / "js"
COPIES = {   # how a hand-written copy of each served list would look in the page's code
    "seats per form": re.compile(r"melee\s*:\s*\[\s*3"),
    "team forms": re.compile(r"\[\s*[\"'](duel|high_form)[\"']\s*,\s*[\"'](duel|high_form)[\"']\s*\]"),
    "school modes": re.compile("|".join(re.escape(name) for name in SCHOOL_MODES.values())),
    "end targets": re.compile(r"duel\s*:\s*18"),
    "seat colours": re.compile("|".join(re.escape(c["fill"]) for c in SEAT_COLOURS), re.IGNORECASE),
}


def test_the_server_publishes_the_vocabulary_and_the_error_catalogue(redis_server):
    from server import create_app
    client = create_app({"REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/0", "TESTING": True}).test_client()
    served = client.get("/vocabulary").get_json()
    assert {k: v for k, v in served.items()
            if k not in ("bot_levels", "school_modes", "seat_colours", "conditionals")} == vocabulary()
    assert {m["id"]: m["name"] for m in served["school_modes"]} == SCHOOL_MODES
    assert served["conditionals"] == conditionals.vocabulary()
    assert [entry["level"] for entry in served["bot_levels"]] == sorted(LEVELS)
    assert served["seat_colours"] == list(SEAT_COLOURS)
    catalogue = client.get("/openapi.json").get_json()["components"]["schemas"]["RuleErrorCode"]
    assert catalogue["enum"] == list(ERROR_CODES) and catalogue["x-codes"] == ERROR_CODES


def test_the_page_reads_every_list_from_the_vocabulary_and_copies_none():
    sources = {path.name: path.read_text() for path in WEB.glob("*.js")}
    copied = {(what, name) for what, pattern in COPIES.items() for name, text in sources.items() if pattern.search(text)}
    assert not copied
