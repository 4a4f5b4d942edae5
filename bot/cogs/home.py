"""The player's home across games (issue 36): ``/games``, ``/profile``, ``/leaderboard``.

Thin glue: each command asks :class:`bot.app.home.HomeOps` and shows the answer
privately. ``/games`` and ``/profile`` work in a server and in a DM with the bot.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import errors
from bot.app.away import AwayGame
from bot.app.home import GameRecord, HomeGame
from bot.cogs import (
    NOTIFY,
    acknowledge,
    app_of,
    bot_of,
    display_name,
    game_here,
    is_admin,
    make_command,
    notify_autocomplete,
)
from bot.errors import UserError
from bot.views import OPEN_LABEL, OpenButton

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
GUILD_ONLY = app_commands.AppCommandContext(guild=True)
GUILD_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
log = logging.getLogger("boardroom.home")
TICK = 60.0  # seconds between looks at the vacations and digests due
BUTTONS = 25  # components a message holds
DESCRIPTION = 4000  # an embed's description (4,096) with room to spare
NO_MENTIONS = discord.AllowedMentions.none()


class Home(commands.Cog):
    def __init__(self, bot: BoardroomBot) -> None:
        self.bot = bot
        self.rebuild: asyncio.Task[int] | None = None  # the ratings of games finished before 0009

    async def cog_load(self) -> None:
        self.ticker.start()

    async def cog_unload(self) -> None:
        self.ticker.cancel()
        if self.rebuild is not None and not self.rebuild.done():
            self.rebuild.cancel()

    async def rebuild_ratings(self) -> int:
        try:
            return int(await self.bot.app.rebuild_ratings())
        except Exception:
            log.exception("rating the games finished before the ratings failed; the next start goes on")
            return 0

    @tasks.loop(seconds=TICK)
    async def ticker(self) -> None:
        try:
            await self.tick()
        except Exception:
            log.exception("the home's minute (vacations, digests) failed; the next one tries again")

    async def tick(self) -> None:
        """What is due now: vacations over (the players told by DM), daily digests."""
        app = self.bot.app
        if app is None:
            return
        for ended in await app.end_vacations():
            await app.queue(ended.game_id, [("dm", str(ended.user_id), {"content": ended.text}, False)])
            self.kick(ended.game_id, *ended.games)
        self.kick(*{d.game_id for d in await app.send_digests()})

    def kick(self, *game_ids: int) -> None:
        """Wake the deliverer up for what the app wrote for these games."""
        delivery = getattr(self.bot, "delivery", None)
        if delivery is not None:
            for gid in game_ids:
                delivery.kick(gid)


def server_name(bot: Any, guild_id: int | None) -> str:
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    return guild.name if guild is not None else "another server"


def game_line(bot: Any, g: HomeGame) -> str:
    bits = [f"**#{g.id} {g.title}**", server_name(bot, g.guild_id), f"<#{g.thread_id or g.channel_id}>"]
    if g.status == "lobby":
        bits.append("in the lobby")
    elif g.round is not None or g.phase is not None:
        bits.append(", ".join(b for b in (f"round {g.round}" if g.round else None, g.phase) if b))
    if g.status == "finished":
        bits.append(f"finished: {g.result}")
    elif g.status == "paused":
        bits.append("paused")
    elif g.mine:
        bits.append("⏳ **your move**")
    elif g.movers:
        bits.append("waiting for " + ", ".join(g.movers))
    if g.deadline is not None and g.status == "active":
        bits.append(f"AI takes over <t:{int(g.deadline)}:R>")
    if g.away_until is not None:
        bits.append(f"away until <t:{int(g.away_until)}:D>")
    bits.append(f"[open]({g.link})")
    return " · ".join(bits)


def games_message(bot: Any, games: list[HomeGame]) -> tuple[list[discord.Embed], discord.ui.View]:
    """The embeds of ``/games`` (a new one when the text fills one) and a button per game
    waiting on the asker (the first 25; the others open with ``/plan game:``)."""
    sections = (
        ("Waiting on you", [g for g in games if g.mine]),
        ("Running", [g for g in games if not g.mine and g.status != "finished"]),
        ("Finished in the last 7 days", [g for g in games if g.status == "finished"]),
    )
    embeds: list[discord.Embed] = []
    text = ""
    for head, rows in sections:
        if not rows:
            continue
        for line in [f"__{head}__", *(game_line(bot, g) for g in rows)]:
            if len(text) + len(line) + 1 > DESCRIPTION:
                embeds.append(discord.Embed(description=text))
                text = ""
            text += line + "\n"
    embeds.append(discord.Embed(description=text))
    embeds[0].title = "Your games"
    view = discord.ui.View(timeout=None)
    for g in [g for g in games if g.mine][:BUTTONS]:
        button = OpenButton(g.id)
        button.item.label = f"{OPEN_LABEL}: #{g.id}"
        view.add_item(button)
    return embeds[:10], view


@app_commands.autocomplete(notify=notify_autocomplete)
@app_commands.describe(
    notify="How you are told of a turn, in all your games: mention, dm, both, or a daily digest",
    digest_hour="The hour of your daily digest, 0-23 (your time zone)",
    timezone="Your time zone, e.g. Europe/Paris (the digest's hour, quiet hours)",
)
async def games_command(
    interaction: discord.Interaction[Any], notify: NOTIFY | None = None,
    digest_hour: app_commands.Range[int, 0, 23] | None = None, timezone: app_commands.Range[str, None, 64] | None = None,
) -> None:
    app = app_of(interaction)
    note = ""
    if notify is not None or digest_hour is not None or timezone is not None:
        note = "You are told of your turns by " + await app.set_notify(
            interaction.user.id, notify, digest_hour=digest_hour, tz=timezone) + "."
    games = await app.home_games(interaction.user.id)
    if not games:
        raise UserError((note + "\n" if note else "")
                        + "You are not in any game: open one with `/game new`, or join a lobby with its **Join** button.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    embeds, view = games_message(bot_of(interaction), games)
    await interaction.followup.send(note or None, embeds=embeds, view=view, ephemeral=True)


# ------------------------------------------------------------------------ profile


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def record_text(r: GameRecord) -> str:
    lines = [f"played {r.played}, finished {r.finished}, won {r.won}"]
    if r.average_place is not None:
        lines.append(f"average place {r.average_place:.2f}")
    if r.median_move is not None:
        lines.append(f"median time to move {duration(r.median_move)}")
    if r.deadlines_met is not None:
        lines.append(f"deadlines met {r.deadlines_met:.0%}")
    lines.append(f"rating **{r.rating:.1f}** ({r.rated} rated)" if r.rating is not None else "not rated yet")
    return "\n".join(lines)


@app_commands.describe(user="Whose profile (yours if left out)", hidden="Hide your own profile and keep off leaderboards")
async def profile_command(
    interaction: discord.Interaction[Any], user: discord.User | None = None, hidden: bool | None = None
) -> None:
    app = app_of(interaction)
    who = user or interaction.user
    if hidden is not None:
        if user is not None and user.id != interaction.user.id:
            raise UserError("You can hide only your own profile.")
        await app.set_hidden(interaction.user.id, hidden)
    if who.bot:
        raise UserError(f"{who.display_name} is a bot: bots have no profile.")
    records = await app.profile(who.id, interaction.user.id)
    name = getattr(who, "display_name", None) or who.name
    note = ""
    if hidden is not None:
        note = "Your profile is hidden now: only you see it, and you are on no leaderboard." if hidden else (
            "Your profile is visible again.")
    if not records:
        await interaction.response.send_message(
            (note + "\n" if note else "") + f"{name} has not played a game yet.", ephemeral=True
        )
        return
    embed = discord.Embed(title=f"{name}'s profile")
    for r in records[:25]:
        embed.add_field(name=r.title, value=record_text(r), inline=False)
    embed.set_footer(text="Rating: OpenSkill, conservative (mu - 3 sigma), from finished games.")
    await interaction.response.send_message(note or None, embed=embed, ephemeral=True)


async def _game_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    app = app_of(interaction)
    out = [app_commands.Choice(name=app.presenter(n).title, value=n) for n in app.offered_games()]
    return [c for c in out if current.lower() in c.name.lower() or current.lower() in c.value][:25]


@app_commands.describe(game="Which game (this channel's by default)")
@app_commands.autocomplete(game=_game_choices)
async def leaderboard_command(
    interaction: discord.Interaction[Any], game: app_commands.Range[str, None, 40] | None = None
) -> None:
    app = app_of(interaction)
    guild = interaction.guild
    if guild is None:
        raise UserError("Use `/leaderboard` in a server: it ranks that server's members.")
    if game is None:
        here = await app.game_in_channel(int(interaction.channel_id or 0))
        game = here.game if here is not None else app.offered_games()[0]
    elif game not in app.offered_games():
        raise UserError("Pick a game from the list.")
    board = await app.leaderboard(game, guild_id=guild.id)  # the players of this server's games
    lines = [f"{i}. <@{u}>: **{r:.1f}** ({n} rated games)" for i, (u, r, n) in enumerate(board[:25], 1)]
    embed = discord.Embed(title=f"{app.presenter(game).title}: leaderboard", description="\n".join(lines))
    embed.set_footer(text="Members with 3 or more rated games; rating = mu - 3 sigma (OpenSkill).")
    await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_MENTIONS)


async def _seat_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    info = await app_of(interaction).game_in_channel(int(interaction.channel_id or 0))
    seats = [s for s in (info.seats if info else ()) if not s.played_by_engine]
    return [app_commands.Choice(name=s.display_name[:100], value=s.seat) for s in seats
            if current.lower() in s.display_name.lower()][:25]


# ------------------------------------------------------------------------ away


def away_game_line(g: AwayGame) -> str:
    if g.mode == "none":
        return f"• #{g.game_id} {g.title}: vacations are not allowed in this game; your deadlines run as usual."
    what = "the AI plays for you" if g.mode == "ai" else "your deadlines are frozen"
    return f"• #{g.game_id} {g.title}: {what} until <t:{int(g.ends_at or 0)}:D>."


@app_commands.describe(days="Days away, 1 to 30; 0 ends your vacation now")
async def away_command(interaction: discord.Interaction[Any], days: app_commands.Range[int, 0, 30]) -> None:
    app = app_of(interaction)
    cog = interaction.client.get_cog("Home")  # type: ignore[attr-defined]
    if days == 0:
        ended = await app.come_back(interaction.user.id)
        text = "\n".join(e.text for e in ended) or "Your vacation is over: your seats are yours again."
        if cog is not None:
            cog.kick(*(g for e in ended for g in e.games))
        await interaction.response.send_message(text, ephemeral=True)
        return
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    until, games = await app.go_away(interaction.user.id, days)
    lines = [f"🏖️ You are away until <t:{int(until)}:f>. `/away days:0` ends it early."]
    lines += [away_game_line(g) for g in games] or ["You play no running game now: nothing to hold."]
    if cog is not None:
        cog.kick(*(g.game_id for g in games))
    await interaction.followup.send("\n".join(lines), ephemeral=True)


# ------------------------------------------------------------------------ substitute


class SubButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"bh:sub:(?P<gid>\d+):(?P<holder>\d+):(?P<new>\d+):(?P<seat>[^:]{1,40})",
):
    """"Take the seat": only the member it was offered to. ``holder`` 0: the AI held it.
    (Not a ``br:`` id: those are :mod:`bot.views`' own, answered there when stray.)"""

    def __init__(self, gid: int, holder: int, new: int, seat: str) -> None:
        self.gid, self.holder, self.new, self.seat = gid, holder, new, seat
        super().__init__(discord.ui.Button(
            label="Take the seat", emoji="🔁", style=discord.ButtonStyle.success,
            custom_id=f"bh:sub:{gid}:{holder}:{new}:{seat}",
        ))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: Any
    ) -> SubButton:
        return cls(int(match["gid"]), int(match["holder"]), int(match["new"]), match["seat"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await take_seat(interaction, self)
        except Exception as exc:  # noqa: BLE001 - the one error handler decides
            await errors.handle(interaction, exc)


async def take_seat(interaction: discord.Interaction[Any], offer: SubButton) -> None:
    if interaction.user.id != offer.new:
        raise UserError("This seat is offered to someone else.")
    app = app_of(interaction)
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    out = await app.take_seat(offer.gid, offer.seat, offer.holder or None, interaction.user.id, display_name(interaction.user))
    cog = interaction.client.get_cog("Home")  # type: ignore[attr-defined]
    if cog is not None:
        cog.kick(offer.gid)
    info = await app.info(offer.gid)
    if interaction.message is not None:
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            pass  # the offer stays; a second click is refused by the app
    turn = " It is your move: use **Open my turn** or `/plan`." if offer.seat in out.pending else ""
    await interaction.followup.send(
        f"🔁 The seat is yours in game #{info.id}: its private view comes to you from now on.{turn}", ephemeral=True
    )


@app_commands.describe(user="The member who takes the seat", seat="Which seat (yours if left out; the host may name any)")
@app_commands.autocomplete(seat=_seat_choices)
async def game_sub(
    interaction: discord.Interaction[Any], user: discord.User, seat: app_commands.Range[str, None, 40] | None = None
) -> None:
    info = await game_here(interaction)
    if user.bot:
        raise UserError(f"{display_name(user)} is a bot: a seat goes to a member (the AI seats come from the lobby).")
    if interaction.guild_id is None or not isinstance(user, discord.Member):  # (Discord resolves members)
        raise UserError(f"{display_name(user)} is not a member of this server.")
    target = await app_of(interaction).check_sub(info.id, interaction.user.id, seat, user.id, is_admin=is_admin(interaction))
    view = discord.ui.View(timeout=None)
    view.add_item(SubButton(info.id, target.user_id or 0, user.id, target.seat))
    await interaction.response.send_message(
        f"🔁 <@{user.id}>, you are offered **{target.display_name}**'s seat in game #{info.id}."
        " Press the button to take it: you play it from the next move on.",
        view=view, allowed_mentions=discord.AllowedMentions(users=[user]),
    )


# ------------------------------------------------------------------------ setup

COMMANDS = (
    ("games", "Every game you play, on every server: whose move, deadlines, links", games_command, True),
    ("profile", "Your record and rating per game (or another player's)", profile_command, True),
    ("leaderboard", "This server's best players of a game", leaderboard_command, False),
    ("away", "A vacation from all your games (days:0 ends it)", away_command, True),
)


async def setup(bot: BoardroomBot) -> None:
    await bot.add_cog(Home(bot))
    for name, description, callback, everywhere in COMMANDS:
        command = make_command(name, description, callback)
        if everywhere:
            command.allowed_contexts = EVERYWHERE
            command.allowed_installs = GUILD_INSTALL
        else:
            command.allowed_contexts = GUILD_ONLY
        bot.tree.add_command(command)
    bot.game_group.add_command(make_command("sub", "Hand a seat to another member (host, or your own seat)", game_sub))
    bot.add_dynamic_items(SubButton)
    cog = bot.get_cog("Home")
    if bot.app is not None and isinstance(cog, Home):  # once, after migration 0009: in the background
        cog.rebuild = asyncio.get_running_loop().create_task(cog.rebuild_ratings(), name="boardroom-ratings")


async def teardown(bot: BoardroomBot) -> None:
    for name, *_ in COMMANDS:
        bot.tree.remove_command(name)
    bot.game_group.remove_command("sub")
    bot.remove_dynamic_items(SubButton)
