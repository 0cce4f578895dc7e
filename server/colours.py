"""The seats' colours, defined once: GET /vocabulary serves them to the page, which draws its
pieces, swatches and colour names with them, and the server's SVG pictures use them too.

Each colour has a letter drawn on its pieces, so that colour is never the only signal, and a text
colour for that letter. tests/test_colours.py checks that the fills stay at least CIEDE2000 20
apart under simulated protanopia, deuteranopia and tritanopia, and that each letter is readable
(contrast 4.5:1) on its fill.
"""
from __future__ import annotations

SEAT_COLOURS: tuple[dict[str, str], ...] = (
    {"name": "Blue", "letter": "B", "fill": "#3265a4", "text": "#ffffff"},
    {"name": "Red", "letter": "R", "fill": "#ba2b10", "text": "#ffffff"},
    {"name": "Yellow", "letter": "Y", "fill": "#ffe538", "text": "#1d1810"},
    {"name": "Green", "letter": "G", "fill": "#4bb47f", "text": "#1d1810"},
)


def served() -> list[dict[str, str]]:
    """The colours as GET /vocabulary lists them (index = the engine's colour number)."""
    return [dict(c) for c in SEAT_COLOURS]
