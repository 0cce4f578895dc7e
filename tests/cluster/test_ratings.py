"""Ratings in each player's own slot: a game counts once per player, and two games rated at the same
time for one player both count (the later one's change is applied on top of the earlier's)."""
from __future__ import annotations

import uuid

from events import keys
from events import ratings as kept
from workers import ratings


def rows(winner: str, loser: str) -> list[dict]:
    return [{"seat": 0, "place": 1, "player": winner, "color": 0}, {"seat": 1, "place": 2, "player": loser, "color": 1}]


def test_a_game_counts_once_and_concurrent_games_both_count(cluster_client):
    ann, bob, cat = (f"p{uuid.uuid4().hex[:12]}" for _ in range(3))
    first, second = f"g{uuid.uuid4().hex[:12]}", f"g{uuid.uuid4().hex[:12]}"
    plan_one = ratings._plan(cluster_client, first, rows(ann, bob))         # both planned from fresh ratings ...
    plan_two = ratings._plan(cluster_client, second, rows(ann, cat))
    ratings.rate(cluster_client, first, rows(ann, bob))                     # ... then applied one after the other
    ratings.rate(cluster_client, second, rows(ann, cat))
    ratings.rate(cluster_client, first, rows(bob, ann))                     # again (rows ignored): nothing changes
    after = kept.rating_of(cluster_client, ann)
    gain_one = plan_one["raw"][ann]["after"]["mu"] - plan_one["raw"][ann]["before"]["mu"]
    gain_two = plan_two["raw"][ann]["after"]["mu"] - plan_two["raw"][ann]["before"]["mu"]
    assert after["games"] == 2
    assert abs(after["mu"] - (ratings.MODEL.mu + gain_one + gain_two)) < 1e-3
    assert kept.rating_of(cluster_client, bob)["games"] == kept.rating_of(cluster_client, cat)["games"] == 1
    assert set(cluster_client.hkeys(keys.rated(ann))) == {first.encode(), second.encode()}


def test_a_rating_of_an_older_version_is_read_until_the_player_is_rated_again(cluster_client):
    dan = f"p{uuid.uuid4().hex[:12]}"
    cluster_client.hset(keys.legacy_ratings(), dan, '{"mu": 30.0, "sigma": 5.0, "games": 7}')
    assert kept.rating_of(cluster_client, dan)["games"] == 7
    ratings.rate(cluster_client, f"g{uuid.uuid4().hex[:12]}", rows(dan, f"p{uuid.uuid4().hex[:12]}"))
    assert kept.rating_of(cluster_client, dan)["games"] == 8
    assert kept.rating_of(cluster_client, dan)["mu"] > 30.0
