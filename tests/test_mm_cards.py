"""Mobile Markets card clarifications of the Appendix (MM-CARD-*)."""

from __future__ import annotations

import pytest
from mm_support import new_game, outcome, start_phase
from test_mm_rounds import setup_displays
from test_mm_sales import company, sales_state

from engine.errors import IllegalAction
from engine.mobile_markets import (
    displays,
    effects,
    flow,
    market,
    marketing,
    preparation,
    product,
    production,
    profit,
    sales,
)
from engine.mobile_markets.game import GAME


def built(state, seat, slots):
    p = state["players"][seat]
    p["product"] = product.evaluate(state, seat, slots)
    p["net"] = p["product"]["net"]
    return p["product"]


def test_E1_E2_seven_cards_two_buys_MM_CARD_E1():
    """MM-CARD-E1: E1 puts 7 Technology cards on the market and allows 2 Technology
    cards each; E2 the same for Marketing Campaign cards."""
    state = new_game(1, seed=2)
    state["events"]["revealed"] = ["E3"]
    state["events"]["deck"] = ["E1", "E2", "E5", "E6"]
    preparation.reveal_event(state)
    displays.refresh(state)
    assert len(state["displays"]["technology"]["row"]) == 7 and len(state["displays"]["marketing"]["row"]) == 4
    state["players"]["p1"]["progress"] = 0
    setup_displays(state, tech=["T9", "T22", "T20", "T28", "T1", "T5", "T8"], discounts=[])
    state = start_phase(state, "technology", {"p1": outcome(tech=4)})
    flow.run(state)
    s = GAME.apply(state, "p1", {"type": "buy", "card": "T9"})
    s = GAME.apply(s, "p1", {"type": "buy", "card": "T22"})
    assert {"T9", "T22"} <= set(s["players"]["p1"]["techs"])
    assert all(o["display"] == "feature" for o in GAME.pending(s).get("p1", {"offers": []})["offers"])
    # E2
    state = new_game(1, seed=2)
    state["events"]["revealed"] = ["E3"]
    state["events"]["deck"] = ["E2", "E5", "E6", "E7"]
    preparation.reveal_event(state)
    displays.refresh(state)
    assert len(state["displays"]["marketing"]["row"]) == 7
    # two Marketing Campaign cards bought in one turn (M2: 2 points, M28: 1), not three
    # (M3: 2 points, still affordable); none of them acts in Marketing
    state["players"]["p1"]["progress"] = 0
    setup_displays(state, marketing=["M2", "M28", "M3", "M4", "M1", "M9", "M23"], discounts=[])
    state = start_phase(state, "marketing", {"p1": outcome(mkt=5)})
    flow.run(state)
    assert GAME.pending(state)["p1"]["points"] == 5
    s = GAME.apply(state, "p1", {"type": "buy", "card": "M2"})
    s = GAME.apply(s, "p1", {"type": "buy", "card": "M28"})
    assert s["players"]["p1"]["campaigns"] == ["M2", "M28"]
    assert GAME.pending(s)["p1"]["points"] == 2
    with pytest.raises(IllegalAction):
        GAME.apply(s, "p1", {"type": "buy", "card": "M3"})
    # without E2: one a turn
    state = new_game(1, seed=2)
    state["events"]["revealed"] = ["E3"]
    state["players"]["p1"]["progress"] = 0
    setup_displays(state, marketing=["M2", "M28", "M3", "M4"], discounts=[])
    state = start_phase(state, "marketing", {"p1": outcome(mkt=5)})
    flow.run(state)
    s = GAME.apply(state, "p1", {"type": "buy", "card": "M2"})
    assert GAME.pending(s)["p1"]["points"] == 3
    with pytest.raises(IllegalAction):
        GAME.apply(s, "p1", {"type": "buy", "card": "M28"})


def test_E4_base_cost_2_MM_CARD_E4():
    """MM-CARD-E4: base cost 2 instead of 1 in Sales."""
    state = sales_state(event="E4")
    company(state, "p1", 6)
    assert built(state, "p1", {})["cost"] == 2 and state["players"]["p1"]["net"] == 4


def test_E9_one_more_star_MM_CARD_E9():
    """MM-CARD-E9: Customers with a Star requirement need 1 more Star."""
    state = sales_state(event="E9")
    company(state, "p1", 6, features=["F4"])  # 5G, 2 Stars
    seen = market.offer(state, "p1", built(state, "p1", {"1": "F4"}))
    assert not market.buys("C18", seen)  # 5G + 2 Stars now needs 3
    assert market.buys("C28", seen)  # no Star requirement: unchanged
    state["events"]["revealed"] = ["E3"]
    assert market.buys("C18", market.offer(state, "p1", built(state, "p1", {"1": "F4"})))


def test_E10_price_8_counts_as_7_MM_CARD_E10():
    """MM-CARD-E10: a price of 8 counts as 7 (E10: 1 money per step above 5)."""
    state = sales_state(event="E10")
    for price, money in ((8, 2), (7, 2), (6, 1), (4, 0)):
        state["players"]["p1"]["price"] = price
        assert effects.total(state, "p1", "profit", "money") == money


def test_E11_price_2_counts_as_3_MM_CARD_E11():
    """MM-CARD-E11: a price of 2 counts as 3 (E11: 1 Goods per step below 5)."""
    state = sales_state(event="E11")
    for price, goods in ((2, 2), (3, 2), (4, 1), (6, 0)):
        state["players"]["p1"]["price"] = price
        assert effects.total(state, "p1", "production", "goods") == goods


def test_E12_no_market_share_MM_CARD_E12():
    """MM-CARD-E12: no market-share bonus this round."""
    state = sales_state(event="E12")
    state["players"]["p1"]["sales"] = ["R16", "R17"]
    profit.market_share(state)
    assert state["players"]["p1"]["money"] == 0
    state["events"]["revealed"] = ["E3"]
    profit.market_share(state)
    assert state["players"]["p1"]["money"] == 8


def test_E13_market_cleared_private_stay_MM_CARD_E13():
    """MM-CARD-E13: all Customers left on the market are discarded; Private ones stay."""
    state = new_game(2, seed=3)
    left = [c for col in state["market"].values() for c in col]
    assert left
    state["players"]["p1"]["private"] = [state["customers"]["regular"]["deck"].pop(0)]
    state["events"]["deck"] = ["E13", "E3", "E5", "E6"]
    preparation.reveal_event(state)
    assert all(not col for col in state["market"].values())
    assert len(state["players"]["p1"]["private"]) == 1
    assert all(c in state["customers"][market.CUSTOMERS[c]["type"]]["discard"] for c in left)


def test_M2_distinct_prices_MM_CARD_M2():
    """MM-CARD-M2: money = the number of different price numbers in the sales pile."""
    state = sales_state()
    p = company(state, "p1", 6)
    p["campaigns"] = ["M2"]
    p["sales"] = ["R16", "R17", "V2", "C33"]  # 5, 5, 2, 8
    assert effects.total(state, "p1", "profit", "money") == 3


def test_M3_placed_features_MM_CARD_M3():
    """MM-CARD-M3: money per Feature card placed in slots this Sales phase."""
    state = sales_state()
    p = company(state, "p1", 6, features=["F1", "F4", "F7"], techs=["T11"])
    p["campaigns"] = ["M3"]
    built(state, "p1", {"1": "F1", "2": "F4"})
    assert effects.total(state, "p1", "profit", "money") == 2  # T11's Stars do not place F7


def test_M7_M8_distinct_icons_MM_CARD_M7():
    """MM-CARD-M7: money = different feature icons on the Customers in the sales pile
    (M8: double); a Customer with two icons gives both, even with a slash."""
    state = sales_state()
    p = company(state, "p1", 6)
    p["sales"] = ["C28", "C25", "V2", "R16"]  # 8K/5G, 8K/5G, 5G+NFC, none
    p["campaigns"] = ["M7"]
    assert effects.total(state, "p1", "profit", "money") == 3
    p["campaigns"] = ["M8"]
    assert effects.total(state, "p1", "profit", "money") == 6
    # both sides of each "/" count: Camera / NFC and 8K / 5G are 4 icons (M7: 4, M8: 8);
    # one side only would give 2
    p["sales"] = ["C8", "C28"]
    p["campaigns"] = ["M7"]
    assert effects.total(state, "p1", "profit", "money") == 4
    p["campaigns"] = ["M8"]
    assert effects.total(state, "p1", "profit", "money") == 8


def test_M9_M16_M25_customers_to_the_market_MM_CARD_M9():
    """MM-CARD-M9: Customers of any type, also Private ones gotten earlier, go on the
    market at the bottom of their price row."""
    state = new_game(1, seed=5)
    state["events"]["revealed"] = ["E6"]
    p = state["players"]["p1"]
    p["progress"] = 0
    p["campaigns"] = ["M16"]
    p["private"] = [state["customers"]["complex"]["deck"].pop(0)]
    old = p["private"][0]
    state = start_phase(state, "marketing", {"p1": outcome(mkt=0)})
    flow.run(state)
    prompt = GAME.pending(state)["p1"]
    assert prompt["place"] == 2
    s = GAME.apply(state, "p1", {"type": "place", "customer": old})
    col = s["market"][str(market.CUSTOMERS[old]["price"])]
    assert col[-1] == old and old not in s["players"]["p1"]["private"]
    top = s["customers"]["variety"]["deck"][0]
    s = GAME.apply(s, "p1", {"type": "place", "deck": "variety"})
    assert s["market"][str(market.CUSTOMERS[top]["price"])][-1] == top or s["phase"] != "marketing"


def test_M12_nfc_meets_star_needs_MM_CARD_M12():
    """MM-CARD-M12: with NFC on the product, Star requirements count as met."""
    state = sales_state()
    p = company(state, "p1", 6, features=["F8", "F7"])
    p["campaigns"] = ["M12"]
    assert market.buys("C19", market.offer(state, "p1", built(state, "p1", {"1": "F8"})))  # [] + 3 Stars
    assert not market.buys("C19", market.offer(state, "p1", built(state, "p1", {"1": "F7"})))  # no NFC


def test_M17_customers_consider_MM_CARD_M17():
    """MM-CARD-M17: "Customer considers" = the Customer acts as if you had it (M17 5G;
    M27 2 more Stars); it is not on the product for other cards."""
    state = sales_state()
    p = company(state, "p1", 6)
    p["campaigns"] = ["M17"]
    prod = built(state, "p1", {})
    assert market.buys("C28", market.offer(state, "p1", prod)) and prod["icons"] == []
    p["campaigns"] = ["M27"]
    assert market.buys("C27", market.offer(state, "p1", built(state, "p1", {})))  # 2 Stars at 7


def test_TS1_TS4_unsold_goods_MM_CARD_TS1():
    """MM-CARD-TS1: TS1-TS4 act in Profit if any Goods are unsold."""
    state = sales_state()
    expected = {"TS1": ("money", 2), "TS2": ("progress", 2), "TS4": ("money", 3)}
    for ts, (what, n) in expected.items():
        p = company(state, "p1", 5, techs=[ts], goods=4)
        p["sales"] = ["R16"]
        p["money"] = p["progress"] = 0
        p["gains"] = []
        profit.round_cards(state)
        assert p[what] == n, ts
        p["sales"] = ["R16", "R17", "R18", "R19"]
        p["money"] = p["progress"] = 0
        profit.round_cards(state)
        assert p[what] == 0, ts
    p = company(state, "p1", 5, techs=["TS3"], goods=2)
    p["sales"], p["private"] = ["R16"], []
    top = state["customers"]["complex"]["deck"][0]
    profit.round_cards(state)
    assert p["private"] == [top]


def test_TS5_TS6_cheapest_card_MM_CARD_TS5():
    """MM-CARD-TS5: with 2+ Goods unsold, take a cheapest card (Discount Tokens count);
    the company chooses among equally cheap ones."""
    state = sales_state()
    setup_displays(state, feature=["F4", "F11", "F2", "F25", "F19", "F22"], discounts=["F4"])
    p = company(state, "p1", 5, techs=["TS5"], features=[], goods=3)
    p["sales"] = ["R16", "R17"]
    profit.round_cards(state)
    assert p["features"] == []  # only 1 unsold
    p["sales"] = ["R16"]
    profit.round_cards(state)
    assert state["queue"] == [{"seat": "p1", "kind": "free_card", "display": "feature"}]  # F4 (3-1) and F11 (2)
    assert profit.free_card_prompt(state, state["queue"][0])["cards"] == ["F4", "F11"]
    state["queue"] = []
    state["discounts"] = []
    profit.round_cards(state)
    assert p["features"] == ["F11"] and state["queue"] == []


def test_T2_tokens_to_goods_MM_CARD_T2():
    """MM-CARD-T2: in Sales, discard Progress Tokens for 1 Goods each."""
    state = sales_state()
    p = company(state, "p1", 5, techs=["T2"], goods=1)
    p["progress"] = 3
    sales.build(state, "p1", {}, 2)
    assert p["goods"] == 3 and p["progress"] == 1
    q = company(state, "p2", 5, goods=1)
    q["progress"] = 3
    import pytest

    from engine import IllegalAction

    with pytest.raises(IllegalAction):
        sales.parse(state, "p2", {"type": "product", "slots": {}, "tokens": 1})


def test_T3_T4_T9_slot_cards_MM_CARD_T3():
    """MM-CARD-T3: T9/T3/T4 add a Feature slot; T3 ignores that card's cost icons; T4
    doubles its Stars (Sales only)."""
    state = sales_state()
    company(state, "p1", 6, features=["F22", "F4"], techs=["T3", "T4", "T9"])
    assert product.slots(state, "p1") == ["1", "2", "3", "T3", "T4", "T9"]
    assert built(state, "p1", {"T3": "F22"})["cost"] == 1  # NFC, 2 Stars, cost icon ignored
    assert built(state, "p1", {"T9": "F22"})["cost"] == 2
    assert built(state, "p1", {"T4": "F4"})["stars"] == 4
    assert built(state, "p1", {"1": "F4"})["stars"] == 2


def test_T6_three_icons_ignore_costs_MM_CARD_T6():
    """MM-CARD-T6: no cost icons with any 3 feature icons on the product, repeats count."""
    state = sales_state()
    company(state, "p1", 6, features=["F11", "F27", "F5"], techs=["T6"])
    assert built(state, "p1", {"1": "F11", "2": "F27"})["cost"] == 1  # 5G, Flex+5G: 3 icons
    assert built(state, "p1", {"1": "F11", "2": "F5"})["cost"] == 3  # only 2 icons


def test_T7_8k_goods_MM_CARD_T7():
    """MM-CARD-T7: after building, 1 Goods if a placed Feature card shows 8K."""
    state = sales_state()
    p = company(state, "p1", 6, features=["F9", "F7"], techs=["T7"], goods=2)
    sales.build(state, "p1", {"1": "F7"}, 0)
    assert p["goods"] == 2
    sales.build(state, "p1", {"1": "F9"}, 0)
    assert p["goods"] == 3


def test_T11_all_feature_stars_MM_CARD_T11():
    """MM-CARD-T11: Stars of all Feature cards in Sales, placed or not (not placed for
    Marketing cards in Profit)."""
    state = sales_state()
    company(state, "p1", 6, features=["F4", "F29", "F1"], techs=["T11"])
    assert built(state, "p1", {"1": "F1"})["stars"] == 2 + 3 + 1
    state["players"]["p1"]["techs"] = []
    assert built(state, "p1", {"1": "F1"})["stars"] == 1


def test_T12_T13_T14_end_money_MM_CARD_T12_MM_CARD_T13():
    """MM-CARD-T12: 2 money per Feature card (Starting included); MM-CARD-T13: 3 per
    Technology card (Starting included); T14 the same for Marketing cards."""
    state = sales_state()
    p = company(state, "p1", 5, features=["FS1", "F4", "F7"], techs=["TS1", "T12", "T13", "T14"])
    p["campaigns"] = ["M1", "M2"]
    gains = {card: effects.value(state, "p1", e) for card, e in effects.active(state, "p1", "end", "money")}
    assert gains == {"T12": 6, "T13": 12, "T14": 6}


def test_T15_T22_marketing_point_MM_CARD_T15():
    """MM-CARD-T15: T15/T22 give 1 more Marketing Point when their condition holds, to be
    spent this phase."""
    state = sales_state()
    p = company(state, "p1", 4, techs=["T15", "T22"])
    p["outcome"] = outcome(mkt=1)
    assert marketing.points(state, "p1") == 3
    p["price"] = 5
    p["private"] = ["R1"]
    assert marketing.points(state, "p1") == 1


def test_T26_fewest_goods_MM_CARD_T26():
    """MM-CARD-T26: after everyone's production, 1 more Goods if no one has fewer."""
    state = sales_state(3)
    a, b, c = state["seats"]
    for seat, covered in ((a, 1), (b, 1), (c, 3)):
        state["players"][seat]["outcome"] = outcome(covered=covered)
    state["players"][a]["techs"].append("T26")
    state["players"][c]["techs"].append("T26")
    state["order"] = [a, b, c]
    production.produce(state)
    # E3 has 1 Goods icon: a 2, b 2, c 4; a has no one below it (b ties): +1; c not
    assert [state["players"][s]["goods"] for s in (a, b, c)] == [3, 2, 4]


def test_T27_all_five_icons_MM_CARD_T27():
    """MM-CARD-T27: 14 money with 5G, NFC, 8K, Multi-Camera and Flexible Display among
    the Feature cards; otherwise nothing."""
    state = sales_state()
    p = company(state, "p1", 5, features=["F15", "F2", "F10"], techs=["T27"])
    assert effects.total(state, "p1", "end", "money") == 14
    p["features"] = ["F15", "F2"]
    assert effects.total(state, "p1", "end", "money") == 0


def test_T29_seven_stars_MM_CARD_T29():
    """MM-CARD-T29: 12 money with 7+ Stars on Feature and Technology cards (T4's doubling
    not counted); 6 or less gives nothing."""
    state = sales_state()
    p = company(state, "p1", 5, features=["F29", "F4", "F1"], techs=["T29", "T4"])
    assert effects.total(state, "p1", "end", "money") == 0  # 6 Stars (T4 does not double here)
    p["techs"].append("T10")
    assert effects.total(state, "p1", "end", "money") == 12


def test_T30_every_slot_full_MM_CARD_T30():
    """MM-CARD-T30: acts only when every slot (board and cards) holds a Feature card."""
    state = sales_state()
    p = company(state, "p1", 5, features=["F1", "F4", "F7", "F8"], techs=["T30", "T9"])
    built(state, "p1", {"1": "F1", "2": "F4", "3": "F7"})
    assert effects.total(state, "p1", "profit", "money") == 0
    built(state, "p1", {"1": "F1", "2": "F4", "3": "F7", "T9": "F8"})
    assert effects.total(state, "p1", "profit", "money") == 4
    assert p["product"]["full"]
