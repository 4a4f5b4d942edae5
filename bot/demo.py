"""``boardroom demo``: a whole game played by AI seats through the app layer.

Every action goes through :class:`bot.app.App` and is committed to SQLite, so the
demo exercises the same path as a Discord game. Run it again on the same database
after a crash or a kill and it resumes where the log ends; because the AI choices
depend only on the game state, it ends with the same result as an uninterrupted
run. A demo game that already finished just prints its result again.

Output: a progress line per phase on stdout, in the players' words ("Round 1,
phase 2: Set Prices"), and last the final result as ONE JSON line. With ``--out DIR``
and the ``render`` package available, the public picture (the channel's board) of
each phase is written into the game's own folder: ``DIR/<game>/start.png``, then
``r1-2-set-prices.png`` (round 1, phase 2: the phase's number in the rulebook, or
for a game without phase numbers the picture's place in its round) and last
``game-over.png``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import render
from bot.app import AiChoose, App
from bot.app.core import Raced
from bot.claims import Claims
from bot.games import find as find_presenter
from bot.records import GameInfo
from bot.storage import Storage, dumps
from engine import Game

log = logging.getLogger(__name__)

DEMO_HOST = 0  # the "user" who hosts demo games (no Discord user has id 0)


def demo_channel(game: str, players: int, seed: int, ai: str) -> int:
    """A stable pseudo channel id per demo configuration (so reruns find their game)."""
    digest = hashlib.sha256(f"demo/{game}/{players}/{seed}/{ai}".encode()).digest()
    return -1 - int.from_bytes(digest[:6], "big")  # negative: never a Discord id


def phase_words(game: str, phase: str | None) -> str:
    """A phase as the players read it ("Set Prices", "Action phase (ended)")."""
    if phase == "over":
        return "Game over"
    presenter = find_presenter(game)
    if presenter is not None:
        return presenter.phase_title(phase)
    return str(phase or "?").replace("_", " ").capitalize()


def _slug(words: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-") or "phase"


class PhaseNames:
    """The progress line and the file name of each phase picture of one demo game.

    A view's ``phase_number`` (Smartphone Inc., Mobile Markets) numbers its picture in
    its round; a game without one (Age of Automaton) gets the picture's place in the
    round (the start picture counts). The first picture is ``start``, the last ``game-over``; a name already
    taken gets ``-2``, ``-3``."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.count: dict[Any, int] = {}
        self.taken: set[str] = set()

    def line(self, view: Mapping[str, Any]) -> str:
        words = phase_words(self.game, view.get("phase"))
        if view.get("phase") == "over":
            return words
        number = view.get("phase_number")
        where = f"Round {view.get('round')}"
        return f"{where}, phase {number}: {words}" if number else f"{where}: {words}"

    def name(self, view: Mapping[str, Any], *, start: bool = False) -> str:
        phase, rnd = view.get("phase"), view.get("round")
        self.count[rnd] = self.count.get(rnd, 0) + 1  # the start is its round's first picture
        if start:
            stem = "start"
        elif phase == "over":
            stem = "game-over"
        else:
            number = view.get("phase_number") or self.count[rnd]
            stem = f"r{rnd}-{number}-{_slug(phase_words(self.game, phase))}"
        name, n = stem, 1
        while name in self.taken:
            n += 1
            name = f"{stem}-{n}"
        self.taken.add(name)
        return f"{name}.png"


def write_picture(draw: Callable[[str, dict[str, Any]], Any], game: str, view: dict[str, Any], path: Path) -> Path:
    image = draw(game, view)
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
    out_dir = Path(out) / game if out else None  # each game its own folder
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    names = PhaseNames(game)
    storage = await Storage.open(db)
    try:
        app = App(storage, games=games, ai_choose=ai_choose, clock=time.time)
        channel = demo_channel(game, players, seed, ai)

        def picture(view: dict[str, Any], *, start: bool = False) -> None:
            if not start:
                echo(names.line(view))
            name = names.name(view, start=start)
            if draw is not None and out_dir is not None:
                try:
                    write_picture(draw, game, info.drawn(view), out_dir / name)  # (the players by name)
                except Exception:
                    log.exception("drawing the picture of version %s failed", view.get("version"))

        # several demos on one PostgreSQL database: one sets the game up, the others wait
        # for it and then play it with it (each move once: the game's lock in the move)
        setup = Claims(storage, ttl=60.0) if storage.shared else None
        while setup is not None and await setup.hold("demo", str(channel)) is None:
            await asyncio.sleep(0.05)
        try:
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
                for i, view in enumerate(started.phase_views):
                    picture(view, start=i == 0)
            elif info.status == "active":
                echo(f"resuming {game} #{info.id} at version {info.version}")
            else:
                echo(f"{game} #{info.id} already finished at version {info.version}")
        finally:
            if setup is not None:
                await setup.release("demo", str(channel))
        raced = 0
        while True:
            try:
                step = await app.step_ai(info.id)
            except Raced:  # another process moved first: look at the game again
                step = None
            if step is None:
                # nothing to do, or another demo process moved this seat first (every seat
                # is the AI's: an active game always has a move to make)
                if (await app.info(info.id)).status != "active" or raced >= 1000:
                    break
                raced += 1
                await asyncio.sleep(0.01)
                continue
            raced = 0
            if step.phase_changed:
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
