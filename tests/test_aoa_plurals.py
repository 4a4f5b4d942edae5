"""Age of Automaton's texts count in good English: "needs 1 Equipment card", "1 engineer",
never "1 Equipment cards" (the Achievements' needs in the log, the labels and the board
picture; the Funding log line)."""

from __future__ import annotations

import random
import re

import pytest

from engine.age_of_automaton import achievements, labels
from engine.age_of_automaton.data import ACHIEVEMENTS
from engine.age_of_automaton.game import GAME as AOA

# a count of 1 followed by a plural noun of this game's texts
ONE_PLURAL = re.compile(
    r"(?<![\d.+/-])\b1 (?:Equipment cards|R&D cards|Sale Orders|Specialists|Prospect tracks|spaces|"
    r"Donation spaces|automatons|engineers|credits|passes|levels|resources|resource tokens|cards)\b"
)


def test_the_pattern_catches_the_plural_players_saw() -> None:
    assert ONE_PLURAL.search("bob meets the Achievement First Machine and may claim it (1 Equipment cards → 1 VP).")
    assert ONE_PLURAL.search("ann gains 4 credits (Funding: 3 + 1 engineers).")
    assert not ONE_PLURAL.search("needs 1 Equipment card; 2 Equipment cards; 11 credits")


@pytest.mark.parametrize("card", sorted(ACHIEVEMENTS))
def test_an_achievement_says_its_need_with_the_right_number_AA_ACH_01(card: str) -> None:
    said = achievements.describe(card)
    assert not ONE_PLURAL.search(said), said
    for key, n in ACHIEVEMENTS[card]["need"].items():
        assert said.startswith(f"{n} "), said
        if n == 1:
            assert key != "equipment" or said.startswith("1 Equipment card →"), said


def test_first_machine_needs_1_equipment_card() -> None:
    assert achievements.describe("H11") == "1 Equipment card → 1 VP"
    assert achievements.describe("H32") == "3 Equipment cards → 3 VP, 2 credits"


def test_no_text_of_played_games_counts_1_in_the_plural() -> None:
    """Log lines, action labels and prompts of whole games (random legal moves)."""
    seen: dict[str, str] = {}
    for seed in range(4):
        rng = random.Random(seed)
        state = AOA.setup(["ann", "bob", "cid"], seed, {})
        for _ in range(3000):
            if AOA.is_over(state):
                break
            seat = sorted(AOA.pending(state))[0]
            legal = AOA.legal_actions(state, seat)
            texts = [labels.label(state, seat, a) for a in legal] + [str(labels.describe(a)) for a in legal]
            texts += [labels.ask_text(state, a) for a in state["asks"]]
            for t in texts + list(state["log"]):
                m = ONE_PLURAL.search(t)
                if m:
                    seen.setdefault(m.group(0), t)
            state = AOA.apply(state, seat, rng.choice(legal))
    assert not seen, seen


def test_the_draft_prompt_passes_the_other_one_not_the_other_1_AA_SET_10() -> None:
    from engine.age_of_automaton import draft

    assert draft._keep_and_pass(4) == "keep one Specialist and pass the other 3 to the player on your left."
    assert draft._keep_and_pass(2) == "keep one Specialist and pass the other one to the player on your left."
    assert draft._keep_and_pass(1) == "keep your last Specialist."
