"""Age of Automaton: the main actions (AA-WRK-*, AA-PRO-*, AA-EQP-*, AA-RD-*, AA-SALE-*,
AA-FUND-01, AA-ASM-01, AA-SPON-01, AA-PUR-01) with the rulebook's examples."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import data, flow
from engine.age_of_automaton.actions import discounted, prospect
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from engine.rng import Rng
from tests.aoa_support import answer_all, drafted


def game_for(seat_first: str = "Emily", n: int = 3, seed: int = 1):
    s = drafted(n, seed)
    assert s["turn"]["seat"] == seat_first
    return s


def me(s):
    return s["players"][s["turn"]["seat"]]


def test_required_worker_action_places_worker_AA_WRK_01_AA_WRK_02():
    s = game_for()
    p = me(s)
    p["tech"] = [1, 0, 0, 0]
    p["unbuilt"] = 5
    opts = flow.options(s, "Emily")
    prospects = [o for o in opts if o.get("action") == "prospect"]
    assert prospects and all(o["worker"] == 1 for o in prospects)
    # unbuilt workers cannot be played: no Level II on the track
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 2, "track": "moon"})
    s2 = GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 1, "track": "moon"})
    q = s2["players"]["Emily"]
    assert q["tech"] == [0, 0, 0, 0] and q["placed"] == 1 and q["markers"] == ["prospect"]
    assert ["Emily", 1] in s2["spaces"]["prospect"]
    # nothing else to play with workers now
    s2 = answer_all(s2, "Emily")
    assert not any(o.get("action") in ("equipment", "rnd", "sale") for o in flow.options(s2, "Emily"))


def test_rightmost_space_level_iv_only_AA_WRK_03():
    s = drafted(4)
    for i in range(3):
        s["spaces"]["rnd"][i] = ["Bob", 1]
    p = me(s)
    p["tech"] = [1, 1, 1, 0]
    assert not [o for o in flow.options(s, s["turn"]["seat"]) if o.get("action") == "rnd"]
    p["tech"] = [1, 0, 0, 1]
    assert {o["worker"] for o in flow.options(s, s["turn"]["seat"]) if o.get("action") == "rnd"} == {4}


def test_card_reach_by_level_AA_WRK_04():
    s = game_for()
    me(s)["tech"] = [1, 1, 1, 1]
    reach = {}
    for o in flow.options(s, "Emily"):
        if o.get("action") == "rnd":
            reach.setdefault(o["worker"], set()).add(o["card"])
    row = s["rows"]["rnd"]
    assert reach == {1: set(row[:1]), 2: set(row[:2]), 3: set(row[:3]), 4: set(row)}
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "rnd", "worker": 1, "card": row[1]})


def test_refill_slides_left_AA_WRK_05():
    s = game_for()
    me(s)["tech"] = [0, 0, 0, 1]
    row = list(s["rows"]["rnd"])
    top = s["decks"]["rnd"][0]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "rnd", "worker": 4, "card": row[1]})
    assert s["rows"]["rnd"] == [row[0], row[2], row[3], top]


def test_prospect_dice_and_passes_AA_PRO_01():
    """AA-PRO-01: a die at or below the worker's level passes; one space up per pass.
    The rulebook's example (Overdrive): a Level II worker rolls II, IV, V: 1 pass."""
    assert prospect.passes([2, 4, 5], 2) == 1
    assert prospect.passes([1, 2, 3], 2) == 2
    assert prospect.passes([4, 4, 4], 4) == 3
    s = game_for()
    s = GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 4, "track": "moon"})
    d = s["dice"]
    assert d["kind"] == "level" and len(d["faces"]) == 3 and all(1 <= f <= 6 for f in d["faces"])
    assert GAME.view(s, None)["dice"]["faces"] == d["faces"]
    # the roll fixed to II, IV, V: a Level IV worker passes twice (V fails)
    d["faces"] = [2, 4, 5]
    assert GAME.pending(s)["Emily"]["type"] == "dice" and GAME.pending(s)["Emily"]["passes"] == 2
    credits = me(s)["credits"]
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": False})
    q = s["players"]["Emily"]
    # moon: space 1 gives 1 reputation; space 2 costs 2 credits and gives a green relationship
    assert q["prospect"] == {"asteroid": 0, "ringed": 0, "red": 0, "moon": 2}
    assert q["credits"] == credits - 2 and q["rep"] == 1 and q["rel"] == {"green": 1, "blue": 0, "orange": 0}
    # V, VI, V: no pass, no move
    s = game_for()
    s = GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 4, "track": "moon"})
    s["dice"]["faces"] = [5, 6, 5]
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": False})
    assert s["players"]["Emily"]["prospect"]["moon"] == 0


def test_prospect_requirements_stop_AA_PRO_02_AA_PRO_04():
    s = game_for()
    p = me(s)
    p["credits"] = 0
    before_rep, before_rel = p["rep"], dict(p["rel"])
    prospect.move(s, "Emily", "asteroid", 1, 3)
    # space 1 (blue logo? no: green company logo) entered; space 2 needs 1 credit: stop, the rest is lost
    assert p["prospect"]["asteroid"] == 1
    assert p["rel"]["green"] == before_rel["green"] + 1
    p["credits"] = 5
    prospect.move(s, "Emily", "asteroid", 1, 3)
    # space 2 costs 1 credit and gives 1 reputation; space 3 needs an R&D card: stop
    assert p["prospect"]["asteroid"] == 2 and p["credits"] == 4 and p["rep"] == before_rep + 1
    p["rnd"] = ["D01"]
    prospect.move(s, "Emily", "asteroid", 1, 1)
    assert p["prospect"]["asteroid"] == 3 and p["rel"]["orange"] == 1
    # end-game VP of the space is not gained now
    assert p["vp"] == 0


def test_top_space_only_one_player_AA_PRO_03():
    s = game_for()
    top = prospect.top("moon")
    s["players"]["Tyler"]["prospect"]["moon"] = top
    p = me(s)
    p["prospect"]["moon"] = top - 1
    p["credits"] = 20
    p["rnd"] = ["D01", "D02"]
    p["sale"] = ["S01", "S02"]
    assert prospect.move(s, "Emily", "moon", 4, 3) == 0
    assert p["prospect"]["moon"] == top - 1


@pytest.mark.parametrize("track,colours", [("asteroid", ["red", "yellow"]), ("ringed", ["red", "blue"]),
                                           ("red", ["blue", "yellow"]), ("moon", ["red", "blue", "yellow"])])
def test_prospect_bonus_by_track_AA_PRO_05(track, colours):
    """AA-PRO-05: after the move, as many resource tokens of the track's colours as the
    worker's level (IV: 4), whatever the dice (here no pass)."""
    s = game_for()
    s = GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 4, "track": track})
    s["dice"]["faces"] = [5, 6, 5]
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": False})
    a = s["asks"][0]
    assert (a["kind"], a["n"], a["of"]) == ("pick", 4, colours)
    takes = [o["take"] for o in GAME.legal_actions(s, "Emily") if o["type"] == "pick"]
    assert all(sum(t.values()) == 4 and set(t) <= set(colours) for t in takes)
    assert {colours[0]: 4} in takes and {colours[-1]: 4} in takes
    other = [c for c in ("red", "blue", "yellow") if c not in colours]
    assert not [t for t in takes if set(t) & set(other)]
    before = dict(me(s)["res"])  # 1 of each
    s = GAME.apply(s, "Emily", {"type": "pick", "take": {colours[0]: 3, colours[-1]: 1}})
    after = s["players"]["Emily"]["res"]
    assert after[colours[0]] == before[colours[0]] + 3 and after[colours[-1]] == before[colours[-1]] + 1
    assert all(after[c] == before[c] for c in other)


def test_equipment_discount_emily_AA_EQP_01():
    """Example: a card costing 2 red + 1 yellow; discounts 1 red, 1 blue, 2 yellow -> pays 1 red."""
    s = game_for()
    p = me(s)
    assert data.EQUIPMENT["E01"]["cost"] == {"red": 2, "yellow": 1}
    p["equipment"] = [{"id": c, "column": i % 4} for i, c in enumerate(["E04", "E02", "E03", "E06"])]
    assert [list(data.EQUIPMENT[c]["discount"]) for c in ["E04", "E02", "E03", "E06"]] == [
        ["red"], ["blue"], ["yellow"], ["yellow"]]
    assert discounted(p, {"red": 2, "yellow": 1}) == {"red": 1, "yellow": 0}
    # through a real purchase, with E01 leftmost
    s["rows"]["equipment"][0:1] = []
    s["rows"]["equipment"].insert(0, "E01")
    for k in ("equipment",):
        s["decks"][k] = [c for c in s["decks"][k] if c not in s["rows"][k] and c not in ("E04", "E02", "E03", "E06")]
    p["res"] = {"red": 1, "blue": 0, "yellow": 0}
    p["tech"] = [1, 0, 0, 1]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "equipment", "worker": 1, "card": "E01"})
    assert s["players"]["Emily"]["res"] == {"red": 0, "blue": 0, "yellow": 0}
    assert any("pays 1 red" in e for e in GAME.events(s))


def test_equipment_extra_action_nested_AA_EQP_02():
    s = game_for()
    p = me(s)
    p["res"] = {"red": 5, "blue": 5, "yellow": 0}
    p["tech"] = [0, 0, 0, 3]
    p["unbuilt"] = 3
    # an Equipment card whose extra action is Equipment, then one whose extra action is R&D
    eq_extra = [c for c, v in data.EQUIPMENT.items() if v["extra"] == "equipment" and not v["cost"].get("yellow")]
    rnd_extra = [c for c, v in data.EQUIPMENT.items() if v["extra"] == "rnd" and not v["cost"].get("yellow")]
    s["rows"]["equipment"] = [eq_extra[0], rnd_extra[0], *s["rows"]["equipment"][2:]]
    s["decks"]["equipment"] = [c for c in s["decks"]["equipment"] if c not in s["rows"]["equipment"]]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "equipment", "worker": 4, "card": eq_extra[0]})
    a = GAME.pending(s)["Emily"]
    assert a["type"] == "extra" and a["action"] == "equipment"
    assert {"type": "extra", "skip": True} in GAME.legal_actions(s, "Emily")
    s = GAME.apply(s, "Emily", {"type": "extra", "worker": 4, "card": rnd_extra[0]})
    # the worker of the extra action stays on the card (not on a board space)
    assert sum(1 for occ in s["spaces"]["equipment"] if occ and occ != "blocked") == 1
    assert s["players"]["Emily"]["placed"] == 2
    # the nested card's extra action (R&D) is not offered: only column choices follow
    kinds = []
    while s["asks"]:
        kinds.append(s["asks"][0]["kind"])
        s = GAME.apply(s, "Emily", GAME.legal_actions(s, "Emily")[0])
    assert "extra" not in kinds and kinds.count("column") == 2
    assert len(s["players"]["Emily"]["equipment"]) == 2


def test_free_and_special_actions_before_the_extra_action_AA_EQP_02():
    s = game_for()
    p = me(s)
    p["res"] = {"red": 5, "blue": 5, "yellow": 5}
    p["credits"] = 10
    p["tech"] = [1, 0, 0, 1]
    rnd_extra = next(c for c, v in data.EQUIPMENT.items() if v["extra"] == "rnd")
    s["rows"]["equipment"] = [rnd_extra, *[c for c in s["rows"]["equipment"] if c != rnd_extra][:3]]
    s["decks"]["equipment"] = [c for c in s["decks"]["equipment"] if c not in s["rows"]["equipment"]]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "equipment", "worker": 4, "card": rnd_extra})
    assert GAME.pending(s)["Emily"]["type"] == "extra"
    opts = GAME.legal_actions(s, "Emily")
    assert {"type": "special", "name": "overclock", "level": 1} in opts
    assert not [o for o in opts if "overtime" in (o.get("name"), o.get("special")) or o["type"] == "equipment"]
    # Overclock the Level I worker, then play the extra R&D action with it at Level II
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overclock", "level": 1})
    assert GAME.pending(s)["Emily"]["type"] == "extra"
    assert me(s)["tech"] == [0, 1, 0, 0]
    s = GAME.apply(s, "Emily", {"type": "extra", "worker": 2, "card": s["rows"]["rnd"][1]})
    assert len(me(s)["rnd"]) == 1 and me(s)["placed"] == 2


def test_equipment_columns_two_each_fixed_AA_EQP_03():
    s = game_for()
    p = me(s)
    p["equipment"] = [{"id": c, "column": i // 2} for i, c in enumerate(["E05", "E06", "E07", "E08", "E09", "E03"])]
    from engine.age_of_automaton.actions import equipment

    assert equipment.free_columns(p) == [3]
    p["equipment"] += [{"id": "E11", "column": 3}, {"id": "E12", "column": 3}]
    assert equipment.choices(s, "Emily", False) == []


def test_equipment_ability_after_marker_in_column_AA_EQP_04():
    s = game_for()
    p = me(s)
    p["equipment"] = [{"id": "E01", "column": 0}, {"id": "E02", "column": 1}]
    assert not [o for o in flow.options(s, "Emily") if o["type"] == "equipment"]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "funding"})  # column 1 (Prospect/Funding)
    s = answer_all(s, "Emily")  # e.g. the bonus of an Achievement the Equipment just met
    opts = [o for o in flow.options(s, "Emily") if o["type"] == "equipment"]
    assert opts == [{"type": "equipment", "card": "E01"}]
    credits = s["players"]["Emily"]["credits"]
    s = GAME.apply(s, "Emily", opts[0])
    assert s["players"]["Emily"]["credits"] == credits + 1  # E01: 1 credit
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", opts[0])


def test_equipment_ability_before_resolving_AA_EQP_04():
    """Marker placed, the column's Equipment used, then the action resolved with the gain."""
    s = game_for()
    p = me(s)
    p["res"] = {"red": 0, "blue": 0, "yellow": 0}
    p["equipment"] = [{"id": "E02", "column": 3}, {"id": "E03", "column": 3}]  # abilities: 1 red; 1 blue (Sale column)
    p["res"]["blue"] = 1
    s["rows"]["sale"] = ["S01", *[c for c in s["rows"]["sale"] if c != "S01"][:3]]  # costs 1 red + 1 blue
    assert data.SALES["S01"]["cost"] == {"red": 1, "blue": 1}
    assert not [o for o in flow.options(s, "Emily") if o.get("action") == "sale" and "card" in o]
    p["res"]["red"] = 1
    opts = [o for o in flow.options(s, "Emily") if o.get("action") == "sale" and o.get("before")]
    assert {tuple(o["before"]) for o in opts} == {("E02",), ("E03",), ("E02", "E03")}
    p["res"]["red"] = 0
    assert data.EQUIPMENT["E02"]["ability"] == [{"res": {"red": 1}}]
    # 1 blue only: Sale is playable only by using the red-giving card first
    assert [o["before"] for o in flow.options(s, "Emily") if o.get("action") == "sale"] == [["E02"], ["E02", "E03"]]
    with pytest.raises(IllegalAction):  # not a card of Funding's column
        GAME.apply(s, "Emily", {"type": "main", "action": "funding", "before": ["E02"]})
    with pytest.raises(IllegalAction):  # 2 blue, still no red: nothing to buy
        GAME.apply(s, "Emily", {"type": "main", "action": "sale", "before": ["E03"]})
    p["res"]["red"] = 1
    p["res"]["blue"] = 0
    s = GAME.apply(s, "Emily", {"type": "main", "action": "sale", "before": ["E03"]})
    assert s["players"]["Emily"]["markers"] == ["sale"] and s["players"]["Emily"]["res"]["blue"] == 1
    prompt = GAME.pending(s)["Emily"]
    assert prompt["type"] == "resolve"
    assert {"type": "resolve", "worker": 1, "card": "S01"} in GAME.legal_actions(s, "Emily")
    s = GAME.apply(s, "Emily", {"type": "resolve", "worker": 1, "card": "S01"})
    assert s["players"]["Emily"]["sale"] == ["S01"]
    # the used card is not offered again this turn
    assert not [o for o in flow.options(s, "Emily") if o["type"] == "equipment" and o["card"] == "E03"]


@pytest.mark.parametrize("worker", [1, 4])
def test_equipment_bonus_vp_AA_EQP_05(worker):
    """AA-EQP-05: the Equipment bonus is VP equal to the worker's level (I: 1, IV: 4)."""
    s = game_for()
    p = me(s)
    p["res"] = {"red": 5, "blue": 5, "yellow": 5}
    assert p["vp"] == 0
    s = GAME.apply(s, "Emily", {"type": "main", "action": "equipment", "worker": worker, "card": "E10"})
    while s["asks"]:
        s = GAME.apply(s, "Emily", {"type": "extra", "skip": True} if s["asks"][0]["kind"] == "extra"
                       else GAME.legal_actions(s, "Emily")[0])
    q = s["players"]["Emily"]
    assert q["vp"] == worker
    assert q["res"] == {"red": 3, "blue": 4, "yellow": 5}  # E10 costs 2 red + 1 blue


@pytest.mark.parametrize("card,tech,rel", [
    ("D02", [0, 1, 0, 0], {"green": 0, "blue": 1, "orange": 0}),  # 1 arrow, a blue logo
    ("D03", [0, 1, 0, 0], {"green": 1, "blue": 0, "orange": 1}),  # 1 arrow, orange + green
    ("D20", [0, 0, 1, 0], {"green": 0, "blue": 0, "orange": 0}),  # 2 arrows, no logo
])
def test_rnd_card_benefits_AA_RD_01(card, tech, rel):
    """AA-RD-01: the card's benefits: its arrows upgrade ONE worker on the Technology
    track (the Level I one: the Level IV worker was played), one space per logo on its
    Relationship track; the card is kept face down."""
    s = game_for()
    assert me(s)["tech"] == [1, 0, 0, 1]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "rnd", "worker": 4, "card": card})
    s = answer_all(s, "Emily")
    q = s["players"]["Emily"]
    assert q["rnd"] == [card]
    assert q["tech"] == tech and q["rel"] == rel
    assert GAME.view(s, "Tyler")["players"]["Emily"]["rnd"] == 1  # face down: others see the count


def test_rnd_bonus_round_1_credits_then_any_AA_RD_02():
    s = game_for()
    credits = me(s)["credits"]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "rnd", "worker": 4, "card": s["rows"]["rnd"][0]})
    assert s["players"]["Emily"]["credits"] == credits + 4
    s2 = game_for()
    s2["round"] = 2
    s2 = GAME.apply(s2, "Emily", {"type": "main", "action": "rnd", "worker": 4, "card": s2["rows"]["rnd"][0]})
    a = s2["asks"][-1] if s2["asks"] else None
    assert a and a["kind"] == "pick" and a["n"] == 4 and "credits" in a["of"]


def test_sale_pay_relationship_reputation_AA_SALE_01_AA_SALE_02():
    """AA-SALE-01/02: pay the card's resources, improve the relationship of its logo, +1
    reputation, keep it face down; bonus credits = the worker's level. S11 (Brewery):
    1 red + 1 blue, a blue logo; a Level IV worker reaches it (second in the row)."""
    s = game_for()
    p = me(s)
    p["res"] = {"red": 5, "blue": 5, "yellow": 5}
    assert s["rows"]["sale"][1] == "S11"
    credits = p["credits"]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "sale", "worker": 4, "card": "S11"})
    q = s["players"]["Emily"]
    assert q["sale"] == ["S11"] and q["rep"] == 1
    assert q["res"] == {"red": 4, "blue": 4, "yellow": 5}
    assert q["credits"] == credits + 4  # bonus = level IV
    assert q["rel"] == {"green": 0, "blue": 1, "orange": 0}
    assert GAME.view(s, "Tyler")["players"]["Emily"]["sale"] == 1  # face down
    p2 = game_for()
    me(p2)["res"] = {"red": 0, "blue": 0, "yellow": 0}
    assert not [o for o in flow.options(p2, "Emily") if o.get("action") == "sale"]


def test_funding_emily_3_plus_2_AA_FUND_01():
    s = game_for()
    p = me(s)
    p["rep"] = 6
    credits = p["credits"]
    s = GAME.apply(s, "Emily", {"type": "main", "action": "funding"})
    assert s["players"]["Emily"]["credits"] == credits + 5


def test_assembling_tyler_level_iii_and_two_level_i_AA_ASM_01():
    s = game_for()
    p = me(s)
    p["sale"] = ["S01", "S02"]
    p["rep"] = 6
    p["tech"] = [0, 0, 0, 0]
    p["unbuilt"] = 6
    s = GAME.apply(s, "Emily", {"type": "main", "action": "assembling"})
    assert s["players"]["Emily"]["tech"] == [2, 0, 1, 0]
    # not enough unbuilt workers: only those left
    s2 = game_for()
    q = me(s2)
    q["sale"] = ["S01", "S02", "S03", "S04"]
    q["rep"] = 9
    q["unbuilt"] = 2
    s2 = GAME.apply(s2, "Emily", {"type": "main", "action": "assembling"})
    assert s2["players"]["Emily"]["tech"] == [2, 0, 0, 2] and s2["players"]["Emily"]["unbuilt"] == 0
    s3 = game_for()
    me(s3)["unbuilt"] = 0
    assert not [o for o in flow.options(s3, "Emily") if o.get("action") == "assembling"]


def test_sponsorship_tile_and_next_turn_order_AA_SPON_01():
    s = game_for()
    row = list(s["sponsorship"]["row"])
    s = GAME.apply(s, "Emily", {"type": "main", "action": "sponsorship", "tile": row[0]})
    # the first player cannot take first place again
    assert s["next_order"] == [None, "Emily", None]
    assert s["sponsorship"]["row"] == row[1:]  # no refill
    assert row[0] in s["sponsorship"]["discard"]
    s = answer_all(s, "Emily")
    s = GAME.apply(s, "Emily", {"type": "end"})
    s = GAME.apply(s, "Tyler", {"type": "main", "action": "sponsorship", "tile": row[1]})
    assert s["next_order"] == ["Tyler", "Emily", None]


def test_purchasing_emily_market_and_engineer_dice_AA_PUR_01():
    """Market red, yellow, blue; 2 engineers roll 2 Resource dice (the example: 2 red)."""
    base = game_for()
    me(base)["rep"] = 6
    me(base)["res"] = {"red": 0, "blue": 0, "yellow": 0}
    base["market"] = ["red", "yellow", "blue"]
    for r in range(1, 500):  # a generator state whose next two Resource dice are red, red
        rng = Rng(r)
        faces = [data.BOARD["dice"]["resource"][rng.below(6)] for _ in range(2)]
        if faces == ["red", "red"]:
            break
    base["rng"] = r
    s = GAME.apply(base, "Emily", {"type": "main", "action": "purchasing"})
    assert s["players"]["Emily"]["res"] == {"red": 3, "blue": 1, "yellow": 1}
    assert s["dice"] == {"kind": "resource", "seat": "Emily", "faces": ["red", "red"]}
    assert any("rolls 2 Resource dice: red, red" in e for e in GAME.events(s))
