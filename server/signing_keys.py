"""The public half of the key that signs this server's game records, for `arena verify --server`.

    GET /keys                     also at /.well-known/arena-keys
    {"keys": [{"key_id": "…", "alg": "Ed25519", "public_key": "<base64 of 32 bytes>", "pem": "…"}],
     "trusted": [...]}            other signers whose imported records count here (ARENA_TRUSTED_KEYS)
"""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from events import signing

blp = Blueprint("keys", __name__, description="The keys that sign game records")


class KeyOut(Schema):
    key_id = fields.String(metadata={"description": "first 16 hex digits of SHA-256 over the raw public key"})
    alg = fields.String(metadata={"description": "Ed25519"})
    public_key = fields.String(metadata={"description": "base64 of the 32-byte raw public key"})
    pem = fields.String(metadata={"description": "the same key as SubjectPublicKeyInfo PEM"})


class KeysOut(Schema):
    keys = fields.List(fields.Nested(KeyOut), metadata={"description": "the key this server signs records with"})
    trusted = fields.List(fields.Nested(KeyOut), metadata={"description": "other keys whose imported records count"})


def published() -> dict:
    own = signing.server_key().public_key()
    others = [k for kid, k in signing.trusted_keys().items() if kid != signing.key_id(own)]
    return {"keys": [_key(own)], "trusted": [_key(k) for k in others]}


def _key(public) -> dict:
    return {**signing.describe_key(public), "pem": signing.public_pem(public)}


@blp.route("/keys")
@blp.response(200, KeysOut)
def keys():
    """The public key that signs this server's game records (check them with `arena verify --server`)."""
    return published()


@blp.route("/.well-known/arena-keys")
@blp.response(200, KeysOut)
def well_known_keys():
    """The same as GET /keys, at a well-known address."""
    return published()
