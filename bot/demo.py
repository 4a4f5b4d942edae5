"""``boardroom demo``: a whole game played by AI seats through the app layer.

Every action goes through :class:`bot.app.App` and is committed to SQLite, so the
demo exercises the same path as a Discord game. Run it again on the same database
after a crash or a kill and it resumes where the log ends; because the AI choices
depend only on the game state, it ends with the same result as an uninterrupted
run. A demo game that already finished just prints its result again.

Output: a progress line per phase on stdout, and last the final result as ONE
JSON line. With ``--out DIR`` and the ``render`` package available, the public
picture of each phase is written there (``0012-r1-p1-planning.png``: version, round, phase).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import render
from bot.app import AiChoose, App
from bot.records import GameInfo
from bot.storage import Storage, dumps
from engine import Game

log = logging.getLogger(__name__)

DEMO_HOST = 0  # the "user" who hosts demo games (no Discord user has id 0)


def demo_channel(game: str, players: int, seed: int, ai: str) -> int:
    """A stable pseudo channel id per demo configuration (so reruns find their game)."""
    digest = hashlib.sha256(f"demo/{game}/{players}/{seed}/{ai}".encode()).digest()
    return -1 - int.from_bytes(digest[:6], "big")  # negative: never a Discord id


def write_picture(draw: Callable[[str, dict[str, Any]], Any], game: str, view: dict[str, Any], out: Path) -> Path:
    image = draw(game, view)
    number = view.get("phase_number") or 9  # sorts the phases of one action in order
    name = f"{int(view.get('version', 0)):04d}-r{view.get('round')}-p{number}-{view.get('phase')}.png"
    path = out / name.replace("/", "_").replace(" ", "_")
    if isinstance(image, bytes | bytearray):
        path.write_bytes(image)
    else:
        image.save(path, format="PNG")
    return path


async def find_demo_game(app: App, channel: int) -> GameInfo | None:
    live = await app.game_in_channel(channel)
    if live is not None:
        return live
    done = [g for g in await app.games_with_status("finished") if g.channel_id == channel]
    return done[-1] if done else None


async def run_demo(
    *,
    game: str,
    players: int,
    seed: int,
    db: str | Path,
    out: str | Path | None = None,
    pace: float = 0.0,
    ai: str = "bot",
    games: Mapping[str, Game] | None = None,
    ai_choose: AiChoose | None = None,
    renderer: Callable[[str, dict[str, Any]], Any] | None | bool = True,
    echo: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play (or resume) the demo game; echo progress and last the result JSON line."""
    draw = render.draw if renderer is True else (renderer or None)
    out_dir = Path(out) if out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    storage = await Storage.open(db)
    try:
        app = App(storage, games=games, ai_choose=ai_choose, clock=time.time)
        channel = demo_channel(game, players, seed, ai)

        def picture(view: dict[str, Any]) -> None:
            if draw is not None and out_dir is not None:
                try:
                    write_picture(draw, game, view, out_dir)
                except Exception:
                    log.exception("drawing the picture of version %s failed", view.get("version"))

        info = await find_demo_game(app, channel)
        if info is None:
            info = await app.create_game(
                game, channel_id=channel, host_id=DEMO_HOST, host_name="demo", join=False
            )
        if info.status == "lobby":
            while len(info.seats) < players:  # also after a kill while seating
                info = await app.add_ai(info.id, DEMO_HOST, ai)
            started = await app.start(info.id, DEMO_HOST, seed=seed, run_ai=False)
            echo(f"started {game} #{info.id}: {players} AI seats, seed {seed}")
            for view in started.phase_views:
                picture(view)
        elif info.status == "active":
            echo(f"resuming {game} #{info.id} at version {info.version}")
        else:
            echo(f"{game} #{info.id} already finished at version {info.version}")
        while True:
            step = await app.step_ai(info.id)
            if step is None:
                break
            if step.phase_changed:
                echo(f"version {step.version}: round {step.round}, {step.phase}")
                for view in step.phase_views:
                    picture(view)
            if pace > 0:
                await asyncio.sleep(pace)
        info = await app.info(info.id)
        if info.status != "finished" or info.result is None:
            raise RuntimeError(f"the demo game stopped unfinished ({info.status}, version {info.version})")
        echo(dumps(info.result))
        return info.result
    finally:
        await storage.close()
