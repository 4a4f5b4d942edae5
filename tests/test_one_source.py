"""Each player-facing wording has one source (no second copy that can drift):

- Age of Automaton's actions: the engine's labeller (``engine/age_of_automaton/labels.py``)
  names an action with costs and gains (``label``) and without the state (``describe``);
  the bot's words are that same ``describe``, and ``label`` says the same words where
  the state adds nothing;
- Smartphone Inc.'s Update 1.1 decisions: the picture's headline and the bot's prompt
  line are the same words (``render/smartphone_inc/prompts.py`` ``module_headline``);
- the final scores and the ``/game status`` bits of the Planning games (Smartphone Inc.,
  Mobile Markets) come from one implementation, and say what they said before
  (old games' texts stay byte-identical);
- Smartphone Inc.'s Retailer bonus: one table (``render/smartphone_inc/theme.py``
  ``BONUS_WORDS``) for the map, the decision's picture and the bot's labels; the
  pictures' words are unchanged, the bot's now say the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import find
from bot.games.age_of_automaton import words as aoa_words
from bot.games.base import PlanningPresenter
from bot.games.smartphone_inc import words as si_words
from engine.age_of_automaton import labels
from engine.age_of_automaton.game import GAME as AOA
from render.smartphone_inc import prompts

SAME_WITH_OR_WITHOUT_STATE = {"play_specialist", "upgrade", "column", "draft", "end", "pass"}


def test_age_of_automaton_has_one_labeller() -> None:
    rng = random.Random(3)
    state = AOA.setup(["ann", "bob", "cid"], 3, {})
    seen: set[str] = set()
    for _ in range(1500):
        if AOA.is_over(state):
            break
        seat = sorted(AOA.pending(state))[0]
        legal = AOA.legal_actions(state, seat)
        for a in legal:
            said = labels.describe(a)
            assert said and aoa_words.describe_action(a) == said
            kind = str(a.get("type"))
            if kind in SAME_WITH_OR_WITHOUT_STATE or a.get("skip"):
                assert labels.label(state, seat, a) == said, a
                seen.add(kind)
        state = AOA.apply(state, seat, rng.choice(legal))
    assert {"draft", "end", "upgrade"} <= seen
    assert labels.describe({"type": "no such thing"}) is None
    assert aoa_words.describe_action({"type": "no such thing"}) == "no such thing"


MODULE_PROMPTS: list[dict[str, Any]] = [
    {"type": "directive", "number": 7, "vp": 7, "goal": "Have Offices in 3 large regions."},
    {"type": "mini_upgrade", "choices": {"M1": {}, "M2": {}}},
    {"type": "place_retailer", "regions": {"china": ["R1"]}},
    {"type": "blitz", "goods": 3, "symbols": ["research", "logistics"]},
    {"type": "ceo_sell", "region": "china", "max": 2, "price": 4},
    {"type": "second_sell", "goods": 2, "regions": {"china": 1}},
    {"type": "company", "colours": ["green", "blue"]},
    {"type": "start_region", "regions": ["canada", "china"]},
    {"type": "start_retailer", "retailer": "R1", "side": 0, "vp": [3, 2, 1], "regions": ["china"]},
]


@pytest.mark.parametrize("prompt", MODULE_PROMPTS, ids=lambda p: str(p["type"]))
def test_an_update_decision_reads_the_same_in_the_picture_and_the_message(prompt: dict[str, Any]) -> None:
    said = si_words.describe_prompt(prompt)
    assert said == prompts.module_headline(prompt)
    assert prompts.headline_text({"prompt": prompt}) == (f"Your move: {said}", True)
    assert "_" not in said and "R1" not in said and "china" not in said


def test_the_directive_and_the_start_retailer_keep_their_numbers() -> None:
    assert si_words.describe_prompt(MODULE_PROMPTS[0]) == (
        "take Directive 7 (7 VP)? You meet its goal: Have Offices in 3 large regions."
    )
    assert si_words.describe_prompt(MODULE_PROMPTS[-1]).startswith("place the drawn ")
    assert "VP spaces; bonus: " in si_words.describe_prompt(MODULE_PROMPTS[-1])


def test_the_planning_games_share_their_scores_and_status_words() -> None:
    si, mm = find("smartphone-inc"), find("mobile-markets")
    assert isinstance(si, PlanningPresenter) and isinstance(mm, PlanningPresenter)
    assert type(si).status_bits is type(mm).status_bits is PlanningPresenter.status_bits
    assert type(si).result_lines is type(mm).result_lines
    names = {"ann": "Ann", "bob": "Bob"}.__getitem__
    si_result = {"scores": [
        {"rank": 1, "seat": "ann", "vp": 40, "scored": 30, "patent_vp": 6, "retailer_vp": 4, "technologies": 3},
        {"rank": 2, "seat": "bob", "vp": 12},
    ]}
    assert si.result_lines(si_result, names) == [
        "1. **Ann** 40 VP (scored 30, Patents 6, Retailers 4; 3 Technologies)",
        "2. **Bob** 12 VP (scored 0, Patents 0, Retailers 0; 0 Technologies)",
    ]
    mm_result = {"scores": [{"rank": 1, "seat": "bob", "money": 31}, {"rank": 2, "seat": "ann", "vp": 9}]}
    assert mm.result_lines(mm_result, names) == ["1. **Bob** 31 money", "2. **Ann** 9 money"]
    view = {"phase": "planning", "players": {"ann": {"vp": 5, "money": 8, "price": 3, "sealed": True}, "bob": {"steve": True}}}
    assert si.status_bits(view, "ann") == ["5 VP", "price 3", "🔒 sealed"]
    assert mm.status_bits(view, "ann") == ["8 money", "price 3", "🔒 sealed"]
    assert si.status_bits(view, "bob") == ["0 VP", "price ?"]
    assert mm.status_bits({"phase": "sales", "players": {"ann": {"money": 2, "price": 5}}}, "ann") == ["2 money", "price 5"]


# the pictures' Retailer bonus words before the one source (the pictures keep them byte for byte)
PICTURE_BONUS = {
    '{"kind": "goods", "n": 2}': "bonus: produce 2 Goods",
    '{"kind": "progress", "n": 1}': "bonus: 1 Progress on Technologies",
    '{"kind": "price"}': "bonus: price +1 or -1",
    '{"kind": "second_office"}': "bonus: a 2nd Office where you have one",
    '{"kind": "move_office"}': "bonus: move 1 of your Offices",
    '{"kind": "none"}': "no bonus",
}


def test_the_retailer_bonus_has_one_wording_in_pictures_and_messages_SI_RET_03() -> None:
    """SI-RET-03..09: a Retailer's bonus reads the same on the map, in the picture of the
    decision and in the bot's labels (one table, ``render/smartphone_inc/theme.py``); the
    pictures' words are unchanged."""
    import json

    from engine.smartphone_inc.data import RETAILERS
    from render.smartphone_inc import theme

    assert not hasattr(prompts, "bonus_text")  # no second table
    for typed, shown in PICTURE_BONUS.items():
        bonus = json.loads(typed)
        assert theme.bonus_text(bonus) == shown
        words = theme.bonus_words(bonus)
        assert shown.endswith(words)
        prompt = {"type": "retailer_bonus", "region": "china", "bonus": bonus}
        before, after = {"prompt": prompt, "players": {"ann": {}}}, {"players": {"ann": {}}}
        option = si_words.describe_option({"type": "retailer_bonus", "use": True}, before, after, "ann")
        if bonus["kind"] != "none":
            assert option == f"Use the bonus: {words}", option
            me = {"you": "ann", "players": {"ann": {"price": 4}}}
            assert prompts._choices(me, prompt)[0] == f"Retailer in China, {shown}. Use it or decline."
    for rid, r in RETAILERS.items():
        for side, s in enumerate(r["sides"]):
            said = si_words.retailer_text(rid, side)
            assert said.endswith(f"VP spaces; {theme.bonus_text(s['bonus'])})"), said
            assert "bonus: no bonus" not in said and rid not in said
