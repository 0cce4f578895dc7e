"""The web client's routes (server/web.py), without a browser: the page, its files, and the data
it reads are served from the engine, and nothing the page loads comes from another host."""
from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from engine import geometry
from engine.setup import SUPPORTED_SCHOOLS
from server import create_app
from server.web import WEB_ROOT


@pytest.fixture
def client(redis_server):
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True}).test_client()


@pytest.mark.parametrize("path", ["/", "/play/0123456789abcdef", "/desk"])
def test_the_page_is_served_at_the_root_and_for_every_game(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert b'<script type="module" src="/web/js/main.js"></script>' in r.data
    assert r.headers["Cache-Control"] == "no-cache"


def test_every_file_the_page_loads_is_served_from_here(client):
    names = [p.relative_to(WEB_ROOT).as_posix() for p in WEB_ROOT.rglob("*") if p.is_file()]
    assert {"index.html", "css/app.css", "js/main.js", "js/game.js", "js/board.js"} <= set(names)
    for name in names:
        r = client.get(f"/web/{name}")
        assert r.status_code == 200, name
    assert client.get("/web/js/main.js").mimetype in ("text/javascript", "application/javascript")
    code = "".join(p.read_text(encoding="utf-8") for p in (WEB_ROOT / "js").glob("*.js"))
    assert all(f"js/{name}" in names for name in re.findall(r'from "\./([a-z]+\.js)"', code))


def test_nothing_is_loaded_from_another_host(client):
    """No CDN: the server may have no internet. The only URL allowed is the SVG namespace."""
    for path in WEB_ROOT.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            urls = set(re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s\"'`)]*", text))
            assert urls <= {"http://www.w3.org/2000/svg"}, (path.name, urls)


def test_a_path_outside_the_web_folder_is_not_served(client):
    assert client.get("/web/../server/web.py").status_code == 404
    assert client.get("/web/%2e%2e/setup.cfg").status_code == 404
    assert client.get("/web/nothing.js").status_code == 404


def test_cards_json_gives_every_card_of_the_engine_data(client):
    r = client.get("/cards.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    raw = json.loads(resources.files("engine").joinpath("data/cards.json").read_text(encoding="utf-8"))
    served = r.json["cards"]
    for deck in raw["decks"]:
        for card in deck["cards"]:
            got = served[card["id"]]
            assert got["name"] == card["name"] and got["deck"] == deck["id"]
            for field in ("rank", "pattern", "marked", "own_square", "summary", "points"):
                assert got.get(field) == card.get(field), (card["id"], field)
            for half in ("upper", "lower"):
                if half in card:
                    assert got[half] == {"summary": card[half]["summary"], "threshold": card[half]["threshold"]}
            assert "steps" not in got                      # the rules' internals stay on the server
    assert [d["id"] for d in r.json["decks"]] == [d["id"] for d in raw["decks"]]


def test_cards_json_is_cached_by_etag(client):
    first = client.get("/cards.json")
    again = client.get("/cards.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_geometry_json_is_the_engine_board(client):
    g = client.get("/geometry.json").json
    assert len(g["squares"]) == 69 == len(geometry.SQUARES)
    assert {q["square"]: (q["x"], q["y"]) for q in g["squares"]} == geometry.COORD
    assert not any(q["square"] in ("a1", "b1", "a2", "i9", "h9", "i8", "a9", "i1") for q in g["squares"])
    assert set(g["red"]) == geometry.RED and set(g["green"]) == geometry.GREEN and set(g["central"]) == geometry.CENTRAL
    assert g["schools"] == list(SUPPORTED_SCHOOLS)
    assert [f["id"] for f in g["forms"]] == ["duel", "high_form", "melee"]
