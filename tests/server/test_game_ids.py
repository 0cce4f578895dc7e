"""Ids that cannot be taken: importing a record under the id of a game, a game waiting for its
invitations, or a lobby table answers 409 and stores nothing; racing imports of one id: one wins.
Over real HTTP against a real Redis."""
from __future__ import annotations

import threading

from events import keys

from .served import csrf, served, sign_up  # noqa: F401 (served is a fixture)
from .test_signed_records import relabelled

DUEL = {"form": "duel", "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]}


def _finished_record(client) -> dict:
    game = client.post("/games", json=DUEL).json()
    assert client.post(f"/games/{game['id']}/resign",
                       headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}).status_code == 200
    return client.get(f"/games/{game['id']}/record").json()


def _nothing_stored(redis, game_id: str) -> bool:
    return not redis.exists(keys.log(game_id), keys.meta(game_id, "provenance"))


def test_a_record_relabelled_with_an_open_tables_id_is_refused_and_the_table_starts_its_own_game(served, redis_client):
    host, guest, attacker = served.at(), served.at(), served.at()
    sign_up(host), sign_up(guest)
    table = host.post("/lobby/tables", json={"form": "duel", "rated": False}, headers=csrf(host)).json()
    forged = relabelled(_finished_record(attacker), table["id"])
    refused = attacker.post("/games/import", json=forged)
    assert refused.status_code == 409 and refused.json()["code"] == "game_exists"
    assert _nothing_stored(redis_client, table["id"])
    joined = guest.post(f"/lobby/tables/{table['id']}/join", json={}, headers=csrf(guest)).json()
    game = host.get(f"/games/{joined['game_id']}").json()
    assert game["result"] is None and game["provenance"]["origin"] != "unsigned" and game["seat"] is not None


def test_a_record_under_the_id_of_a_game_waiting_for_invitations_or_of_a_game_is_refused(served, redis_client):
    host, invitee = served.at(), served.at()
    me, them = sign_up(host), sign_up(invitee)
    waiting = host.post("/games", headers=csrf(host), json={
        "form": "duel", "players": [{"name": "Me", "school": "northern", "player": me["id"]},
                                    {"name": "Them", "school": "sylvan", "player": them["id"]}]}).json()
    record = _finished_record(served.at())
    for taken in (waiting["id"], record["game_id"]):
        r = served.at().post("/games/import", json=relabelled(record, taken) if taken != record["game_id"] else record)
        assert r.status_code == 409, taken
    assert _nothing_stored(redis_client, waiting["id"])
    assert invitee.post(f"/players/me/invitations/{waiting['seats'][1]['invitation']}/accept",
                        headers=csrf(invitee)).status_code == 200
    assert host.get(f"/games/{waiting['id']}").json()["result"] is None           # the invited game, not the record


def test_racing_imports_of_one_id_store_it_once(served):
    record = relabelled(_finished_record(served.at()), "raced" + _finished_record(served.at())["game_id"][:8])
    clients = [served.at() for _ in range(8)]
    answers: list[int] = []
    barrier = threading.Barrier(len(clients))

    def send(client) -> None:
        barrier.wait()
        answers.append(client.post("/games/import", json=record).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [201] + [409] * 7
