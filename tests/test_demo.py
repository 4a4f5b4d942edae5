"""``boardroom demo``: whole games through the app layer and SQLite, kill and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fakegame import GAME, fake_ai

from bot.app import App, replay_export
from bot.demo import run_demo
from bot.storage import Storage

ROOT = Path(__file__).resolve().parent.parent


def demo_cmd(db: Path, *extra: str, players: int = 2, seed: int = 3) -> list[str]:
    return [
        sys.executable, "-m", "bot.cli", "demo", "--game", "smartphone-inc",
        "--players", str(players), "--seed", str(seed), "--db", str(db), *extra,
    ]


async def stored(db: Path) -> tuple[list, dict]:
    s = await Storage.open(db)
    try:
        app = App(s)
        games = await app.games_with_status("lobby", "active", "paused", "finished", "abandoned")
        exports = {g.id: await app.export(g.id) for g in games}
        return games, exports
    finally:
        await s.close()


async def test_demo_with_the_fake_game_writes_pictures(tmp_path: Path) -> None:
    lines: list[str] = []
    drawn: list[dict] = []

    def draw(game: str, view: dict) -> bytes:
        drawn.append(view)
        return b"\x89PNG fake"

    result = await run_demo(
        game="fake", players=3, seed=4, db=tmp_path / "f.db", out=tmp_path / "out",
        games={"fake": GAME}, ai_choose=fake_ai, renderer=draw, echo=lines.append,
    )
    assert json.loads(lines[-1]) == result
    assert [v["phase"] for v in drawn] == ["choose", "take", "choose", "take", "over"]
    assert sorted(p.name for p in (tmp_path / "out" / "fake").glob("*.png")) == [
        "game-over.png", "r1-2-take.png", "r2-1-choose.png", "r2-2-take.png", "start.png"
    ]
    assert lines[1:-1] == ["Round 1: Take", "Round 2: Choose", "Round 2: Take", "Game over"]
    again: list[str] = []
    assert await run_demo(
        game="fake", players=3, seed=4, db=tmp_path / "f.db", games={"fake": GAME},
        ai_choose=fake_ai, renderer=None, echo=again.append,
    ) == result
    assert again[-1] == lines[-1] and "already finished" in again[0]


async def test_smartphone_inc_demo_end_to_end(tmp_path: Path) -> None:
    db = tmp_path / "si.db"
    lines: list[str] = []
    result = await run_demo(
        game="smartphone-inc", players=3, seed=7, db=db, renderer=None, echo=lines.append
    )
    assert json.loads(lines[-1]) == result
    assert sorted(s["rank"] for s in result["scores"]) == [1, 2, 3]
    games, exports = await stored(db)
    [info] = games
    assert info.status == "finished" and info.result == result
    data = exports[info.id]
    # every action was committed, in order
    assert [a["seq"] for a in data["actions"]] == list(range(1, info.version + 1))
    assert {a["actor"] for a in data["actions"]} == {"bot"}
    assert replay_export(json.loads(json.dumps(data))) == result


def test_kill_and_resume_ends_like_an_uninterrupted_run(tmp_path: Path) -> None:
    """``boardroom demo`` killed mid-game and run again ends with the very result line of
    an uninterrupted run of the same demo (played in this process: the same ``run_demo``
    the command runs, with the command's defaults; the two runs through the command are
    the killed one and the resumed one)."""
    import asyncio

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    whole: list[str] = []
    asyncio.run(run_demo(game="smartphone-inc", players=2, seed=3, db=tmp_path / "whole.db", echo=whole.append))
    want = whole[-1]
    json.loads(want)

    db = tmp_path / "killed.db"
    proc = subprocess.Popen(
        demo_cmd(db, "--pace", "0.02"), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, env=env,
    )
    assert proc.stdout is not None
    phases = 0
    for line in proc.stdout:
        if line.startswith("Round "):
            phases += 1
            if phases == 12:  # mid-game (round 2 or so)
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert phases == 12
    games, _ = asyncio.run(stored(db))
    assert [g.status for g in games] == ["active"] and games[0].version > 0

    resumed = subprocess.run(demo_cmd(db), capture_output=True, text=True, env=env, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    out = resumed.stdout.strip().splitlines()
    assert out[0].startswith("resuming")
    assert out[-1] == want


@pytest.mark.parametrize("players", [1, 4])
async def test_demo_player_counts(tmp_path: Path, players: int) -> None:
    lines: list[str] = []
    result = await run_demo(
        game="smartphone-inc", players=players, seed=2, db=tmp_path / "p.db", renderer=None,
        echo=lines.append,
    )
    assert len(result["scores"]) == players


async def test_demo_pictures_with_the_real_renderer(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "pictures"
    await run_demo(
        game="smartphone-inc", players=2, seed=1, db=tmp_path / "r.db", out=out, echo=lambda _: None
    )
    assert [p.name for p in out.iterdir()] == ["smartphone-inc"]  # each game its own folder
    names = {p.name for p in (out / "smartphone-inc").glob("*.png")}
    # round, the phase's number in the rulebook, the phase in the players' words
    want = {"planning", "set-prices", "production", "improve-production", "research-technology",
            "logistics", "selling-goods", "receive-vp"}
    assert {"start.png", "game-over.png", "r1-2-set-prices.png", "r5-8-receive-vp.png"} <= names
    for r in (2, 3, 4, 5):
        assert f"r{r}-1-planning.png" in names
    assert {n.split("-", 2)[2][:-4] for n in names if n.startswith("r")} == want
    with Image.open(out / "smartphone-inc" / "game-over.png") as im:
        assert im.format == "PNG" and im.width >= 400 and im.height >= 300
