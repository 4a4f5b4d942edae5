"""What Discord cuts, and card codes (issue 22, "All games: what Discord cuts"): whole
games of all three games played through the fake Discord, with every cut the bot would
make recorded where it is made (tests/cut_support.py). The Mobile Markets games are
played here; Smartphone Inc.'s and Age of Automaton's are the whole games other modules
play anyway, checked there: tests/test_discord_e2e.py's games to the final scores
(``tech_sides=random``, Steve, seeded choices among them) and tests/test_playtest_aoa.py's
newcomer game.

Discord cuts a select option's label and description at 100 characters and a button's
label at 80; the bot cuts them itself first (``bot.text.clip``, ``bot.views._options``), so
a cut text never reaches the fake Discord whole. The fixture below records each text that
one of those would shorten (a label of 100 characters or fewer that is cut at 100, 80 or
less), and the checks fail on any: the key part of a cut label is what gets lost ("⚠️ about
6 of 8 Goods unsold: you can sell abo…").

Card codes: no player text holds one, not even followed by the card's title ("buy T19
Lean Manufacturing"): Mobile Markets' T19, E15, M7, TS5, Age of Automaton's P10, E01,
Smartphone Inc.'s Improvement ids I07 (``CODES``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.cut_support import card_codes, check_cuts, record_cuts
from tests.fake_discord import FakeDiscord


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the bot shortens to a label's size (100 characters or fewer)."""
    return record_cuts(monkeypatch)


@pytest.fixture
async def fake() -> Any:
    async with FakeDiscord() as f:
        yield f
        f.assert_clean()


@pytest.mark.parametrize(("humans", "steve"), [(2, False), (1, True)])
async def test_mobile_markets_whole_game_cuts_nothing_and_names_cards(
    fake: FakeDiscord, tmp_path: Any, cuts: list[str], humans: int, steve: bool
) -> None:
    from tests.test_playtest_mm import play_whole_game

    await play_whole_game(fake, tmp_path, humans, steve, seed=40 + humans)
    check_cuts(fake, cuts, "mobile-markets")
    # a product sealed in round N says round N (Bob's round-1 product read "round 2": the
    # last product sealed ends the round, and the title took the next round's number)
    from tests import playtest_support as ps

    rnd, seen = 0, 0
    for e in ps.transcript(fake):
        if e["where"] == "channel" and (m := re.search(r"Round (\d) · ", e["text"])):
            rnd = int(m.group(1))
        if (m := re.search(r"Product sealed 🔒 — round (\d)", e["text"])):
            assert int(m.group(1)) == rnd, e["text"][:80]
            seen += 1
    assert seen == 5 * humans


@pytest.mark.parametrize(
    ("words", "hit"),
    [
        ("buy T19 Lean Manufacturing", True),
        ("Event E15 Supply Chain Boost", True),
        ("M7 Social Ads", True),
        ("TS5 sold", True),
        ("plays P10 Engineer", True),
        ("Take I07 (Research)", True),
        ("Top Pad on A1–C2", False),
        ("Regular +2 (R1-R2 tiles)", False),
        ("buy Lean Manufacturing · cost 3", False),
    ],
)
def test_the_code_patterns(words: str, hit: bool) -> None:
    assert bool(card_codes([words])) == hit, card_codes([words])


def test_log_lines_read_cards_by_title_and_markers_in_the_singular() -> None:
    """The log keeps its old words (old games replay to the same bytes); players read them
    without printed numbers and without "marker(s)"."""
    from engine.mobile_markets.data import plain_line
    from engine.smartphone_inc.common import plural_markers

    assert plain_line("ann buys T19 Lean Manufacturing for 3.") == "ann buys Lean Manufacturing for 3."
    assert plain_line("Event E15 Supply Chain Boost: more Goods.") == "Event Supply Chain Boost: more Goods."
    assert plain_line("ann plays M7 Lean Manufacturing") == "ann plays M7 Lean Manufacturing"  # not M7's title: left
    assert plural_markers("ann loses 1 unspent Progress marker(s).") == "ann loses 1 unspent Progress marker."
    assert plural_markers("ann places 3 Progress marker(s) towards China") == "ann places 3 Progress markers towards China"
    assert plural_markers("ann takes Improvement (Logistics + open).") == "ann takes Improvement (Logistics + blank half)."
