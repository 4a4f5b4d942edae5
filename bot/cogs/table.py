"""The live table (Discord Activity, issue 24): its HTTP server on the bot's own App,
the "Open the table" button and the ``/table`` command that launch the Activity.

The server (:class:`bot.table.server.TableServer`) starts with the bot when the table is
configured (``BOARDROOM_TABLE_PORT`` with ``DISCORD_CLIENT_ID`` and
``DISCORD_CLIENT_SECRET``, or ``create_bot(table=TableConfig(...))`` in tests) and stops
with it. It reaches Discord's OAuth2 only through discord.py's own API base
(``discord.http.Route.BASE``), so the fake Discord serves the sign-in in tests. Without a
table nothing here adds a button or a command.

Who may watch a game at the table besides its players (:func:`discord_can_see`): a member
of the game's server who can view its channel (and, for a private thread, is in it), as
discord.py's cache says, asking Discord's REST API for what the cache lacks. The table
keeps each answer a minute (:mod:`bot.table.access`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import views
from bot.cogs import make_command
from bot.errors import UserError

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot

log = logging.getLogger("boardroom.table")

# The Activity's Entry Point command ("Launch", ApplicationCommandType 4): Discord creates
# it when Activities are enabled, and refuses a bulk overwrite of the global commands
# that leaves it out (50240). discord.py's tree.sync knows no such command, so the sync
# carries the existing one over unchanged.
ENTRY_POINT = 4
ENTRY_KEYS = (
    "name", "description", "type", "handler", "integration_types", "contexts",
    "name_localizations", "description_localizations", "nsfw", "default_member_permissions",
)


def keep_entry_point(http: Any) -> None:
    """Make ``http.bulk_upsert_global_commands`` (what ``tree.sync()`` calls) keep the
    application's Entry Point command."""
    original = http.bulk_upsert_global_commands
    if getattr(original, "keeps_entry_point", False):
        return

    async def upsert(application_id: Any, payload: list[dict[str, Any]]) -> Any:
        if not any(c.get("type") == ENTRY_POINT for c in payload):
            try:
                existing = await http.get_global_commands(application_id)
            except discord.HTTPException as exc:
                log.warning("could not read the Entry Point command: %s", exc.status)
                existing = []
            kept = [{k: c[k] for k in ENTRY_KEYS if k in c} for c in existing if c.get("type") == ENTRY_POINT]
            payload = [*payload, *kept]
        return await original(application_id, payload)

    upsert.keeps_entry_point = True  # type: ignore[attr-defined]
    http.bulk_upsert_global_commands = upsert


async def discord_can_see(bot: commands.Bot, user_id: int, guild_id: int | None, place_id: int) -> bool:
    """Whether ``user_id`` is a member of ``guild_id`` who can view the channel or thread
    ``place_id`` (a private thread: one of its members, or a thread moderator). Discord's
    "not found" is a no; any other failure raises (the table then answers no, uncached)."""
    if guild_id is None:
        return False
    guild = bot.get_guild(guild_id)
    if guild is None:  # the bot is not in that server (any more)
        return False
    member = guild.get_member(user_id)
    place: Any = guild.get_channel_or_thread(place_id)
    try:
        if member is None:
            member = await guild.fetch_member(user_id)
        if place is None:
            place = await guild.fetch_channel(place_id)
    except (discord.NotFound, discord.Forbidden):
        return False
    if getattr(place, "guild", guild).id != guild.id:
        return False
    perms = place.permissions_for(member)
    if not perms.view_channel:
        return False
    if isinstance(place, discord.Thread) and place.is_private() and not perms.manage_threads:
        if place.get_member(user_id) is not None:
            return True
        try:
            await place.fetch_member(user_id)
        except (discord.NotFound, discord.Forbidden):
            return False
    return True


async def launch(interaction: discord.Interaction[Any]) -> None:
    """Answer with LAUNCH_ACTIVITY: Discord opens the table in this channel."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        log.warning("could not launch the table: %s", exc.status)
        raise UserError("The table could not be opened here (the Activity may not be enabled for this app).") from None


async def table_command(interaction: discord.Interaction[Any]) -> None:
    await launch(interaction)


class Table(commands.Cog):
    def __init__(self, bot: BoardroomBot, config: Any) -> None:
        self.bot = bot
        self.config = config
        self.server: Any = None

    async def cog_load(self) -> None:
        from bot.table.server import TableServer

        async def after_move(out: Any) -> None:
            play = self.bot.get_cog("Play")
            if play is not None:
                await play.publish(out)  # type: ignore[attr-defined]

        async def can_see(user_id: int, guild_id: int | None, place_id: int) -> bool:
            return await discord_can_see(self.bot, user_id, guild_id, place_id)

        self.server = TableServer(
            self.bot.app, self.config, api_base=lambda: str(discord.http.Route.BASE), after_move=after_move,
            can_see=can_see,
        )
        await self.server.start()
        views.TABLE["on"] = True
        keep_entry_point(self.bot.http)

    async def cog_unload(self) -> None:
        views.TABLE["on"] = False
        if self.server is not None:
            await self.server.stop()

    async def open_table(self, interaction: discord.Interaction[Any], gid: int) -> None:
        await launch(interaction)


async def setup(bot: BoardroomBot) -> None:
    config = getattr(bot, "table_config", None)
    if config is None:
        return
    await bot.add_cog(Table(bot, config))
    bot.tree.add_command(make_command("table", "Open the live table of the game here (drag and drop)", table_command))


async def teardown(bot: BoardroomBot) -> None:
    bot.tree.remove_command("table")
