"""Where a move starts is defined once (engine/moves.py) and history, clocks and verify agree."""
from __future__ import annotations

import json
from pathlib import Path

from engine.moves import move_spans, move_starts
from server.history import move_versions
from events.clocks import batch_starts

RECORD = Path(__file__).resolve().parents[1] / "data" / "corpus" / "timeouts-duel-0.json"


def test_history_clocks_and_the_audit_count_the_same_moves_in_a_game_with_autoplay():
    events = json.loads(RECORD.read_text())["events"]
    assert any(e.get("auto") for e in events)              # autoplay played inside some moves
    envelopes = [{"version": v, "type": e["type"], "payload": {k: x for k, x in e.items() if k != "type"}}
                 for v, e in enumerate(events, start=1)]
    starts = move_starts(events)
    assert [b for b, _ in move_spans(events)] == starts
    history = [start["version"] - 1 for _, start in move_versions(envelopes, len(envelopes))[1:]]
    assert history == starts
    clocks = [env["version"] - 1 for env in envelopes if batch_starts(env["type"], env["version"], env["payload"])]
    assert clocks == [0] + starts
