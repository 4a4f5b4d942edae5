"""The table's replay and reveal, from the game's public record (``App.record`` with no
viewer: what everyone may see now, the engine's ``shown_action`` deciding what a sealed
decision shows) and the engine's public view after each step.

- :func:`replay_at`: the slider over the whole game: every log line up to a step, with
  the players' names (never seat ids), and which of them that step added;
- :func:`replay_svg`: the board after a step, as SVG, drawn by the code of the Discord
  picture (``render.svg``), from the public view at that step only;
- :func:`reveal_since`: what happened since a version the page saw in a secret phase
  (each plan as it is revealed, the moves that followed) and the results of each round
  that ended meanwhile (``Presenter.round_results``, as posted in Discord).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any
from weakref import WeakKeyDictionary

from bot import text
from bot.app import App
from bot.app.replay import Record
from bot.records import GameInfo
from render import svg

KEEP = 32  # boards of replay steps kept (game id, version, step)
MAX_REVEAL_STEPS = 400  # steps a reveal tells at most (a page away for longer sees the replay)

_BOARDS: WeakKeyDictionary[App, OrderedDict[tuple[Any, ...], str]] = WeakKeyDictionary()  # per app


def _lines(rec: Record, upto: int) -> tuple[list[str], int]:
    """The log lines up to step ``upto`` (0: the opening) and how many the last step added."""
    lines = list(rec.opening)
    added = len(lines)
    for s in rec.steps[:upto]:
        before = len(lines)
        lines.extend(s.lines)
        if s.detail:
            lines.append(s.detail)
        added = len(lines) - before
    return lines, added


def _clamp(rec: Record, step: int) -> int:
    return max(0, min(int(step), len(rec.steps)))


async def replay_at(app: App, info: GameInfo, step: int) -> dict[str, Any]:
    """{"step", "last", "lines", "added", "round", "phase"} after ``step`` steps."""
    rec = await app.record(info.id)
    step = _clamp(rec, step)
    lines, added = _lines(rec, step)
    at = rec.steps[step - 1] if step else None
    return {
        "step": step,
        "last": len(rec.steps),
        "lines": text.with_player_names(lines, info),
        "added": added,
        "round": at.round if at else None,
        "phase": app.presenter(info.game).phase_title(at.phase) if at and isinstance(at.phase, str) else "",
    }


async def replay_svg(app: App, info: GameInfo, step: int) -> str:
    """The public board after ``step`` steps, as SVG (kept per game, version and step)."""
    rec = await app.record(info.id)
    step = _clamp(rec, step)
    names = tuple((s.seat, s.display_name) for s in info.seats)  # (a seat handed over is renamed)
    key = (info.id, rec.version, step, names)
    boards = _BOARDS.setdefault(app, OrderedDict())
    got = boards.get(key)
    if got is None:
        view = await app.step_view(info.id, rec, step - 1)
        got = await asyncio.to_thread(svg.board, info.game, info.drawn(view))  # (the players by name)
        boards[key] = got
        while len(boards) > KEEP:
            boards.popitem(last=False)
    return got


async def reveal_since(app: App, info: GameInfo, since: int) -> dict[str, Any]:
    """What the steps after version ``since`` showed: {"since", "version", "lines",
    "results"} (lines named; results: one text per round that ended, as Discord posts)."""
    rec = await app.record(info.id)
    since = max(_clamp(rec, since), len(rec.steps) - MAX_REVEAL_STEPS)
    lines: list[str] = []
    for s in rec.steps[since:]:
        lines.extend(s.lines)
    presenter = app.presenter(info.game)
    results: list[str] = []
    for i, round_no in _round_ends(rec, since)[-2:]:  # the rounds that ended here (the last two)
        first = rec.first_step_of_round(round_no)
        if first is None:
            continue
        before = presenter.scores(await app.step_view(info.id, rec, first - 1))
        after = await app.step_view(info.id, rec, i)
        said = presenter.round_results(round_no, before, after, lambda seat: _name(info, seat))
        if said:
            results.append(said.replace("**", ""))
    over = rec.over and since < len(rec.steps)
    return {
        "since": since,
        "version": rec.version,
        "lines": text.with_player_names(lines, info),
        "results": results,
        "over": over,
    }


def _round_ends(rec: Record, since: int) -> list[tuple[int, int]]:
    """(the step after which the round was over, its number) of each round that ended at a
    step from ``since`` on: the step that began the next round, or the game's last step."""
    out = []
    for i in range(since, len(rec.steps)):
        was = _round_of(rec, i - 1)
        if isinstance(was, int) and _round_of(rec, i) != was:
            out.append((i, was))
    last = len(rec.steps) - 1
    if rec.over and last >= since and isinstance(_round_of(rec, last), int) and (not out or out[-1][0] != last):
        out.append((last, int(_round_of(rec, last))))
    return out


def _round_of(rec: Record, index: int) -> Any:
    return rec.steps[index].round if 0 <= index < len(rec.steps) else None


def _name(info: GameInfo, seat: str) -> str:
    return next((s.display_name for s in info.seats if s.seat == seat), seat)
