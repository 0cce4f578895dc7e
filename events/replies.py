"""Redis replies as text, whatever the client's `decode_responses` setting: the store's clients
answer bytes, the async tier's and some tests' answer str."""
from __future__ import annotations

from typing import Any


def text(value: Any) -> str:
    """A reply as str: bytes decoded as UTF-8, a number written out, nothing ('' for a missing key)."""
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None else str(value)


def text_or_none(value: Any) -> str | None:
    """As `text`, but a missing key (None) stays None."""
    return None if value is None else text(value)
