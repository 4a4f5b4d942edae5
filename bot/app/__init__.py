"""The Discord-free application layer (see :mod:`bot.app.core` for the whole API).

:class:`App` is a thin facade: it only composes the areas, each in its own module, as
the cogs are split:

- :mod:`bot.app.core`: sessions (state cache), locking, commit, AI seats, outcomes;
- :mod:`bot.app.lobby`: create, join, leave, AI seats, options, start;
- :mod:`bot.app.turns`: a player's action and the AI seats answering it;
- :mod:`bot.app.admin`: settings, quiet hours, pause/resume, abandon, takeover, reclaim;
- :mod:`bot.app.export`: export and replay;
- :mod:`bot.app.home`: the player's home across games (/games, profiles, ratings);
- :mod:`bot.app.away`: a player's vacation (/away) and each game's vacation policy;
- :mod:`bot.app.sub`: a seat handed to a substitute (/game sub);
- :mod:`bot.app.notify`: how each player is told of a turn, and the daily digest;
- :mod:`bot.app.replay`: the game's true record, step by step, as a viewer may see it
  (the engine's ``shown_action``: /game log, history, replay and the export read it);
- :mod:`bot.app.compose`: what an outcome tells Discord, as outbox rows (pure; written by
  the core in each action's own transaction).

Data flows one way: interaction -> app -> engine -> storage (+ outbox rows) -> the
deliverer renders the pictures -> message. Nothing
here imports ``discord``, a cog or a game package: a game's own words come from its
presenter (:mod:`bot.games`).
"""

from __future__ import annotations

from bot.app.admin import AdminOps
from bot.app.away import AwayOps
from bot.app.core import LIVE, AiChoose, Core, Listener, State, default_ai_choose
from bot.app.export import ExportOps, replay_export
from bot.app.home import HomeOps
from bot.app.lobby import LobbyOps
from bot.app.notify import NotifyOps
from bot.app.sub import SubOps
from bot.app.turns import TurnOps

__all__ = ["App", "AiChoose", "Core", "LIVE", "Listener", "State", "default_ai_choose", "replay_export"]


class App(LobbyOps, TurnOps, AwayOps, AdminOps, ExportOps, HomeOps, SubOps, NotifyOps):
    """The application layer: every call of the lobby, turns, admin and export areas on
    one object (constructed as :class:`bot.app.core.Core`)."""
