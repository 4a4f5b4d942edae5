"""Age of Automaton behind the common protocol: determinism, dump/load, validation,
hidden information, random games with invariants, and the rule-following bot."""

from __future__ import annotations

import json
import re

import pytest

from engine import get_game
from engine.age_of_automaton import data
from engine.age_of_automaton.game import GAME
from engine.ai import choose
from engine.errors import IllegalAction
from engine.rng import Rng
from tests.aoa_support import drafted, new_game, vp_logged

# card and tile ids (the rulebook's own "R1-R2" / "R3-R5" are words, not ids)
ID = re.compile(r"\b(?:[EDSP]\d\d|T[12]|H\d\d|K\d|[AB]\d)\b|(?<![-\w])[RL]\d(?![-\w])")


def test_registered_and_protocol():
    assert get_game("age-of-automaton") is GAME
    s = new_game(3, 9)
    text = GAME.dump(s)
    assert GAME.load(text) == s and GAME.dump(GAME.load(text)) == text
    assert json.loads(text)["rules"] == GAME.rules_version == 4
    bad = json.loads(text)
    bad["schema"] = 99
    with pytest.raises(ValueError):
        GAME.load(json.dumps(bad))
    assert not GAME.is_over(s)
    with pytest.raises(IllegalAction):
        GAME.result(s)


def test_same_seed_same_actions_same_bytes_and_big_seeds():
    seed = 2**128 - 7
    runs = []
    for _ in range(2):
        s = GAME.setup(["a", "b", "c"], seed, {})
        rng = Rng(5)
        for _ in range(60):
            seat = sorted(GAME.pending(s))[0]
            s = GAME.apply(s, seat, GAME.random_action(s, seat, rng))
        runs.append(GAME.dump(s))
    assert runs[0] == runs[1]
    assert GAME.dump(GAME.setup(["a", "b", "c"], seed + 1, {})) != GAME.dump(GAME.setup(["a", "b", "c"], seed, {}))


def test_illegal_actions_leave_state_unchanged():
    s = drafted(3, 1)
    before = GAME.dump(s)
    for seat, action in [
        ("Tyler", {"type": "main", "action": "funding"}),
        ("Emily", {"type": "main", "action": "nonsense"}),
        ("Emily", {"type": "main", "action": "rnd", "worker": 3, "card": s["rows"]["rnd"][0]}),
        ("Emily", {"type": "end"}),
        ("Emily", {"type": "play_specialist", "card": "P99"}),
        ("Emily", "funding"),
        ("Nobody", {"type": "main", "action": "funding"}),
    ]:
        with pytest.raises(IllegalAction):
            GAME.apply(s, seat, action)  # type: ignore[arg-type]
        assert GAME.dump(s) == before


def test_hidden_information_in_views():
    s = drafted(4, 2)
    pub = json.dumps(GAME.view(s, None))
    for seat in s["seats"]:
        mine = json.dumps(GAME.view(s, seat))
        for other in s["seats"]:
            for card in s["players"][other]["hand"]:
                assert (card in mine) == (other == seat) or card in s["commons"]
                assert card not in pub
    # deck orders, the generator and the seed are not shown
    v = GAME.view(s, "Emily")
    assert "rng" not in v and "seed" not in v
    assert s["decks"]["rnd"][0] not in json.dumps(v["rows"]) and v["decks"]["rnd"] == len(s["decks"]["rnd"])


def test_view_for_pictures_and_prompts_labelled():
    s = drafted(3, 1)
    v = GAME.view(s, "Emily")
    for key in ("rows", "sponsorship", "achievements", "audits", "audit_marker", "commons", "market", "dice",
                "spaces", "order", "next_order", "players", "round"):
        assert key in v
    me = v["players"]["Emily"]
    for key in ("columns", "technology", "played", "contracts", "resources", "limit", "audit_tokens", "hand"):
        assert key in me
    assert v["choices"] and all(isinstance(c["label"], str) and c["label"] for c in v["choices"])
    assert not any(ID.search(c["label"]) for c in v["choices"])


def cards_everywhere(s):
    eq = list(s["decks"]["equipment"]) + s["rows"]["equipment"] + s["discards"]["equipment"]
    rnd = list(s["decks"]["rnd"]) + s["rows"]["rnd"] + s["discards"]["rnd"]
    sale = list(s["decks"]["sale"]) + s["rows"]["sale"] + s["discards"]["sale"]
    spec = list(s["commons"]) + s["box"] + [c for c in s["removed"] if c in data.SPECIALISTS]
    for p in s["players"].values():
        eq += [e["id"] for e in p["equipment"]]
        rnd += p["rnd"]
        sale += p["sale"]
        spec += p["hand"] + p["played"]
    if s["draft"]:
        for seat in s["seats"]:
            spec += s["draft"]["hands"][seat] + s["draft"]["kept"][seat]
    sp = s["sponsorship"]
    tiles = sp["row"] + sp["deck"] + sp["late"] + sp["discard"] + [t for t in s["removed"] if t in data.SPONSORSHIP]
    return eq, rnd, sale, spec, tiles


def check_invariants(s, logged, overtimes):
    eq, rnd, sale, spec, tiles = cards_everywhere(s)
    assert sorted(eq) == sorted(data.EQUIPMENT)
    assert sorted(rnd) == sorted(data.RND)
    assert sorted(sale) == sorted(data.SALES)
    assert sorted(spec) == sorted(data.SPECIALISTS)
    assert sorted(tiles) == sorted(data.SPONSORSHIP)
    discard_open = any(a["kind"] == "discard" for a in s["asks"])
    for seat, p in s["players"].items():
        if not (discard_open and s["asks"][0]["seat"] == seat):
            assert sum(p["res"].values()) <= 10
        assert min(p["res"].values()) >= 0 and p["credits"] >= 0
        assert sum(p["tech"]) + p["unbuilt"] + p["placed"] == 6
        assert len(p["markers"]) <= p["markers_total"] and len(set(p["markers"])) == len(p["markers"])
        cols = [data.COLUMN_OF[m] for m in p["markers"]]
        doubled = sum(cols.count(c) - 1 for c in set(cols))
        assert doubled <= overtimes[seat]
        assert p["contracts"] + sum(seat in v for v in s["contracts_on"].values()) <= 6
        assert p["vp"] == logged[seat]
        assert len(p["equipment"]) <= 8


@pytest.mark.parametrize("batch", range(3))
def test_random_games_with_invariants(batch):
    """30 random games over 2-4 players, with and without the variant (the 1,000-game run
    is `python -m engine simulate --game age-of-automaton`)."""
    for g in range(10):
        seed = 1000 + batch * 10 + g
        n = 2 + g % 3
        opts = {"limited_common_specialists": True} if g % 2 else {}
        s = GAME.setup([f"s{i}" for i in range(n)], seed, opts)
        logged = {seat: vp_logged(GAME.events(s), seat) for seat in s["seats"]}
        overtimes = dict.fromkeys(s["seats"], 0)
        rng = Rng(seed)
        steps = 0
        while not GAME.is_over(s):
            seat = sorted(GAME.pending(s))[0]
            action = GAME.random_action(s, seat, rng)
            round_before = s["round"]
            s = GAME.apply(s, seat, action)
            ev = GAME.events(s)
            if s["round"] != round_before:
                overtimes = dict.fromkeys(s["seats"], 0)
            if action.get("name") == "overtime" or action.get("special") == "overtime":
                overtimes[seat] += 1
            for other in s["seats"]:
                logged[other] += vp_logged(ev, other)
            assert not any(ID.search(line) for line in ev), ev
            if batch == 0 and steps % 7 == 0 and not GAME.is_over(s):
                who = sorted(GAME.pending(s))[0]
                prompt = GAME.pending(s)[who]
                assert not ID.search(prompt.get("text", "")), prompt
                if prompt["type"] != "donate":
                    for legal in GAME.legal_actions(s, who):
                        text = GAME.label(s, who, legal)
                        assert text and not ID.search(text), (legal, text)
            if s["phase"] != "over":
                check_invariants(s, logged, overtimes)
            steps += 1
            assert steps < 5000
        res = GAME.result(s)
        assert len(res["scores"]) == n and res["winners"]
        for row in res["scores"]:
            assert row["vp"] == sum(row["breakdown"].values())
        assert len(GAME.dump(s)) <= 20 * 1024


def test_rule_following_bot_beats_random():
    bot_total = random_total = 0.0
    for seed in range(4):
        seats = ["a", "b", "c"]
        bot = seats[seed % 3]
        s = GAME.setup(seats, seed, {})
        while not GAME.is_over(s):
            seat = sorted(GAME.pending(s))[0]
            s = GAME.apply(s, seat, choose("age-of-automaton", s, seat, "greedy" if seat == bot else "random"))
        vp = {r["seat"]: r["vp"] for r in GAME.result(s)["scores"]}
        bot_total += vp[bot]
        random_total += sum(v for k, v in vp.items() if k != bot) / 2
    assert bot_total / 4 > random_total / 4 + 30


def test_trace_views_at_the_end_of_each_phase():
    s = drafted(2, 4)
    rng = Rng(4)
    traced = []
    while s["round"] == 1 and not GAME.is_over(s):
        seat = sorted(GAME.pending(s))[0]
        action = GAME.random_action(s, seat, rng)
        views = GAME.trace(s, seat, action)
        new = GAME.apply(s, seat, action)
        assert GAME.dump(GAME.apply(s, seat, action)) == GAME.dump(new)
        traced += views
        s = new
    # the end of the Action, Donation, Audit (none in round 1) and Clean-up phases
    assert [v["phase"] for v in traced] == ["action_over", "donation", "audit", "cleanup"]
    assert all(v["you"] is None and "hand" not in v["players"]["Emily"] for v in traced)


def test_malformed_actions_raise_illegal_action_only():
    """Every field of legal actions replaced by junk: apply either accepts it or raises
    IllegalAction, and never changes its input."""
    junk = [True, None, -1, 99, "x", [1], {"a": 1}, 1.5]
    for seed in (21, 22):
        s = drafted(2 + seed % 3, seed)
        rng = Rng(seed)
        for step in range(120):
            if GAME.is_over(s):
                break
            seat = sorted(GAME.pending(s))[0]
            legal = GAME.legal_actions(s, seat)
            before = GAME.dump(s)
            sample = legal[step % len(legal)]
            for key in sample:
                for j in junk:
                    bad = dict(sample, **{key: j})
                    try:
                        GAME.apply(s, seat, bad)
                    except IllegalAction:
                        pass
                    assert GAME.dump(s) == before
            s = GAME.apply(s, seat, GAME.random_action(s, seat, rng))


def test_reading_functions_do_not_change_the_state():
    s = drafted(3, 31)
    rng = Rng(31)
    for _ in range(150):
        if GAME.is_over(s):
            break
        before = GAME.dump(s)
        for seat in s["seats"]:
            GAME.legal_actions(s, seat)
            GAME.view(s, seat)
        GAME.view(s, None)
        GAME.pending(s)
        assert GAME.dump(s) == before
        seat = sorted(GAME.pending(s))[0]
        s = GAME.apply(s, seat, GAME.random_action(s, seat, rng))


@pytest.mark.parametrize("n", [2, 4])
def test_bot_plays_every_seat_to_the_end(n):
    s = GAME.setup([f"b{i}" for i in range(n)], 50 + n, {"limited_common_specialists": n == 4})
    while not GAME.is_over(s):
        seat = sorted(GAME.pending(s))[0]
        action = GAME.greedy_action(s, seat)
        assert action in GAME.legal_actions(s, seat)
        s = GAME.apply(s, seat, action)
    assert all(r["vp"] > 60 for r in GAME.result(s)["scores"])
