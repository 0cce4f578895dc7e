"""The op registry: every word of the step vocabulary (CARDS.md 3) bound to exactly one op.

Each ops module offers a table {op name: op}; `op_table` joins them and refuses a name offered
twice, so no table can silently take another's word (as `convert` once was). The interpreter
builds the one table and hands it to every Resolution, so ops that run other ops (linked blocks,
choices) reach it without importing the interpreter.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping

from ..card_steps import Step
from .frame import Resolution
from .outcomes import Outcome

Op = Callable[[Resolution, Step, dict[str, Any], "dict[str, Any] | None"], Outcome]


def op_table(*tables: Mapping[str, Op]) -> Mapping[str, Op]:
    """One read-only table of every op; ValueError names a word two tables both define."""
    joined: dict[str, Op] = {}
    for table in tables:
        for name, op in table.items():
            if name in joined:
                raise ValueError(f"the op {name!r} is defined twice ({joined[name].__module__}, {op.__module__})")
            joined[name] = op
    return MappingProxyType(joined)
