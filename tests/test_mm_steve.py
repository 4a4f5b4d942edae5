"""Steve Jr., the solo opponent (MM-SOLO-01..12): a scenario for each phase row."""

from __future__ import annotations

import pytest
from mm_support import PLAN_EX1, start_phase
from test_mm_sales import put_market

from engine.ai import choose
from engine.mobile_markets import effects, flow, preparation, production, profit, sales, steve_jr
from engine.mobile_markets.data import STEVE_CARDS
from engine.mobile_markets.game import GAME


def solo(difficulty="easy", seed=1):
    return GAME.setup(["ann", "steve"], seed, {"automata": ["steve"], "difficulty": difficulty})


def stack(state, *cards, hidden=()):
    state["steve"]["stack"] = [{"card": c, "full": c not in hidden} for c in cards]
    state["steve"]["deck"] = [c for c in STEVE_CARDS if c not in cards]


def test_setup_as_two_players_without_starting_cards_MM_SOLO_01():
    """MM-SOLO-01: a 2-player game; Steve Jr. has no starting cards; his 16 cards are
    shuffled face down."""
    state = solo()
    sj = state["players"]["steve"]
    assert sj["steve"] and sj["techs"] == [] and sj["features"] == [] and sj["start"] is None
    assert preparation.setup_section(state) == preparation.SETUP["2"]
    assert len(state["steve"]["deck"]) + len(state["steve"]["stack"]) == 16
    assert solo(seed=2)["steve"]["deck"] != state["steve"]["deck"]
    assert "steve" not in GAME.pending(state)


def test_difficulty_cards_show_only_their_top_row_MM_SOLO_02():
    """MM-SOLO-02: 0 / 1 / 2 cards revealed for easy / medium / hard, only their top part
    visible (features and ability, never their phase rows)."""
    for level, n in (("easy", 0), ("medium", 1), ("hard", 2)):
        state = solo(level)
        assert len(state["steve"]["stack"]) == n and all(not e["full"] for e in state["steve"]["stack"])
        view = GAME.view(state, "ann")["steve"]
        assert all("ability" in c and "features" in c and "rows" not in c for c in view["stack"])
    state = solo("hard")
    cards = [e["card"] for e in state["steve"]["stack"]]
    assert effects.cards_acting(state, "steve") == state["events"]["revealed"][-1:] + cards
    state = GAME.apply(state, "ann", {"type": "plan", "plan": PLAN_EX1})
    assert steve_jr.rows(state) == STEVE_CARDS[state["steve"]["stack"][-1]["card"]]["rows"]  # the new card's rows


def test_initiative_ties_go_to_steve_MM_SOLO_03():
    """MM-SOLO-03: Steve Jr. wins initiative ties (first in round 1; first on equal money)."""
    state = solo()
    assert state["order"][0] == "steve"
    state["round"] = 3
    state["players"]["ann"]["money"] = state["players"]["steve"]["money"] = 20
    state["players"]["ann"]["initiative"] = 1
    assert preparation.initiative_order(state) == ["steve", "ann"]
    state["players"]["steve"]["money"] = 21
    assert preparation.initiative_order(state) == ["ann", "steve"]


def test_card_revealed_after_the_player_plans_MM_SOLO_04():
    """MM-SOLO-04: after the player has planned, a Steve Jr. card goes on his stack,
    covering the rows of the one before and leaving features and ability visible."""
    state = solo("medium")
    top = state["steve"]["deck"][0]
    assert len(state["steve"]["stack"]) == 1
    state = GAME.apply(state, "ann", {"type": "plan", "plan": PLAN_EX1})
    assert state["steve"]["stack"][-1] == {"card": top, "full": True}
    view = GAME.view(state, "ann")["steve"]
    assert "rows" in view["stack"][-1] and "ability" in view["stack"][-1]
    assert all("rows" not in c for c in view["stack"][:-1])
    assert top not in GAME.dump(GAME.view(solo("medium"), "ann"))  # the deck is face down


@pytest.mark.parametrize("card,event,price", [
    ("SJ3", "E3", 6),  # price row 6, an Event without a price effect
    ("SJ14", "E3", 3),  # price row 3
    ("SJ3", "E8", 5),  # E8 Price War: every price 1 lower
    ("SJ14", "E8", 2),
])
def test_price_row_MM_SOLO_05(card, event, price):
    """MM-SOLO-05: his price follows the price row of the card he reveals (moved, like
    everyone's, by the round's Event)."""
    state = solo()
    stack(state)
    state["steve"]["deck"] = [card] + [c for c in state["steve"]["deck"] if c != card]
    state["events"]["revealed"] = [event]
    state = start_phase(state, "technology")
    assert state["steve"]["stack"][-1]["card"] == card
    assert state["players"]["steve"]["price"] == price


def test_technology_row_discards_MM_SOLO_06():
    """MM-SOLO-06: he buys nothing; he discards display cards as his row says (SJ2: the
    leftmost Technology card and 2 Feature cards), in turn order."""
    state = solo()
    stack(state, "SJ2")
    state["events"]["revealed"] = ["E3"]
    tech = list(state["displays"]["technology"]["row"])
    feats = list(state["displays"]["feature"]["row"])
    state["steve"]["stack"][-1]["full"] = True
    flow.enter(state, "technology")
    state["order"] = ["steve", "ann"]
    state["turn"]["order"] = ["steve", "ann"]
    state["players"]["ann"]["outcome"] = {"up": 0, "down": 0, "tech": 0, "mkt": 0, "prod": 0, "covered": 1}
    flow.run(state)
    assert state["displays"]["technology"]["row"] == tech[1:]
    assert state["displays"]["feature"]["row"] == feats[2:]
    assert state["displays"]["technology"]["discard"] == [tech[0]]
    assert state["players"]["steve"]["techs"] == [] and state["players"]["steve"]["features"] == []


def test_marketing_row_MM_SOLO_07():
    """MM-SOLO-07: he discards Marketing cards and takes Private Customers from the top of
    the decks his row names; SJ2's ability adds a Complex one."""
    state = solo()
    stack(state, "SJ2")  # row: 1 campaign, a Complex Customer; ability: +1 Complex
    state["events"]["revealed"] = ["E3"]
    row = list(state["displays"]["marketing"]["row"])
    tops = state["customers"]["complex"]["deck"][:2]
    flow.enter(state, "marketing")
    state["turn"]["order"] = ["steve"]
    flow.run(state, until="production")
    assert state["displays"]["marketing"]["row"] == row[1:]
    assert state["players"]["steve"]["private"] == tops


def test_production_formula_MM_SOLO_08():
    """MM-SOLO-08: his production row (SJ2: 3 + 1 per round) + Event Goods + abilities."""
    state = solo()
    stack(state, "SJ1", "SJ2")  # SJ1 ability: +1 Goods
    state["events"]["revealed"] = ["E6", "E3"]  # 2 Goods icons, E3 current
    state["round"] = 2
    assert steve_jr.production(state) == 3 + 1 * 2 + 2
    state["players"]["ann"]["outcome"] = {"up": 0, "down": 0, "tech": 0, "mkt": 0, "prod": 0, "covered": 1}
    production.produce(state)
    assert state["players"]["steve"]["goods"] == 3 + 2 + 2 + 1


def test_sales_row_MM_SOLO_09():
    """MM-SOLO-09: net profit from his row and features, base cost included; he sells to
    his Private Customers first, then the market, by the usual rules."""
    state = solo()
    stack(state, "SJ5")  # price 6; sale row: 2 features: 8K (free), 2 Stars (free)
    state["events"]["revealed"] = ["E3"]
    for col in state["market"]:
        state["market"][col] = []
    sj = state["players"]["steve"]
    sj["price"] = 6
    sj["goods"] = 3
    sj["private"] = [state["customers"]["regular"]["deck"].pop(0)]
    put_market(state, "C33", "R33", "C19")  # 8K at 8, Regular 8, Complex 6 with 3 Stars
    sales.build(state, "steve", {}, 0)
    assert sj["product"]["icons"] == ["8k"] and sj["product"]["stars"] == 2
    assert sj["net"] == 6 - 1
    private = sj["private"][0]
    sales.sell(state, "steve")
    # column 8 from the bottom: R33 then C33 (8K); C19 wants 3 Stars
    wants = ["R33", "C33"] if market_price(private) < 6 else [private, "R33", "C33"]
    assert sj["sales"] == wants[:3]


def market_price(cid):
    from engine.mobile_markets.data import CUSTOMERS

    return CUSTOMERS[cid]["price"]


def test_features_from_the_newest_card_and_discounts_MM_SOLO_10():
    """MM-SOLO-10: "up to N features" counts segments from the newest card to the oldest;
    his discounts (SJ3, SJ8) add to N; he uses no slot and no Feature display."""
    state = solo()
    stack(state, "SJ1", "SJ9", "SJ7")  # newest SJ7: 5G(1*), NFC(1*, cost); SJ9: Flex, Camera(1*)
    state["events"]["revealed"] = ["E3"]
    segs = steve_jr.segments(state, 3)
    assert [s["icons"] for s in segs] == [["5g"], ["nfc"], ["flex"]]
    p = steve_jr.product(state, "steve")
    assert p["icons"] == ["5g", "nfc"] and p["cost"] == 1 + 1  # row: 2 features
    stack(state, "SJ1", "SJ9", "SJ3", "SJ7")  # SJ3's ability: 1 more feature
    assert steve_jr.product(state, "steve")["icons"] == ["5g", "flex", "nfc"]
    assert state["players"]["steve"]["features"] == []


def test_abilities_act_continuously_MM_SOLO_11():
    """MM-SOLO-11: every visible ability acts, not only the newest card's. The stack,
    oldest first: SJ4 (Customers consider Multi-Camera), SJ6 (+1 Star), SJ2 (newest:
    sale row 2 features). His product: SJ2's two segments, NFC (0 Stars, cost 0) and
    8K (1 Star, cost 1); SJ6 adds 1 Star and SJ4 Multi-Camera."""
    state = solo()
    stack(state, "SJ4", "SJ6", "SJ2")
    state["events"]["revealed"] = ["E3"]
    p = steve_jr.product(state, "steve")
    from engine.mobile_markets import market

    assert p["icons"] == ["8k", "nfc"] and p["stars"] == 1 + 1
    assert p["cost"] == 1 + 1 and p["net"] == 5 - 2
    seen = market.offer(state, "steve", p)
    assert seen["icons"] == {"8k", "nfc", "camera"} and seen["stars"] == 2


def test_profit_and_ties_MM_SOLO_12():
    """MM-SOLO-12: his profit = net profit per sale, market share and abilities; the
    player wins only with strictly more money."""
    state = solo()
    stack(state, "SJ5")  # Profit: 2 money
    state["events"]["revealed"] = ["E3"]
    sj = state["players"]["steve"]
    sj["sales"], sj["net"], sj["goods"] = ["R16", "R17"], 4, 2
    state["players"]["ann"]["sales"] = ["R18"]
    state["players"]["ann"]["net"], state["players"]["ann"]["goods"] = 3, 1
    profit.market_share(state)
    profit.round_cards(state)
    profit.income(state)
    assert sj["money"] == 8 + 2 + 8
    assert state["players"]["ann"]["money"] == 4 + 3
    state["players"]["ann"]["money"] = sj["money"]
    assert profit.result(state)["winner"] == "steve"
    state["players"]["ann"]["money"] += 1
    assert profit.result(state)["winner"] == "ann"


def test_steve_never_pending_and_whole_games_finish():
    for level in ("easy", "medium", "hard"):
        state = solo(level, seed=4)
        while not GAME.is_over(state):
            pend = GAME.pending(state)
            assert "steve" not in pend
            seat = sorted(pend)[0]
            state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
        assert len(state["steve"]["stack"]) == {"easy": 0, "medium": 1, "hard": 2}[level] + 5
