"""Mobile Markets Phase 8 Profit and the end of the game (MM-PROF-01..06,
MM-END-01..02)."""

from __future__ import annotations

from mm_support import new_game, pass_until, start_phase
from test_mm_sales import company, put_market, sales_state

from engine.ai import choose
from engine.mobile_markets import market, product, profit, sales
from engine.mobile_markets.game import GAME


def test_market_share_places_MM_PROF_01():
    """MM-PROF-01: most Goods sold 8, second 4, third 2, for any number of companies."""
    assert profit.share_bonus({"a": 5, "b": 3, "c": 1}, 3) == {"a": 8, "b": 4, "c": 2}
    assert profit.share_bonus({"a": 5, "b": 3, "c": 1, "d": 2}, 4) == {"a": 8, "b": 4, "d": 2, "c": 0}


def test_ties_share_their_places_MM_PROF_02():
    """MM-PROF-02 (ex): two first -> 6 each; two second -> 3 each (3+ companies)."""
    assert profit.share_bonus({"a": 5, "b": 5, "c": 1}, 3) == {"a": 6, "b": 6, "c": 2}
    assert profit.share_bonus({"a": 5, "b": 3, "c": 3}, 3) == {"a": 8, "b": 3, "c": 3}
    assert profit.share_bonus({"a": 4, "b": 4, "c": 4}, 3) == {"a": 4, "b": 4, "c": 4}  # 14 // 3
    assert profit.share_bonus({"a": 4, "b": 4, "c": 4, "d": 1}, 4) == {"a": 4, "b": 4, "c": 4, "d": 0}


def test_no_third_place_for_two_and_nothing_for_no_sale_MM_PROF_03():
    """MM-PROF-03: no third place in solo and 2-company games; no sale, no money."""
    assert profit.share_bonus({"a": 5, "b": 3}, 2) == {"a": 8, "b": 4}
    assert profit.share_bonus({"a": 3, "b": 3}, 2) == {"a": 6, "b": 6}
    assert profit.share_bonus({"a": 3, "b": 0}, 2) == {"a": 8, "b": 0}
    assert profit.share_bonus({"a": 3, "b": 0, "c": 0}, 3) == {"a": 8, "b": 0, "c": 0}
    assert profit.share_bonus({"a": 0}, 1) == {"a": 0}


def profit_state(n=2, event="E3"):
    state = sales_state(n, event=event)
    for seat in state["seats"]:
        state["players"][seat]["outcome"] = {"up": 0, "down": 0, "tech": 0, "mkt": 0, "prod": 0, "covered": 1}
    return state


def test_end_of_round_cards_MM_PROF_04():
    """MM-PROF-04: end-of-round card effects resolve in Profit, e.g. a Starting
    Technology's bonus when Goods are left unsold (TS1: 2 money)."""
    state = profit_state()
    p = company(state, "p1", 5, techs=["TS1"], goods=3)
    p["sales"] = ["R16"]
    profit.round_cards(state)
    assert p["money"] == 2
    q = company(state, "p2", 5, techs=["TS1"], goods=1)
    q["sales"] = ["R17"]
    profit.round_cards(state)
    assert q["money"] == 0  # everything sold


def test_profit_example_MM_PROF_05():
    """MM-PROF-05 (ex): 3 Customers in Red's pile (3 of 4 Goods sold), price 5, base
    cost + features 2: net 3; 3 x 3 = 9."""
    state = profit_state()
    red = company(state, "p1", 5, features=["F5"], goods=4)
    put_market(state, "R16", "R17", "R18")
    red["product"] = product.evaluate(state, "p1", {"1": "F5"})
    red["net"] = red["product"]["net"]
    assert red["net"] == 3
    sales.sell(state, "p1")
    assert len(red["sales"]) == 3
    state["players"]["p2"]["sales"] = []
    profit.income(state)
    assert red["money"] == 9 and red["gains"] == [9]


def test_clean_up_MM_PROF_06():
    """MM-PROF-06: sales piles to their decks' discards, Features back to their owner,
    both tracks to 0."""
    state = profit_state()
    red = company(state, "p1", 6, features=["F4", "F5"], goods=4)
    put_market(state, "R28", "V30", "C18")
    red["product"] = product.evaluate(state, "p1", {"1": "F4", "2": "F5"})
    red["net"] = red["product"]["net"]
    sales.sell(state, "p1")
    assert len(red["sales"]) == 3
    sold = list(red["sales"])
    profit.clean_up(state)
    assert red["sales"] == [] and red["goods"] == 0 and red["net"] == 0 and red["product"] is None
    assert red["features"] == ["F4", "F5"]
    for cid in sold:
        assert cid in state["customers"][market.CUSTOMERS[cid]["type"]]["discard"]


def test_game_ends_after_round_five_with_end_cards_MM_END_01():
    """MM-END-01: the game ends after round 5 (the Event deck is empty); end-of-game
    cards resolve (T13: 3 money per Technology card, the Starting one included)."""
    state = new_game(2, seed=9)
    state["players"]["p1"]["techs"].append("T13")
    for r in range(1, 6):
        assert state["round"] == r and not GAME.is_over(state)
        start_phase(state, "profit")
        if r < 5:
            pass_until(state, "planning")
            assert len(state["events"]["revealed"]) == r + 1 and len(state["events"]["deck"]) == 5 - (r + 1)
    money_before = state["players"]["p1"]["money"]
    from engine.mobile_markets import flow

    flow.run(state)
    assert GAME.is_over(state) and state["events"]["deck"] == []
    assert any("T13" in line for line in state["log"])
    gains = state["players"]["p1"]["gains"]
    assert 6 in gains[-3:] and state["players"]["p1"]["money"] >= money_before


def test_winner_and_tie_break_MM_END_02():
    """MM-END-02: most money wins; ties go to the lowest Starting Technology number."""
    state = new_game(3)
    a, b, c = state["seats"]
    for seat, money, ini in ((a, 30, 5), (b, 30, 2), (c, 12, 1)):
        state["players"][seat]["money"], state["players"][seat]["initiative"] = money, ini
    res = profit.result(state)
    assert res["ranking"] == [b, a, c] and res["winner"] == b
    assert [r["money"] for r in res["scores"]] == [30, 30, 12]


def test_whole_game_result_is_ranked():
    state = new_game(3, seed=12)
    while not GAME.is_over(state):
        seat = sorted(GAME.pending(state))[0]
        state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
    res = GAME.result(state)
    money = {s: state["players"][s]["money"] for s in state["seats"]}
    start = {s: state["players"][s]["initiative"] for s in state["seats"]}
    # MM-END-02: the most money first; this game ends in a tie for first (92, 92, 49),
    # which the lower Starting Technology number wins
    first, second, third = res["ranking"]
    assert money[first] == money[second] > money[third]
    assert start[first] < start[second]
    assert res["winner"] == first
    assert [(r["seat"], r["rank"], r["money"]) for r in res["scores"]] == [
        (s, i + 1, money[s]) for i, s in enumerate(res["ranking"])]
