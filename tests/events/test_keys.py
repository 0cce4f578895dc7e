import pytest
from redis.crc import key_slot

from events import keys


def all_keys(game_id: str) -> list[str]:
    return [*keys.game_keys(game_id), keys.idempotency(game_id, "k-1"), keys.no_idempotency(game_id),
            keys.meta(game_id, "seats")]


def test_every_key_of_a_game_carries_its_id_as_the_hash_tag():
    for key in all_keys("g_42-x"):
        assert "{g_42-x}" in key
        assert key_slot(key.encode()) == key_slot(b"g_42-x")


def test_two_games_keys_do_not_collide():
    assert not set(all_keys("a1")) & set(all_keys("a2"))


@pytest.mark.parametrize("bad", ["", "a}b", "{a}", "a:b", "a b", "é", "x" * 65, None])
def test_game_ids_that_could_move_the_hash_tag_are_refused(bad):
    with pytest.raises(keys.InvalidKeyPart):
        keys.log(bad)


@pytest.mark.parametrize("bad", ["", "a:b", "k}", "x" * 129])
def test_idempotency_keys_are_letters_digits_dash_underscore(bad):
    with pytest.raises(keys.InvalidKeyPart):
        keys.idempotency("g1", bad)


def test_the_placeholder_for_no_idempotency_key_is_no_valid_key():
    placeholder = keys.no_idempotency("g1")
    assert placeholder.startswith(keys.idempotency("g1", "x")[:-1])
    assert not keys.valid_idempotency_key(placeholder.rsplit(":", 1)[1])


def test_meta_names_are_short_lower_case_words():
    assert keys.meta("g1", "seat_tokens") == "arena:{g1}:meta:seat_tokens"
    with pytest.raises(keys.InvalidKeyPart):
        keys.meta("g1", "Seats!")
