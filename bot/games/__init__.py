"""The games the bot offers: one presenter per game, registered here.

A game lives in three folders with one name: ``engine/<game>/`` (its rules),
``render/<game>/`` (its pictures) and ``bot/games/<game>/`` (its presenter: lobby
facts, labels, secret-decision builder, ``/rules`` topics; see
:class:`bot.games.base.Presenter`). Adding a game = those folders + one line in
``_PRESENTERS``. Nothing else in ``bot/`` imports a game package: the lobby, turns,
reminders, storage and pictures ask the presenter.

A game is offered when its presenter is registered and its engine package is built
(``engine.game_names()``); a game still being built is simply not offered.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

from bot.games.base import BOT, RANDOM, Automaton, Option, Presenter, SecretBuilder

__all__ = [
    "BOT", "RANDOM", "Automaton", "Option", "Presenter", "SecretBuilder",
    "find", "names", "presenter", "table_parts", "title",
]

# One line per game: the engine's name -> the module whose ``PRESENTER`` presents it.
# A line whose packages are not built yet is skipped (the game is not offered).
_PRESENTERS: dict[str, str] = {
    "smartphone-inc": "bot.games.smartphone_inc",
    "mobile-markets": "bot.games.mobile_markets",
    "age-of-automaton": "bot.games.age_of_automaton",
}


def _built(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def names() -> list[str]:
    """The games the lobby offers, in registry order."""
    from engine import game_names

    engines = set(game_names())
    return [name for name, module in _PRESENTERS.items() if name in engines and _built(module)]


def find(name: str) -> Presenter | None:
    """The registered presenter of ``name``, or None."""
    module = _PRESENTERS.get(name)
    if module is None or not _built(module):
        return None
    found: Presenter = importlib.import_module(module).PRESENTER
    return found


def presenter(name: str) -> Presenter:
    """The presenter of ``name``; a plain one (title from the name) if none is registered."""
    return find(name) or Presenter(name)


def title(name: str) -> str:
    return presenter(name).title


def table_parts(name: str) -> tuple[Any, Path | None]:
    """A game's parts of the live table (:mod:`bot.table`), beside its presenter: the
    module ``bot/games/<game>/table.py`` (what the table computes for it: a draft's
    preview, the printed components its drawing needs), or None, and the browser module
    ``bot/games/<game>/table.js`` that draws it, or None (the table's generic drawing)."""
    module = _PRESENTERS.get(name)
    if module is None or not _built(module):
        return None, None
    hooks = importlib.import_module(f"{module}.table") if _built(f"{module}.table") else None
    spec = importlib.util.find_spec(module)
    folder = Path(spec.origin).parent if spec is not None and spec.origin else None
    script = folder / "table.js" if folder is not None else None
    return hooks, script if script is not None and script.is_file() else None
