import dataclasses

import pytest

from events.envelope import Envelope, EnvelopeError, canonical_json
from events.hashchain import GENESIS, commitment_matches, event_hash, first_bad_version, seed_commitment

SEED = "f00dfeed" * 4


def chain(n: int, seed: str = SEED) -> list[Envelope]:
    out, prev = [], GENESIS
    for version in range(1, n + 1):
        body = {"game_id": "g1", "version": version, "type": "TurnEnded", "schema_version": 1,
                "time": "2026-01-01T00:00:00.000000Z", "actor": version % 2, "payload": {"seat": 0, "number": version},
                "prev_hash": prev}
        if version == 1:
            body["commitment"] = seed_commitment(seed)
        prev = event_hash(seed, body)
        out.append(Envelope(**body, hash=prev))
    return out


def test_canonical_json_sorts_keys_drops_whitespace_and_keeps_unicode():
    assert canonical_json({"b": 1, "a": [1, {"d": None, "c": "é"}]}) == '{"a":[1,{"c":"é","d":null}],"b":1}'


def test_an_envelope_survives_json_and_back():
    env = chain(1)[0]
    assert Envelope.from_json(env.to_json()) == env
    assert env.event() == {"type": "TurnEnded", "seat": 0, "number": 1}


@pytest.mark.parametrize("change", [
    {"version": 0}, {"actor": "someone"}, {"actor": True}, {"payload": []}, {"extra": 1}, {"hash": 5},
])
def test_a_malformed_envelope_is_refused(change):
    data = {**chain(1)[0].to_dict(), **change}
    with pytest.raises(EnvelopeError):
        Envelope.from_dict(data)


def test_an_intact_chain_has_no_bad_version():
    assert first_bad_version(chain(5), SEED, "g1") is None


@pytest.mark.parametrize("field, value", [
    ("payload", {"seat": 1, "number": 3}), ("time", "2026-01-01T00:00:00.000001Z"), ("actor", "system"),
    ("type", "TurnStarted"), ("hash", "0" * 64), ("prev_hash", "1" * 64), ("version", 4), ("game_id", "g2"),
])
def test_changing_any_field_of_an_event_names_that_event(field, value):
    events = chain(5)
    events[2] = dataclasses.replace(events[2], **{field: value})
    assert first_bad_version(events, SEED, "g1") == 3


def test_a_missing_or_swapped_event_is_found():
    events = chain(5)
    assert first_bad_version(events[:2] + events[3:], SEED) == 3
    assert first_bad_version([events[0], events[2], events[1]], SEED) == 2


def test_the_hashes_are_keyed_with_the_seed():
    assert first_bad_version(chain(3), "another seed") == 1
    assert chain(1, "a")[0].hash != chain(1, "b")[0].hash


def test_the_commitment_matches_its_seed_only():
    assert commitment_matches(seed_commitment(SEED), SEED)
    assert not commitment_matches(seed_commitment(SEED), SEED + "x")
    assert SEED not in seed_commitment(SEED)
