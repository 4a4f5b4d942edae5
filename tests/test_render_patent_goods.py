"""The Gamepad Patent's second Goods (Update 1.1, SU-TEC-04) are on the board for all to
see: the view carries them (``view["seconds"]``: region -> Buyer indices) and the map
draws "x2" on those Buyers."""

from __future__ import annotations

import pytest
from render_support import record_texts
from si_support import act_here, new_game, outcome, reveal_with

import render
from engine.smartphone_inc.game import GAME
from tests.test_su_technologies import with_tech


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return record_texts(monkeypatch)


def test_the_second_goods_are_in_every_view_and_on_the_map_SU_TEC_04(drawn: list[str]) -> None:
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "patent-gamepad")
    state = reveal_with(state, {"p2": outcome(covered=4)})  # price 5: only the Gamepad Buyer buys
    before = GAME.view(state, None)
    assert not before["seconds"]
    render.draw("smartphone-inc", before)
    legend = drawn.count("x2")  # the legend explains the mark while the Technology is in play
    drawn.clear()
    state = act_here(state, "p2", {"type": "second_sell", "regions": {"north-africa": 1}})
    views = [GAME.view(state, s) for s in (None, *state["seats"])]
    assert all(v["seconds"] == {"north-africa": [1]} for v in views)  # public: the same for all
    render.draw("smartphone-inc", views[0])
    assert drawn.count("x2") == legend + 1  # and the one Buyer with a second Goods
