"""The per-process memory of hot reads: entries expire after their ttl, the oldest go beyond the
size; a seat token's seat is remembered, a token not found is asked again (an invitation accepted
later adds its token), and a live game is written at most once per refresh period."""
from __future__ import annotations

from events import keys, presence, tokens
from events.memo import Memo


def test_entries_expire_and_the_oldest_go_first():
    now = [0.0]
    memo: Memo[int] = Memo(size=2, ttl=10, clock=lambda: now[0])
    memo.put("a", 1)
    memo.put("b", 2)
    memo.put("c", 3)
    assert (memo.get("a"), memo.get("b"), memo.get("c")) == (None, 2, 3)
    now[0] = 10.0
    assert memo.get("b") is None


def test_a_seat_is_remembered_and_an_unknown_token_is_asked_again(redis_client, game_id):
    issued = tokens.issue_seat_tokens(redis_client, game_id, 2, skip=[1])
    assert tokens.seat_of(redis_client, game_id, issued[0]) == 0
    redis_client.delete(keys.seat_tokens(game_id))
    assert tokens.seat_of(redis_client, game_id, issued[0]) == 0           # remembered: no lookup
    late = tokens.new_token()
    assert tokens.seat_of(redis_client, game_id, late) is None
    redis_client.hset(keys.seat_tokens(game_id), tokens.token_hash(late), 1)   # e.g. an invitation accepted
    assert tokens.seat_of(redis_client, game_id, late) == 1


def test_a_game_moved_in_again_at_once_is_not_written_again(redis_client, game_id):
    presence.mark_live(redis_client, game_id)
    presence.not_live(redis_client, game_id)
    presence.mark_live(redis_client, game_id)
    assert game_id not in presence.live(redis_client, 1000)
    presence.mark_live(redis_client, game_id, now=5.0)                    # an explicit time is always written
    assert game_id in presence.live(redis_client, 1000)
