"""Plain words (issue 13, point 5): every problem+json the API can answer says, in a sentence a
player understands, what went wrong and what to do, with no server jargon; the machine fields
(`type`, `code`, `status`, `current_version`, `errors`...) stay as they were.

Two walks: the texts as written (every `RuleError`/`malformed` message of the engine, whose codes
are the error catalogue, and every refusal the server and its stream tier raise), with the values
filled in left as placeholders; and the answers a running app really gives, for the engine codes a
client meets most and for each kind of server problem (401, 403, 404, 405, 409, 413, 415, 422, 429,
503, validation).
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from engine.errors import ERROR_CODES
from server import create_app
from server.errors import HTTP_SENTENCES, TITLES
from tests.server.conftest import bearer
from tests.server.plain import faults

ROOT = Path(__file__).resolve().parents[2]
# callee name -> index of the positional argument that is the player's text
TEXT_ARG = {"RuleError": 1, "malformed": 0, "ApiError": 2, "problem": 2, "problem_response": 2, "send_problem": 3,
            "refuse": 2, "InvitationRefused": 1, "BadRules": 0}
# texts handed on from an exception that was itself checked here (ApiError.detail, InvitationRefused.detail...)
PASSED_ON = {"detail", "message", "err.message", "err.detail", "e.detail", "refusal.detail", "str(bad)",
             "_flatten(messages)"}         # the validation sentence: checked on real answers below
PLACEHOLDER = "X"


def _part(value: ast.expr, module) -> str:
    """One piece of an f-string: its text, a module's constant as it reads, or a placeholder."""
    if isinstance(value, ast.Constant):
        return value.value
    inner = value.value if isinstance(value, ast.FormattedValue) else value
    if "__name__" in ast.unparse(inner):
        return "SomeError"                          # a class name shown to the player: flagged as jargon
    if isinstance(inner, ast.Name) and isinstance(getattr(module, inner.id, None), str):
        return getattr(module, inner.id)
    return f"'{PLACEHOLDER}'" if getattr(value, "conversion", -1) == ord("r") else PLACEHOLDER


def _texts(node: ast.expr, module) -> list[str] | None:
    """The text(s) an expression can give, values filled in as placeholders; None if it is handed on."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(_part(v, module) for v in node.values)]
    if isinstance(node, ast.IfExp):
        return (_texts(node.body, module) or []) + (_texts(node.orelse, module) or [])
    if isinstance(node, ast.Name) and isinstance(getattr(module, node.id, None), str):
        return [getattr(module, node.id)]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and isinstance(getattr(module, node.value.id, None), dict):
        return list(getattr(module, node.value.id).values())
    if ast.unparse(node) in PASSED_ON:
        return None
    raise AssertionError(f"{module.__name__}: cannot read the text {ast.unparse(node)!r}; write it out")


def _written_texts() -> list[tuple[str, str, str]]:
    """(where, code, text) for every refusal written in engine/, server/, events/invitations.py and
    events/conditionals.py (the conditional replies' BadRules, answered as they are written)."""
    paths = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "server").rglob("*.py")) + \
        [ROOT / "events" / "invitations.py", ROOT / "events" / "conditionals.py"]
    found = []
    for path in paths:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(name.removesuffix(".__init__"))
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            callee = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if callee not in TEXT_ARG or len(node.args) <= TEXT_ARG[callee]:
                continue
            code_arg = node.args[TEXT_ARG[callee] - 1] if TEXT_ARG[callee] else None
            code = code_arg.value if isinstance(code_arg, ast.Constant) else "malformed_command" \
                if callee == "malformed" else ast.unparse(code_arg) if code_arg is not None else "?"
            for text in _texts(node.args[TEXT_ARG[callee]], module) or []:
                found.append((f"{name}:{node.lineno}", str(code), text))
    return found


WRITTEN = _written_texts()


@pytest.mark.parametrize("where, code, text", WRITTEN, ids=[f"{w} {c}" for w, c, _ in WRITTEN])
def test_every_refusal_written_in_the_code_is_a_plain_sentence(where, code, text):
    assert faults(text) == [], (where, code, text)


def test_the_walk_reaches_the_whole_error_catalogue_and_the_server_problems():
    engine_codes = {code for where, code, _ in WRITTEN if where.startswith("engine.")}
    # four codes are chosen in a variable (`code = "a" if ... else "b"`): their texts are read all the same
    assert set(ERROR_CODES) - engine_codes == {"unknown_school", "school_not_available", "no_undo", "no_redo"}
    assert {w.split(":")[0] for w, code, _ in WRITTEN if code == "code"} == {"engine.schools", "engine.undo"}
    server_codes = {code for where, code, _ in WRITTEN if where.startswith("server.")}
    assert {"stale_version", "game_not_found", "store_unavailable", "rate_limited", "body_too_large", "bad_token",
            "token_required", "not_your_seat", "unsupported_media_type", "malformed_json", "too_many_streams",
            "headers_too_large", "request_timeout", "too_many_connections"} <= server_codes
    assert len(WRITTEN) > 150


@pytest.mark.parametrize("text", list(HTTP_SENTENCES.values()) + list(TITLES.values()))
def test_the_http_layers_own_sentences_and_titles_are_plain(text):
    assert faults(text) == [] or text in TITLES.values() and not faults(text + ".")


# --- the answers a running app gives -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client(redis_server):
    return create_app({"REDIS_URL": redis_server.url, "TESTING": True,
                       "ARENA_LIMIT_CREATE_ADDRESS": "40/minute"}).test_client()


def _game(client, form="duel", schools=("northern", "sylvan")) -> tuple[str, list[str]]:
    r = client.post("/games", json={"form": form, "seed": "plain", "players": [
        {"name": f"P{i}", "school": s} for i, s in enumerate(schools)]})
    assert r.status_code == 201, r.json
    return r.json["id"], [s["token"] for s in r.json["seats"]]


def _plain(r, status: int, code: str) -> dict:
    assert (r.status_code, r.mimetype) == (status, "application/problem+json"), r.get_data(as_text=True)[:300]
    body = r.json
    assert body["code"] == code and body["status"] == status and body["type"].endswith("/" + code), body
    assert faults(body["detail"]) == [], body["detail"]
    assert "stale" not in body["title"].lower()
    return body


def _send(client, game, token, **command):
    return client.post(f"/games/{game}/commands", json=command, headers=bearer(token))


def _start(client, game: str, tokens: list[str]) -> tuple[str, str]:
    """Answer the start decisions (where the duel's start pieces go); (mover's token, other's token)."""
    while (view := client.get(f"/games/{game}", headers=bearer(tokens[0])).json)["pending"]:
        token = tokens[view["pending"]["seat"]]
        first = client.get(f"/games/{game}/legal", headers=bearer(token)).json["commands"][0]
        assert _send(client, game, token, **first).status_code == 200
    return tokens[view["active_seat"]], tokens[1 - view["active_seat"]]


def test_rule_refusals_a_player_meets_are_plain_and_keep_their_facts(client):
    game, tokens = _game(client)
    view = client.get(f"/games/{game}", headers=bearer(tokens[0])).json
    asked = tokens[view["pending"]["seat"]]
    _plain(_send(client, game, asked, type="place", square="e5"), 422, "decision_pending")
    _plain(_send(client, game, asked, type="choose", square="e5"), 422, "not_an_option")
    _plain(_send(client, game, tokens[1 - view["pending"]["seat"]], type="choose", square="c5"), 403,
           "not_your_decision")
    ann, bob = _start(client, game, tokens)
    legal = client.get(f"/games/{game}/legal", headers=bearer(ann)).json
    hand = next(s["hand"] for s in client.get(f"/games/{game}", headers=bearer(ann)).json["seats"] if "hand" in s)
    being = next(c for c in hand if c.split("-")[0] in ("northern", "sylvan"))
    foreign = next(c for c in ("southern-herald", "southern-bomb") if c not in hand)
    taken = client.get(f"/games/{game}").json["board"][0]["square"]
    assert taken in _plain(_send(client, game, ann, type="place", square=taken), 422, "square_occupied")["detail"]
    refused = _plain(_send(client, game, ann, type="summon", card=foreign, square="e5"), 422, "card_not_in_hand")
    assert foreign not in refused["detail"] and "not in your hand" in refused["detail"]   # its name, not its id
    _plain(_send(client, game, bob, type="place", square="d4"), 403, "not_your_turn")
    _plain(_send(client, game, ann, type="choose", square="d4"), 422, "no_decision_pending")
    _plain(_send(client, game, ann, type="end_turn"), 422, "actions_left")
    _plain(_send(client, game, ann, type="claim_task", task="tasks-destruction"), 422, "no_tasks")
    _plain(_send(client, game, ann, type="pass_control"), 422, "no_teammate")
    _plain(_send(client, game, ann, type="claim_win"), 422, "no_abandoned_opponent")
    _plain(_send(client, game, ann, type="redo"), 422, "no_redo")
    _plain(_send(client, game, ann, type="summon", card=being, square="e5", improvise=1), 422,
           "improvisation_not_available")
    _plain(_send(client, game, ann, type="undo", to_version=1), 422, "no_undo")
    stale = _plain(_send(client, game, ann, type="place", square="d4", expected_version=legal["version"] - 1), 409,
                   "stale_version")
    assert stale["current_version"] == legal["version"] and stale["expected_version"] == legal["version"] - 1
    assert "moved on" in stale["detail"] and "version" not in stale["detail"]
    assert client.post(f"/games/{game}/resign", headers=bearer(bob)).status_code == 200
    _plain(_send(client, game, ann, type="place", square="d4"), 422, "game_over")


def test_refusals_at_creation_and_of_a_melee_are_plain(client):
    melee, tokens = _game(client, "melee", ("northern", "sylvan", "southern"))
    _plain(client.post(f"/games/{melee}/resign", headers=bearer(tokens[0])), 422, "resign_not_allowed")
    wrong = {"form": "duel", "players": [{"name": "A", "school": "northern"}]}
    _plain(client.post("/games", json=wrong), 400, "malformed_request")      # the schema's own check
    same = {"form": "duel", "players": [{"name": "A", "school": "northern"}, {"name": "B", "school": "northern"}]}
    _plain(client.post("/games", json=same), 400, "duplicate_school")


def test_server_problems_are_plain(client, redis_server):
    game, tokens = _game(client)
    ann, _ = _start(client, game, tokens)
    _plain(client.get("/games/no-such-game"), 404, "game_not_found")
    _plain(client.get("/no/such/page"), 404, "not_found")
    _plain(client.put(f"/games/{game}/legal"), 405, "method_not_allowed")
    _plain(client.get(f"/games/{game}/legal", headers={"Authorization": "Basic x"}), 401, "bad_token")
    _plain(client.get(f"/games/{game}/legal", headers=bearer("nobody")), 401, "bad_token")
    _plain(client.post(f"/games/{game}/commands", json={"type": "end_turn"}), 401, "token_required")
    _plain(_send(client, game, ann, type="place", square="e5", seat=tokens.index(ann) ^ 1), 403, "not_your_seat")
    invalid = _plain(_send(client, game, ann, type="dance", square="e5", expected_version="soon"), 400,
                     "malformed_request")
    assert set(invalid["errors"]["json"]) == {"type", "expected_version"}      # the machine's view, kept
    assert "the expected version (" in invalid["detail"] and "claim task" in invalid["detail"]
    _plain(client.post(f"/games/{game}/commands", data="type=end_turn", headers={
        **bearer(ann), "Content-Type": "application/x-www-form-urlencoded"}), 415, "unsupported_media_type")
    _plain(client.post(f"/games/{game}/commands", data='{"type": ', headers={
        **bearer(ann), "Content-Type": "application/json"}), 400, "malformed_json")
    _plain(client.post("/games", data='{"seed": "' + "x" * 70000 + '"}', headers={"Content-Type": "application/json"}),
           413, "body_too_large")
    _plain(client.get(f"/games/{game}/moves/99"), 404, "move_not_found")
    limited = create_app({"REDIS_URL": redis_server.url, "TESTING": True, "ARENA_LIMIT_CREATE_ADDRESS": "1/minute"})
    one = limited.test_client()
    one.environ_base["REMOTE_ADDR"] = "2001:db8::5eed"
    one.post("/games", json={"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                        {"name": "B", "school": "sylvan"}]})
    _plain(one.post("/games", json={}), 429, "rate_limited")
    down = create_app({"REDIS_URL": "redis://127.0.0.1:9/0", "TESTING": True}).test_client()
    _plain(down.get(f"/games/{game}"), 503, "store_unavailable")


def test_get_on_the_import_path_is_405_allowing_post(client):
    """Issue 11's leftover: /games/import is not a game named "import"."""
    r = client.get("/games/import")
    _plain(r, 405, "method_not_allowed")
    assert "POST" in r.headers["Allow"] and "GET" not in r.headers["Allow"]
    assert client.get("/games/importer").json["code"] == "game_not_found"
