"""The review of a finished game in the browser: asked for with a button under the board, made by
the worker's bot queue, drawn as an evaluation graph; marked moves show in the log, with
"Better was ..." under the player's own; a dot of the graph jumps the board to its move."""
from __future__ import annotations

import json
import re

import redis as redis_client
from playwright.sync_api import expect

from events import keys

from .test_bot_account import NEAR_THE_END


def _finish(live_server) -> tuple[str, str]:
    created = live_server.create({"form": "duel", "setup": NEAR_THE_END, "players": [
        {"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "southern"}]})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    while (view := live_server.view(game_id))["status"] != "finished":
        token = tokens[view["active_seat"]]
        legal = live_server.call("GET", f"/games/{game_id}/legal", token=token)[1]["commands"]
        command = next((c for c in legal if c["type"] in ("place", "end_turn")), legal[0])
        assert live_server.call("POST", f"/games/{game_id}/commands", command, token=token)[0] == 200
    return game_id, tokens[0]


def test_ask_for_a_review_see_the_graph_and_the_marks_in_the_log(page, live_server, shot):
    game_id, ann = _finish(live_server)
    page.goto(f"{live_server.url}/play/{game_id}#token={ann}")
    review = page.locator("#review")
    expect(review).to_be_visible()
    review.get_by_role("button", name="Review this game").click()
    expect(review.locator(".eval-graph svg")).to_be_visible(timeout=60_000)             # the job ran on the bot queue
    expect(review.locator("figcaption")).to_contain_text("Winning chance of your side")
    done = live_server.call("GET", f"/games/{game_id}/review", token=ann)[1]
    assert done["status"] == "done" and done["moves"]
    shot("graph")

    # The marks as the log shows them: Ann's first move marked a blunder with a better command (the
    # review's own fields, written as the job writes them, so the drawing is checked whatever the
    # tiny game's verdicts were), Bob's a mistake, whose better move Ann is never told.
    stored = redis_client.Redis.from_url(live_server.redis.url)
    raw = json.loads(stored.get(keys.review(game_id)))
    ann_move = next(m for m in raw["moves"] if m["seat"] == 0)
    bob_move = next(m for m in raw["moves"] if m["seat"] == 1)
    ann_move.update(mark="blunder", chance=0.2, best=0.6, better={"type": "summon", "card": "northern-herald", "square": "e5"})
    bob_move.update(mark="mistake", better={"type": "place", "square": "a5"})
    stored.set(keys.review(game_id), json.dumps(raw))
    page.reload()
    log = page.locator("#log")
    expect(log.locator('[data-mark="blunder"]')).to_have_text("?? blunder")
    expect(log.locator('[data-mark="mistake"]')).to_have_text("? mistake")
    expect(log.locator(".better")).to_have_count(1)
    expect(log.locator(".better")).to_have_text("Better was: Ann summons Herald on e5.")
    dots = review.locator("circle.eval-mark")
    expect(dots).to_have_count(2)
    dots.first.click()                                   # the board after Ann's marked move
    expect(page.locator("#status")).to_have_text(re.compile("^Replay, read-only"))
    shot("marks")
