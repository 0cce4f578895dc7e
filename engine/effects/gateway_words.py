"""The Nethervoid words of selections (CARDS.md 3, RULES.md 13.1): the Gateway conditions, and the
squares 'the Gateway', 'adjacent to the Gateway', 'toward the Gateway'.

With no Gateway, every word that needs one names nothing: no square, no mover, a false condition.
select.py and ops_move.py ask these helpers; the op `set_gateway` is in ops_gateway.py.
"""
from __future__ import annotations

from .. import gateway
from ..geometry import ADJACENT, GREEN, RED, distance
from ..state import counts, enemy_colors
from .frame import Resolution


def gateway_square(res: Resolution) -> str | None:
    """The square of the resolving player's Gateway."""
    return gateway.square(res.state, res.color)


def is_gateway(res: Resolution, pid: int) -> bool:
    return pid == gateway.piece(res.state, res.color)


def around_gateway(res: Resolution) -> set[str]:
    sq = gateway_square(res)
    return set(ADJACENT[sq]) if sq else set()


def toward(res: Resolution, src: str) -> list[str]:
    """Squares next to `src` nearer the Gateway (king distance); none without a Gateway."""
    target = gateway_square(res)
    if target is None:
        return []
    return [dst for dst in ADJACENT[src] if distance(dst, target) < distance(src, target)]


def _being_is_gateway(res: Resolution) -> bool:
    return res.frame["being"] is not None and is_gateway(res, res.frame["being"])


def _gateway_elsewhere(res: Resolution) -> bool:
    return gateway_square(res) is not None and not _being_is_gateway(res)


def _no_empty_around_gateway(res: Resolution) -> bool:
    return not any(sq not in res.state["board"] for sq in around_gateway(res))


def _no_opponent_has_more(res: Resolution) -> bool:
    mine = counts(res.state, res.color)[0]
    return all(counts(res.state, c)[0] <= mine for c in enemy_colors(res.state, res.color))


CONDITIONS = {
    "gateway-on-red": lambda res, _: gateway_square(res) in RED,
    "gateway-on-green": lambda res, _: gateway_square(res) in GREEN,
    "being-is-gateway": lambda res, _: _being_is_gateway(res),
    "being-is-not-gateway": lambda res, _: not _being_is_gateway(res),
    "gateway-exists-elsewhere": lambda res, _: _gateway_elsewhere(res),
    "no-empty-square-adjacent-to-gateway": lambda res, _: _no_empty_around_gateway(res),
    "no-opponent-has-more-pieces": lambda res, _: _no_opponent_has_more(res),
}
