"""Smartphone Inc. Update 1.1: the Directives module (SU-DIR-01..05, SU-HC-07)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from si_support import act, act_here, new_game, outcome, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import directives, flow, scoring
from engine.smartphone_inc.data import DIRECTIVES, REGION_ORDER, REGIONS
from engine.smartphone_inc.game import GAME

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "smartphone_inc" / "data"


def with_cards(state: dict, *numbers: int) -> dict:
    """Put exactly these Directives in play (instead of the ones drawn)."""
    state["directives"]["cards"] = [{"number": n, "holder": None, "round": None, "flipped": False} for n in numbers]
    return state


def card_of(kind: str, n: int | None = None) -> int:
    return next(k for k, d in DIRECTIVES.items() if d["goal"]["kind"] == kind and (n is None or d["goal"]["n"] == n))


def holders(state: dict) -> dict[int, str | None]:
    return {c["number"]: c["holder"] for c in state["directives"]["cards"]}


def test_the_24_directives_and_their_cap():
    """24 cards, each with a goal, VP and a number; the best 5 are worth at most 60 VP
    ("a maximum of 5 Directives worth 60 VP"); all reconstructed."""
    data = json.loads((DATA_DIR / "directives.json").read_text())["directives"]
    assert len(data) == 24 and sorted(d["number"] for d in data) == list(range(1, 25))
    assert sum(sorted((d["vp"] for d in data), reverse=True)[:5]) <= 60
    assert all(d["source"] == "reconstructed" and d["text"] and d["vp"] > 0 for d in data)
    assert next(d for d in data if d["number"] == 1)["vp"] == 12  # the rulebook's example card


@pytest.mark.parametrize(("n", "drawn"), [(1, 5), (2, 5), (3, 6), (4, 7), (5, 8)])
def test_setup_draws_5_6_7_8_all_public_SU_DIR_01(n, drawn):
    """SU-DIR-01: 5/6/7/8 Directives for 2/3/4/5 players (solo: 5); all are public."""
    state = new_game(n, directives=True)
    numbers = [c["number"] for c in state["directives"]["cards"]]
    assert len(numbers) == len(set(numbers)) == drawn
    assert all(1 <= x <= 24 for x in numbers)
    public = GAME.view(state, None)["directives"]
    assert [d["number"] for d in public] == numbers
    assert all(d["holder"] is None and d["goal"] == DIRECTIVES[d["number"]]["text"] for d in public)
    assert GAME.view(state, "p1")["directives"] == public
    assert "directives" not in new_game(n)  # only when chosen
    assert GAME.view(new_game(n), None)["directives"] is None


def test_the_draw_is_random_and_steve_counts_SU_DIR_01():
    draws = {tuple(c["number"] for c in new_game(3, seed=s, directives=True)["directives"]["cards"]) for s in range(8)}
    assert len(draws) > 1
    assert len(new_game(3, steve_seat=True, directives=True)["directives"]["cards"]) == 6
    with pytest.raises(IllegalAction):
        new_game(3, directives="yes")


def test_a_goal_met_is_offered_and_one_per_round_SU_DIR_02():
    """SU-DIR-02: a company that meets a goal may take it ("take Directive N (V VP)?"),
    unless it took one earlier this round; next round it may take another."""
    techs, patent = card_of("technologies", 2), card_of("patents", 1)
    state = with_cards(new_game(3, directives=True), techs, patent)
    p1 = state["players"]["p1"]
    p1["techs"], p1["patents"] = ["gps", "nfc"], ["gps"]
    state["techs"]["gps"]["patent"] = "p1"
    state = reveal_with(state, {})
    prompt = GAME.pending(state)["p1"]
    vp = DIRECTIVES[techs]["vp"]
    assert prompt == {
        "type": "directive",
        "number": techs,
        "vp": vp,
        "goal": DIRECTIVES[techs]["text"],
        "question": f"take Directive {techs} ({vp} VP)?",
    }
    assert GAME.legal_actions(state, "p1") == [{"type": "directive", "take": True}, {"type": "directive", "take": False}]
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "directive", "take": "yes"})
    state = act(state, "p1", {"type": "directive", "take": True})
    assert holders(state) == {techs: "p1", patent: None}
    assert f"p1 takes Directive {techs} ({vp} VP): {DIRECTIVES[techs]['text']}" in state["log"]
    assert "p1" not in GAME.pending(state) or GAME.pending(state)["p1"]["type"] != "directive"  # not a second one
    state = pass_turns(state, "planning")
    assert state["round"] == 2 and holders(state)[patent] is None
    state = reveal_with(state, {})
    assert GAME.pending(state)["p1"]["number"] == patent  # a new round: another one
    state = act(state, "p1", {"type": "directive", "take": True})
    assert holders(state) == {techs: "p1", patent: "p1"}


def test_someone_who_does_not_meet_it_is_not_asked_SU_DIR_02():
    state = with_cards(new_game(3, directives=True), card_of("technologies", 2))
    state["players"]["p1"]["techs"] = ["gps"]  # one short
    state = reveal_with(state, {}, "improve")
    assert state["phase"] == "improve" and holders(state) == {card_of("technologies", 2): None}


def test_at_once_with_no_active_player_the_lowest_price_SU_DIR_03():
    """SU-DIR-03: met at the same time outside a turn (price 3 or less, after Phase 2):
    the lowest price is asked first; if it declines, the next one."""
    price = card_of("price_at_most", 3)
    state = with_cards(new_game(3, directives=True), price)
    state = reveal_with(state, {"p1": outcome(down=2), "p2": outcome(down=3), "p3": outcome(down=1)})
    assert state["phase"] == "production"  # right after Set Prices
    assert GAME.pending(state)["p2"]["number"] == price  # price 2 before price 3
    state = act(state, "p2", {"type": "directive", "take": False})
    assert GAME.pending(state)["p1"]["number"] == price
    state = act(state, "p1", {"type": "directive", "take": True})
    assert holders(state) == {price: "p1"}


def test_at_once_in_a_turn_the_active_player_SU_DIR_03():
    """SU-DIR-03: met at the same time during a turn: the active company first, even
    with a higher price."""
    vp = card_of("vp")
    state = with_cards(new_game(3, directives=True), vp)
    state = reveal_with(state, {"p1": outcome(research=1), "p2": outcome(research=1, down=1)})
    assert state["phase"] == "research" and list(GAME.pending(state)) == ["p2"]
    state = act(state, "p2", {"type": "research", "place": {}})
    assert list(GAME.pending(state)) == ["p1"]  # p1's Research turn
    state["players"]["p1"]["vp"] = state["players"]["p2"]["vp"] = DIRECTIVES[vp]["goal"]["n"]
    flow.run(state)
    assert GAME.pending(state) == {"p1": directives.prompt(state, "p1", {"number": vp})}
    state = act(state, "p1", {"type": "directive", "take": True})
    assert holders(state) == {vp: "p1"}
    assert GAME.pending(state)["p1"]["type"] == "research"  # the turn goes on


def test_declined_it_may_be_taken_in_a_later_round_SU_DIR_04():
    """SU-DIR-04: a company may decline; it is not asked again this round, but in a
    later round it may take it if it meets the goal again."""
    techs, vp = card_of("technologies", 2), card_of("vp")
    state = with_cards(new_game(3, directives=True), techs, vp)
    state["players"]["p1"]["techs"] = ["gps", "nfc"]
    state = reveal_with(state, {})
    state = act(state, "p1", {"type": "directive", "take": False})
    assert "p1 leaves Directive" in state["log"][0]
    # later this round p1 also meets the other goal: it is asked for that one only
    state["players"]["p1"]["vp"] = 99
    flow.run(state)
    assert GAME.pending(state)["p1"]["number"] == vp
    state = act(state, "p1", {"type": "directive", "take": False})
    state = pass_turns(state, "planning")
    assert holders(state) == {techs: None, vp: None}
    state = reveal_with(state, {})
    assert GAME.pending(state)["p1"]["number"] == techs  # a later round
    state = act(state, "p1", {"type": "directive", "take": True})
    assert holders(state)[techs] == "p1"


def test_flipped_at_the_end_of_the_round_and_scored_at_the_end_SU_DIR_05():
    """SU-DIR-05: Directives collected are flipped at the end of the round; each scores
    its VP at the end of the game (not during it)."""
    techs = card_of("technologies", 2)
    state = with_cards(new_game(3, directives=True), techs)
    state["players"]["p1"]["techs"] = ["gps", "4g"]  # no VP of their own
    state = reveal_with(state, {})
    state = act_here(state, "p1", {"type": "directive", "take": True})
    card = state["directives"]["cards"][0]
    assert card["round"] == 1 and card["flipped"] is False
    before = state["players"]["p1"]["vp"]
    state = pass_turns(state, "planning")
    gained = state["last_round"]["vp"]["p1"]
    assert state["directives"]["cards"][0]["flipped"] is True
    assert state["players"]["p1"]["vp"] == before + gained  # nothing for the Directive yet
    row = next(r for r in scoring.final_scores(state)["scores"] if r["seat"] == "p1")
    assert row["directive_vp"] == DIRECTIVES[techs]["vp"]
    assert row["vp"] == state["players"]["p1"]["vp"] + DIRECTIVES[techs]["vp"] + row["patent_vp"] + row["retailer_vp"]


def test_hardcore_scores_a_directive_at_the_end_of_its_round_SU_HC_07():
    """SU-HC-07: under Hardcore a Directive scores when it is flipped, at the end of the
    round it was completed, and not again at the end."""
    techs = card_of("technologies", 2)
    state = with_cards(new_game(3, directives=True, hardcore=True), techs)
    state["players"]["p1"]["techs"] = ["gps", "nfc"]
    state = reveal_with(state, {})
    state = pass_turns(act(state, "p1", {"type": "directive", "take": True}), "planning")
    assert state["round"] == 2
    before = state["players"]["p1"]["vp"]
    line = next(x for x in state["log"] if x.startswith(f"p1 scores Directive {techs}"))
    assert line == f"p1 scores Directive {techs} ({DIRECTIVES[techs]['vp']} VP); {before} VP."
    assert state["directives"]["cards"][0]["flipped"] is True
    row = next(r for r in scoring.final_scores(state)["scores"] if r["seat"] == "p1")
    assert row["directive_vp"] == 0 and row["vp"] == before


def test_control_goals_are_met_by_phase_8_SU_DIR_02():
    """A control goal is checked once Phase 8 has scored the round; the company is
    asked before the round ends."""
    ctrl = card_of("control", 2)
    state = with_cards(new_game(5, directives=True), ctrl)
    state = reveal_with(state, {}, "vp")
    for rid in ("north-africa", "china"):
        state["regions"][rid]["offices"] = ["p2"] + [o for o in state["regions"][rid]["offices"] if o != "p2"]
        state["regions"][rid]["sold"][0] = "p2"
    assert not directives.meets(state, "p2", ctrl)  # not before Phase 8 scores
    flow.run(state)
    assert state["phase"] == "vp" and GAME.pending(state)["p2"]["number"] == ctrl
    state = act(state, "p2", {"type": "directive", "take": True})
    assert state["round"] == 2 and state["directives"]["cards"][0]["flipped"] is True


def test_steve_takes_every_directive_he_may():
    """Steve and Directives (DATA.md): he takes them like a company, never declining."""
    techs = card_of("technologies", 2)
    state = with_cards(new_game(3, steve_seat=True, directives=True), techs)
    state["players"]["steve"]["techs"] = ["gps", "nfc"]
    state = reveal_with(state, {})
    assert holders(state) == {techs: "steve"}
    assert "steve" not in GAME.pending(state)


# --- every kind of goal, just met and one short ---------------------------------------


def _offices(state, seat, regions, twice=()):
    for rid in regions:
        state["regions"][rid]["offices"].append(seat)
    for rid in twice:
        state["regions"][rid]["offices"].append(seat)


def _sizes(size):
    return [r for r in REGION_ORDER if REGIONS[r]["size"] == size]


def _setter(kind, state, n):
    p1 = state["players"]["p1"]
    others = [r for r in state["regions"] if "p1" not in state["regions"][r]["offices"]]
    if kind == "regions":
        _offices(state, "p1", others[: n - 1])  # + the home region
    elif kind in ("large_regions", "small_regions"):
        _offices(state, "p1", _sizes("L" if kind == "large_regions" else "S")[:n])
    elif kind == "retailers":
        for rid in _sizes("S")[:n]:
            state["regions"][rid]["retailer"] = {"id": "R4", "side": 0}
        _offices(state, "p1", _sizes("S")[:n])
    elif kind == "second_offices":
        _offices(state, "p1", others[:n], twice=others[:n])
    elif kind == "offices":
        _offices(state, "p1", others[: n - 1])
    elif kind == "technologies":
        p1["techs"] = ["gps", "wi-fi", "gamepad", "nfc", "li-ion", "4g"][:n]
    elif kind == "patents":
        p1["patents"] = ["gps", "wi-fi", "gamepad"][:n]
    elif kind == "sold":
        regions = [r for r in state["regions"] if len(state["regions"][r]["sold"]) >= 2]
        cells = [(r, i) for r in regions for i in range(2)][:n]
        for r, i in cells:
            state["regions"][r]["sold"][i] = "p1"
    elif kind == "sold_in_one_region":
        for i in range(n):
            state["regions"]["china"]["sold"][i] = "p1"
    elif kind == "sold_regions":
        for r in list(state["regions"])[:n]:
            state["regions"][r]["sold"][0] = "p1"
    elif kind == "control":
        state["phase"] = "vp"
        state["directives"]["scored"] = True
        for r in ["china", "europe", "usa", "india", "cis"][:n]:
            state["regions"][r]["offices"] = ["p1"]
            state["regions"][r]["retailer"] = None
            state["regions"][r]["sold"][0] = "p1"
    elif kind == "price_at_most":
        state["phase"] = "production"
        p1["price"] = n
    elif kind == "vp":
        p1["vp"] = n
    else:
        raise AssertionError(kind)


@pytest.mark.parametrize("number", sorted(DIRECTIVES))
def test_every_directive_goal_is_read_from_the_table_SU_DIR_02(number):
    """Each of the 24 goals: met exactly at its number, not one short (for a price goal:
    met at its price, not one above)."""
    goal = DIRECTIVES[number]["goal"]
    kind, n = goal["kind"], goal["n"]
    base = new_game(5, directives=True)
    base["phase"] = "logistics"
    met = copy.deepcopy(base)
    _setter(kind, met, n)
    assert directives.meets(met, "p1", number), (kind, n)
    short = copy.deepcopy(base)
    if kind == "price_at_most":
        _setter(kind, short, n + 1)
    else:
        _setter(kind, short, n - 1)
    assert not directives.meets(short, "p1", number), (kind, n)


def test_the_offer_is_in_the_public_log_and_the_picture_data():
    """The view shows who holds each Directive (for the picture)."""
    techs = card_of("technologies", 2)
    state = with_cards(new_game(3, directives=True), techs)
    state["players"]["p2"]["techs"] = ["gps", "nfc"]
    state = reveal_with(state, {})
    state = act_here(state, "p2", {"type": "directive", "take": True})
    public = GAME.view(state, None)["directives"]
    assert public == [
        {"number": techs, "vp": DIRECTIVES[techs]["vp"], "goal": DIRECTIVES[techs]["text"], "holder": "p2", "round": 1, "flipped": False}
    ]
