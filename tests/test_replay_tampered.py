"""Issue 34 §4: ``boardroom replay`` refuses an export whose logged action carries a field
the game does not know (the app never stores one: such a field was added by hand), and
names the field; the untouched export still replays."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot import cli
from bot.app import replay_export
from bot.demo import run_demo
from bot.records import ReplayMismatch

GAMES = [("smartphone-inc", 2), ("mobile-markets", 1), ("age-of-automaton", 2)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_an_action_with_a_field_the_game_does_not_know_is_refused_by_name(
    game: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / f"{game}.db"
    result = asyncio.run(run_demo(game=game, players=players, seed=3, db=db, renderer=None, echo=lambda _: None))
    capsys.readouterr()
    assert cli.main(["export", "--db", str(db), "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path)]) == 0  # untouched: it replays to the recorded result
    assert json.loads(capsys.readouterr().out) == result

    rows = sorted(data["actions"], key=lambda r: r["seq"])
    for row in (rows[0], rows[len(rows) // 2], rows[-1]):
        tampered = json.loads(json.dumps(data))
        target = next(r for r in tampered["actions"] if r["seq"] == row["seq"])
        target["action"]["sneaky_bonus"] = 5
        path.write_text(json.dumps(tampered))
        assert cli.main(["replay", str(path)]) == 1, row
        err = capsys.readouterr().err
        assert f"The action at seq {row['seq']} has field(s) this game does not know: 'sneaky_bonus'." in err, err
        assert "Traceback" not in err
        with pytest.raises(ReplayMismatch, match="sneaky_bonus"):
            replay_export(tampered)
