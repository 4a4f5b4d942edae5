"""The fast plan enumeration (engine/smartphone_inc/decisions.py) gives exactly what the
slow reference implementation gave: the same distinct outcomes, in the same order, with
the same plans (SI-PLAN-06..10, SI-TECH-13).

The reference (the enumeration the fast one replaced, issue 9) was a frozen copy of the
old module; its output is kept here as digests (:data:`REFERENCE`), computed by it before
it was retired (issue 38: a whole module written twice, and seconds of every run).

Also: the shipped geometry tables (engine/smartphone_inc/outcome_tables.py) are the
computed ones, ``distinct_effects`` is the planner's list of distinct effects, and the
greedy player picks the same plan from it as from every outcome.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

import pytest
from si_support import new_game

from engine import IllegalAction
from engine.smartphone_inc import decisions as D
from engine.smartphone_inc import greedy, outcome_tables, pads

SIX = ["S-green", "I03", "I12", "I20", "I24", "I07"]
CASES = [
    ([], False),
    ([], True),
    (["I07"], True),
    (["I24", "I07"], False),
    (["S-green", "I03", "I12"], False),
    (["S-green", "I03", "I12"], True),
    (SIX, False),
    (SIX, True),
    (["S-red", "I01", "I05", "I09", "I13", "I17", "I21", "I25"], False),  # more than the Pads hold
]


_FIELDS = itemgetter("active", "covered", "face_down")


def _without(items: Sequence[dict[str, Any]], key: str) -> list[tuple[Any, ...]]:
    """Each item's (active, covered, face down), the item checked to hold these and ``key``
    (its "ref" or its "plan") and nothing else."""
    keys = {"active", "covered", "face_down", key}
    assert all(o.keys() == keys for o in items)
    return list(map(_FIELDS, items))


def _effect(o: dict[str, Any]) -> tuple[int, ...]:
    a = o["active"]
    return (
        a["up"] - a["down"], a["up"] + a["down"], a["prod"] + o["covered"] + o["face_down"],
        a["improve"], a["research"], a["logistics"],
    )


# Per case: how many outcomes, the digest of every outcome (with its plan) in order, and the
# digest of the first outcome of each effect (in order), as the reference enumerated them.
REFERENCE: dict[tuple[tuple[str, ...], bool], tuple[int, str, str]] = {
    ((), False): (87, '16abd531376de5752c52e86a8ceaee94', '63ea7390be718a8ffbbe93380896883e'),
    ((), True): (87, '16abd531376de5752c52e86a8ceaee94', '63ea7390be718a8ffbbe93380896883e'),
    (('I07',), True): (885, '35422207836a65b6c9d402ad7da0ef75', 'b0cecb3ae4249675949e0547ac0a4501'),
    (('I24', 'I07'), False): (2961, '9892826415f1e5c6cab5fb7914404eb4', 'ae3ce538530de3ad8a2e7d12959e0859'),
    (('S-green', 'I03', 'I12'), False): (5240, '069157892cc695b2f4767d852acbdea8', '4bad49ea70d5c9f5b72c620672aeac44'),
    (('S-green', 'I03', 'I12'), True): (9138, 'd5ba14ed4a5112caa0722bba7bb382d3', '039d99b9c37d7d8c790ef275874bd547'),
    (('S-green', 'I03', 'I12', 'I20', 'I24', 'I07'), False): (25583, '103663634ea566a4cfa0481aacaac849', 'eb5e4046a6e606b81a37a33a31d51cda'),
    (('S-green', 'I03', 'I12', 'I20', 'I24', 'I07'), True): (65188, '8d993b34e9498c6aed2c8fae041515df', '5ab357a63f3e0257d0ecab6807e8cf11'),
    (('S-red', 'I01', 'I05', 'I09', 'I13', 'I17', 'I21', 'I25'), False): (48004, '269cff6009df6c63627c7088d40c4571', '9debead6dca968dc84c64a1d715ede78'),
}


_JSON = json.JSONEncoder(separators=(",", ":"))  # json.dumps(item, separators=...), one encoder for all


def digest(items: list[dict[str, Any]]) -> str:
    """The sha256 of each item's compact JSON and a newline, in order (the reference's digest)."""
    h = hashlib.sha256()
    encode = _JSON.encode
    for item in items:
        h.update(encode(item).encode())
        h.update(b"\n")
    return h.hexdigest()[:32]


@pytest.fixture(scope="module")
def every() -> dict[tuple[tuple[str, ...], bool], list[dict[str, Any]]]:
    """The fast enumeration's outcomes, with their plans, per case."""
    return {(tuple(owned), g): list(D.distinct_outcomes(owned, g)) for owned, g in CASES}


@pytest.fixture(scope="module")
def refs() -> dict[tuple[tuple[str, ...], bool], list[dict[str, Any]]]:
    """The fast enumeration's outcomes, with refs instead of plans, per case."""
    return {(tuple(owned), g): list(D.distinct_outcomes(owned, g, with_plans=False)) for owned, g in CASES}


@pytest.mark.parametrize(("owned", "has_4g"), CASES)
def test_same_outcomes_order_and_plans_as_the_reference_SI_PLAN_10_SI_TECH_13(owned, has_4g, every, refs):
    """SI-PLAN-10, SI-TECH-13: same distinct outcomes, same order, same plans as before."""
    count, whole, _firsts = REFERENCE[(tuple(owned), has_4g)]
    outs = every[(tuple(owned), has_4g)]
    assert len(outs) == count
    assert digest(outs) == whole
    items = refs[(tuple(owned), has_4g)]
    assert _without(items, "ref") == _without(outs, "plan")
    step = max(1, len(items) // 150)
    for i in list(range(0, len(items), step)) + [len(items) - 1]:
        assert D.outcome_plan(owned, has_4g, items[i]["ref"]) == outs[i]["plan"]


@pytest.mark.parametrize(("owned", "has_4g"), CASES)
def test_distinct_effects_are_the_first_outcome_of_each_effect_SI_PLAN_10(owned, has_4g, every):
    """SI-PLAN-10: one outcome per effect, the first of each in the outcome order, same plans."""
    _count, _whole, firsts = REFERENCE[(tuple(owned), has_4g)]
    outs = every[(tuple(owned), has_4g)]
    first: dict[tuple[int, ...], int] = {}
    for i, o in enumerate(outs):
        first.setdefault(_effect(o), i)
    expected = [outs[i] for i in sorted(first.values())]
    assert digest(expected) == firsts
    effects = D.distinct_effects(owned, has_4g)
    assert _without(effects, "ref") == _without(expected, "plan")
    step = max(1, len(effects) // 60)
    for j in range(0, len(effects), step):
        assert D.outcome_plan(owned, has_4g, effects[j]["ref"]) == expected[j]["plan"]


def test_outcome_plan_refuses_what_is_not_an_outcome_SI_PLAN_10(refs):
    """SI-PLAN-10: a ref that is no outcome of these Improvements is refused, not guessed."""
    items = refs[(tuple(SIX), False)]
    keys = {o["ref"] for o in items}
    missing = next(k for k in range(min(keys), max(keys)) if k not in keys)
    for bad in (missing, 12345, 1 << 60, -1, True, "3"):
        with pytest.raises(IllegalAction):
            D.outcome_plan(SIX, False, bad)
    # with 4G there are more outcomes: one of them is not reachable without 4G
    extra = {o["ref"] for o in refs[(tuple(SIX), True)]} - keys
    with pytest.raises(IllegalAction):
        D.outcome_plan(SIX, False, min(extra))
    plan = D.outcome_plan(SIX, True, min(extra))
    pads.validate_plan(plan, SIX, True)


def test_refs_do_not_depend_on_owned_order_or_duplicates_SI_PLAN_10():
    a = D.distinct_outcomes(["I07", "I24"], True, with_plans=False)
    b = D.distinct_outcomes(["I24", "I07", "I24"], True, with_plans=False)
    assert a == b


@pytest.mark.parametrize("has_4g", [False, True])
def test_shipped_tables_are_the_computed_ones(has_4g):
    """The data file is current: same rows, same order, for the small tables (the large
    ones take seconds each; ``python -m engine.smartphone_inc.outcome_tables_build`` rebuilds all)."""
    assert outcome_tables.load(has_4g, 0) is not None, "outcome_tables.bin is missing or stale"
    for n in range(4):
        shipped = outcome_tables.load(has_4g, n)
        computed = D._computed_outcome_table(has_4g, n)
        assert shipped == {fh: (g[0], g[1]) for fh, g in sorted(computed.items())}


def test_shipped_tables_stop_changing_where_the_file_says():
    """Without 4G at most 6 Improvements lie on the Pads: 7 and more read the table of 6."""
    assert outcome_tables.load(False, 7) == outcome_tables.load(False, 6)
    computed = D._computed_outcome_table(False, 7)
    assert outcome_tables.load(False, 7) == {fh: (g[0], g[1]) for fh, g in sorted(computed.items())}


def test_stale_tables_are_computed_instead(monkeypatch):
    """If the Pads change, the shipped file is ignored, never used wrongly."""
    monkeypatch.setattr(outcome_tables, "fingerprint", lambda: "changed")
    outcome_tables._header.cache_clear()
    try:
        assert outcome_tables.load(False, 2) is None
    finally:
        monkeypatch.undo()
        outcome_tables._header.cache_clear()
    assert outcome_tables.load(False, 2) is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_picks_the_same_plan_as_over_every_outcome_SI_PLAN_10(seed, refs):
    """The greedy player's score reads only the effect, so its pick is unchanged."""
    state = new_game(3, seed=seed)
    for seat in state["seats"]:
        for owned, has_4g in ((SIX, True), (["S-green", "I03", "I12"], False)):
            score = greedy.plan_scorer(state, seat)
            every = max(refs[(tuple(owned), has_4g)], key=score)  # every outcome, listed once
            few = max(D.distinct_effects(owned, has_4g), key=score)
            assert few["ref"] == every["ref"]
        state = copy.deepcopy(state)
        action = greedy.greedy_action(state, seat)
        pads.validate_plan(action["plan"], state["players"][seat]["improvements"], False)


@pytest.mark.parametrize("with_plans", [True, False])
def test_outcomes_read_one_by_one_are_the_ones_listed_SI_PLAN_10(with_plans, every, refs):
    """SI-PLAN-10: the lazy sequence gives, read by index or slice, the outcomes it lists
    in bulk; each read is a new dict (changing it changes nothing)."""
    outs = D.distinct_outcomes(SIX, True, with_plans=with_plans)
    every = (every if with_plans else refs)[(tuple(SIX), True)]  # listed in bulk, by the fixtures
    assert len(outs) == len(every) > 60_000
    step = len(outs) // 97
    for i in range(0, len(outs), step):
        assert outs[i] == every[i]
    assert outs[-1] == every[-1] and outs[-len(outs)] == every[0]
    assert outs[10:40:3] == every[10:40:3]
    with pytest.raises(IndexError):
        outs[len(outs)]
    outs[5]["active"]["up"] = 99
    assert outs[5] == every[5]
    assert outs == every and outs != every[:-1]
