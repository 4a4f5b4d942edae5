"""What Discord cuts, and card codes (issue 22, "All games: what Discord cuts"): the
checks of tests/test_playtest_fit.py, also run on the whole games that other modules
play anyway (tests/test_discord_e2e.py's games to the final scores, tests/test_playtest_aoa.py's
newcomer game), so that each of those games is played once.

:func:`record_cuts` records each text the bot would shorten to a label's size (a label of
100 characters or fewer cut at 100, 80 or less: ``bot.text.clip``, ``bot.views._options``);
:func:`check_cuts` fails on any, on any label, description or placeholder over Discord's
limits the fake received, and on any card code in a player's text (``CODES``)."""

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
    for t in dict.fromkeys(texts):  # each distinct text once
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


def record_cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
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


def check_cuts(fake: FakeDiscord, cuts: list[str], game: str) -> None:
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
