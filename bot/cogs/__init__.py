"""The cogs, one per area: ``lobby``, ``play``, ``admin``, ``help``.

Each extension module has ``async def setup(bot)``. Slash commands are plain
module-level functions turned into fresh ``app_commands.Command`` objects per
bot (so two bots in one process, as in the restart tests, share nothing); the
``/game`` subcommands from several cogs go into the bot's one ``game_group``.

This module holds the few helpers the cogs share.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.errors import Denied, UserError

if TYPE_CHECKING:
    from bot.app import App
    from bot.discord_bot import BoardroomBot
    from bot.records import GameInfo


log = logging.getLogger("boardroom.cogs")
F = TypeVar("F", bound=Callable[..., Any])

# a game's vacation policy (bot.app.away), an option of /game new and /game settings, and
# how a player is told of a turn (bot.app.notify), of /games and /game settings: words
# offered by autocomplete, checked by the app (a string option has a max_length)
VACATION = app_commands.Range[str, None, 10]
NOTIFY = app_commands.Range[str, None, 10]
VACATION_CHOICES = {"freeze": "freeze the away player's deadlines", "ai": "the AI plays for the away player",
                    "none": "no vacations in this game"}
NOTIFY_CHOICES = {"mention": "a mention in the channel", "dm": "a DM for every turn", "both": "a mention and a DM",
                  "digest": "one DM a day (digest_hour)"}


async def vacation_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{k}: {v}", value=k) for k, v in VACATION_CHOICES.items() if current.lower() in k]


async def notify_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{k}: {v}", value=k) for k, v in NOTIFY_CHOICES.items() if current.lower() in k]

# Discord refused the acknowledgement: 10062 (later than 3 s, or unknown), 40060 (already
# acknowledged: a click the gateway replayed after a RESUME)
ACK_REFUSED = (10062, 40060)


async def acknowledge(interaction: discord.Interaction[Any], *, ephemeral: bool = False, thinking: bool = False) -> bool:
    """Acknowledge (defer) ``interaction`` before anything changes (issue 8 §2). False when
    Discord refused it (too late, or already acknowledged): then do nothing, the user sees
    "This interaction failed" and nothing changed; logged at INFO, not as an error."""
    if interaction.response.is_done():
        return True
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except discord.HTTPException as exc:
        if exc.code in ACK_REFUSED:
            log.info("interaction %s: acknowledgement refused (%s); nothing done", interaction.id, exc.code)
            return False
        raise
    return True


async def answer(interaction: discord.Interaction[Any], content: str, **kw: Any) -> None:
    """The follow-up of an acknowledged interaction (its "thinking" reply or a new one)."""
    await interaction.followup.send(content, **kw)


def bot_of(interaction: discord.Interaction[Any]) -> BoardroomBot:
    return interaction.client  # type: ignore[return-value]


def app_of(interaction: discord.Interaction[Any]) -> App:
    return bot_of(interaction).app


def is_admin(interaction: discord.Interaction[Any]) -> int | bool:
    """The id of the guild the interaction comes from if the member has Manage Server (or
    Administrator) there, else False. The app accepts it only for that guild's games."""
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    return int(interaction.guild_id) if (perms.manage_guild or perms.administrator) else False


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def place_of(interaction: discord.Interaction[Any]) -> tuple[int, int | None]:
    """(channel id, thread id or None) of where the interaction happened."""
    ch = interaction.channel
    if isinstance(ch, discord.Thread) and ch.parent_id:
        return ch.parent_id, ch.id
    return int(interaction.channel_id or 0), None


async def game_here(interaction: discord.Interaction[Any]) -> GameInfo:
    """The live game of this channel or thread (UserError if none)."""
    if interaction.guild_id is None:
        raise UserError("Use this in the channel of a game.")
    info = await app_of(interaction).game_in_channel(int(interaction.channel_id or 0))
    if info is None:
        raise UserError("There is no game in this channel. Start one with `/game new`.")
    return info


def seat_owner(info: GameInfo, seat: str, user_id: int) -> None:
    """Only the seated player acts for their seat."""
    s = info.seat_named(seat)
    if s is None:
        raise Denied("That seat is not in this game any more.")
    if s.user_id != user_id:
        raise Denied(f"These controls belong to {s.display_name}; only they can use them.")


def make_command(name: str, description: str, callback: Any) -> app_commands.Command[Any, ..., Any]:
    """A fresh Command from a module-level (decorated) function."""
    return app_commands.Command(name=name, description=description, callback=callback)


class CommandSet:
    """A cog module's slash commands, each declared by a decorator above its function:
    ``@commands.top(name, description)`` for a top-level command, ``@commands.game(...)``
    for a ``/game`` subcommand. ``add_to`` gives one bot fresh Command objects of them
    all; ``remove_from`` takes them off again (the extension's teardown)."""

    def __init__(self) -> None:
        self.tops: list[tuple[str, str, Any]] = []
        self.games: list[tuple[str, str, Any]] = []

    def top(self, name: str, description: str) -> Callable[[F], F]:
        return self._declare(self.tops, name, description)

    def game(self, name: str, description: str) -> Callable[[F], F]:
        return self._declare(self.games, name, description)

    @staticmethod
    def _declare(into: list[tuple[str, str, Any]], name: str, description: str) -> Callable[[F], F]:
        def declare(callback: F) -> F:
            into.append((name, description, callback))
            return callback

        return declare

    def add_to(self, bot: BoardroomBot) -> None:
        for name, description, callback in self.tops:
            bot.tree.add_command(make_command(name, description, callback))
        for name, description, callback in self.games:
            bot.game_group.add_command(make_command(name, description, callback))

    def remove_from(self, bot: BoardroomBot) -> None:
        for name, _description, _callback in self.tops:
            bot.tree.remove_command(name)
        for name, _description, _callback in self.games:
            bot.game_group.remove_command(name)


async def game_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The user's live games, for commands that take a game id."""
    app = app_of(interaction)
    out = []
    for g in await app.games_of_user(interaction.user.id):
        label = f"#{g.id} {app.presenter(g.game).title} ({g.status})"
        if current.strip().lstrip("#") in str(g.id) or current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=str(g.id)))
    return out[:25]
