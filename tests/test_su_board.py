"""Smartphone Inc. Update 1.1, the 2-3 player board (option board "small"): its map
with mixed Buyers, the start decisions, the 3-space Improvement Block (SU-BRD-01..04)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from si_support import act, new_game, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import selling, technologies
from engine.smartphone_inc.data import BOARD_REGIONS, REGIONS, RETAILERS, START_VP, STARTING
from engine.smartphone_inc.game import GAME

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "smartphone_inc" / "data"


def test_three_improvements_a_round_SU_BRD_03():
    """SU-BRD-03: with the 3-space Block, 3 Improvements are available each round."""
    state = new_game(3, block_size=3)
    assert len(state["block"]) == 3 and len(state["pile"]) == 24
    state = reveal_with(state, {}, "improve")
    state = pass_turns(state, "planning")
    assert state["round"] == 2 and len(state["block"]) == 3 and len(state["pile"]) == 21


def test_mixed_buyer_either_demand_one_goods_left_to_right_SU_BRD_04():
    """SU-BRD-04: a mixed Buyer buys if either demand is met; still 1 Goods per Buyer;
    left to right, not skipped when either demand is met."""
    state = new_game(5)
    mixed = {"price": 3, "tech": "gps"}
    state["players"]["p2"]["price"] = 5
    assert not selling.willing(state, "p2", mixed)  # neither
    state["players"]["p2"]["price"] = 3
    assert selling.willing(state, "p2", mixed)  # the price
    state["players"]["p2"]["price"] = 6
    technologies.gain(state, "p2", "gps")
    assert selling.willing(state, "p2", mixed)  # the Technology
    state["players"]["p2"]["price"] = 3
    assert selling.willing(state, "p2", mixed)  # both: still one Buyer
    # a region whose first Buyer is mixed: it is served first, once
    saved = REGIONS["north-africa"]["buyers"]
    try:
        REGIONS["north-africa"]["buyers"] = [mixed, {"price": 4}, {"tech": "nfc"}, {"price": 2}]
        state["players"]["p2"]["goods"] = 3
        state["regions"]["north-africa"]["sold"] = [None] * 4
        assert selling.free_willing(state, "p2", "north-africa") == [0, 1]
        assert selling.place(state, "p2", "north-africa", 3) == 2
        assert state["regions"]["north-africa"]["sold"] == ["p2", "p2", None, None]
    finally:
        REGIONS["north-africa"]["buyers"] = saved


def small(n: int, seed: int = 1, **options) -> dict:
    return new_game(n, seed, board="small", **options)


def test_the_small_board_map():
    """The reconstructed map: 8 regions, 3 medium ones to start in, symmetric links,
    mixed Buyers; a game plays only on its board's regions."""
    data = json.loads((DATA_DIR / "map_small.json").read_text())
    ids = [r["id"] for r in data["regions"]]
    assert ids == BOARD_REGIONS["small"] and not set(ids) & set(BOARD_REGIONS["big"])
    assert sorted(r["size"] for r in data["regions"]).count("M") == 3
    assert any("price" in b and "tech" in b for r in data["regions"] for b in r["buyers"])  # mixed
    for r in data["regions"]:
        assert all(r["id"] in REGIONS[x]["links"] for x in r["links"])
    state = small(2)
    assert list(state["regions"]) == ids and state["phase"] == "start"
    assert list(new_game(2)["regions"]) == BOARD_REGIONS["big"]
    with pytest.raises(IllegalAction):
        new_game(4, board="small")
    with pytest.raises(IllegalAction):
        new_game(2, board="tiny")


def test_three_spaces_by_default_on_the_small_board_SU_BRD_03():
    """SU-BRD-03: the 2-3 player board has 3 spaces in the Improvement Block."""
    assert len(small(3)["block"]) == 3 and small(3)["options"]["block_size"] == 3
    assert len(new_game(3)["block"]) == 5


def test_the_start_decisions_SU_BRD_02_SU_BRD_01():
    """SU-BRD-02: a random first player picks a company, then the others clockwise; the
    last player chooses a starting region among the 3 M regions and (2 players) places
    the S and M Retailers (SU-BRD-01: drawn at random); then the others backwards."""
    firsts = {small(2, seed=s)["start"]["first"] for s in range(10)}
    assert firsts == {"p1", "p2"}  # random
    state = next(small(2, seed=s) for s in range(10) if small(2, seed=s)["start"]["first"] == "p2")
    rets = state["start"]["retailers"]
    assert [RETAILERS[r["id"]]["size"] for r in rets] == ["S", "M"]  # SU-BRD-01
    assert GAME.pending(state) == {"p2": {"type": "company", "colours": ["green", "blue", "black", "yellow", "red"]}}
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "company", "colour": "red"})  # not p1's turn
    state = act(state, "p2", {"type": "company", "colour": "red"})
    assert GAME.pending(state) == {"p1": {"type": "company", "colours": ["green", "blue", "black", "yellow"]}}
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "company", "colour": "red"})  # taken
    state = act(state, "p1", {"type": "company", "colour": "green"})
    mediums = [r for r in BOARD_REGIONS["small"] if REGIONS[r]["size"] == "M"]
    assert GAME.pending(state) == {"p1": {"type": "start_region", "regions": mediums}}  # the last player
    state = act(state, "p1", {"type": "start_region", "region": mediums[1]})
    prompt = GAME.pending(state)["p1"]  # then the Retailers
    smalls = [r for r in BOARD_REGIONS["small"] if REGIONS[r]["size"] == "S"]
    assert prompt["type"] == "start_retailer" and prompt["regions"] == smalls
    state = act(state, "p1", {"type": "start_retailer", "region": smalls[2]})
    prompt = GAME.pending(state)["p1"]
    assert prompt["regions"] == [mediums[0], mediums[2]]  # not on an Office
    state = act(state, "p1", {"type": "start_retailer", "region": mediums[0]})
    assert GAME.pending(state) == {"p2": {"type": "start_region", "regions": [mediums[2]]}}
    state = act(state, "p2", {"type": "start_region", "region": mediums[2]})
    # the rest of the setup as usual, then round 1
    assert state["phase"] == "planning" and state["round"] == 1 and "start" not in state
    p1, p2 = state["players"]["p1"], state["players"]["p2"]
    assert (p1["colour"], p2["colour"]) == ("green", "red")
    assert p1["improvements"] == [STARTING["green"]] and p2["improvements"] == [STARTING["red"]]
    assert p1["vp"] == START_VP["green"] and p2["vp"] == START_VP["red"]
    assert state["regions"][mediums[1]]["offices"] == ["p1"] and state["regions"][mediums[2]]["offices"] == ["p2"]
    assert state["regions"][smalls[2]]["retailer"] == rets[0] and state["regions"][mediums[0]]["retailer"] == rets[1]


def test_three_players_place_no_retailers_SU_BRD_01():
    state = small(3)
    assert state["start"]["retailers"] == []
    while state["phase"] == "start":
        seat, prompt = next(iter(GAME.pending(state).items()))
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert all(reg["retailer"] is None for reg in state["regions"].values())
    assert sorted(state["players"][s]["home"] for s in state["seats"]) == sorted(
        r for r in BOARD_REGIONS["small"] if REGIONS[r]["size"] == "M"
    )


def test_steve_starts_by_his_rules_and_the_ceo_starts_at_home_SU_BRD_02():
    """Steve picks the first free company and the first free region in his order; a
    CEO starts in the chosen starting region."""
    state = next(
        s for s in (small(2, seed=k, steve_seat=True, technologies="first-add-on-game") for k in range(10))
        if s["start"]["first"] == "steve"
    )
    assert state["players"]["steve"]["colour"] == "green"  # picked at once
    state = act(state, "p1", {"type": "company", "colour": "blue"})
    while state["phase"] == "start":
        seat = next(iter(GAME.pending(state)))
        state = act(state, seat, GAME.legal_actions(state, seat)[-1])
    assert state["ceo"] == {s: state["players"][s]["home"] for s in state["seats"]}
    assert state["steve"]["slots"] == {"1": STARTING["green"]}
