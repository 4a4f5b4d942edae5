"""The decisions that were still lists at the table and name a place drawn (issue 35):
each is now a gesture on the board or the seat's own area (``moves()`` of
``bot/games/<game>/table.py``), every place it names is drawn with that id, and no
place is both a tap and the start of a drag in one decision (the page could not tell
them apart). Found by seeded random play of the engine, decision by decision."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.table.decide import board_decisions
from engine import get_game
from render import svg

SMALL = {"directives": True, "technologies": "i-want-some-space", "board": "small"}

# (game, options, seats, the prompt, the action's type, what else the action holds)
CASES = [
    ("smartphone-inc", SMALL, 2, "start_region", "start_region", ()),
    ("smartphone-inc", SMALL, 2, "start_retailer", "start_retailer", ()),
    ("smartphone-inc", SMALL, 2, "retailer_bonus", "retailer_bonus", ("place",)),
    ("smartphone-inc", {"technologies": "first-add-on-game"}, 3, "logistics", "logistics", ("ceo",)),
    ("mobile-markets", {}, 3, "marketing", "customer", ()),
    ("mobile-markets", {}, 3, "marketing", "place", ("deck",)),
    ("age-of-automaton", {}, 3, "turn", "achievement", ()),
    ("age-of-automaton", {}, 3, "turn", "equipment", ()),
    ("age-of-automaton", {}, 3, "turn", "use_specialist", ()),
    ("age-of-automaton", {}, 3, "turn", "main", ("funding",)),
    ("age-of-automaton", {}, 3, "extra", "extra", ("worker",)),
    ("age-of-automaton", {}, 3, "upgrade", "upgrade", ()),
]


def _fits(action: dict[str, Any], kind: str, holds: tuple[str, ...]) -> bool:
    return action.get("type") == kind and all(h in action or h in action.values() for h in holds)


def _find(game: str, options: dict[str, Any], n: int, prompt_kind: str, kind: str, holds: tuple[str, ...]) -> Any:
    """The first (state, seat) of a seeded random game where ``seat`` may take such an action."""
    g = get_game(game)
    for seed in range(12):
        seats = [f"s{i}" for i in range(n)]
        state = g.setup(seats, seed, dict(options))
        rng = random.Random(seed)
        for _ in range(3000):
            pending = g.pending(state)
            if not pending or g.is_over(state):
                break
            seat = sorted(pending)[0]
            acts = g.legal_actions(state, seat)
            if pending[seat].get("type") == prompt_kind and any(_fits(a, kind, holds) for a in acts):
                return state, seat
            state = g.apply(state, seat, rng.choice(acts))
    raise AssertionError(f"no {kind} decision came in 12 seeded games")


@pytest.mark.parametrize(("game", "options", "n", "prompt_kind", "kind", "holds"), CASES,
                         ids=[f"{c[0]}-{c[4]}-{'-'.join(c[5])}" for c in CASES])
def test_the_decision_is_taken_on_the_board(game: str, options: dict[str, Any], n: int, prompt_kind: str, kind: str,
                                            holds: tuple[str, ...]) -> None:
    g = get_game(game)
    state, seat = _find(game, options, n, prompt_kind, kind, holds)
    view = g.view(state, seat)
    legal = g.legal_actions(state, seat)
    actions = [{"n": i + 1, "label": "", "action": a} for i, a in enumerate(legal)]
    board = board_decisions(game, view.get("prompt") or g.pending(state)[seat], view, seat, actions)
    drawn = set(re.findall(r'data-id="([^"]*)"', svg.mine(game, view) + svg.board(game, g.view(state, None))))
    these = [str(i + 1) for i, a in enumerate(legal) if _fits(a, kind, holds)]
    assert these and all(n in board["moves"] for n in these), [legal[int(n) - 1] for n in these if n not in board["moves"]]
    for n in these:
        places = {p for m in board["moves"][n] for p in m}
        assert places <= drawn, (legal[int(n) - 1], places - drawn)
    taps = {m[0] for ms in board["moves"].values() for m in ms if len(m) == 1}
    sources = {m[0] for ms in board["moves"].values() for m in ms if len(m) == 2}
    assert not taps & sources, taps & sources
