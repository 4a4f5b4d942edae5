"""Age of Automaton in the bot (issue 11, "Bot"): the presenter's lobby facts, option
in words, AI note, labels with costs and gains from the engine, the draft options with
their Specialist, the dice prompt with the Overdrive offer, the Donation limit, /rules
topics; and ``boardroom demo --game age-of-automaton`` to the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import choices
from bot.demo import run_demo
from bot.games import find, names
from engine.age_of_automaton.common import compositions
from engine.age_of_automaton.data import TRACKS
from engine.age_of_automaton.effects import describe as describe_effect
from engine.age_of_automaton.game import GAME

GAME_NAME = "age-of-automaton"


def presenter() -> Any:
    found = find(GAME_NAME)
    assert found is not None
    return found


def test_offered_with_title_seats_and_ai_note() -> None:
    p = presenter()
    assert GAME_NAME in names()
    assert (p.title, p.min_seats, p.max_seats) == ("Age of Automaton", 2, 4)
    assert {a.kind for a in p.automata} == {"bot", "random"}  # boardroom's own, no engine automaton
    assert all("boardroom's own" in a.description for a in p.automata)
    shown = p.options_in_words({})
    assert "Limited Common Specialists: off (the standard game)" in shown
    assert any("no solo mode" in line for line in shown)


def test_the_variant_option_is_parsed_and_checked() -> None:
    p = presenter()
    assert p.parse_options("limited_common_specialists=true") == {"limited_common_specialists": True}
    with pytest.raises(ValueError):
        p.parse_options("limited_common_specialists=7")
    with pytest.raises(ValueError):
        p.parse_options("solo=true")
    assert p.options_in_words({"limited_common_specialists": True})[0].startswith("Limited Common Specialists: on")
    assert any(c.value == "limited_common_specialists=true" for c in p.option_choices(""))


def test_start_with_the_apps_automata_option() -> None:
    """The app passes options["automata"] (engine-played seats): none here."""
    s = GAME.setup(["a", "b"], 1, {"automata": [], "limited_common_specialists": True})
    assert s["options"] == {"limited_common_specialists": True}


def _first_state(pred: Any, seats: int = 3, seed: int = 4) -> tuple[dict[str, Any], str]:
    s = GAME.setup(["ann", "bob", "cid", "dan"][:seats], seed, {})
    for _ in range(2000):
        pend = GAME.pending(s)
        for seat, prompt in pend.items():
            if pred(s, seat, prompt):
                return s, seat
        seat = sorted(pend)[0]
        s = GAME.apply(s, seat, GAME.greedy_action(s, seat))
    raise AssertionError("no such state")


def test_draft_options_name_each_specialist_with_its_ability() -> None:
    p = presenter()
    s = GAME.setup(["ann", "bob"], 1, {})
    view = GAME.view(s, "ann")
    step = choices.action_step(GAME.legal_actions(s, "ann"), choices.ActionPath(), p.action_words(view))
    assert len(step.choices) == 4
    hand = {c["name"]: c for c in view["draft"]["hand"]}
    for c in step.choices:
        name = c.label[len("Keep ") :].split(" (")[0]
        assert c.label.startswith("Keep ") and name in hand and f"({hand[name]['vp']} VP)" in c.label
        assert describe_effect(hand[name]["ability"]) in c.label
    assert p.secret_phase(view) and p.sealed_counts(view) == (0, 2, ["ann", "bob"])
    assert p.prompt_picture(view["prompt"]) == "draw"


def test_turn_labels_are_the_engines_with_costs() -> None:
    p = presenter()
    s, seat = _first_state(lambda s, seat, pr: pr["type"] == "turn" and s["round"] >= 2)
    view = GAME.view(s, seat)
    words = p.action_words(view)
    for a in GAME.legal_actions(s, seat):
        assert words.describe_action(a) == GAME.label(s, seat, a)
    specials = [a for a in GAME.legal_actions(s, seat) if a["type"] == "special"]
    for a in specials:
        assert "pay" in words.describe_action(a) and "Reliability" in words.describe_action(a)
    # a long list is narrowed by kind first, in words
    step = choices.action_step(GAME.legal_actions(s, seat), choices.ActionPath(), words)
    assert all("_" not in c.label for c in step.choices)


def test_the_dice_prompt_shows_the_overdrive_offer() -> None:
    p = presenter()
    s, seat = _first_state(lambda s, seat, pr: pr["type"] == "dice" and pr["overdrive"]["allowed"])
    said = p.describe_prompt(GAME.pending(s)[seat])
    assert said.startswith("Level dice ") and "Overdrive: pay 1 credit + 1 Reliability to lower all dice by 1 →" in said
    # the option itself says the deal and its outcome, not just "Overdrive"
    a = s["asks"][0]
    after = sum(1 for d in s["dice"]["faces"] if max(1, d - 1) <= a["level"])
    now = sum(1 for d in s["dice"]["faces"] if d <= a["level"])
    labels = {GAME.label(s, seat, o) for o in GAME.legal_actions(s, seat)}
    overdrive = f"Overdrive: pay 1 credit + 1 Reliability to lower all dice by 1 → {after} pass{'es' if after != 1 else ''}"
    assert overdrive in labels
    # rules 4: moving carries the Prospect bonus (as many as the level, of the track's colours)
    moves = labels - {overdrive}
    move = f"Move with these dice: {now} pass{'es' if now != 1 else ''}, bonus "
    assert moves and all(m.startswith(move) for m in moves), moves
    assert len(moves) == len(compositions(a["level"], list(TRACKS[a["track"]]["bonus"])))


def test_donation_shows_its_limit() -> None:
    p = presenter()
    s, seat = _first_state(lambda s, seat, pr: pr["type"] == "donate")
    prompt = GAME.pending(s)[seat]
    assert f"Donate up to {prompt['limit']}" in p.describe_prompt(prompt)
    labels = {p.describe_action(a) for a in GAME.legal_actions(s, seat)}
    assert "Donate nothing" in labels


def test_rules_topics_from_the_rulebook() -> None:
    p = presenter()
    for topic in ("overview", "draft", "actions", "prospect", "special", "donation", "audit", "scoring", "variant"):
        assert topic in p.rules_topics()
    assert "Tyler" not in p.rules_text("donation")
    assert "advanced Prospect tracks + 2" in p.rules_text("donation")
    assert "Overdrive" in p.rules_text("special")
    assert p.rules_text(None, "draft").startswith("**Specialist draft**")


async def test_demo_plays_a_whole_game_with_pictures(tmp_path: Path) -> None:
    lines: list[str] = []
    result = await run_demo(
        game=GAME_NAME, players=2, seed=3, db=tmp_path / "d.db", out=tmp_path / "pics", echo=lines.append
    )
    assert len(result["scores"]) == 2 and result["winners"]
    assert json.loads(lines[-1]) == json.loads(json.dumps(result))
    names = sorted(f.name for f in (tmp_path / "pics" / GAME_NAME).iterdir())
    assert names[0] == "game-over.png" and "start.png" in names, names  # pictures by game, round, phase
