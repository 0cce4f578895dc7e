"""Records that prove their origin: this server signs every finished game's record (Ed25519),
publishes the public key, and an import stores any record not signed by a trusted key as
unsigned or foreign, says so in every view, and never rates it. Over HTTP, on the real Redis."""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import stat
import threading

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from werkzeug.serving import make_server

from events import keys, signing
from events.envelope import Envelope, canonical_json
from events.hashchain import event_hash
from events.record import dumps_record
from events import roster
from server import cli, create_app
from tests.server.conftest import bearer
from workers import endgame
from events.settings import Settings


@pytest.fixture(autouse=True)
def own_data_dir(monkeypatch, tmp_path):
    """Each test's server makes its key under its own ARENA_DATA_DIR and trusts no one else."""
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ARENA_SIGNING_KEY", raising=False)
    monkeypatch.delenv("ARENA_TRUSTED_KEYS", raising=False)


def finished_game(client, game_id_hint: str = "") -> str:
    """A duel created over HTTP and ended by a resignation: a finished game, quickly."""
    r = client.post("/games", json={"form": "duel", "seed": f"signed{game_id_hint}",
                                    "players": [{"name": "Ann", "school": "northern"}, {"name": "Bob", "school": "sylvan"}]})
    assert r.status_code == 201, r.json
    assert client.post(f"/games/{r.json['id']}/resign", headers=bearer(r.json["seats"][0]["token"])).status_code == 200
    return r.json["id"]


def relabelled(record: dict, game_id: str) -> dict:
    """The record under another game id, every hash made again with the revealed seed: what a
    forger can do, so only the signature can tell it from a genuine record."""
    seed = record["events"][-1]["payload"]["seed"]
    out, prev = [], "0" * 64
    for raw in record["events"]:
        env = dataclasses.replace(Envelope.from_dict(raw), game_id=game_id, prev_hash=prev)
        prev = event_hash(seed, env.body())
        out.append(dataclasses.replace(env, hash=prev).to_dict())
    return {**record, "game_id": game_id, "events": out, "head_hash": prev}


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def public_b64(key: Ed25519PrivateKey) -> str:
    return b64(key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def private_b64(key: Ed25519PrivateKey) -> str:
    return b64(key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption()))


def stored_elsewhere(app, record: dict) -> None:
    """Forget the game here, so its record can be imported as if from another server."""
    app.extensions["arena"].service.store.delete_game(record["game_id"])


def test_a_finished_games_record_is_signed_with_the_published_key(client):
    game_id = finished_game(client)
    published = client.get("/keys").json
    assert client.get("/.well-known/arena-keys").json == published
    [key] = published["keys"]
    record = client.get(f"/games/{game_id}/record").json
    signature = record["signature"]
    assert signature["alg"] == "Ed25519" and signature["key_id"] == key["key_id"]
    public = base64.b64decode(key["public_key"])
    assert key["key_id"] == hashlib.sha256(public).hexdigest()[:16]
    last = record["events"][-1]
    message = canonical_json({"format": "tash-kalar-arena/signed-record", "game_id": game_id,
                              "version": last["version"], "head_hash": last["hash"], "seed": last["payload"]["seed"]})
    Ed25519PublicKey.from_public_bytes(public).verify(base64.b64decode(signature["value"]), message.encode())
    local = {"origin": "local", "key_id": None, "rated": True}
    assert record["provenance"] == local and client.get(f"/games/{game_id}").json["provenance"] == local
    assert client.get(f"/games/{game_id}/log").json["provenance"] == local
    spec = client.get("/openapi.json").json
    assert "/keys" in spec["paths"] and "provenance" in spec["components"]["schemas"]["GameOut"]["properties"]


def test_a_running_games_record_is_not_signed(client):
    r = client.post("/games", json={"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                                {"name": "B", "school": "sylvan"}]})
    record = client.get(f"/games/{r.json['id']}/record").json
    assert record["complete"] is False and "signature" not in record and record["provenance"]["origin"] == "local"


def test_the_key_is_made_once_under_the_data_dir_readable_by_its_owner_only(client, tmp_path, monkeypatch):
    first = client.get("/keys").json["keys"][0]["key_id"]
    path = tmp_path / "data" / "signing-key.pem"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    signing._server_key.cache_clear()                          # as a new process would: read the file again
    assert client.get("/keys").json["keys"][0]["key_id"] == first
    other = Ed25519PrivateKey.generate()
    for configured in (private_b64(other), other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                               serialization.NoEncryption()).decode()):
        monkeypatch.setenv("ARENA_SIGNING_KEY", configured)
        assert client.get("/keys").json["keys"][0]["public_key"] == public_b64(other)


def test_processes_starting_at_once_end_up_with_one_key(tmp_path):
    path, keys_made, start = tmp_path / "fresh" / "signing-key.pem", [], threading.Barrier(8)

    def make() -> None:
        start.wait()
        keys_made.append(public_b64(signing._key_file(path)))
    threads = [threading.Thread(target=make) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(keys_made) == 8 and len(set(keys_made)) == 1
    assert [p.name for p in path.parent.iterdir()] == ["signing-key.pem"]           # no temporary file left


@pytest.mark.parametrize("change, status, code", [
    (lambda r: r.pop("game_id"), 400, "malformed_request"),
    (lambda r: r.update(game_id="no spaces here"), 400, "malformed_request"),
    (lambda r: r.update(game_id=7), 400, "malformed_request"),
    (lambda r: r.pop("events"), 400, "malformed_request"),
])
def test_an_import_without_a_game_id_or_events_is_a_400(client, app, change, status, code):
    record = client.get(f"/games/{finished_game(client)}/record").json
    stored_elsewhere(app, record)
    change(record)
    r = client.post("/games/import", json=record)
    assert (r.status_code, r.mimetype, r.json["code"]) == (status, "application/problem+json", code), r.json


def test_an_unfinished_record_is_refused_and_nothing_is_stored(client, app, monkeypatch, tmp_path, redis_server):
    r = client.post("/games", json={"form": "duel", "players": [{"name": "A", "school": "northern"},
                                                                {"name": "B", "school": "sylvan"}]})
    game_id = r.json["id"]
    record = app.extensions["arena"].service.export_record(game_id, allow_unfinished=True)
    stored_elsewhere(app, record)
    answer = client.post("/games/import", json=record)
    assert answer.status_code == 422 and answer.json["code"] == "record_unfinished", answer.json
    assert client.get(f"/games/{game_id}").status_code == 404
    path = tmp_path / "unfinished.json"
    path.write_text(dumps_record(record))
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    run = CliRunner().invoke(cli.main, ["import", str(path)])
    assert run.exit_code != 0 and "has not ended" in run.output
    assert client.get(f"/games/{game_id}").status_code == 404


def test_this_servers_own_record_comes_back_trusted_with_its_signature(client, app):
    record = client.get(f"/games/{finished_game(client)}/record").json
    stored_elsewhere(app, record)
    imported = client.post("/games/import", json=record)
    assert imported.status_code == 201, imported.json
    key_id = record["signature"]["key_id"]
    assert imported.json["provenance"] == {"origin": "trusted", "key_id": key_id, "rated": True}
    again = client.get(f"/games/{record['game_id']}/record").json
    assert again["signature"] == record["signature"] and again["provenance"]["origin"] == "trusted"


def test_a_relabelled_and_rehashed_record_is_stored_unsigned_in_every_view(client, app):
    record = client.get(f"/games/{finished_game(client)}/record").json
    forged = relabelled(record, "forged" + record["game_id"][:8])
    r = client.post("/games/import", json=forged)                # still carries the original signature
    assert r.status_code == 201, r.json
    unsigned = {"origin": "unsigned", "key_id": None, "rated": False}
    game = forged["game_id"]
    assert r.json["provenance"] == unsigned and client.get(f"/games/{game}").json["provenance"] == unsigned
    assert client.get(f"/games/{game}/log").json["provenance"] == unsigned
    assert client.get(f"/games/{game}/moves").json["provenance"] == unsigned
    exported = client.get(f"/games/{game}/record").json
    assert exported["provenance"] == unsigned and "signature" not in exported


def test_a_game_made_offline_is_foreign_unless_its_key_is_trusted(client, app, monkeypatch):
    record = client.get(f"/games/{finished_game(client)}/record").json
    forger = Ed25519PrivateKey.generate()
    invented = relabelled(record, "offline" + record["game_id"][:8])
    invented["signature"] = signing.sign(invented, forger)        # the forger's own server signed it
    r = client.post("/games/import", json=invented)
    assert r.status_code == 201, r.json
    forger_id = invented["signature"]["key_id"]
    assert r.json["provenance"] == {"origin": "foreign", "key_id": forger_id, "rated": False}
    monkeypatch.setenv("ARENA_TRUSTED_KEYS", public_b64(forger))
    partner = relabelled(record, "partner" + record["game_id"][:8])
    partner["signature"] = signing.sign(partner, forger)
    trusted = client.post("/games/import", json=partner)
    assert trusted.json["provenance"] == {"origin": "trusted", "key_id": forger_id, "rated": True}
    assert forger_id in [k["key_id"] for k in client.get("/keys").json["trusted"]]
    del invented["signature"]
    invented["game_id"] = "offline2"
    bare = client.post("/games/import", json=relabelled(invented, "offline2"))
    assert bare.json["provenance"] == {"origin": "unsigned", "key_id": None, "rated": False}


def test_an_untrusted_import_never_changes_a_rating(client, app, redis_server):
    redis = app.extensions["arena"].redis
    ann, bob = (client.post("/players", json={"name": n}).json for n in ("Ann", "Bob"))
    record = client.get(f"/games/{finished_game(client)}/record").json
    genuine = relabelled(record, "rated" + record["game_id"][:8])
    genuine["signature"] = signing.sign(genuine, signing.server_key())     # as if this server had played it
    games = {"unsigned": relabelled(record, "unrated" + record["game_id"][:8]), "trusted": genuine}
    summaries = {}
    for origin, rec in games.items():
        assert client.post("/games/import", json=rec).json["provenance"]["origin"] == origin
        roster.save(redis, rec["game_id"], [{"name": "Ann", "player": ann["id"]}, {"name": "Bob", "player": bob["id"]}],
                    {"form": "duel", "time_control": None})
        summaries[origin] = endgame.finish(redis, app.extensions["arena"].service, rec["game_id"], Settings.load())
    assert summaries["unsigned"]["ratings"] == {}
    assert not redis.exists(keys.meta(games["unsigned"]["game_id"], "rating"))
    assert redis.get(keys.meta(games["unsigned"]["game_id"], "form_rating")) is None       # nor the form rating
    assert set(summaries["trusted"]["ratings"]) == {ann["id"], bob["id"]}             # the check is not vacuous
    assert redis.get(keys.meta(games["trusted"]["game_id"], "form_rating")) is not None
    rating = client.get("/players/me/rating", headers=bearer(ann["token"])).json
    assert rating["games"] == 1


@pytest.fixture
def live_server(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


def test_arena_verify_says_who_signed_a_record(client, app, tmp_path, live_server):
    record = client.get(f"/games/{finished_game(client)}/record").json
    key = client.get("/keys").json["keys"][0]
    files = {}
    for name, rec in {"signed": record, "unsigned": {k: v for k, v in record.items() if k != "signature"},
                      "forged": relabelled(record, "forged2")}.items():
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(dumps_record(rec))
    pem = tmp_path / "server.pem"
    pem.write_text(key["pem"])

    def verify(*args: str) -> tuple[int, str]:
        run = CliRunner().invoke(cli.main, ["verify", *args])
        return run.exit_code, run.output.strip()

    for given in (["--key", key["public_key"]], ["--key", str(pem)], ["--server", live_server]):
        status, out = verify(str(files["signed"]), *given)
        assert status == 0 and out.startswith(f"consistent, signed by {key['key_id']} ("), out
    status, out = verify(str(files["signed"]))
    assert status == 0 and out.startswith(f"consistent but unknown signer {key['key_id']}"), out
    status, out = verify(str(files["signed"]), "--key", public_b64(Ed25519PrivateKey.generate()))
    assert status == 0 and out.startswith(f"consistent but unknown signer {key['key_id']}"), out
    status, out = verify(str(files["unsigned"]), "--server", live_server)
    assert status == 0 and out.startswith("consistent but unsigned"), out
    status, out = verify(str(files["forged"]), "--server", live_server)
    assert status == 1 and out.startswith("FAILED: the signature does not fit the record"), out
    tampered = dict(record, signature=dict(record["signature"], value=b64(bytes(64))))
    files["signed"].write_text(dumps_record(tampered))
    status, out = verify(str(files["signed"]))
    assert status == 1 and out.startswith("FAILED"), out
