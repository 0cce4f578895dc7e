"""The remaining edges over real HTTP: names and chat cleaned (NFC, no bidi, control or invisible
characters, combining marks bounded), names shaped like ids refused and ids resolved first, cookies
Secure by setting or by a trusted proxy's X-Forwarded-Proto, /health's details for the operator only."""
from __future__ import annotations

from tests.conftest import OPERATOR

from .served import PASSWORD, serve, served, sign_up, unique  # noqa: F401 (fixtures)


def test_names_and_chat_are_normalised_and_cleaned(served):
    client = served.at()
    made = client.post("/players", json={"name": "Guest\u202eevil\u2060\ufeff\u200b"}).json()
    assert made["name"] == "Guestevil"
    tower = client.post("/players", json={"name": "Zalgo" + "\u0301" * 499}).json()
    assert tower["name"] == "Zalg\u00f3" + "\u0301" * 3                    # a letter carries 3 marks at most
    assert client.post("/players", json={"name": "Jose\u0301"}).json()["name"] == "Jos\u00e9"     # NFC
    for invisible in ("\u2060\ufeff", "\u202e", "\u3164", " \u200b "):
        r = client.post("/players", json={"name": invisible})
        assert r.status_code == 400 and r.json()["code"] == "malformed_request", invisible
    game = client.post("/games", json={"form": "duel", "players": [
        {"name": "A\u2066nn\u2069", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}).json()
    assert game["seats"][0]["name"] == "Ann"
    said = client.post(f"/games/{game['id']}/chat", json={"text": "g\u2060g\u202e\nwp"},
                       headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
    assert said.status_code == 201 and said.json()["text"] == "gg\nwp"


def test_names_shaped_like_ids_are_refused_and_profiles_resolve_ids_first(served):
    owner = served.at()
    me = sign_up(owner)
    taken = served.at().post("/accounts", json={"name": me["id"], "password": PASSWORD})
    assert taken.status_code == 400
    assert owner.get(f"/profiles/{me['id']}").json()["name"] == me["name"]
    # existing accounts sign in with their names as before
    assert served.at().post("/accounts/session", json={"name": me["name"], "password": PASSWORD}).status_code == 200


def _session_cookie(response) -> str:
    return next(c for c in response.headers.get_list("set-cookie") if c.startswith("arena_session="))


def test_cookies_are_secure_by_setting_or_as_a_trusted_proxy_says(serve):
    plain = serve().at().post("/accounts", json={"name": unique(), "password": PASSWORD})
    assert "Secure" not in _session_cookie(plain)
    forced = serve(ARENA_SECURE_COOKIES=True).at().post("/accounts", json={"name": unique(), "password": PASSWORD})
    assert "Secure" in _session_cookie(forced)
    proxied = serve(ARENA_PROXY_HOPS=1).at()
    https = proxied.post("/accounts", json={"name": unique(), "password": PASSWORD},
                         headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"})
    assert "Secure" in _session_cookie(https)
    untrusted = serve().at().post("/accounts", json={"name": unique(), "password": PASSWORD},
                                  headers={"X-Forwarded-Proto": "https"})
    assert "Secure" not in _session_cookie(untrusted)


def test_health_shows_details_to_the_operator_only(served):
    client = served.at()
    public = client.get("/health").json()
    assert set(public) == {"status", "redis", "down"}
    assert set(client.get("/health", headers={"Authorization": "Bearer guess"}).json()) == {"status", "redis", "down"}
    operator = client.get("/health", headers=OPERATOR).json()
    assert operator["checks"]["redis"]["ok"] is True and "replication" in operator
