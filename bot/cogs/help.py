"""Help: ``/help`` and ``/rules [topic]`` (the current phase's rules by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs import CommandSet, app_of

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot


async def _current(interaction: discord.Interaction[Any]) -> tuple[str, str | None, int | None]:
    """(game name, phase, rules version) of the game in this channel, else the first
    game offered without a phase or rules version."""
    app = app_of(interaction)
    first = next(iter(app.offered_games()), "")
    if interaction.guild_id is None:
        return first, None, None
    info = await app.game_in_channel(int(interaction.channel_id or 0))
    if info is None:
        return first, None, None
    if info.status not in ("active", "paused"):
        return info.game, None, info.rules
    view = await app_of(interaction).view(info.id, None)
    return info.game, view.get("phase"), info.rules


async def _topic_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    game, _phase, _rules = await _current(interaction)
    topics = app_of(interaction).presenter(game).rules_topics() if game else []
    return [app_commands.Choice(name=t, value=t) for t in topics if current.lower() in t][:25]


slash = CommandSet()  # the module's slash commands, declared above each function


@slash.top("rules", "The rules in short (the current phase by default)")
@app_commands.describe(topic="A rules topic; without one, the current phase of the game here")
@app_commands.autocomplete(topic=_topic_autocomplete)
async def rules_command(
    interaction: discord.Interaction[Any], topic: app_commands.Range[str, None, 100] | None = None
) -> None:
    game, phase, rules = await _current(interaction)
    words = app_of(interaction).presenter(game).rules_text(topic, phase, rules) if game else "No game is offered here yet."
    await interaction.response.send_message(text.clip(words, 2000), ephemeral=True)


@slash.top("help", "How to play with this bot")
async def help_command(interaction: discord.Interaction[Any]) -> None:
    app = app_of(interaction)
    games = ", ".join(app.presenter(n).title for n in app.offered_games())
    await interaction.response.send_message(text.clip(text.HELP + f"\nGames: {games}.", 2000), ephemeral=True)


class Help(commands.Cog):
    def __init__(self, bot: BoardroomBot) -> None:
        self.bot = bot


async def setup(bot: BoardroomBot) -> None:
    await bot.add_cog(Help(bot))
    slash.add_to(bot)


async def teardown(bot: BoardroomBot) -> None:
    slash.remove_from(bot)
