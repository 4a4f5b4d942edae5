"""Mobile Markets Planning, Pricing, Technology, Marketing and Production
(MM-PLAN-01/04, MM-PRICE-01..03, MM-TECH-01..04, MM-MKT-01..04, MM-PROD-01..02)."""

from __future__ import annotations

import pytest
from mm_support import PLAN_EX1, PLAN_EX2, new_game, outcome, pass_until, start_phase

from engine import IllegalAction
from engine.mobile_markets import flow, pricing, production
from engine.mobile_markets.game import GAME


def setup_displays(state, tech=None, feature=None, marketing=None, discounts=()):
    for name, row in (("technology", tech), ("feature", feature), ("marketing", marketing)):
        if row is None:
            continue
        d = state["displays"][name]
        pool = [c for c in d["deck"] + d["row"] + d["discard"] if c not in row]
        d["row"], d["deck"], d["discard"] = list(row), pool, []
    state["discounts"] = list(discounts)


def test_secret_simultaneous_planning_MM_PLAN_01():
    """MM-PLAN-01: plans are secret and simultaneous, revealed together."""
    state = new_game(3)
    prompts = GAME.pending(state)
    assert set(prompts) == {"p1", "p2", "p3"} and all(p["secret"] for p in prompts.values())
    state = GAME.apply(state, "p2", {"type": "plan", "plan": PLAN_EX1})
    assert set(GAME.pending(state)) == {"p1", "p3"}
    for viewer in (None, "p1", "p3"):
        v = GAME.view(state, viewer)
        assert v["players"]["p2"]["plan"] is None and v["players"]["p2"]["outcome"] is None
        assert v["players"]["p2"]["sealed"]
        assert "cover" not in GAME.dump(v["players"]["p2"])
    assert GAME.view(state, "p2")["my_plan_outcome"]["tech"] == 3
    with pytest.raises(IllegalAction):  # sealed: cannot change
        GAME.apply(state, "p2", {"type": "plan", "plan": PLAN_EX2})
    state = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN_EX2})
    state = GAME.apply(state, "p3", {"type": "plan", "plan": PLAN_EX1})
    v = GAME.view(state, None)
    assert all(v["players"][s]["plan"] is not None for s in ("p1", "p2", "p3"))  # revealed together


def test_visible_symbols_MM_PLAN_04():
    """MM-PLAN-04: Price Up +1, Price Down -1, Technology +1 point, Marketing +1 point,
    Production +1 Goods: the rulebook's Example 1 (+1 price, +3 Technology Points, +2
    Marketing Points, +2 Goods, and 2 more Goods for the 2 covered cells) played through
    the phases. E3: +1 Technology Point and 1 Goods icon; TS1 adds nothing to either."""
    state = new_game(1, seed=5)
    state["events"]["revealed"] = ["E3"]  # +1 Technology Point this round
    state = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN_EX1})
    p = state["players"]["p1"]
    assert p["start"] == "TS1" and p["techs"] == ["TS1"]
    assert p["price"] == 6  # 5 + 2 up - 1 down
    assert state["phase"] == "technology" and state["turn"]["points"] == 3 + 1  # 3 cells + E3
    state = GAME.apply(state, "p1", {"type": "done"})
    assert state["phase"] == "marketing" and state["turn"]["points"] == 2
    assert GAME.pending(state)["p1"]["points"] == 2
    state = pass_until(state, "sales")
    assert state["players"]["p1"]["goods"] == 2 + 2 + 1  # Production cells + covered + E3


def test_pricing_in_turn_order_MM_PRICE_01_02():
    """MM-PRICE-01, MM-PRICE-02 (ex): with 2 Price Up and 1 Price Down, Red moves to the leftmost
    empty spot of the 6 space; players move in turn order from the 5 space."""
    state = new_game(3)
    state["events"]["revealed"] = ["E3"]
    a, red, c = state["seats"]
    state["order"] = [a, red, c]
    state["track"] = {str(k): [] for k in range(2, 9)}
    state["track"]["5"] = [a, red, c]
    for seat in state["seats"]:
        state["players"][seat]["price"] = 5
    state["players"][a]["outcome"] = outcome(up=1)
    state["players"][red]["outcome"] = outcome(up=2, down=1)
    state["players"][c]["outcome"] = outcome(up=1)
    state["log"] = []
    pricing.set_prices(state)
    assert state["track"]["6"] == [a, red, c]  # a arrived first: leftmost
    assert state["players"][red]["price"] == 6


def test_turn_order_from_the_track_MM_PRICE_03():
    """MM-PRICE-03: after Pricing the order is left to right on the Price Track."""
    state = new_game(4)
    state["events"]["revealed"] = ["E3"]
    s1, s2, s3, s4 = state["seats"]
    state["order"] = [s1, s2, s3, s4]
    state["track"] = {str(k): [] for k in range(2, 9)}
    state["track"]["5"] = [s1, s2, s3, s4]
    for seat, o in ((s1, outcome(up=2)), (s2, outcome(down=1)), (s3, outcome()), (s4, outcome(down=1))):
        state["players"][seat]["outcome"] = o
    pricing.set_prices(state)
    assert state["order"] == [s2, s4, s3, s1]
    flow.enter(state, "marketing")
    assert state["turn"]["order"] == [s1, s3, s4, s2]  # reverse in Marketing


def test_technology_example_MM_TECH_01_02_03():
    """MM-TECH-01, MM-TECH-02, MM-TECH-03 (ex): with 3 points Blue can buy Technology A (2) and Feature B
    (2, discounted to 1); or Technology C (1) and save 2 Progress Tokens; or Feature D
    or E (3); or save 3. Not F (4) nor G (4)."""
    state = new_game(1, seed=3)
    state["events"]["revealed"] = ["E6"]
    A, C, F = "T1", "T9", "T27"
    B, D, E, G = "F11", "F2", "F3", "F27"
    setup_displays(state, tech=[A, C, F], feature=[B, D, E, G], discounts=[B])
    blue = "p1"
    state["players"][blue]["progress"] = 0
    state = start_phase(state, "technology", {blue: outcome(tech=3)})
    flow.run(state)
    prompt = GAME.pending(state)[blue]
    costs = {o["card"]: o["cost"] for o in prompt["offers"]}
    assert costs == {A: 2, C: 1, B: 1, D: 3, E: 3}  # not F nor G
    # A then B: all 3 points
    s = GAME.apply(state, blue, {"type": "buy", "card": A})
    s = GAME.apply(s, blue, {"type": "buy", "card": B})
    assert A in s["players"][blue]["techs"] and B in s["players"][blue]["features"]
    assert s["players"][blue]["progress"] == 0
    # C then stop: 2 Progress Tokens; only 1 Technology card per turn
    s = GAME.apply(state, blue, {"type": "buy", "card": C})
    assert all(o["display"] == "feature" for o in GAME.pending(s)[blue]["offers"])
    with pytest.raises(IllegalAction):
        GAME.apply(s, blue, {"type": "buy", "card": A})
    s = GAME.apply(s, blue, {"type": "done"})
    assert s["players"][blue]["progress"] == 2
    # nothing: 3 Progress Tokens, worth 1 point each later (discarded when used)
    s = GAME.apply(state, blue, {"type": "done"})
    assert s["players"][blue]["progress"] == 3
    s["players"][blue]["progress"] = 2
    s["turn"] = {"order": [blue], "i": 0, "started": False}
    s["phase"] = "technology"
    flow.begin_turn(s, blue)  # a later Technology phase with 1 point
    s["turn"]["points"] = 1
    flow.act(s, blue, {"type": "buy", "card": D})  # 3 = 1 point + 2 tokens
    assert s["players"][blue]["progress"] == 0


def test_card_phases_MM_TECH_04():
    """MM-TECH-04: Technology cards act in the phases they show; Feature effects only in
    Sales and Profit (and only when placed)."""
    state = new_game(2, seed=3)
    state["events"]["revealed"] = ["E3"]
    from engine.mobile_markets import effects

    state["players"]["p1"]["techs"].append("T5")  # Technology: +1 point
    assert effects.total(state, "p1", "technology", "tech_points") == 1 + 1  # T5 + E3
    assert effects.total(state, "p1", "production", "tech_points") == 0
    state["players"]["p1"]["features"].append("F18")  # a Star card with a Profit effect
    assert effects.total(state, "p1", "profit", "money") == 0  # not placed
    state["players"]["p1"]["product"] = {"slots": {"1": "F18"}, "icons": [], "icon_count": 0, "full": False}
    assert effects.total(state, "p1", "profit", "money") == 1
    assert all(e["at"] in ("sales", "profit") for c in effects.cards_acting(state, "p1") if c.startswith("F") for e in effects.INDEX.get((c, "profit", "money"), []))


def test_marketing_example_MM_MKT_01_02():
    """MM-MKT-01, MM-MKT-02 (ex): with 2 points Red can buy A (3, discounted), B (2), or C (1)
    and take 1 Private Customer, or take 2; not D (3). Points cannot be saved."""
    state = new_game(2, seed=4)
    state["events"]["revealed"] = ["E6"]
    for p in state["players"].values():
        p["progress"] = 0
    A, B, C, D = "M11", "M2", "M23", "M10"
    setup_displays(state, marketing=[A, B, C, D], discounts=[A])
    red = "p1"
    state = start_phase(state, "marketing", {red: outcome(mkt=2), "p2": outcome()})
    flow.run(state)
    assert list(GAME.pending(state)) == [red] or state["turn"]["order"][0] == red
    while red not in GAME.pending(state):
        seat = next(iter(GAME.pending(state)))
        state = GAME.apply(state, seat, {"type": "customer", "deck": "regular"})
    prompt = GAME.pending(state)[red]
    assert {o["card"]: o["cost"] for o in prompt["offers"]} == {A: 2, B: 2, C: 1}
    with pytest.raises(IllegalAction):
        GAME.apply(state, red, {"type": "buy", "card": D})
    with pytest.raises(IllegalAction):  # points cannot be saved
        GAME.apply(state, red, {"type": "done"})
    s = GAME.apply(state, red, {"type": "buy", "card": C})
    with pytest.raises(IllegalAction):  # at most 1 campaign
        GAME.apply(s, red, {"type": "buy", "card": B})
    s = GAME.apply(s, red, {"type": "customer", "deck": "complex"})
    assert s["phase"] != "marketing" or red not in GAME.pending(s)
    assert len(s["players"][red]["private"]) == 1 and C in s["players"][red]["campaigns"]
    s = GAME.apply(state, red, {"type": "customer", "deck": "variety"})
    s = GAME.apply(s, red, {"type": "customer", "deck": "regular"})
    assert len(s["players"][red]["private"]) == 2


def test_campaign_works_at_once_MM_MKT_03():
    """MM-MKT-03: a campaign bought in Marketing works in this very phase (M11: +2)."""
    state = new_game(1, seed=4)
    state["events"]["revealed"] = ["E6"]
    setup_displays(state, marketing=["M11", "M2", "M3", "M4"])
    state = start_phase(state, "marketing", {"p1": outcome(mkt=3)})
    flow.run(state)
    s = GAME.apply(state, "p1", {"type": "buy", "card": "M11"})
    assert s["turn"]["points"] == 0 + 2  # 3 - 3 + 2 at once
    for _ in range(2):
        s = GAME.apply(s, "p1", {"type": "customer", "deck": "complex"})
    assert len(s["players"]["p1"]["private"]) == 2


def test_private_customers_MM_MKT_04():
    """MM-MKT-04: Private Customers come from the top of the deck the player chooses (not
    from the market), stay until sold, and nobody else sells to them."""
    state = new_game(2, seed=6)
    state["events"]["revealed"] = ["E6"]
    setup_displays(state, marketing=["M10", "M8", "M11", "M22"])  # too dear
    state = start_phase(state, "marketing", {"p1": outcome(mkt=1), "p2": outcome()})
    flow.run(state)
    while "p1" not in GAME.pending(state):
        seat = next(iter(GAME.pending(state)))
        state = GAME.apply(state, seat, {"type": "customer", "deck": "regular"})
    top = state["customers"]["complex"]["deck"][0]
    market_before = {k: list(v) for k, v in state["market"].items()}
    s = GAME.apply(state, "p1", {"type": "customer", "deck": "complex"})
    assert s["players"]["p1"]["private"][-1] == top
    assert s["market"] == market_before
    # the other company cannot sell to it; it stays until sold
    from engine.mobile_markets import sales

    s["players"]["p2"]["product"] = {"slots": {}, "icons": [], "icon_count": 0, "full": False, "stars": 0, "cost": 1, "net": 0}
    s["players"]["p2"]["goods"] = 50
    assert all(c != top for c, _ in sales.buyers(s, "p2"))


def test_production_example_MM_PROD_01_02():
    """MM-PROD-01, MM-PROD-02 (ex): 2 Event Goods + 2 visible Production + 2 covered + a
    Technology card's 1 = 7 on the Goods Produced track."""
    state = new_game(1)
    state["events"]["revealed"] = ["E3", "E6"]  # 1 + 1 Goods icons; E6 gives +1 this round
    state["events"]["revealed"] = ["E6", "E3"]  # E3 current: no production effect
    p = state["players"]["p1"]
    p["techs"].append("T1")
    p["outcome"] = outcome(prod=2, covered=2)
    assert production.event_goods(state) == 2
    production.produce(state)
    assert p["goods"] == 7
