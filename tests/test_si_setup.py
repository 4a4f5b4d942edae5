"""Smartphone Inc. setup: Preparing for the Game, Player Preparation, Retailers."""

from __future__ import annotations

import pytest
from si_support import new_game

from engine import IllegalAction
from engine.smartphone_inc.data import COLOURS, HOME, PHASES, REGIONS, RETAILERS, STARTING
from engine.smartphone_inc.game import GAME


def test_eight_phases_in_rulebook_order_SI_SET_01():
    """SI-SET-01: 5 rounds of 8 phases in order."""
    assert PHASES == ("planning", "prices", "production", "improve", "research", "logistics", "selling", "vp")
    state = new_game(3)
    assert state["round"] == 1 and state["phase"] == "planning"
    assert GAME.view(state, None)["rounds"] == 5


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_each_company_starts_with_an_office_at_home_SI_SET_02(n):
    """SI-SET-02: one Office on the first Office space of the home region."""
    state = new_game(n)
    for seat in state["seats"]:
        colour = state["players"][seat]["colour"]
        home = HOME[colour]
        assert state["regions"][home]["offices"] == [seat]
        assert sum(reg["offices"].count(seat) for reg in state["regions"].values()) == 1


def test_starting_improvement_usable_in_round_one_SI_SET_03():
    """SI-SET-03: each company holds its colour's starting Improvement in round 1."""
    state = new_game(5)
    for seat in state["seats"]:
        p = state["players"][seat]
        assert p["improvements"] == [STARTING[p["colour"]]]
        assert GAME.pending(state)[seat]["improvements"] == [STARTING[p["colour"]]]


def test_prices_start_at_5_in_scoreboard_order_SI_SET_04():
    """SI-SET-04: Goods markers on 5, in scoreboard order green, blue, black, yellow, red."""
    assert COLOURS == ["green", "blue", "black", "yellow", "red"]
    state = new_game(5, colours={"p1": "red", "p2": "yellow", "p3": "black", "p4": "blue", "p5": "green"})
    assert all(state["players"][s]["price"] == 5 for s in state["seats"])
    view = GAME.view(state, None)
    assert view["priority"] == ["p5", "p4", "p3", "p2", "p1"]  # scoreboard order


def test_five_improvements_face_up_rest_hidden_SI_SET_05():
    """SI-SET-05: 5 face up in the Block, the rest a face-down pile (hidden in views)."""
    state = new_game(4)
    assert len(state["block"]) == 5 and len(state["pile"]) == 22
    assert len(set(state["block"] + state["pile"])) == 27
    for seat in [None, *state["seats"]]:
        view = GAME.view(state, seat)
        assert "pile" not in view and view["pile_count"] == 22
        text = GAME.dump(view)
        assert "rng" not in view and '"seed"' not in text


def test_technologies_face_up_by_default_and_options_SI_SET_06():
    """SI-SET-06: Patents on their Technologies; face up by default, random or chosen sides."""
    state = new_game(3)
    assert all(t["side"] == 0 and t["patent"] is None for t in state["techs"].values())
    chosen = new_game(3, tech_sides={"gps": 1, "nfc": 1})
    assert chosen["techs"]["gps"]["side"] == 1 and chosen["techs"]["nfc"]["side"] == 1
    assert chosen["techs"]["wi-fi"]["side"] == 0
    sides = {tuple(t["side"] for t in new_game(3, seed=s, tech_sides="random")["techs"].values()) for s in range(20)}
    assert len(sides) > 5
    with pytest.raises(IllegalAction):
        new_game(3, tech_sides="sideways")


def covered(state):
    return sorted(r for r, reg in state["regions"].items() if reg["retailer"])


def unoccupied_mediums(state):
    return [r for r in state["regions"] if REGIONS[r]["size"] == "M" and not state["regions"][r]["offices"]]


def test_two_players_retailers_SI_SET_07():
    """SI-SET-07: China, Canada, Caribbean and every medium region without an Office."""
    state = new_game(2)
    assert covered(state) == sorted(["china", "canada", "caribbean", *unoccupied_mediums(state)])
    assert len(covered(state)) == 6


def test_three_players_retailers_SI_SET_08():
    """SI-SET-08: Europe, RSA and every medium region without an Office."""
    state = new_game(3)
    assert covered(state) == sorted(["europe", "rsa", *unoccupied_mediums(state)])


def test_four_players_retailers_SI_SET_09():
    """SI-SET-09: Canada and the one medium region without an Office."""
    state = new_game(4)
    assert len(unoccupied_mediums(state)) == 1
    assert covered(state) == sorted(["canada", *unoccupied_mediums(state)])


def test_five_players_no_retailers_SI_SET_10():
    """SI-SET-10: no Retailers with 5 players."""
    assert covered(new_game(5)) == []


def test_retailers_random_side_and_matching_size_SI_SET_11():
    """SI-SET-11: shuffled, random side, size matches the region."""
    seen_ids, seen_sides = set(), set()
    for seed in range(30):
        state = new_game(2, seed=seed)
        for rid, reg in state["regions"].items():
            if reg["retailer"]:
                assert RETAILERS[reg["retailer"]["id"]]["size"] == REGIONS[rid]["size"]
                seen_ids.add((rid, reg["retailer"]["id"]))
                seen_sides.add(reg["retailer"]["side"])
    assert seen_sides == {0, 1}
    assert len(seen_ids) > 6  # different Retailers land on the same region across seeds


def test_steve_counts_as_a_player_SI_SET_12():
    """SI-SET-12: Steve counts for Retailer placement; he plays with 1 to 4 players."""
    with_steve = new_game(3, steve_seat=True)
    assert covered(with_steve) == sorted(["europe", "rsa", *unoccupied_mediums(with_steve)])
    solo = new_game(2, steve_seat=True)
    assert len(covered(solo)) == 6
    with pytest.raises(IllegalAction):
        GAME.setup(["steve"], 1, {"automata": ["steve"]})
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b", "c", "d", "e", "f"], 1, {"automata": ["f"]})


def test_setup_rejects_bad_input():
    for players, seed, options in [
        ([], 1, {}),
        (["a", "a"], 1, {}),
        (["a", "b"], "x", {}),
        (["a", "b"], 1, {"automata": ["zz"]}),
        (["a", "b"], 1, {"nonsense": 1}),
        (["a", "b"], 1, {"colours": {"a": "green", "b": "green"}}),
        (["a", "b"], 1, {"block_size": 4}),
    ]:
        with pytest.raises(IllegalAction):
            GAME.setup(players, seed, options)
