"""The async tier refuses cursors out of range as the Flask app does: a 400 problem before any stream."""
from __future__ import annotations

import httpx

ABOVE_2_64 = str(2 ** 64)


def test_stream_cursors_above_2_64_are_a_400_problem_on_the_async_tier(redis_server, start_front):
    front = start_front(redis_server.url, "web", WEB_CONCURRENCY="1")
    with httpx.Client(base_url=front.url, timeout=10) as http:
        token = http.post("/players", json={"name": "Pat"}).json()["token"]
        game = http.post("/games", json={"form": "duel", "players": [
            {"name": "A", "school": "northern"}, {"name": "B", "school": "sylvan"}]}).json()["id"]
        auth = {"Authorization": f"Bearer {token}"}
        refused = [http.get(f"/players/me/stream?after={ABOVE_2_64}", headers=auth),
                   http.get("/players/me/stream", headers={**auth, "Last-Event-ID": f"1-{ABOVE_2_64}"}),
                   http.get(f"/games/{game}/stream", headers={"Last-Event-ID": "9" * 5000})]
    assert [(r.status_code, r.headers["content-type"], r.json()["code"]) for r in refused] == \
        [(400, "application/problem+json", "malformed_request")] * 3
