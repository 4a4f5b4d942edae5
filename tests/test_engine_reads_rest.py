"""A game at rest keeps no public view in the app's memo (issue 25: kept for every game,
the views were a quarter of the objects the garbage collector walked under load), and
the next action does not work the old state's view out again: the stage it needs is kept."""

from __future__ import annotations

from bot.app import App
from engine import get_game
from engine.ai import choose
from tests.app_support import started_game, storage_fixture

GAME = "smartphone-inc"


class Counting:
    """The engine, counting public views by the state they were made of."""

    def __init__(self) -> None:
        self.game = get_game(GAME)
        self.viewed: list[int] = []

    def __getattr__(self, name: str):
        return getattr(self.game, name)

    def view(self, state, seat):
        if seat is None:
            self.viewed.append(id(state))
        return self.game.view(state, seat)


storage = storage_fixture("rest.db")


async def test_no_view_kept_at_rest_and_none_made_again(storage):
    engine = Counting()
    app = App(storage, games={GAME: engine})
    info, _out = await started_game(app, GAME, 3, ("Ann", "Bob", "Cat"), channel_id=10)
    users = {s.seat: s.user_id for s in (await app.info(info.id)).seats}
    for _ in range(30):
        state = await app.state(info.id)
        engine.viewed.clear()
        seat = sorted(s for s in engine.game.pending(state) if s in users)[0]
        out = await app.act(info.id, users[seat], seat, choose(GAME, state, seat, "random"), int(state["version"]))
        assert out.status == "applied"
        assert id(state) not in engine.viewed  # the state before: its stage was kept
        now = await app.state(info.id)
        slot = app.reads._memo[id(now)][1]
        assert "public" not in slot
        assert slot["stage"] == (out.round, out.phase)
        assert app.reads.stage(engine, now) == (out.round, out.phase)
