"""The engine's wiring: no import cycles, one op per word, watchers given to the context."""
from __future__ import annotations

import pytest

import engine
from engine.context import Context
from engine.effects.interpreter import OPS
from engine.effects.registry import op_table
from engine.effects.words import all_steps, card_parts
from engine.effects import linked, ops_flow, ops_frost, ops_gateway, ops_move, ops_targets, ops_turn, ops_warp
from events.snapshots import ENGINE_DIR, imports_of


def _modules() -> list[str]:
    out = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        parts = list(path.relative_to(ENGINE_DIR.parent).with_suffix("").parts)
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (as the path around it), or None."""
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for other in sorted(graph.get(name, ())):
            found = walk(other, path + [name])
            if found:
                return found
        done.add(name)
        return None

    for name in graph:
        found = walk(name, [])
        if found:
            return found
    return None


def test_the_engine_has_no_import_cycle():
    """Every import counts: at the top, inside a function, under TYPE_CHECKING. The package's own
    __init__ (the public API, which imports everything) is the one module nothing else imports."""
    graph = {m: imports_of(ENGINE_DIR, m) for m in _modules()}
    assert not any("engine" in targets for m, targets in graph.items() if m != "engine")
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_op_table_holds_every_op_of_every_module_once():
    tables = [t.OPS for t in (ops_targets, ops_move, ops_flow, ops_gateway, ops_turn, ops_frost, ops_warp, linked)]
    assert sum(len(t) for t in tables) == len(OPS)
    with pytest.raises(ValueError, match="'convert' is defined twice"):
        op_table(ops_targets.OPS, {"convert": ops_frost.OPS["freeze_from_discard"]})
    with pytest.raises(TypeError):
        OPS["convert"] = None                       # read-only: no module can change it later


def test_every_word_of_the_card_data_has_an_op():
    used = {step.op for _, steps in card_parts(engine.CARDS) for step in all_steps(steps)}
    assert used <= set(OPS)
    assert len(used) > 30, "every part of every card is walked"


def test_the_context_runs_the_watchers_it_is_given_and_no_others():
    seen = []
    ctx = Context({"phase": "play"}, [lambda c, e: seen.append(e["type"])])
    ctx.emit("CommandAccepted", seat=0, command={"type": "end_turn"})
    assert seen == ["CommandAccepted"]
    assert Context({}).watchers == ()
