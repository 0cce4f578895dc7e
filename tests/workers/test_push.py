"""Web Push end to end: a browser's subscription posted over HTTP, notifications made by play and
chat, pushed by a real RQ worker to a local push service that decrypts each message with the keys
only the "browser" (this test) holds, expired subscriptions removed, the address guard applied."""
from __future__ import annotations

import base64
import json
import os

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from events import push

from .helpers import Receiver, bearer, new_game, play_legal, register, run_worker


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService(Receiver):
    """A push service on 127.0.0.1 for one browser: it keeps what it is sent, answering `statuses`;
    `messages` decrypts them with the browser's private key and auth secret."""

    def __init__(self, *statuses: int) -> None:
        super().__init__(list(statuses) or [201])
        self.key, self.auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)

    def subscription(self) -> dict:
        """What PushSubscription.toJSON() gives in a browser."""
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.url, "expirationTime": None, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def messages(self) -> list[dict]:
        return [json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))
                for _, body in self.requests]


def vapid_claims(header: str, server_key: str) -> dict:
    """The claims of a VAPID authorization ("vapid t=<JWT>,k=<key>"), its signature checked with `server_key`."""
    scheme, _, params = header.partition(" ")
    fields = dict(part.split("=", 1) for part in params.split(","))
    assert scheme == "vapid" and fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64(claims))


@pytest.fixture
def services(monkeypatch):
    monkeypatch.setenv("ARENA_WEBHOOK_ALLOW", "127.0.0.1/32")     # the local push service is the operator's choice
    made: list[PushService] = []

    def make(*statuses: int) -> PushService:
        made.append(PushService(*statuses))
        return made[-1]
    yield make
    for service in made:
        service.close()


def test_pushes_reach_each_opted_in_browser_encrypted_and_signed_and_expired_ones_are_removed(client, redis_db, services):
    phone, laptop = services(201), services(410)
    bob = register(client, "Bob")
    me = bearer(bob["token"])
    key = client.get("/accounts/me/push", headers=me).json["public_key"]
    for browser in (phone, laptop):
        r = client.post("/accounts/me/push/subscriptions", json=browser.subscription(), headers=me)
        assert r.status_code == 201 and r.json["service"].startswith("http://127.0.0.1"), r.json
    game = new_game(client, creator=bob, players=[{"name": "Ann", "school": "northern"},
                                                  {"name": "Bob", "school": "sylvan", "player": bob["id"]}])
    run_worker(redis_db)                                        # Bob places the start pieces: his turn

    [turn] = phone.messages()
    assert turn["kind"] == "your_turn" and turn["title"] == f"Your turn in game {game['id']}"
    assert turn["url"] == f"/play/{game['id']}" and "Ann" in turn["body"]
    headers, _ = phone.requests[0]
    assert headers["Content-Encoding"] == "aes128gcm" and headers["Urgency"] == "high" and int(headers["TTL"]) > 0
    assert vapid_claims(headers["Authorization"], key)["aud"] == phone.url.rsplit("/", 1)[0]
    assert laptop.messages()[0]["id"] == turn["id"]             # delivered, but the service says it expired
    [left] = client.get("/accounts/me/push", headers=me).json["subscriptions"]
    assert left["id"] == push.subscription_id(phone.url) and len(laptop.requests) == 1

    # a mention in the players' chat is pushed; a kind turned off is not
    r = client.put("/accounts/me/push", json={"kinds": {"your_turn": False}}, headers=me)
    assert r.json["kinds"]["your_turn"] is False and r.json["kinds"]["chat_mention"] is True
    chat = client.post(f"/games/{game['id']}/chat", json={"channel": "players", "text": "@bob good luck"},
                       headers=bearer(game["seats"][0]["token"]))
    assert chat.status_code == 201, chat.json
    for seat in (1, 0):                                         # Bob's turn again
        while client.get(f"/games/{game['id']}").json["active_seat"] == seat:
            play_legal(client, game, seat=seat)
    run_worker(redis_db)
    kinds = [m["kind"] for m in phone.messages()]
    assert kinds == ["your_turn", "chat_mention"], kinds
    assert phone.messages()[1]["body"] == "Ann: @bob good luck"
    assert client.delete(f"/accounts/me/push/subscriptions/{left['id']}", headers=me).status_code == 204   # opted out
    assert client.delete(f"/accounts/me/push/subscriptions/{left['id']}", headers=me).status_code == 404
    assert client.get("/accounts/me/push", headers=me).json["subscriptions"] == []


def test_a_subscription_endpoint_goes_through_the_webhook_address_guard(client):
    bob = register(client, "Bob")
    service = PushService()
    try:
        r = client.post("/accounts/me/push/subscriptions", json=service.subscription(), headers=bearer(bob["token"]))
        assert r.status_code == 422 and r.json["code"] == "push_endpoint_not_allowed"
        bad = {**service.subscription(), "keys": {"p256dh": "bm90IGEga2V5", "auth": b64(os.urandom(16))}}
        assert client.post("/accounts/me/push/subscriptions", json={**bad, "endpoint": "https://push.example.com/x"},
                           headers=bearer(bob["token"])).status_code == 400
        assert client.get("/accounts/me/push", headers=bearer(bob["token"])).json["subscriptions"] == []
    finally:
        service.close()


def test_the_vapid_key_is_made_once_and_kept_or_taken_from_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv(push.KEY_ENV, raising=False)
    made = push.public_key()
    assert (tmp_path / push.KEY_FILE).stat().st_mode & 0o077 == 0
    push._server_key.cache_clear()                               # as a new process would: read the file again
    assert push.public_key() == made and len(unb64(made)) == 65
    configured = ec.generate_private_key(ec.SECP256R1())
    monkeypatch.setenv(push.KEY_ENV, b64(configured.private_numbers().private_value.to_bytes(32, "big")))
    point = configured.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert push.public_key() == b64(point) != made
