"""Security headers on every response: what a browser may load, run, frame and send along.

The web client (web/) is plain modules and a stylesheet from this origin, built with DOM calls and
text nodes only, so the policy allows nothing else: no inline script or style, no other origin,
no framing (clickjacking), no plugins. A page that needs an inline style of its own (the API
reference at /docs) passes its hash with `allow_inline_style`.
"""
from __future__ import annotations

import base64
import hashlib

from flask import Flask, Response

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'{style}; img-src 'self'; connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",          # tokens travel in the fragment of join links; keep URLs home
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
CSP = "Content-Security-Policy"


def policy(style_hashes: tuple[str, ...] = ()) -> str:
    return POLICY.format(style="".join(f" 'sha256-{h}'" for h in style_hashes))


def allow_inline_style(response: Response, css: str) -> Response:
    """Let this response's one inline <style> element (exactly `css`) apply."""
    digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
    response.headers[CSP] = policy((digest,))
    return response


def _secure(response: Response) -> Response:
    response.headers.setdefault(CSP, policy())
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def register(app: Flask) -> None:
    app.after_request(_secure)
