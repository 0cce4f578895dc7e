"""The API document's names are frozen: every operation's path, method, tags and operationId are those
of server/operations.json, so a client generated from /openapi.json keeps its shape. An operation
added is added there too (with the id the document proposes); none is renamed or removed."""
from __future__ import annotations

import json
from pathlib import Path

FROZEN = Path(__file__).resolve().parents[2] / "server" / "operations.json"


def _operations(spec: dict) -> dict[str, dict]:
    return {f"{method.upper()} {path}": {"operationId": op["operationId"], "tags": op.get("tags", [])}
            for path, item in spec["paths"].items() for method, op in item.items()
            if isinstance(op, dict) and method != "parameters"}


def test_paths_methods_tags_and_operation_ids_are_the_frozen_ones(client):
    served = _operations(client.get("/openapi.json").json)
    frozen = json.loads(FROZEN.read_text())
    assert {k: v for k, v in frozen.items() if served.get(k) != v} == {}, "renamed or removed operations"
    assert {k: v for k, v in served.items() if k not in frozen} == {}, "new operations: add them to server/operations.json"
    ids = [op["operationId"] for op in frozen.values()]
    assert len(ids) == len(set(ids))


def test_each_operation_lists_its_own_refusals_not_every_refusal(client):
    spec = client.get("/openapi.json").json
    stats = spec["paths"]["/games/{game_id}/stats"]["get"]["responses"]
    assert set(stats) == {"200", "400", "401", "404", "409", "503"}   # no body: no 413, 415; no limit: no 429
    assert stats["400"]["x-any-endpoint"] and "x-any-endpoint" not in stats["404"]
    create = spec["paths"]["/games"]["post"]["responses"]
    assert {"413", "415", "429"} <= set(create)


def test_each_refusal_lists_the_codes_it_can_carry(client):
    spec = client.get("/openapi.json").json
    game = spec["paths"]["/games/{game_id}"]["get"]["responses"]
    assert "game_not_found" in game["404"]["x-codes"] and game["503"]["x-codes"] == ["store_unavailable"]
    command = spec["paths"]["/games/{game_id}/commands"]["post"]["responses"]
    assert command["422"].get("x-rule-codes") and "malformed_json" in command["400"]["x-codes"]
    stream = spec["paths"]["/players/me/stream"]["get"]["responses"]
    assert stream["501"]["x-codes"] == ["streams_not_served_here"]
    listed = json.loads((FROZEN.parent / "refusals.json").read_text())
    documented = _operations(spec)
    assert [op for op in listed if op not in documented] == [], "server/refusals.json names no such operation"
    assert [(op, s) for op, by in listed.items() for s in by if s not in responses(spec, op)] == []


def responses(spec: dict, operation: str) -> dict:
    method, path = operation.split(" ", 1)
    return spec["paths"][path][method.lower()]["responses"]
