"""A picture of a position as SVG: the cut-corner board, coloured and central squares, pieces."""
from __future__ import annotations

from html import escape

from engine.geometry import CENTRAL, COORD, GREEN, RED, SQUARES

from .colours import SEAT_COLOURS

CELL = 48
MARGIN = 24
RADIUS = {"common": 14, "heroic": 17, "legendary": 20}


def _square(sq: str) -> str:
    x, y = COORD[sq]
    fill = "#f2b8ad" if sq in RED else "#b9e0a5" if sq in GREEN else "#e9dfc8" if sq in CENTRAL else "#f7f1e3"
    px, py = MARGIN + (x - 1) * CELL, MARGIN + (y - 1) * CELL
    return (f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a7f6a"/>'
            f'<text x="{px + 3}" y="{py + 11}" font-size="9" fill="#8a7f6a">{sq}</text>')


def _piece(p: dict, gateway: str | None) -> str:
    x, y = COORD[p["square"]]
    cx, cy = MARGIN + (x - 0.5) * CELL, MARGIN + (y - 0.5) * CELL
    colour = SEAT_COLOURS[p["color"] % len(SEAT_COLOURS)]["fill"]
    r = RADIUS[p["rank"]]
    ring = {"common": "", "heroic": f'<circle cx="{cx}" cy="{cy}" r="{r - 5}" fill="none" stroke="#fff" stroke-width="2"/>',
            "legendary": f'<text x="{cx}" y="{cy + 6}" font-size="18" text-anchor="middle" fill="#fff">&#9733;</text>'}
    gate = (f'<circle cx="{cx}" cy="{cy}" r="{r + 4}" fill="none" stroke="#6a2c91" stroke-width="3"/>'
            if p["square"] == gateway else "")
    return (f'<g><title>{escape(p["square"])}: seat {p["seat"]} {p["rank"]}</title>'
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}" stroke="#222"/>{ring[p["rank"]]}{gate}</g>')


def render(view: dict) -> str:
    size = 2 * MARGIN + 9 * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
             f'<rect width="{size}" height="{size}" fill="#3b3325"/>']
    parts += [_square(sq) for sq in SQUARES]
    parts += [_piece(p, view.get("gateway")) for p in view["board"]]
    parts.append("</svg>")
    return "".join(parts)
