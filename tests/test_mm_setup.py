"""Mobile Markets setup and Phase 1 Preparation (MM-SET-01..06, MM-PREP-01..08)."""

from __future__ import annotations

from mm_support import new_game, pass_until, start_phase

from engine.mobile_markets import displays, flow, market, preparation
from engine.mobile_markets.data import (
    CUSTOMERS,
    EVENTS,
    PHASES,
    STARTING_FEATURES,
    STARTING_TECHS,
)
from engine.mobile_markets.game import GAME


def test_companies_and_setup_card_section_MM_SET_01():
    """MM-SET-01: 1-4 companies in their colours; the Setup Card section matches the count."""
    for n in (1, 2, 3, 4):
        state = new_game(n)
        cols = [state["players"][s]["colour"] for s in state["seats"]]
        names = [state["players"][s]["company"] for s in state["seats"]]
        assert cols == ["blue", "yellow", "red", "black"][:n]
        assert names == ["Atlantis", "Sun Tech", "Redberry", "Shooting Star"][:n]
        assert preparation.setup_section(state) == preparation.SETUP[str(n)]
    solo = new_game(2, automata=["p2"])
    assert preparation.setup_section(solo) == preparation.SETUP["2"]


def test_event_deck_of_five_MM_SET_02():
    """MM-SET-02: 5 random Events form the deck; the other 10 go back to the box."""
    decks = set()
    for seed in range(6):
        state = new_game(3, seed)
        ev = state["events"]
        assert len(ev["revealed"]) == 1 and len(ev["deck"]) == 4 and len(ev["box"]) == 10
        assert sorted(ev["revealed"] + ev["deck"] + ev["box"]) == sorted(EVENTS)
        decks.add(tuple(ev["revealed"] + ev["deck"]))
    assert len(decks) > 1  # random


def test_three_customer_decks_MM_SET_03():
    """MM-SET-03: three Customer decks shuffled separately, each with its own discard."""
    state = new_game(2)
    for kind, pile in state["customers"].items():
        assert pile["discard"] == []
        assert all(CUSTOMERS[c]["type"] == kind for c in pile["deck"])
    on_market = sum(len(c) for c in state["market"].values())
    assert sum(len(p["deck"]) for p in state["customers"].values()) + on_market == 108
    other = new_game(2, seed=2)
    assert state["customers"]["regular"]["deck"] != other["customers"]["regular"]["deck"]


def test_displays_revealed_MM_SET_04():
    """MM-SET-04: 4 Technology, 6 Feature and 4 Marketing cards face up; the first
    round's Event changes that only when it is E1 (7 Technology) or E2 (7 Marketing)."""
    for seed in range(8):
        state = new_game(2, seed)
        assert state["events"]["revealed"][0] not in ("E1", "E2")
        assert {d: len(state["displays"][d]["row"]) for d in ("technology", "feature", "marketing")} == {
            "technology": 4, "feature": 6, "marketing": 4}
    for seed, event, rows in ((21, "E1", (7, 6, 4)), (10, "E2", (4, 6, 7))):
        state = new_game(2, seed)
        assert state["events"]["revealed"] == [event]
        assert tuple(len(state["displays"][d]["row"]) for d in ("technology", "feature", "marketing")) == rows


def test_player_setup_MM_SET_05():
    """MM-SET-05: money 0, tracks at 0, one random Starting Technology and Feature each;
    the rest go back to the box."""
    state = new_game(4, seed=5)
    techs, feats = [], []
    for seat in state["seats"]:
        p = state["players"][seat]
        assert (p["money"], p["goods"], p["net"], p["progress"]) == (0, 0, 0, 0)
        assert len(p["techs"]) == 1 and p["techs"][0] in STARTING_TECHS
        assert len(p["features"]) == 1 and p["features"][0] in STARTING_FEATURES
        assert p["initiative"] == STARTING_TECHS[p["start"]]["initiative"]
        techs.append(p["techs"][0])
        feats.append(p["features"][0])
    assert len(set(techs)) == 4 and len(set(feats)) == 4
    assert sorted(state["box"]) == sorted(set(STARTING_TECHS) - set(techs) | set(STARTING_FEATURES) - set(feats))
    assert GAME.pending(state).keys() == {"p1", "p2", "p3", "p4"}  # each plans with their Pads


def test_five_rounds_of_eight_phases_MM_SET_06():
    """MM-SET-06: each round goes Preparation ... Profit; 5 rounds."""
    seen: list[tuple[int, str]] = []
    state = new_game(2, seed=3)
    from engine.ai import choose

    while not GAME.is_over(state):
        seat = sorted(GAME.pending(state))[0]
        new = GAME._apply(state, seat, choose("mobile-markets", state, seat, "random"), lambda s: seen.append((s["round"], s["phase"])))
        state = new
    rounds = sorted({r for r, _ in seen})
    assert rounds == [1, 2, 3, 4, 5]
    for r in (2, 3, 4, 5):
        assert [p for rr, p in seen if rr == r][:8] == list(PHASES)


def test_markers_back_on_5_in_turn_order_MM_PREP_01():
    """MM-PREP-01: all Price Markers return to the 5 space; its spots give the order."""
    state = start_phase(new_game(3, seed=4), "profit", {})
    pass_until(state, "planning")
    assert state["round"] == 2
    assert state["track"]["5"] == state["order"] and len(state["order"]) == 3
    assert all(state["players"][s]["price"] == 5 for s in state["seats"])
    assert all(not v for k, v in state["track"].items() if k != "5")


def test_round_one_initiative_MM_PREP_02():
    """MM-PREP-02 (ex): Red's Starting Technology Initiative 3, Blue's 4: Red takes the
    first spot, Blue the second."""
    state = new_game(2)
    state["round"] = 1
    red, blue = "p1", "p2"
    state["players"][red]["initiative"], state["players"][blue]["initiative"] = 3, 4
    preparation.reset_price_markers(state)
    assert state["track"]["5"] == [red, blue]
    state["players"][red]["initiative"], state["players"][blue]["initiative"] = 4, 3
    preparation.reset_price_markers(state)
    assert state["track"]["5"] == [blue, red]


def test_later_rounds_least_money_first_MM_PREP_03():
    """MM-PREP-03 (ex): Red 35, Blue 28, Black 28 (Black's Starting Technology has the
    lower number): Black, Blue, Red."""
    state = new_game(3)
    state["round"] = 3
    red, blue, black = state["seats"]
    for seat, money, ini in ((red, 35, 1), (blue, 28, 5), (black, 28, 2)):
        state["players"][seat]["money"], state["players"][seat]["initiative"] = money, ini
    preparation.reset_price_markers(state)
    assert state["track"]["5"] == [black, blue, red]
    assert state["order"] == [black, blue, red]


def test_event_revealed_and_acts_this_round_MM_PREP_04():
    """MM-PREP-04: each Preparation reveals the next Event; its text overrides the rules
    while it applies (the round it is revealed)."""
    state = new_game(2, seed=1)
    state["events"]["deck"] = ["E4", "E3", "E5", "E6"]
    state["events"]["revealed"] = ["E7"]
    from engine.mobile_markets import product

    assert product.base_cost(state) == 1
    preparation.reveal_event(state)
    assert state["events"]["revealed"][-1] == "E4" and product.base_cost(state) == 2  # E4 overrides
    preparation.reveal_event(state)
    assert product.base_cost(state) == 1  # next round: E3, the base cost is 1 again
    assert state["events"]["deck"] == ["E5", "E6"]


def test_display_refresh_example_MM_PREP_05():
    """MM-PREP-05 (ex): card A has a Discount Token and card B costs 1: both discarded;
    C and D get a Discount Token; E and F are drawn to refill 4."""
    state = new_game(2, seed=2)
    state["events"]["revealed"] = ["E3"]
    a, b, c, d, e, f = "T1", "T9", "T5", "T13", "T6", "T7"  # T9 costs 1
    tech = state["displays"]["technology"]
    rest = [x for x in tech["deck"] + tech["row"] if x not in (a, b, c, d, e, f)]
    tech["row"], tech["deck"], tech["discard"] = [a, b, c, d], [e, f, *rest], []
    state["discounts"] = [a]
    displays.refresh(state)
    assert tech["row"] == [c, d, e, f]
    assert tech["discard"] == [a, b]
    assert c in state["discounts"] and d in state["discounts"] and a not in state["discounts"]
    assert e not in state["discounts"] and f not in state["discounts"]
    assert len(state["displays"]["feature"]["row"]) == 6 and len(state["displays"]["marketing"]["row"]) == 4


def test_customers_added_per_setup_card_and_events_MM_PREP_06():
    """MM-PREP-06 (ex): 2 Variety-seeking, 3 Regular, 3 Complex this round from the
    Setup Card (2 players: 1/2/2) and the Event icons (1/1/1)."""
    state = new_game(2)
    state["events"]["revealed"] = ["E8"]
    assert EVENTS["E8"]["customers"] == {"variety": 1, "regular": 1, "complex": 1}
    counts = preparation.customers_to_add(state)
    assert counts == {"variety": 2, "regular": 3, "complex": 3}
    before = {k: len(v["deck"]) for k, v in state["customers"].items()}
    on_market = sum(len(c) for c in state["market"].values())
    market.add_customers(state, counts)
    assert sum(len(c) for c in state["market"].values()) == on_market + 8
    assert {k: before[k] - len(v["deck"]) for k, v in state["customers"].items()} == counts
    # every revealed Event counts, not only the newest
    state["events"]["revealed"] = ["E8", "E3"]
    assert preparation.customers_to_add(state) == {"variety": 3, "regular": 3, "complex": 4}


def test_customers_go_below_those_already_there_MM_PREP_07():
    """MM-PREP-07: a Customer goes under its price space, below those already there;
    the earlier ones stay (and, bottom first, the newest is the first to buy)."""
    state = new_game(2)
    for cid in ("C24", "C29"):
        for pile in state["customers"].values():
            for key in ("deck", "discard"):
                if cid in pile[key]:
                    pile[key].remove(cid)
    state["market"]["7"] = ["C24", "C29"]
    market.place(state, "C28")
    assert state["market"]["7"] == ["C24", "C29", "C28"]
    order = market.sale_order(state)
    assert [c for c in order if c in ("C24", "C29", "C28")] == ["C28", "C29", "C24"]


def test_empty_customer_deck_rebuilt_from_discard_MM_PREP_08():
    """MM-PREP-08: an empty Customer deck is rebuilt by shuffling its discard pile."""
    state = new_game(2)
    pile = state["customers"]["complex"]
    pile["discard"], pile["deck"] = pile["deck"], []
    n = len(pile["discard"])
    cid = market.draw(state, "complex")
    assert cid is not None and len(pile["deck"]) == n - 1 and pile["discard"] == []
    assert any("rebuilt" in line for line in state["log"])


def test_round_flow_runs_preparation_then_planning():
    state = new_game(2)
    assert state["phase"] == "planning" and state["round"] == 1
    assert flow.pending(state).keys() == {"p1", "p2"}
