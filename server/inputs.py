"""Request bodies checked before any view reads them: JSON only, well-formed, and nothing that would
break later (in Redis, in the engine, in another client's JSON parser).

Refused with a problem+json naming what is wrong, before anything is read from or written to the
store:

- 415 `unsupported_media_type`: a body that is not `application/json` (or `+json`), but for the
  form a mail client posts to unsubscribe (FORM_PATHS);
- 400 `malformed_json`: not UTF-8, not JSON, nested deeper than MAX_DEPTH, an integer of more than
  MAX_INT_DIGITS digits, a number that is not finite (NaN, Infinity, 1e400), or a string holding a
  lone surrogate (not Unicode, so it cannot be stored or sent).

The views (webargs) parse the body again; a body passed here parses the same way there.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Flask, request

from .errors import ApiError

MAX_DEPTH = 32
MAX_INT_DIGITS = 20
SURROGATE = re.compile("[\ud800-\udfff]")
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")
FORM_PATHS = ("/email/unsubscribe",         # RFC 8058 one-click unsubscribing posts a form
              "/accounts/password-reset/confirm")    # so does the password reset page
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class Malformed(ValueError):
    """What is wrong with a JSON text, said for its sender."""


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise Malformed(f"an integer has {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Malformed(f"the number {text[:40]} is too large")
    return value


def _constant(name: str) -> Any:
    raise Malformed(f"{name} is not a JSON number")


def loads(data: bytes | str) -> Any:
    """The JSON value of `data`, or Malformed saying what is wrong with it."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as err:
        raise Malformed(f"the body is not UTF-8 (byte {err.start})") from None
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise Malformed(f"JSON nested more than {MAX_DEPTH} levels deep") from None
    except Malformed:
        raise
    except ValueError as err:
        raise Malformed(f"not JSON: {err}") from None
    _check(value)
    return value


def _check(value: Any) -> None:
    """Depth and strings of a parsed value, without recursion (so no depth can overflow the stack)."""
    stack = [(value, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise Malformed(f"JSON nested more than {MAX_DEPTH} levels deep (at {path or 'the top'})")
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                if isinstance(key, str) and SURROGATE.search(key):
                    raise Malformed(f"a key at {path or 'the top'} is not valid Unicode (a lone surrogate)")
                stack.append((child, depth + 1, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, str) and SURROGATE.search(item):
            raise Malformed(f"{path or 'the body'} is not valid Unicode (a lone surrogate)")


def is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def _check_body() -> None:
    if request.method not in BODY_METHODS or not _has_body():
        return
    if request.path in FORM_PATHS and request.mimetype in FORM_TYPES:
        return
    if not is_json(request.mimetype):
        raise ApiError(415, "unsupported_media_type",
                       f"The server reads only JSON: send the body as application/json, not "
                       f"{request.mimetype or 'without a Content-Type'}.")
    try:
        loads(request.get_data(cache=True))
    except Malformed as err:
        raise ApiError(400, "malformed_json", f"The request could not be read ({str(err).replace('_', ' ')}); "
                       "send it again as plain JSON.") from None


def _has_body() -> bool:
    if request.content_length is not None:
        return request.content_length > 0
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def register(app: Flask) -> None:
    """Check every request body (after the body size cap of server/limits.py)."""
    app.before_request(_check_body)
