"""The words of a seat's legal actions: one labeller for Discord and the live table.

A turn's options are labelled by the game's presenter (``bot/games/<game>/``), the same
way wherever they are shown: the Discord prompt (:mod:`bot.cogs.play`) and the table
(:mod:`bot.table.payload`) both ask :func:`action_words`. A game that labels from the
seat's view (``Presenter.view_labels``: the engine's own labels with costs and gains)
gets its ``action_words(view)``; any other labels each whole action with what it does,
``Presenter.describe_option`` on the engine's own before/after views of it
(``App.previews``: "GPS +2 → 2/5", never the poorer "Research GPS +2").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from bot.choices import Words
from bot.games.base import Presenter


class LabelSource(Protocol):
    """What :func:`action_words` reads (a :class:`bot.app.App`)."""

    async def view(self, game_id: int, seat: str | None) -> dict[str, Any]: ...
    async def previews(
        self, game_id: int, seat: str, limit: int = 200
    ) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]: ...


class OptionWords:
    """A presenter's words, with each whole action labelled by what it does
    (``Presenter.describe_option`` on the engine's own before/after views)."""

    def __init__(self, game: Presenter, previews: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]], seat: str) -> None:
        self.game = game
        self.seat = seat
        self.previews = {json.dumps(a, sort_keys=True): (b, v) for a, b, v in previews}

    def describe_action(self, action: dict[str, Any]) -> str:
        found = self.previews.get(json.dumps(action, sort_keys=True))
        if found is None:
            return self.game.describe_action(action)
        return self.game.describe_option(action, found[0], found[1], self.seat)

    def describe_key(self, key: str) -> str:
        return self.game.describe_key(key)

    def describe_value(self, key: str, value: Any) -> str:
        return self.game.describe_value(key, value)


async def action_words(
    app: LabelSource, game: Presenter, game_id: int, seat: str, view: dict[str, Any] | None = None,
    prompt: Mapping[str, Any] | None = None,
) -> Words:
    """The words that label ``seat``'s legal actions now (see the module doc); ``view``
    is the seat's own view where the caller has it already. A secret decision that Discord
    builds step by step (``Presenter.secret_builder`` of ``prompt``: the planner) is never
    a list of options there; its actions are named by the presenter's own words."""
    if prompt is not None and game.secret_builder(prompt) is not None:
        return game
    if game.view_labels:
        return game.action_words(view if view is not None else await app.view(game_id, seat))
    return OptionWords(game, await app.previews(game_id, seat), seat)
