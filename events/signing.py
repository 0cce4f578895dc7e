"""Signed records: an Ed25519 signature that proves a finished game's record comes from this server.

A record that verifies (verify.py) is only self-consistent: anyone who knows the seed revealed at
the end can re-label a game and hash it again, or invent one offline. The signature says who
vouches for it. What is signed is the canonical JSON (envelope.canonical_json) of the statement

    {"format": "tash-kalar-arena/signed-record", "game_id": ..., "version": N,
     "head_hash": <the last event's hash>, "seed": <the seed revealed in GameEnded>}

The head hash ends the chain that covers every event and is keyed with the seed (hashchain.py),
and verify.py accepts a record only when its chain leads to that hash, so the statement pins
every event of the game; `final_state` follows from them by replay. The statement does not depend
on how the record is laid out or on the exporting engine's fingerprint, so an imported record
keeps the signature it came with. In the record:

    "signature": {"alg": "Ed25519", "key_id": "<16 hex>", "public_key": "<base64 of 32 bytes>",
                  "value": "<base64 of 64 bytes>"}

The key id is the first 16 hex digits of SHA-256 over the raw public key. This server's key comes
from ARENA_SIGNING_KEY (PKCS#8 PEM, or base64 of the 32-byte raw private key) or from
`$ARENA_DATA_DIR/signing-key.pem`, made on first use with mode 0600. Keys trusted on import are
this server's and those in ARENA_TRUSTED_KEYS (comma-separated: base64 raw public keys, or paths
of PEM files).
"""
from __future__ import annotations

from typing import Any

import base64
import binascii
import hashlib
import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .durable import key_file
from .embedded import data_dir
from .envelope import canonical_json
from .settings import current

ALG = "Ed25519"
STATEMENT_FORMAT = "tash-kalar-arena/signed-record"
KEY_ENV = "ARENA_SIGNING_KEY"
TRUSTED_ENV = "ARENA_TRUSTED_KEYS"
KEY_FILE = "signing-key.pem"
log = logging.getLogger(__name__)


class SigningKeyError(ValueError):
    """The configured signing key cannot be read."""


@dataclass(frozen=True)
class SignatureCheck:
    """What a record's signature proves.

    status: "trusted" (valid, by a trusted key), "unknown" (valid for the public key it carries, a
    key not trusted here), "unsigned" (none), "bad" (present but wrong: the record was changed)."""
    status: str
    key_id: str | None = None


def key_id(public: Ed25519PublicKey) -> str:
    return hashlib.sha256(raw_public(public)).hexdigest()[:16]


def raw_public(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def describe_key(public: Ed25519PublicKey) -> dict[str, Any]:
    return {"key_id": key_id(public), "alg": ALG, "public_key": base64.b64encode(raw_public(public)).decode()}


# --- keys --------------------------------------------------------------------------------------------

def server_key() -> Ed25519PrivateKey:
    """This server's signing key (ARENA_SIGNING_KEY, else the key file, made on first use)."""
    return _server_key(current().signing_key.strip(), str(data_dir() / KEY_FILE))


@lru_cache(maxsize=4)
def _server_key(configured: str, path: str) -> Ed25519PrivateKey:
    if configured:
        return _private_from_text(configured, KEY_ENV)
    return _key_file(Path(path))


def _private_from_text(text: str, where: str) -> Ed25519PrivateKey:
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True))
    except (ValueError, TypeError, binascii.Error) as exc:
        raise SigningKeyError(f"{where}: not an Ed25519 private key (PEM or base64 of 32 bytes): {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{where}: the key is not an Ed25519 key")
    return key


def _key_file(path: Path) -> Ed25519PrivateKey:
    """Read the key file, or make it (events/durable.py: mode 0600, two processes get one key)."""
    pem = key_file(path, lambda: Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return _private_from_text(pem.decode("ascii"), str(path))


def trusted_keys() -> dict[str, Ed25519PublicKey]:
    """Key id -> public key of every signer whose records count as genuine here."""
    own = server_key().public_key()
    return {key_id(own): own, **_configured_trusted(current().trusted_keys)}


@lru_cache(maxsize=4)
def _configured_trusted(items: tuple[str, ...]) -> dict[str, Ed25519PublicKey]:
    out = {}
    for item in items:
        try:
            public = public_key_from_option(item)
        except (ValueError, OSError) as exc:
            log.warning("%s: ignoring an entry: %s", TRUSTED_ENV, exc)
            continue
        out[key_id(public)] = public
    return out


def public_key_from_option(text: str) -> Ed25519PublicKey:
    """A public key an operator names: base64 of its 32 raw bytes, PEM, or the path of a file holding either."""
    text = text.strip()
    if not text.startswith("-----BEGIN") and os.path.isfile(text):
        text = Path(text).read_text(encoding="ascii").strip()
    return public_key_from_text(text)


def public_key_from_text(text: str) -> Ed25519PublicKey:
    """A public key given as base64 of its 32 raw bytes or as PEM (never a path: records hold this)."""
    text = text.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(text.encode())
        else:
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))
    except (ValueError, TypeError, binascii.Error):
        raise ValueError(f"not an Ed25519 public key (base64 of 32 bytes, PEM, or a PEM file): {text[:60]!r}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key


# --- signatures --------------------------------------------------------------------------------------

def statement(record: dict[str, Any]) -> bytes | None:
    """The bytes a finished record's signature covers; None for a record that is not finished."""
    events = record.get("events")
    if not isinstance(events, list) or not events or not isinstance(events[-1], dict):
        return None
    last = events[-1]
    payload = last.get("payload")
    if last.get("type") != "GameEnded" or not isinstance(payload, dict):
        return None
    return canonical_json({"format": STATEMENT_FORMAT, "game_id": record.get("game_id"), "version": last.get("version"),
                           "head_hash": last.get("hash"), "seed": payload.get("seed")}).encode()


def sign(record: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The signature block for a finished record."""
    message = statement(record)
    if message is None:
        raise ValueError("only a finished game's record is signed")
    return {**describe_key(key.public_key()), "value": base64.b64encode(key.sign(message)).decode()}


def check(record: dict[str, Any], trusted: dict[str, Ed25519PublicKey]) -> SignatureCheck:
    """What the record's signature proves, given the trusted keys (key id -> public key)."""
    block = record.get("signature")
    if block is None:
        return SignatureCheck("unsigned")
    if not isinstance(block, dict) or block.get("alg") != ALG:
        return SignatureCheck("bad")
    claimed = block.get("key_id") if isinstance(block.get("key_id"), str) else None
    message = statement(record)
    try:
        value = base64.b64decode(str(block.get("value", "")), validate=True)
        known = trusted.get(claimed) if claimed is not None else None
        public = known if known is not None else public_key_from_text(str(block.get("public_key", "")))
    except (ValueError, binascii.Error):
        return SignatureCheck("bad", claimed)
    if message is None or key_id(public) != claimed:
        return SignatureCheck("bad", claimed)
    try:
        public.verify(value, message)
    except InvalidSignature:
        return SignatureCheck("bad", claimed)
    return SignatureCheck("trusted" if known is not None else "unknown", claimed)
