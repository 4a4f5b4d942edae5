"""The true log (issue 21, "A log that tells what happened"): the record ``/game log`` and
``/game history`` read is the game's applied actions in order. An undone move shows
once, its lines marked as taken back, followed by "<player> took back their last
move."; nothing repeats.

Every game that has an undoable move on this branch is played (the engine's
``undoable``): Smartphone Inc. today; Mobile Markets and Age of Automaton join by
themselves once their engines say which moves may be taken back (their cases are
skipped until then, with the reason)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.app import App
from bot.app.replay import TAKEN_BACK, round_phases
from bot.records import AppError
from bot.storage import Storage
from bot.text import with_player_names
from engine import get_game
from tests.app_support import TickingClock, storage_fixture

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")


def _undoable(name: str) -> bool:
    return getattr(get_game(name), "undoable", None) is not None


CASES = [
    pytest.param(name, marks=pytest.mark.skipif(not _undoable(name), reason=f"{name} has no undo on this branch yet"))
    for name in GAMES
]


storage = storage_fixture("true-log.db")


def _whole_log(app: App, game: Any, rec: Any, info: Any) -> list[str]:
    lines: list[str] = []
    for r in rec.rounds() or [1]:
        for _i, part in round_phases(game, rec, r):
            lines.extend(part)
    return with_player_names(lines, info)


@pytest.mark.parametrize("name", CASES)
async def test_the_log_after_undos_is_the_moves_in_order(storage: Storage, name: str) -> None:
    app = App(storage, clock=TickingClock())
    game = get_game(name)
    info = await app.create_game(name, channel_id=5, host_id=1, host_name="Ann", guild_id=1)
    await app.join(info.id, 2, "Bob")
    gid = info.id
    start = await app.start(gid, 1, seed=7)
    users = {"ann": 1, "bob": 2}
    posted: list[str] = list(start.events)  # what the channel was told, in order
    rng = random.Random(3)
    undos, after_undo = 0, 0
    for _ in range(400):
        state = await app.state(gid)
        pending = game.pending(state)
        if game.is_over(state) or not pending or (undos >= 2 and after_undo > 15):
            break
        seat = sorted(pending)[0]
        action = rng.choice(game.legal_actions(state, seat))
        out = await app.act(gid, users[seat], seat, action, int(state["version"]))
        assert out.status == "applied", out.message
        try:
            undo = await app.undo(gid, users[seat], seat)
        except AppError:  # not undoable: it goes on
            posted.extend(out.events)
            after_undo += undos > 0
            continue
        undos += 1
        posted.extend(line + TAKEN_BACK for line in out.events)  # shown once, marked
        posted.extend(undo.events)
        redo = await app.act(gid, users[seat], seat, action, int((await app.state(gid))["version"]))
        assert redo.status == "applied", redo.message
        posted.extend(redo.events)
    assert undos >= 1, "no move of this game could be taken back in 400 moves"
    info = await app.info(gid)
    rec = await app.record(gid)
    log = _whole_log(app, game, rec, info)
    posted = with_player_names(list(rec.opening) + posted, info)  # the setup's lines first
    assert log == posted  # the moves in order: nothing repeated, nothing missing
    assert log.count("Bob took back their last move.") + log.count("Ann took back their last move.") == undos
    assert sum(1 for s in rec.steps if s.taken_back) == undos
    for i, step in enumerate(rec.steps):  # each undo row follows the move it took back
        if step.undo:
            assert rec.steps[i - 1].taken_back and rec.steps[i - 1].seq == step.action["undoes"]
