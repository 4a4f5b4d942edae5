"""The public picture shows which Achievements are offered to whom (issue 11, "Achievements
are offered when met"; rules version 2): the Achievements panel draws "can claim:" and the
seat's marker in a dashed ring on each card a seat has met and not claimed yet. The offer
is public (the view carries it for every seat); the picture still shows nothing secret.
AA-ACH-01."""

from __future__ import annotations

from typing import Any

import render
from engine.age_of_automaton import achievements
from engine.age_of_automaton.game import GAME
from engine.jsonstate import clone
from render.age_of_automaton import board
from tests.aoa_support import drafted
from tests.test_render_aoa import _with_other_secrets_changed

NAME = "age-of-automaton"
FIRST_MACHINE = "H11"  # 1 Equipment card


def _game(*met: str) -> dict[str, Any]:
    """Emily's first turn with an empty Achievements board; ``met`` hold one Equipment card."""
    s = drafted(3, 1)
    s["achievements"] = {FIRST_MACHINE: [], "H21": [], "H31": [], "H41": []}
    for seat in met:
        s["players"][seat]["equipment"] = [{"id": "E01", "column": 0}]
    achievements.check(s)
    return s


def _png(s: dict[str, Any]) -> bytes:
    return render.png_bytes(render.draw(NAME, GAME.view(s, None)))


def test_the_picture_shows_an_offer_and_to_whom_AA_ACH_01() -> None:
    none = _game()
    emily = _game("Emily")
    assert emily["offers"]["Emily"] == [FIRST_MACHINE] and none["offers"]["Emily"] == []
    assert board.offered_to(GAME.view(emily, None)) == {FIRST_MACHINE: ["Emily"]}
    # the offer changes the picture, and an offer to Tyler is drawn differently from one to Emily
    tyler = clone(emily)
    tyler["offers"] = {"Emily": [], "Tyler": [FIRST_MACHINE], "Ann": []}
    pictures = {_png(none), _png(emily), _png(tyler)}
    assert len(pictures) == 3
    # the Achievements cards grow by one line ("can claim:" and the ringed markers)
    hidden = clone(emily)
    hidden["offers"]["Emily"] = []
    assert render.draw(NAME, GAME.view(emily, None)).height == render.draw(NAME, GAME.view(hidden, None)).height + 28


def test_claiming_removes_the_ring_AA_ACH_01() -> None:
    s = _game("Emily")
    claimed = GAME.apply(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE})
    assert claimed["offers"]["Emily"] == []
    view = GAME.view(claimed, None)
    assert board.offered_to(view) == {}
    assert [a["claimed_by"] for a in view["achievements"] if a["id"] == FIRST_MACHINE] == [["Emily"]]
    ringed = clone(claimed)
    ringed["offers"]["Tyler"] = [FIRST_MACHINE]
    assert render.draw(NAME, view).height + 28 == render.draw(NAME, GAME.view(ringed, None)).height


def test_the_picture_with_offers_reveals_no_hand() -> None:
    """The public picture with an offer on the board is the same bytes whatever the other
    seats hold in their hands (and the check can fail: a changed offer changes it)."""
    s = _game("Emily", "Tyler")
    assert s["players"]["Tyler"]["hand"] and s["players"]["Ann"]["hand"]
    other = _with_other_secrets_changed(s, "Emily")
    assert other is not None and other["players"]["Tyler"]["hand"] != s["players"]["Tyler"]["hand"]
    assert _png(s) == _png(other)
    # Emily's own hand changed too: the public picture still does not move
    mine = _with_other_secrets_changed(other, "Ann")
    assert mine is not None and mine["players"]["Emily"]["hand"] != s["players"]["Emily"]["hand"]
    assert _png(s) == _png(mine)
    fewer = clone(s)
    fewer["offers"]["Tyler"] = []
    assert _png(fewer) != _png(s)
