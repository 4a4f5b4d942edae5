"""Upgrades of a saved Smartphone Inc. state, one schema step at a time (1 -> 2 -> ...).

``upgrade(state)`` brings a state saved by older code to :data:`versions.SCHEMA`; the
game's ``load`` applies it. Each step is a pure function of the state (never mutates
its input) that changes the shape only: the rules the game runs under stay those it
started with (``state["rules"]``). A state newer than this code is refused
(:class:`engine.errors.StateTooNew`).

Adding a step: bump ``versions.SCHEMA``, write ``_to_N`` here, register it in
``STEPS``, test it on a state of the version before (tests/test_upgrade.py), and make
the set-up write the new shape directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import StateTooNew
from engine.jsonstate import clone
from engine.smartphone_inc.versions import RULES, SCHEMA

State = dict[str, Any]


def _to_2(state: State) -> State:
    """Schema 1 -> 2: record the rules version the game started under. Every game saved
    with schema 1 was set up under rules version 1."""
    new = clone(state)
    new["rules"] = int(new.get("rules", 1))
    new["schema"] = 2
    return new


# schema n -> the step that makes it n + 1
STEPS: dict[int, Callable[[State], State]] = {1: _to_2}


def schema_of(state: Any) -> int:
    if not isinstance(state, dict):
        raise ValueError("not a Smartphone Inc. state")
    schema = state.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int) or schema < 1:
        raise ValueError("not a Smartphone Inc. state (no schema version)")
    return schema


def check_rules(rules: Any) -> int:
    """The rules version ``rules``, if this code can play it."""
    if isinstance(rules, bool) or not isinstance(rules, int) or rules < 1:
        raise ValueError(f"not a Smartphone Inc. rules version: {rules!r}")
    if rules > RULES:
        raise StateTooNew(
            f"this game runs under Smartphone Inc. rules version {rules}, but this boardroom"
            f" knows the rules only up to version {RULES}: upgrade boardroom to play it"
        )
    return rules


def upgrade(state: State) -> State:
    """``state`` brought to the current schema (the same object if it already is)."""
    schema = schema_of(state)
    if schema > SCHEMA:
        raise StateTooNew(
            f"this Smartphone Inc. game was saved by a newer boardroom (state schema {schema};"
            f" this one reads up to {SCHEMA}): upgrade boardroom to go on with it"
        )
    while schema < SCHEMA:
        state = STEPS[schema](state)
        schema = schema_of(state)
    check_rules(state.get("rules", 1))
    return state
