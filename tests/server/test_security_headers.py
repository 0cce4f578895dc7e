"""Every response carries the security headers: CSP, nosniff, Referrer-Policy, no framing."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("path", ["/", "/play/abc", "/web/js/main.js", "/openapi.json", "/games/nope", "/docs"])
def test_every_response_says_what_a_browser_may_do_with_it(client, path):
    r = client.get(path)
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self';" in csp
    assert "unsafe-inline" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert r.headers["X-Frame-Options"] == "DENY"
