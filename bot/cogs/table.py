"""The live table (Discord Activity, issue 24): its HTTP server on the bot's own App,
the "Open the table" button and the ``/table`` command that launch the Activity.

The server (:class:`bot.table.server.TableServer`) starts with the bot when the table is
configured (``BOARDROOM_TABLE_PORT`` with ``DISCORD_CLIENT_ID`` and
``DISCORD_CLIENT_SECRET``, or ``create_bot(table=TableConfig(...))`` in tests) and stops
with it. It reaches Discord's OAuth2 only through discord.py's own API base
(``discord.http.Route.BASE``), so the fake Discord serves the sign-in in tests. Without a
table nothing here adds a button or a command.
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

        self.server = TableServer(
            self.bot.app, self.config, api_base=lambda: str(discord.http.Route.BASE), after_move=after_move
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
