"""Text people type that others read (names, chat): normalised and cleaned, so that what one reader
sees is what every reader sees.

NFC first (one form for each letter, so "é" is one name however it was typed); then out go control
and format characters (bidi overrides and isolates, zero-width spaces and joiners, word joiner,
BOM), unassigned and private-use code points, and the blank fillers some scripts have; combining
marks are kept only MAX_MARKS to a letter (a letter may carry an accent or two, not a tower of them).
A chat message keeps its line breaks.
"""
from __future__ import annotations

import unicodedata

from marshmallow import ValidationError, fields

MAX_MARKS = 3
DROPPED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
BLANK_FILLERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u17b4", "\u17b5", "\u180e"}


def clean(text: str, keep_newlines: bool = False) -> str:
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        if keep_newlines and ch == "\n":
            out.append(ch)
            marks = 0
            continue
        category = unicodedata.category(ch)
        if category in DROPPED_CATEGORIES or ch in BLANK_FILLERS:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out)).strip()


class Name(fields.String):
    """A name shown to others: cleaned (clean()), then 1 to `max_length` characters."""

    def __init__(self, max_length: int = 40, **kwargs) -> None:
        super().__init__(**kwargs)
        self.max_length = max_length

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        cleaned = clean(super()._deserialize(value, attr, data, **kwargs))
        if not cleaned:
            raise ValidationError("A name needs at least one visible character.")
        if len(cleaned) > self.max_length:
            raise ValidationError(f"A name has at most {self.max_length} characters.")
        return cleaned
