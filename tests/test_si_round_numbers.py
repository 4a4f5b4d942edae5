"""Rounds are numbered alike in Smartphone Inc.'s pictures and texts (issue 34 §4): the
board's Round track and Steve's Pad said "I"-"V" next to the texts' "Round 1". Every
picture now says 1-5, as the texts do."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from render_support import record_texts  # noqa: E402
from si_support import new_game  # noqa: E402

import render  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.smartphone_inc.game import GAME  # noqa: E402

ROMAN = {"I", "II", "III", "IV", "V"}


def test_the_board_and_steves_pad_number_the_rounds_as_the_texts_do(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(3, seed=2, steve_seat=True)
    while state["round"] < 3:  # round 3's Planning: Steve's Pad parts of earlier rounds filled
        seat = next(iter(GAME.pending(state)))
        state = GAME.apply(state, seat, choose("smartphone-inc", state, seat, "greedy"))
    drawn = record_texts(monkeypatch)
    render.draw("smartphone-inc", GAME.view(state, None))
    render.draw("smartphone-inc", GAME.view(state, "p1"))
    assert "Steve's Pad" in " ".join(drawn)  # (the panel with the round parts is drawn)
    romans = [s for s in drawn if s.strip() in ROMAN]
    assert not romans, romans
    assert {"1", "2", "3", "4", "5"} <= set(drawn)  # the Round track
    assert "Round 3" in drawn  # Steve's Pad: this round's part
