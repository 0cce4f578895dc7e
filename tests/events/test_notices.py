"""The notification registry: every kind the code sends is declared once, with every rendering."""
from __future__ import annotations

import ast
from pathlib import Path

from events import notices

ROOT = Path(__file__).resolve().parents[2]
SENDERS = {"notification", "stated"}         # workers/notify.py's two ways to make a notification


def _kinds_sent() -> set[str]:
    """Every literal kind handed to notify.notification / notify.stated anywhere in the platform."""
    found: set[str] = set()
    for folder in ("events", "server", "workers"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in SENDERS and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.add(first.value)
                    elif isinstance(first, ast.IfExp):
                        found.update(v.value for v in (first.body, first.orelse) if isinstance(v, ast.Constant))
    return found


def test_every_kind_the_code_sends_is_declared():
    sent = _kinds_sent()
    assert {"your_turn", "game_over", "rematch_offer"} <= sent
    assert sent <= set(notices.KINDS)


def test_every_kind_renders_on_every_channel_with_no_field_missing():
    served = {k["kind"]: k for k in notices.served()}
    fields = {"who": "Ann", "form": "high_form", "seat": 1, "game": "g1"}
    for name, kind in notices.KINDS.items():
        assert served[name]["label"] == kind.label and kind.label
        assert notices.subject(name, **fields) and "{" not in notices.subject(name, **fields)
        assert notices.subject(name)                     # a note without its fields still has a subject
        for state in kind.texts:
            text = notices.text(name, state, **fields)
            assert text and "{" not in text and "high form" in text
