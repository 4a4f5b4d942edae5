"""Lobby: ``/game new``, ``/game join``, ``/game leave``, ``/game start`` and the lobby buttons."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text, views
from bot.choices import Choice
from bot.cogs import (
    VACATION,
    CommandSet,
    acknowledge,
    app_of,
    display_name,
    game_here,
    is_admin,
    place_of,
    vacation_autocomplete,
)
from bot.errors import UserError

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot
    from bot.games import Presenter
    from bot.records import GameInfo

log = logging.getLogger("boardroom.lobby")


def lobby_embed(info: GameInfo, presenter: Presenter) -> discord.Embed:
    """The lobby card: who sits where, options in words, what to do."""
    status = {"lobby": "open for players", "active": "started", "abandoned": "abandoned"}.get(info.status, info.status)
    embed = discord.Embed(title=f"{presenter.title} — game #{info.id} ({status})")
    lines = []
    for s in sorted(info.seats, key=lambda s: s.position):
        who = f"<@{s.user_id}>" if s.user_id else f"🤖 {s.display_name}"
        tag = " (host)" if s.user_id == info.host_id else ""
        lines.append(f"{s.position + 1}. {who}{tag}")
    embed.description = "\n".join(lines) or "_nobody yet_"
    shown = presenter.options_in_words(info.options, {s.seat: s.display_name for s in info.seats})
    if shown:
        embed.add_field(name="Options", value=text.clip("\n".join(shown), 1000), inline=False)
    if info.status == "lobby":
        embed.set_footer(text="Join with the button or /game join. The host (or Manage Server) adds AI and starts.")
    return embed


def ai_choices(presenter: Presenter) -> list[Choice]:
    """The Add-AI select's options: the AI players the game offers."""
    return [Choice(a.kind, a.label, a.description) for a in presenter.automata]


async def _game_name_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    app = app_of(interaction)
    out = []
    for name in app.offered_games():
        title = app.presenter(name).title
        if current.lower() in name or current.lower() in title.lower():
            out.append(app_commands.Choice(name=title, value=name))
    return out[:25]


async def _options_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Completions of ``name=value`` for the game picked in the same command."""
    app = app_of(interaction)
    game = getattr(interaction.namespace, "game", None)
    if game not in app.offered_games():
        return []
    return [app_commands.Choice(name=c.description or c.label, value=c.value) for c in app.presenter(game).option_choices(current)]


# ----------------------------------------------------------------------- commands


slash = CommandSet()  # the module's slash commands, declared above each function


@slash.game("new", "Open a lobby for a new game in this channel")
@app_commands.describe(
    game="Which game (start typing)",
    options="Game options, e.g. tech_sides=random block_size=3",
    vacation="On /away: freeze the player's deadlines (default), the AI plays for them, or no vacations",
    vacation_days="The longest vacation in this game, in days (default 14)",
)
@app_commands.autocomplete(game=_game_name_autocomplete, options=_options_autocomplete, vacation=vacation_autocomplete)
async def game_new(
    interaction: discord.Interaction[Any],
    game: app_commands.Range[str, None, 100],
    options: app_commands.Range[str, None, 1000] | None = None,
    vacation: VACATION | None = None,
    vacation_days: app_commands.Range[int, 1, 30] | None = None,
) -> None:
    await _cog(interaction).new(interaction, game, options, vacation=vacation, vacation_days=vacation_days)


@slash.game("join", "Join the game in this channel")
async def game_join(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    await _cog(interaction).join(interaction, info.id, edit_in_place=False)


@slash.game("leave", "Leave the game lobby in this channel")
async def game_leave(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    await _cog(interaction).leave(interaction, info.id, edit_in_place=False)


@slash.game("start", "Start the game in this channel (host)")
async def game_start(interaction: discord.Interaction[Any]) -> None:
    # No seed option: a seed chosen by a player would tell them the order of the
    # Improvement pile. The app draws one (tests pass seed_source).
    info = await game_here(interaction)
    await _cog(interaction).start(interaction, info.id, edit_in_place=False)


def _cog(interaction: discord.Interaction[Any]) -> Lobby:
    return interaction.client.get_cog("Lobby")  # type: ignore[attr-defined,return-value]


# ---------------------------------------------------------------------------- cog


class Lobby(commands.Cog):
    def __init__(self, bot: BoardroomBot) -> None:
        self.bot = bot

    def embed(self, info: GameInfo) -> discord.Embed:
        return lobby_embed(info, self.bot.app.presenter(info.game))

    async def new(
        self, interaction: discord.Interaction[Any], game: str, options: str | None, *,
        vacation: str | None = None, vacation_days: int | None = None,
    ) -> None:
        app = app_of(interaction)
        offered = app.offered_games()
        if game not in offered:
            titles = ", ".join(app.presenter(n).title for n in offered)
            raise UserError(f"I don't know that game. Pick one from the list: {titles}.")
        try:
            opts = app.presenter(game).parse_options(options)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        channel_id, thread_id = place_of(interaction)
        if not await acknowledge(interaction, thinking=True):  # before the game exists
            return
        info = await app_of(interaction).create_game(
            game,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            options=opts,
            join=True,
        )
        if vacation is not None or vacation_days is not None:  # the host's vacation policy (issue 36)
            await app.set_vacation_policy(info.id, interaction.user.id, policy=vacation, cap_days=vacation_days)
        msg = await interaction.edit_original_response(embed=self.embed(info), view=views.lobby_view(info.id))
        await app_of(interaction).remember_message(info.id, "lobby", msg.channel.id, msg.id)
        log.info("game %s created in %s by %s", info.id, channel_id, interaction.user.id)

    async def refresh_lobby(self, info: GameInfo) -> None:
        """Edit the remembered lobby card to match ``info``."""
        ref = await self.bot.app.message(info.id, "lobby")
        if ref is None:
            return
        msg = self.bot.get_partial_messageable(ref.channel_id).get_partial_message(ref.message_id)
        try:
            await msg.edit(embed=self.embed(info), view=views.lobby_view(info.id, open_=info.status == "lobby"))
        except discord.HTTPException as exc:
            log.warning("game %s: could not edit the lobby card (%s)", info.id, exc.status)

    async def _answer(
        self, interaction: discord.Interaction[Any], info: GameInfo, note: str, edit_in_place: bool
    ) -> None:
        """After the change (the interaction was acknowledged first): a lobby button edits the
        card it is on; a slash command answers privately and edits the remembered card."""
        if edit_in_place:  # a lobby button: the card is the message clicked
            await interaction.edit_original_response(
                embed=self.embed(info), view=views.lobby_view(info.id, open_=info.status == "lobby")
            )
            if note:
                await interaction.followup.send(note, ephemeral=True)
        else:
            await interaction.followup.send(note or "Done.", ephemeral=True)
            await self.refresh_lobby(info)

    async def _ack(self, interaction: discord.Interaction[Any], edit_in_place: bool) -> bool:
        return await acknowledge(interaction, ephemeral=not edit_in_place, thinking=not edit_in_place)

    async def join(self, interaction: discord.Interaction[Any], gid: int, *, edit_in_place: bool) -> None:
        if not await self._ack(interaction, edit_in_place):
            return
        info = await self.bot.app.join(gid, interaction.user.id, display_name(interaction.user))
        await self._answer(interaction, info, "" if edit_in_place else f"You joined game #{gid}.", edit_in_place)

    async def leave(self, interaction: discord.Interaction[Any], gid: int, *, edit_in_place: bool) -> None:
        if not await self._ack(interaction, edit_in_place):
            return
        info = await self.bot.app.leave(gid, interaction.user.id)
        note = "You left the game." + (" It had nobody left, so it is closed." if info.status == "abandoned" else "")
        await self._answer(interaction, info, "" if edit_in_place and info.status == "lobby" else note, edit_in_place)

    async def start(
        self, interaction: discord.Interaction[Any], gid: int, *, edit_in_place: bool, seed: int | None = None
    ) -> None:
        if not await self._ack(interaction, edit_in_place):
            return
        info = await self.bot.app.info(gid)
        if info.status == "lobby" and info.can_manage(interaction.user.id, is_admin(interaction)):
            seated = {s.seat: s.display_name for s in sorted(info.seats, key=lambda s: s.position)}
            problem = self.bot.app.presenter(info.game).start_problem(info.options, seated)
            if problem:  # before any thread: the lobby stays as it is
                raise UserError(problem)
        thread_first = self.can_start(info, interaction.user.id, is_admin(interaction))
        made: int | None = None  # the thread this start gave the game
        if thread_first:
            # the thread first: the start writes the game's first posts, which the
            # deliverer sends to the game's place as soon as it looks (a sweep may land
            # at any moment); made after, they would go to the channel
            before = info.thread_id
            info = await self.own_thread(interaction, info)
            made = info.thread_id if before is None else None
        try:
            out = await self.bot.app.start(gid, interaction.user.id, seed=seed, is_admin=is_admin(interaction))
        except Exception:
            if made is not None:
                await self._back_to_channel(interaction, gid, made)
            raise
        info = await self.bot.app.info(gid)
        if not thread_first:  # (the dry run failed, the start did not: a thread still)
            info = await self.own_thread(interaction, info)
        if edit_in_place:
            await interaction.edit_original_response(embed=self.embed(info), view=views.lobby_view(gid, open_=False))
        else:
            await self.refresh_lobby(info)
            await interaction.followup.send(f"Game #{gid} started.", ephemeral=True)
        play = self.bot.get_cog("Play")
        await play.publish(out)  # type: ignore[union-attr]

    def can_start(self, info: GameInfo, user_id: int, admin: bool | int) -> bool:
        """Whether the start will go through (a thread is made only for a game that starts):
        a lobby the caller manages whose seats and options the engine sets up (a dry run;
        the start itself draws the secret seed and checks everything again)."""
        if info.status != "lobby" or not info.seats or not info.can_manage(user_id, admin):
            return False
        options = {**info.options, "automata": [s.seat for s in info.seats if s.played_by_engine]}
        try:
            self.bot.app.engine(info.game).setup([s.seat for s in info.seats], 0, options)
        except Exception:  # the start will say why, in words
            return False
        return True

    async def _back_to_channel(self, interaction: discord.Interaction[Any], gid: int, thread_id: int) -> None:
        """The start failed after it gave the game a thread: the lobby goes on where its card
        is, in the channel (joins, /game start there); the next start takes the same thread
        again (:meth:`own_thread`). Nothing is changed if the game moved on meanwhile."""
        try:
            info = await self.bot.app.info(gid)
            if info.status == "lobby" and info.thread_id == thread_id:
                await self.bot.app.set_thread(gid, interaction.user.id, None, is_admin=is_admin(interaction))
        except Exception:  # the start's own error is the one the host must see
            log.exception("game %s: could not move the lobby back to the channel", gid)

    async def _thread_of_card(self, channel_id: int, message_id: int) -> int | None:
        """The thread already started from the lobby card (Discord allows one per message
        and gives it the message's id), if it is still there."""
        try:
            data = await self.bot.http.get_channel(message_id)
        except discord.HTTPException:
            return None
        if str(data.get("parent_id")) != str(channel_id) or data.get("type") not in (10, 11, 12):
            return None
        return int(data["id"])

    async def own_thread(self, interaction: discord.Interaction[Any], info: GameInfo) -> GameInfo:
        """A started game runs in its own thread, started from the lobby card, when the bot
        may create threads here (issue 7); else it stays in the channel."""
        perms = interaction.app_permissions
        if info.thread_id is not None or not (perms.create_public_threads and perms.send_messages_in_threads):
            return info
        ref = await self.bot.app.message(info.id, "lobby")
        if ref is None:
            return info
        title = self.bot.app.presenter(info.game).title
        try:
            data = await self.bot.http.start_thread_with_message(
                ref.channel_id, ref.message_id, name=text.clip(f"{title} — game #{info.id}", 100),
                auto_archive_duration=10080, rate_limit_per_user=None,
            )
            thread_id = int(data["id"])
        except discord.HTTPException as exc:
            # 160004: a start that failed (or another click) already made the card's thread
            existing = await self._thread_of_card(ref.channel_id, ref.message_id) if exc.code == 160004 else None
            if existing is None:
                log.info("game %s: no thread (%s %s); it runs in the channel", info.id, exc.status, exc.code)
                return info
            thread_id = existing
        info = await self.bot.app.set_thread(info.id, interaction.user.id, thread_id, is_admin=is_admin(interaction))
        log.info("game %s runs in thread %s", info.id, info.thread_id)
        return info

    async def on_lobby_button(self, interaction: discord.Interaction[Any], gid: int, op: str) -> None:
        if op == "join":
            await self.join(interaction, gid, edit_in_place=True)
        elif op == "leave":
            await self.leave(interaction, gid, edit_in_place=True)
        elif op == "ai":
            info = await self.bot.app.info(gid)
            if not info.can_manage(interaction.user.id, is_admin(interaction)):
                raise UserError("Only the host or a server manager can add AI players.")
            choices = ai_choices(self.bot.app.presenter(info.game))
            await interaction.response.send_message(
                "Which AI player do you add?", view=views.add_ai_view(gid, choices), ephemeral=True
            )
        elif op == "start":
            await self.start(interaction, gid, edit_in_place=True)
        else:
            raise UserError("That button is from an older version; use the slash commands.")

    async def on_add_ai(self, interaction: discord.Interaction[Any], gid: int, kind: str) -> None:
        if not await acknowledge(interaction):
            return
        info = await self.bot.app.add_ai(gid, interaction.user.id, kind, is_admin=is_admin(interaction))
        added = info.seats[-1].display_name if info.seats else kind
        await interaction.edit_original_response(content=text.sentence(f"Added {added}"), view=None)
        await self.refresh_lobby(info)


async def setup(bot: BoardroomBot) -> None:
    await bot.add_cog(Lobby(bot))
    slash.add_to(bot)


async def teardown(bot: BoardroomBot) -> None:
    slash.remove_from(bot)
