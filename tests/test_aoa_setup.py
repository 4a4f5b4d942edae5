"""Age of Automaton: component data and setup (AA-SET-*)."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import data
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from tests.aoa_support import drafted, new_game


def test_component_counts_and_sources():
    assert len(data.EQUIPMENT) == 20 and len(data.RND) == 20 and len(data.SALES) == 20
    assert len(data.DRAFTABLE) == 19 and len(data.STARTERS) == 2
    assert sorted(a["side"] for a in data.AUDITS.values()) == ["A"] * 5 + ["B"] * 5
    assert len(data.ACHIEVEMENTS) == 12 and len(data.BLOCKED) == 6 and len(data.SPONSORSHIP) == 18
    for group in (data.EQUIPMENT, data.RND, data.SALES, data.SPECIALISTS, data.AUDITS, data.ACHIEVEMENTS,
                  data.BLOCKED, data.SPONSORSHIP):
        assert all(item["source"] in ("rulebook", "reconstructed") for item in group.values())
    assert [t["name"] for t in data.BOARD["prospect_tracks"]] == [
        "green asteroid track", "teal ringed-planet track", "red planet track", "white moon track"]
    assert data.SPECIAL_COST == {"overtime": 2, "overbuilt": 3, "overclock": 2, "overdrive": 1}


def test_rows_filled_one_card_per_deck_AA_SET_01():
    s = new_game(4, seed=5)
    for kind in ("equipment", "rnd", "sale"):
        assert len(s["rows"][kind]) == 4
        assert len(s["decks"][kind]) == 16
        assert not set(s["rows"][kind]) & set(s["decks"][kind])
    # another seed deals other rows: the decks are shuffled
    assert new_game(4, seed=6)["rows"] != s["rows"]


@pytest.mark.parametrize("n,tiles", [(2, 3), (3, 4), (4, 5)])
def test_sponsorship_row_by_players_AA_SET_02(n, tiles):
    s = new_game(n)
    assert len(s["sponsorship"]["row"]) == tiles
    assert all(data.SPONSORSHIP[t]["rounds"] == "R1-R2" for t in s["sponsorship"]["row"])
    assert all(data.SPONSORSHIP[t]["rounds"] == "R3-R5" for t in s["sponsorship"]["late"])


def test_one_achievement_per_level_AA_SET_03():
    s = new_game(3)
    assert sorted(data.ACHIEVEMENTS[a]["level"] for a in s["achievements"]) == [1, 2, 3, 4]


def test_audit_row_A_A_B_B_marker_before_AA_SET_04():
    s = new_game(3)
    assert [data.AUDITS[c]["side"] for c in s["audit"]["cards"]] == ["A", "A", "B", "B"]
    assert s["audit"]["pos"] == 0 and s["audit"]["flipped"] == [False] * 4


@pytest.mark.parametrize("n,random_commons", [(2, 3), (3, 2), (4, 1)])
def test_common_specialists_AA_SET_05(n, random_commons):
    s = new_game(n)
    assert s["commons"][:2] == data.STARTERS
    assert len(s["commons"]) == 2 + random_commons
    dealt = [c for hand in s["draft"]["hands"].values() for c in hand]
    assert len(dealt) == 4 * n and not set(dealt) & set(s["commons"])


def test_vp_token_stacks_AA_SET_06():
    assert new_game(3)["vp_tokens"] == {"5": [2, 1], "10": [2, 1]}
    assert new_game(2)["vp_tokens"] == {"5": [2], "10": [2]}


def test_prospect_markers_at_start_AA_SET_07():
    s = new_game(4)
    for p in s["players"].values():
        assert p["prospect"] == {t: 0 for t in data.TRACK_IDS}


def test_two_players_blocked_markers_AA_SET_08():
    s = drafted(2)
    for a in ("prospect", "equipment", "rnd", "sale"):
        assert s["spaces"][a].count("blocked") == 1
    assert drafted(4)["spaces"]["prospect"].count("blocked") == 0


def test_three_players_blocked_deck_AA_SET_09():
    s = new_game(3)
    assert sorted(s["blocked"]["deck"]) == sorted(data.BLOCKED)
    assert new_game(4)["blocked"]["deck"] == []


def test_draft_keep_pass_and_hidden_AA_SET_10():
    s = new_game(3, seed=2)
    pend = GAME.pending(s)
    assert set(pend) == {"Emily", "Tyler", "Ann"} and all(p["secret"] for p in pend.values())
    first_hands = {seat: list(pend[seat]["hand"]) for seat in pend}
    assert all(len(h) == 4 for h in first_hands.values())
    # hidden: nobody sees another's draft hand, the public sees none
    pub = GAME.view(s, None)
    assert "draft" not in pub
    v = GAME.view(s, "Emily")
    assert [c["id"] for c in v["draft"]["hand"]] == first_hands["Emily"]
    text = str(v)
    for c in first_hands["Tyler"]:
        assert c not in text
    s = GAME.apply(s, "Emily", {"type": "draft", "card": first_hands["Emily"][0]})
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "draft", "card": first_hands["Emily"][1]})
    assert first_hands["Emily"][0] not in str(GAME.view(s, "Tyler"))
    s = GAME.apply(s, "Tyler", {"type": "draft", "card": first_hands["Tyler"][1]})
    s = GAME.apply(s, "Ann", {"type": "draft", "card": first_hands["Ann"][2]})
    # Emily now holds the 3 cards Ann passed to her left
    assert GAME.pending(s)["Tyler"]["hand"] == [c for c in first_hands["Emily"] if c != first_hands["Emily"][0]]
    assert len(GAME.pending(s)["Emily"]["hand"]) == 3
    for _ in range(2):
        for seat in sorted(GAME.pending(s)):
            s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s["phase"] == "action"
    assert all(len(p["hand"]) == 4 for p in s["players"].values())
    assert s["players"]["Emily"]["hand"][0] == first_hands["Emily"][0]
    hands = [c for p in s["players"].values() for c in p["hand"]]
    assert sorted(hands) == sorted(c for h in first_hands.values() for c in h)
    v = GAME.view(s, "Tyler")
    assert v["players"]["Emily"]["hand_count"] == 4 and "hand" not in v["players"]["Emily"]


def test_starting_resources_AA_SET_11():
    s = new_game(4)
    credits = [s["players"][n]["credits"] for n in s["seats"]]
    assert credits == [3, 4, 4, 5]
    tech = [s["players"][n]["tech"] for n in s["seats"]]
    assert tech == [[1, 0, 0, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1]]
    assert all(p["res"] == {"red": 1, "blue": 1, "yellow": 1} for p in s["players"].values())


def test_resource_limit_discard_at_once_AA_SET_12():
    s = drafted(3)
    seat = s["turn"]["seat"]
    p = s["players"][seat]
    p["res"] = {"red": 4, "blue": 3, "yellow": 2}
    p["credits"] = 30
    s["market"] = ["red", "red", "blue"]
    s = GAME.apply(s, seat, {"type": "main", "action": "purchasing"})
    prompt = GAME.pending(s)[seat]
    assert prompt["type"] == "discard" and prompt["n"] == 2
    with pytest.raises(IllegalAction):
        GAME.apply(s, seat, {"type": "end"})
    s = GAME.apply(s, seat, {"type": "discard", "drop": {"red": 2}})
    assert sum(s["players"][seat]["res"].values()) == 10 and s["players"][seat]["credits"] == 30
    # credits have no limit
    assert GAME.pending(s)[seat]["type"] == "turn"


def test_options_and_player_counts():
    with pytest.raises(IllegalAction):
        GAME.setup(["a"], 1, {})
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b", "c", "d", "e"], 1, {})
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], 1, {"nonsense": True})
    s = GAME.setup(["a", "b"], 2**127 + 12345, {"limited_common_specialists": True})
    assert s["rules"] == GAME.rules_version and s["options"] == {"limited_common_specialists": True}
