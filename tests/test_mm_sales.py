"""Mobile Markets Phase 7 Sales (MM-SALE-01..12) with the rulebook's net-profit and
sales examples."""

from __future__ import annotations

import pytest
from mm_support import new_game, outcome, start_phase

from engine import IllegalAction
from engine.mobile_markets import market, product, sales
from engine.mobile_markets.game import GAME


def sales_state(n=2, seed=1, event="E3"):
    """A game at the start of Sales with an Event without Sales effect, empty market."""
    state = new_game(n, seed)
    state["events"]["revealed"] = [event]
    for col in state["market"]:
        for cid in state["market"][col]:
            market.discard(state, cid)
        state["market"][col] = []
    for p in state["players"].values():
        p["progress"] = 0
    return state


def company(state, seat, price, features=(), techs=(), private=(), goods=0):
    p = state["players"][seat]
    p["price"] = price
    p["features"] = list(features)
    p["techs"] = list(techs)
    for cid in private:
        take_out(state, cid)
        p["private"].append(cid)
    p["goods"] = goods
    return p


def take_out(state, cid):
    """Remove a Customer from wherever it is (deck, discard, market)."""
    for pile in state["customers"].values():
        for key in ("deck", "discard"):
            if cid in pile[key]:
                pile[key].remove(cid)
    for col in state["market"].values():
        if cid in col:
            col.remove(cid)


def put_market(state, *cids):
    for cid in cids:
        take_out(state, cid)
        market.place(state, cid)


def test_net_profit_example_MM_SALE_04_05():
    """MM-SALE-04/05 (ex): price 6; base cost 1 -> 5; + Multi-Camera/1 Star (no cost)
    -> 5; + NFC/8K (a cost icon) -> 4; a third card (Flexible Display, a Star, a cost
    icon) in the third slot -> 2."""
    state = sales_state()
    company(state, "p1", 6, features=["F1", "F2", "F3"])
    assert product.evaluate(state, "p1", {})["net"] == 5
    assert product.evaluate(state, "p1", {"1": "F1"})["net"] == 5
    two = product.evaluate(state, "p1", {"1": "F1", "2": "F2"})
    assert (two["cost"], two["net"]) == (2, 4)
    three = product.evaluate(state, "p1", {"1": "F1", "2": "F2", "3": "F3"})
    assert (three["cost"], three["net"]) == (4, 2)
    assert three["icons"] == sorted(["camera", "nfc", "8k", "flex"]) and three["stars"] == 2


def test_negative_net_profit_and_cost_never_below_0_MM_SALE_05():
    """MM-SALE-05: Net Profit may be negative (a loss per sale); MM-SALE-04: the
    Manufacturing Cost never goes below 0."""
    state = sales_state()
    company(state, "p1", 2, features=["F30", "F2", "F3"])
    worst = product.evaluate(state, "p1", {"1": "F30", "2": "F2", "3": "F3"})
    assert worst["cost"] == 1 + 2 + 1 + 1 + 1 and worst["net"] == 2 - 6
    company(state, "p2", 5, techs=["T19"])
    state["players"]["p2"]["campaigns"] = ["M15"]  # -1 and -1
    assert product.evaluate(state, "p2", {})["cost"] == 0


def test_product_from_slots_MM_SALE_02_03():
    """MM-SALE-02, MM-SALE-03: Feature cards go in free slots (board, slot cards); none is
    allowed; the product has the union of icons and the sum of Stars."""
    state = sales_state()
    company(state, "p1", 5, features=["F1", "F7", "F4", "F20"], techs=["T9"])
    assert product.slots(state, "p1") == ["1", "2", "3", "T9"]
    built = product.evaluate(state, "p1", {"1": "F1", "2": "F7", "T9": "F4"})
    assert built["icons"] == ["5g", "camera"] and built["stars"] == 1 + 0 + 2
    assert product.evaluate(state, "p1", {})["icons"] == []
    for bad in ({"4": "F1"}, {"1": "F99"}, {"1": "F1", "2": "F1"}, {"T3": "F1"}, ["F1"]):
        with pytest.raises(IllegalAction):
            product.validate(state, "p1", bad)


def test_slash_and_customer_types_MM_SALE_06_07_08_09():
    """MM-SALE-06, MM-SALE-07, MM-SALE-08, MM-SALE-09: a slash means any one need; Variety-seeking buys at its price or
    below, or at any price with its needs met; Regular at its price or below; Complex at
    its price or below and only with its needs met."""
    state = sales_state()
    company(state, "p1", 6, features=["F4"])

    def seen(slots, price=6):
        state["players"]["p1"]["price"] = price
        return market.offer(state, "p1", product.evaluate(state, "p1", slots))

    with_5g = seen({"1": "F4"})  # 5G, 2 Stars
    assert market.buys("C28", with_5g)  # Complex 7: 8K / 5G
    assert not market.buys("C28", seen({}))  # no feature
    assert not market.buys("C28", seen({"1": "F4"}, price=8))  # price too high
    assert market.buys("R33", seen({}, price=8)) and not market.buys("R1", seen({}, price=3))  # Regular 8 / 2
    # Variety-seeking V9 at 3: Multi-Camera + 3 Stars
    state["players"]["p1"]["features"] = ["F26", "F29"]  # camera + 2 or 3 Stars
    assert market.buys("V9", seen({}, price=3))  # price alone
    assert not market.buys("V9", seen({}, price=6))
    full = seen({"1": "F29"}, price=8)  # Multi-Camera, 3 Stars
    assert market.buys("V9", full)  # any price with its needs met
    assert not market.buys("V9", seen({"1": "F26"}, price=8))  # 2 Stars only


def test_sales_example_MM_SALE_10_11_12():
    """MM-SALE-10..12 (ex): 2 players, Red at 6 sells after Yellow. A: 2 Feature cards
    (5G with 2 Stars; NFC with a cost icon), 2 cards unused. B: cost 2, net 4. C: both
    Private Customers buy. D: market left to right, bottom to top: customer 1 (not
    enough Stars, price too high) no; 3 (both features) yes; 4 (a feature + 3 Stars:
    2 Stars + a Technology card's Star) yes; column 4's Regular (price too high) no; 5
    and 6 (price and Stars) yes; the top of column 8 (Flexible Display) no. The market
    is exhausted with 1 Good unsold."""
    state = sales_state(2, seed=2)
    yellow, red = state["seats"]
    company(state, yellow, 5)
    company(state, red, 6, features=["F4", "F5", "FS1", "F6"], techs=["T10"], private=["C22", "C34"], goods=7)
    put_market(state, "V2", "V1", "V13", "R10", "C19", "C27", "C36")
    state["order"] = [yellow, red]
    state["track"] = {str(k): [] for k in range(2, 9)}
    state["track"]["5"], state["track"]["6"] = [yellow], [red]
    state["players"][yellow]["goods"] = 0
    state = start_phase(state, "sales", {})  # already past Planning: straight to Sales
    assert state["phase"] == "sales"
    state["players"][red]["goods"] = 7
    from engine.mobile_markets import flow

    flow.run(state)
    assert list(GAME.pending(state)) == [red]  # Yellow (no Features) sold first
    action = {"type": "product", "slots": {"1": "F4", "2": "F5"}}
    preview = GAME.preview(state, red, action)
    assert (preview["cost"], preview["net"], preview["stars"]) == (2, 4, 3)
    assert [b["customer"] for b in preview["buyers"]] == ["C22", "C34", "V2", "V13", "C19", "C27"]
    new = GAME.load(GAME.dump(state))
    flow.act(new, red, action)  # Red's Sales turn only (apply would go on to Profit)
    p = new["players"][red]
    assert p["net"] == 4
    assert p["sales"] == ["C22", "C34", "V2", "V13", "C19", "C27"]
    assert p["goods"] - len(p["sales"]) == 1
    assert new["market"]["2"] == ["V1"] and new["market"]["4"] == ["R10"] and new["market"]["8"] == ["C36"]


def test_sell_in_turn_order_one_company_after_another_MM_SALE_01():
    """MM-SALE-01: in turn order, each company builds, sets Net Profit and sells before
    the next; the first takes the Customers it can. Both sell at 5 with 4 Goods; the
    market holds two Regular 5s: the first in turn order (p2, cheaper start) gets both,
    before p1 is even asked."""
    state = sales_state(2, seed=3)
    put_market(state, "R20", "R21")  # Regular 5s
    state = start_phase(state, "sales", {"p1": outcome(prod=2), "p2": outcome(prod=2)})
    assert state["order"] == ["p2", "p1"]
    from engine.mobile_markets import flow

    flow.run(state)
    assert list(GAME.pending(state)) == ["p2"]
    state = GAME.apply(state, "p2", {"type": "product", "slots": {}})
    assert state["players"]["p2"]["sales"] == ["R21", "R20"]  # the column from bottom to top
    assert state["players"]["p1"]["sales"] == [] and state["market"]["5"] == []
    assert list(GAME.pending(state)) == ["p1"]


def test_private_customers_first_lowest_price_first_MM_SALE_10():
    """MM-SALE-10: Private Customers first, from the lowest price up, while Goods last;
    the others stay in front of the company."""
    state = sales_state()
    company(state, "p1", 5, private=["R30", "R1", "R20", "C1"], goods=2)  # 7, 2, 5, Complex 2
    state["players"]["p1"]["product"] = product.evaluate(state, "p1", {})
    put_market(state, "R2")
    sold = sales.buyers(state, "p1")
    assert sold == [("R20", "private"), ("R30", "private")]  # R1 (2) and C1 will not buy at 5
    sales.sell(state, "p1")
    assert sorted(state["players"]["p1"]["private"]) == ["C1", "R1"]


def test_market_order_and_must_sell_MM_SALE_11():
    """MM-SALE-11: then the market, columns 2 to 8, each from bottom to top; selling is
    compulsory while able."""
    state = sales_state()
    put_market(state, "R33", "R16", "R17", "R25")  # 8; 5, 5 (R17 below R16); 7
    assert market.sale_order(state) == ["R17", "R16", "R25", "R33"]
    company(state, "p1", 5, goods=2)
    state["players"]["p1"]["product"] = product.evaluate(state, "p1", {})
    sales.sell(state, "p1")
    assert state["players"]["p1"]["sales"] == ["R17", "R16"]


def test_selling_stops_at_goods_or_end_of_market_MM_SALE_12():
    """MM-SALE-12: a sale moves the card to the sales pile; selling stops when the pile
    equals the Goods produced, or at the end of the market."""
    state = sales_state()
    put_market(state, "R33", "R34", "R35")
    company(state, "p1", 3, goods=2)
    state["players"]["p1"]["product"] = product.evaluate(state, "p1", {})
    sales.sell(state, "p1")
    assert state["players"]["p1"]["sales"] == ["R35", "R34"] and state["market"]["8"] == ["R33"]  # bottom up
    company(state, "p2", 3, goods=5)
    state["players"]["p2"]["product"] = product.evaluate(state, "p2", {})
    sales.sell(state, "p2")
    assert state["players"]["p2"]["sales"] == ["R33"]  # the market is exhausted: 4 Goods unsold
