"""Write engine/data/cards.json, the project's own card data, from the card reference.

The reference (tools/reference/cards.json, every card with its traceability and prose) lives in the
repository: it is the source of truth the engine's data is built from and checked against, so a
checkout alone can rebuild and check the cards.

Why a build step: the reference file carries traceability and prose the engine does not need, and a
few rules are only free text there (`limit`). This script keeps what the engine reads, rewrites
those free-text limits as structured fields, and is re-run whenever the reference changes.
tests/engine/test_card_data.py checks the result against the reference card by card.

    python tools/build_card_data.py [path/to/reference/cards.json]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT / "tools" / "reference" / "cards.json"
OUTPUT = ROOT / "engine" / "data" / "cards.json"

# Free-text `limit`s of the reference, as structured fields the interpreter reads.
LIMITS = {
    "if three moves are made, at least one is made by the Warlord": {"last_move_by_self": True},
    "at most one of the moves may be a combat move; all moves are made by the same piece": {"combat_allowance": 1},
    "at most one combat move and at most one standard move; may be different pieces": {"combat_allowance": 1},
    "at most two chosen pieces of one colour; different pieces": {"max_per_color": 2},
}


def _steps(steps: list[dict]) -> list[dict]:
    out = []
    for step in steps:
        step = dict(step)
        step.pop("note", None)
        limit = step.pop("limit", None)
        if limit is not None:
            step.update(LIMITS.get(limit, {"limit": limit}))
        if "options" in step:
            step["options"] = [{"label": o["label"], "steps": _steps(o["steps"])} for o in step["options"]]
        if "steps" in step:
            step["steps"] = _steps(step["steps"])
        out.append(step)
    return out


def _half(half: dict | None) -> dict | None:
    if not half:
        return None
    out = {"summary": half["effect"], "steps": _steps(half["effect_steps"])}
    if "threshold" in half:
        out["threshold"] = half["threshold"]
    return out


def _being(card: dict) -> dict:
    out = {
        "id": card["id"], "name": card["name"], "deck": card["deck"], "kind": "being",
        "rank": card["rank"], "anchor": card.get("pattern_anchor", "being"),
        "pattern": [[c["x"], c["y"], c["rank"]] for c in card["pattern"]],
        "own_square": card["being_square_min_rank"] if card.get("being_square_must_be_own_piece") else None,
        "marked": [[m["x"], m["y"], m["kind"]] for m in card.get("marked", [])],
        "symmetry": card.get("symmetry", 8),
        "summary": card["effect"], "steps": _steps(card["effect_steps"]),
    }
    for extra in ("frozen_effect", "warp_effect"):
        if card.get(extra):
            out[extra.split("_")[0]] = _half(card[extra])
    return out


def _flare(card: dict) -> dict:
    return {"id": card["id"], "name": card["name"], "deck": "flares", "kind": "flare",
            "upper": _half(card["upper"]), "lower": _half(card["lower"])}


def _task(card: dict) -> dict:
    return {"id": card["id"], "name": card["name"], "deck": "tasks", "kind": "task", "type": card["type"],
            "advanced": card["advanced"], "points": card["points"], "summary": card["condition"],
            "checks": card["condition_steps"]}


def build(reference: dict) -> dict:
    decks = []
    for deck in reference["decks"]:
        convert = {"flares": _flare, "tasks": _task}.get(deck["kind"], _being)
        decks.append({"id": deck["id"], "name": deck["name"], "kind": deck["kind"],
                      "cards": [convert(c) for c in deck["cards"]]})
    return {"format": 1, "decks": decks}


def dumps(value: object, indent: str = "") -> str:
    """JSON read like the card: objects one key a line, and a list of plain values (a pattern
    cell [x, y, rank], a list of words) on one line, so a pattern is one cell per line."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_REFERENCE
    data = build(json.loads(src.read_text()))
    OUTPUT.write_text(dumps(data) + "\n")
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {sum(len(d['cards']) for d in data['decks'])} cards")


if __name__ == "__main__":
    main()
