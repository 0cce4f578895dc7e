"""What makes a refusal's `detail` plain words: one sentence a player reads, with no server jargon.

`faults(text)` lists what is wrong with a text (empty when it is fine). It is used on the texts as
written in the code (tests/server/test_plain_words.py) and on the answers the server really gives
(there and in tests/server/test_malformed.py).
"""
from __future__ import annotations

import re

SQUARE_FIRST = re.compile(r"^[a-j]\d{1,2}\b")                 # "c5 is not empty; ..." starts with a square
SNAKE = re.compile(r"(?<!\w)[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?!\w)")
JARGON = [
    (re.compile(r"\bstale\b", re.I), "says 'stale'"),
    (re.compile(r"\bversions? \d", re.I), "speaks of version numbers"),
    (re.compile(r"\bredis\b", re.I), "names the store"),
    (re.compile(r"\b(None|True|False|NoneType|Traceback)\b"), "shows Python"),
    (re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception)\b"), "names an exception"),
    (re.compile(r"\b(webargs|marshmallow|werkzeug|cards\.json)\b", re.I), "names a library or file"),
    (re.compile(r"[{}]"), "shows a brace"),
]


def faults(text: object) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        return ["is empty"]
    found = []
    if not (text[0].isupper() or text[0].isdigit() or text[0] in "'\"" or SQUARE_FIRST.match(text)):
        found.append("does not start a sentence")
    if not re.search(r"[.!?]\)?$", text):
        found.append("does not end a sentence")
    found += [f"has snake_case {word!r}" for word in SNAKE.findall(text)]
    found += [why for pattern, why in JARGON if pattern.search(text)]
    return found
