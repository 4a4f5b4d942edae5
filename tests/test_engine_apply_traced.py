"""A move is applied once (issue 25): ``apply_traced`` gives the new state and the
public views at the end of each phase the move completed, in one pass, the same bytes
as ``apply`` and ``trace`` apart; and the app applies a move that ends phases once,
not once more to trace its pictures' views."""

from __future__ import annotations

import json

import pytest

from bot.app import App
from engine import get_game
from engine.ai import choose
from engine.simulate import play_game
from tests.app_support import started_game, storage_fixture

GAMES = {
    "smartphone-inc": ["p1", "p2", "p3"],
    "mobile-markets": ["p1", "p2", "p3"],
    "age-of-automaton": ["p1", "p2", "p3"],
}


def _bytes(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_apply_traced_is_apply_and_trace(name):
    game = get_game(name)
    seats = GAMES[name]
    states = [game.setup(seats, 5, {})]
    _, log, _ = play_game(name, seats, 5, {}, "random", on_state=states.append)
    traced_any = 0
    for state, (seat, action) in zip(states, log, strict=False):
        new, views = game.apply_traced(state, seat, action)
        assert _bytes(new) == _bytes(game.apply(state, seat, action))
        assert _bytes(views) == _bytes(game.trace(state, seat, action))
        traced_any += bool(views)
    assert traced_any >= 4  # phases did end in this game: the views were compared


class Counting:
    """The engine, counting the passes of its rules over a move."""

    def __init__(self, name: str) -> None:
        self.game = get_game(name)
        self.passes = 0
        original = self.game._apply

        def counted(*args, **kwargs):
            self.passes += 1
            return original(*args, **kwargs)

        self.game._apply = counted

    def __getattr__(self, name: str):
        return getattr(self.game, name)


storage = storage_fixture("traced.db")


async def test_the_app_applies_a_move_once_even_when_it_ends_phases(storage):
    name = "smartphone-inc"
    engine = Counting(name)
    app = App(storage, games={name: engine})
    info, _out = await started_game(app, name, 3, ("Ann", "Bob", "Cat"), channel_id=10)
    users = {s.seat: s.user_id for s in (await app.info(info.id)).seats}
    phase_ends = 0
    for _ in range(40):
        state = await app.state(info.id)
        seat = sorted(s for s in engine.game.pending(state) if s in users)[0]
        action = choose(name, state, seat, "random")
        engine.passes = 0
        out = await app.act(info.id, users[seat], seat, action, int(state["version"]))
        assert out.status == "applied"
        assert engine.passes == 1
        if out.phase_changed:
            phase_ends += 1
            assert out.phase_views  # the pictures' views came with the one pass
    assert phase_ends >= 3
