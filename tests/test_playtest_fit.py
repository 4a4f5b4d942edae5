"""What Discord cuts, and card codes (issue 22, "All games: what Discord cuts"): whole
games of all three games played through the fake Discord, with every cut the bot would
make recorded where it is made.

Discord cuts a select option's label and description at 100 characters and a button's
label at 80; the bot cuts them itself first (``bot.text.clip``, ``bot.views._options``), so
a cut text never reaches the fake Discord whole. The fixture below records each text that
one of those would shorten (a label of 100 characters or fewer that is cut at 100, 80 or
less), and the tests fail on any: the key part of a cut label is what gets lost ("⚠️ about
6 of 8 Goods unsold: you can sell abo…").

Card codes: no player text holds one, not even followed by the card's title ("buy T19
Lean Manufacturing"): Mobile Markets' T19, E15, M7, TS5, Age of Automaton's P10, E01,
Smartphone Inc.'s Improvement ids I07 (``CODES``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import text, views
from tests.fake_discord import FakeDiscord, iter_components
from tests.test_words import player_texts

LABEL_MAX = {"button": 80, "option label": 100, "option description": 100, "placeholder": 150}

CODES: dict[str, str] = {
    # Mobile Markets: Technology T1-T25, Technology Sale TS1-TS9, Marketing M1-M18, Event E1-E18
    # (not "T1" of a Smartphone Inc. planner cell: those are A-E); Steve Jr.'s SJ cards
    "Mobile Markets card code": r"(?<![\w-])(?:TS|SJ|T|M|E)\d{1,2}(?![\w-])",
    # Age of Automaton: Specialist P, Equipment E, R&D D, Sale Order S, Achievement H
    "Age of Automaton card code": r"(?<![\w-])[PDSH]\d\d(?![\w-])",
    # Smartphone Inc.: Improvement ids
    "Improvement id": r"(?<![\w-])I\d\d(?![\w-])",
}


GAME_CODES = {  # (a Smartphone Inc. planner cell "E2" is a cell, not an Event)
    "mobile-markets": ("Mobile Markets card code",),
    "age-of-automaton": ("Age of Automaton card code",),
    "smartphone-inc": ("Improvement id",),
}


def card_codes(texts: list[str], game: str | None = None) -> list[str]:
    found = []
    for t in texts:
        for name, pattern in CODES.items():
            if game is not None and name not in GAME_CODES[game]:
                continue
            for m in re.finditer(pattern, t):
                found.append(f"{name}: {m.group(0)!r} in {t[max(0, m.start() - 60) : m.end() + 40]!r}")
    return sorted(set(found))


def too_long(fake: FakeDiscord) -> list[str]:
    """Every label, description and placeholder the fake Discord received over its limit."""
    out = []
    for rec in fake.requests:
        body = rec.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "/callback" in rec.path else body
        if not isinstance(data, dict):
            continue
        for c in iter_components(data):
            if c.get("type") == 2 and len(c.get("label") or "") > LABEL_MAX["button"]:
                out.append(f"button: {c['label']!r}")
            if len(c.get("placeholder") or "") > LABEL_MAX["placeholder"]:
                out.append(f"placeholder: {c['placeholder']!r}")
            for o in c.get("options") or []:
                for key, kind in (("label", "option label"), ("description", "option description")):
                    if len(o.get(key) or "") > LABEL_MAX[kind]:
                        out.append(f"{kind}: {o[key]!r}")
    return out


@pytest.fixture
def cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the bot shortens to a label's size (100 characters or fewer)."""
    seen: list[str] = []
    clip = text.clip

    def recording_clip(words: str, n: int) -> str:
        if n <= 100 and len(words) > n:
            seen.append(f"cut at {n}: {words!r}")
        return clip(words, n)

    options = views._options

    def recording_options(choices: Any) -> Any:
        for c in choices[:25]:
            for kind, words in (("label", c.label), ("description", c.description)):
                if len(words) > 100:
                    seen.append(f"{kind} cut at 100: {words!r}")
        return options(choices)

    monkeypatch.setattr(text, "clip", recording_clip)
    monkeypatch.setattr(views, "_options", recording_options)
    return seen


@pytest.fixture
async def fake() -> Any:
    async with FakeDiscord() as f:
        yield f
        f.assert_clean()


def _check(fake: FakeDiscord, cuts: list[str], game: str) -> None:
    over = too_long(fake)
    uniq = sorted(set(cuts))
    codes = card_codes(player_texts(fake), game)
    said = []
    if over:
        said.append("over Discord's limits:\n" + "\n".join(over[:30]))
    if uniq:
        said.append(f"{len(uniq)} labels or descriptions cut:\n" + "\n".join(uniq[:40]))
    if codes:
        said.append(f"{len(codes)} card codes reach players:\n" + "\n".join(codes[:40]))
    assert not said, "\n".join(said)


@pytest.mark.parametrize(("humans", "steve"), [(2, False), (1, True)])
async def test_mobile_markets_whole_game_cuts_nothing_and_names_cards(
    fake: FakeDiscord, tmp_path: Any, cuts: list[str], humans: int, steve: bool
) -> None:
    from tests.test_playtest_mm import play_whole_game

    await play_whole_game(fake, tmp_path, humans, steve, seed=40 + humans)
    _check(fake, cuts, "mobile-markets")
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


async def test_smartphone_inc_whole_game_cuts_nothing_and_names_cards(fake: FakeDiscord, tmp_path: Any, cuts: list[str]) -> None:
    from tests.test_discord_e2e import test_a_whole_game_to_the_final_scores

    await test_a_whole_game_to_the_final_scores(fake, tmp_path, "tech_sides=random", True, 5)
    _check(fake, cuts, "smartphone-inc")


async def test_age_of_automaton_whole_game_cuts_nothing_and_names_cards(
    fake: FakeDiscord, tmp_path: Any, cuts: list[str], capsys: Any
) -> None:
    from tests.test_playtest_aoa import test_a_whole_game_as_a_newcomer_on_a_phone

    await test_a_whole_game_as_a_newcomer_on_a_phone(fake, tmp_path, capsys)
    _check(fake, cuts, "age-of-automaton")


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
