"""Colour is never the only signal, and never too faint (issue 25 point 7), checked without a browser:

- the seats' colours as GET /vocabulary serves them (server/colours.py) stay at least CIEDE2000 20
  apart, pair by pair, for normal vision and under simulated protanopia, deuteranopia and
  tritanopia (Machado, Oliveira & Fernandes 2009, severity 1, applied in linear sRGB);
- the letter drawn on each piece reads at 4.5:1 on its colour (WCAG 2 contrast);
- the text the board's SVG draws (square names, coordinates), which axe-core does not check,
  reads at 4.5:1 on every square it sits on (colours parsed from web/css/app.css).

The HTML text of every page is checked in the browser by axe-core (tests/web/axe.py).
"""
from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from server.colours import SEAT_COLOURS

CSS = Path(__file__).resolve().parents[2] / "web" / "css" / "app.css"
MACHADO = {      # severity 1.0, rows give the simulated linear R, G, B
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = {"normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)), **MACHADO}
SEAT_APART = 20.0
TEXT_CONTRAST = 4.5


def linear(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return r, g, b


def simulate(rgb: tuple[float, float, float], matrix) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix)
    return r, g, b


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear sRGB colour."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0 if not c1p * c2p else (h2p - h1p + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = (-math.sin(math.radians(60 * math.exp(-((h_mean - 275) / 25) ** 2)))
           * 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7)))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def contrast(first: str, second: str) -> float:
    def luminance(colour: str) -> float:
        r, g, b = linear(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def css_value(selector: str, prop: str) -> str:
    """The value of `prop` in the stylesheet's rule for exactly `selector`, custom properties resolved."""
    text = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    found = None
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        if selector in (s.strip() for s in selectors.split(",")):
            for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
                if name == prop:
                    found = value.strip()
    assert found, f"no {prop} for {selector} in {CSS.name}"
    variable = re.fullmatch(r"var\((--[\w-]+)\)", found)
    return css_value(":root", variable.group(1)) if variable else found


def test_ciede2000_matches_the_published_test_data():
    """Pairs from Sharma, Wu & Dalal's table of test data (ΔE00 to four places)."""
    for first, second, expected in [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                    ((50, -1.3802, -84.2814), (50, 0, -82.7485), 1.0000),
                                    ((50, 2.5, 0), (73, 25, -18), 27.1492),
                                    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082)]:
        assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", VISIONS)
def test_the_seats_colours_stay_apart_for_colour_blind_players(vision):
    matrix = VISIONS[vision]
    seen = {c["name"]: lab(simulate(linear(c["fill"]), matrix)) for c in SEAT_COLOURS}
    gaps = {(a, b): round(ciede2000(seen[a], seen[b]), 1) for a, b in itertools.combinations(seen, 2)}
    print(vision, gaps)
    assert min(gaps.values()) >= SEAT_APART, gaps


def test_each_piece_carries_its_colours_letter_readable_on_it():
    assert len({c["letter"] for c in SEAT_COLOURS}) == len(SEAT_COLOURS)
    for c in SEAT_COLOURS:
        assert contrast(c["text"], c["fill"]) >= TEXT_CONTRAST, c


def test_the_boards_own_text_reads_on_every_square():
    squares = [css_value(sel, "fill") for sel in (".sq-bg", ".sq-central .sq-bg", ".sq-red .sq-bg", ".sq-green .sq-bg")]
    name = css_value(".sq-name", "fill")
    for square in squares:
        assert contrast(name, square) >= TEXT_CONTRAST, (name, square, contrast(name, square))
    coord, wood = css_value(".coord", "fill"), css_value(".board-bg", "fill")
    assert contrast(coord, wood) >= TEXT_CONTRAST, (coord, wood)
    for background in (css_value(":root", "--paper"), css_value(":root", "--panel"), css_value(".tag", "background")):
        assert contrast(css_value(":root", "--muted"), background) >= TEXT_CONTRAST, background
