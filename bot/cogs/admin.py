"""Admin: ``/game settings``, ``/game pause``, ``/game resume``, ``/game abandon``,
``/game kick``, ``/game reclaim``.

Only the host or a member with Manage Server changes settings, pauses,
abandons a game or kicks a seat (the app checks it with ``is_admin`` from Discord's
permissions). Quiet hours are each player's own, for all their games.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text, views
from bot.cogs import (
    NOTIFY,
    VACATION,
    CommandSet,
    acknowledge,
    app_of,
    game_autocomplete,
    game_here,
    is_admin,
    notify_autocomplete,
    place_of,
    vacation_autocomplete,
)
from bot.errors import Denied, UserError
from bot.records import GameInfo

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot

log = logging.getLogger("boardroom.admin")


slash = CommandSet()  # the module's slash commands, declared above each function


@slash.game("settings", "Reminders, AI takeover, your quiet hours")
@app_commands.autocomplete(vacation=vacation_autocomplete, notify=notify_autocomplete)
@app_commands.describe(
    remind_hours="Hours before the first reminder to a player who holds the game up",
    repeat_hours="Hours between further reminders",
    takeover="Let the AI play for a player who does not move in time",
    takeover_hours="Hours before the AI takes over",
    quiet_start="Your quiet hours start, e.g. 22:00 (no reminders then; all your games)",
    quiet_end="Your quiet hours end, e.g. 07:30",
    timezone="Your time zone for quiet hours, e.g. Europe/Paris",
    clear_quiet="Remove your quiet hours",
    dm_every_turn="Send me a DM for every turn of mine in this game (off: only turns inside a phase and planning)",
    vacation="On /away: freeze the player's deadlines, the AI plays for them, or no vacations (host)",
    vacation_days="The longest vacation in this game, in days (host)",
    notify="How you are told of a turn, in all your games: mention, dm, both, or a daily digest",
    digest_hour="The hour of your daily digest, 0-23 (in your time zone)",
)
async def game_settings(
    interaction: discord.Interaction[Any],
    remind_hours: app_commands.Range[float, 0.05, 1440.0] | None = None,
    repeat_hours: app_commands.Range[float, 0.05, 1440.0] | None = None,
    takeover: bool | None = None,
    takeover_hours: app_commands.Range[float, 0.05, 1440.0] | None = None,
    quiet_start: app_commands.Range[str, None, 20] | None = None,
    quiet_end: app_commands.Range[str, None, 20] | None = None,
    timezone: app_commands.Range[str, None, 64] | None = None,
    clear_quiet: bool = False,
    dm_every_turn: bool | None = None,
    vacation: VACATION | None = None,
    vacation_days: app_commands.Range[int, 1, 30] | None = None,
    notify: NOTIFY | None = None,
    digest_hour: app_commands.Range[int, 0, 23] | None = None,
) -> None:
    app = app_of(interaction)
    info = await game_here(interaction)
    notes: list[str] = []
    if (vacation is not None or vacation_days is not None) and not info.can_manage(interaction.user.id, is_admin(interaction)):
        raise Denied("Only the host or a member with Manage Server can change the game's vacation policy.")
    game_changes = {
        "remind_after_hours": remind_hours,
        "repeat_hours": repeat_hours,
        "takeover": takeover,
        "takeover_after_hours": takeover_hours,
    }
    changing = any(v is not None for v in game_changes.values())
    if changing and not info.can_manage(interaction.user.id, is_admin(interaction)):
        raise Denied("Only the host or a member with Manage Server can change the game's settings.")
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    if changing:
        info = await app.update_settings(info.id, interaction.user.id, is_admin=is_admin(interaction), **game_changes)
        notes.append("Game settings saved.")
    if clear_quiet:
        await app.set_quiet_hours(interaction.user.id, None, None)
        notes.append("Your quiet hours are removed.")
    elif quiet_start or quiet_end:
        if not (quiet_start and quiet_end):
            raise UserError("Give both quiet_start and quiet_end (like 22:00 and 07:30).")
        await app.set_quiet_hours(interaction.user.id, quiet_start, quiet_end, timezone or "UTC")
        notes.append(f"Your quiet hours: {quiet_start}–{quiet_end} ({timezone or 'UTC'}), for all your games.")
    if vacation is not None or vacation_days is not None:
        await app.set_vacation_policy(
            info.id, interaction.user.id, policy=vacation, cap_days=vacation_days, is_admin=is_admin(interaction)
        )
        notes.append("Vacation policy saved.")
    if notify is not None or digest_hour is not None:
        notes.append("In all your games you are told of your turns by " + await app.set_notify(
            interaction.user.id, notify, digest_hour=digest_hour, tz=timezone if not (quiet_start or quiet_end) else None) + ".")
    if dm_every_turn is not None:
        await app.set_dm_every_turn(info.id, interaction.user.id, dm_every_turn)
        notes.append(
            "I send you a DM for every turn of yours in this game." if dm_every_turn
            else "I send you a DM only for turns inside a phase and for your planner."
        )
    st = info.settings
    lines = notes + [
        f"**Game #{info.id} settings**",
        f"First reminder after {text.hours(st.remind_after_hours)}, then every {text.hours(st.repeat_hours)}.",
        f"AI takeover: {'on, after ' + text.hours(st.takeover_after_hours) if st.takeover else 'off'}.",
        vacation_line(*await app.vacation_policy(info.id)),
    ]
    if info.seat_of(interaction.user.id) is not None:
        every = await app.dm_every_turn(info.id, interaction.user.id)
        lines.append(
            "Your DMs: every turn of yours." if every
            else "Your DMs: turns inside a phase and your planner (this command can turn on a DM for every turn)."
        )
    await interaction.followup.send("\n".join(lines), ephemeral=True)


def vacation_line(policy: str, cap_days: int) -> str:
    if policy == "none":
        return "Vacations (`/away`): not allowed in this game."
    what = "the AI plays for the away player" if policy == "ai" else "the away player's deadlines are frozen"
    return f"Vacations (`/away`): {what}, for at most {cap_days} days."


def _may_manage(interaction: discord.Interaction[Any], info: GameInfo) -> None:
    if not info.can_manage(interaction.user.id, is_admin(interaction)):
        raise Denied("Only the host or a member with Manage Server can do that.")


@slash.game("pause", "Pause the game (host or Manage Server)")
async def game_pause(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    _may_manage(interaction, info)  # refused privately, before the public acknowledgement
    if not await acknowledge(interaction, thinking=True):
        return
    info = await app_of(interaction).pause(info.id, interaction.user.id, is_admin=is_admin(interaction))
    await interaction.followup.send(
        f"⏸️ Game #{info.id} is paused by {interaction.user.mention}; no reminders until `/game resume`."
    )


@slash.game("resume", "Resume a paused game (host or Manage Server)")
async def game_resume(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    _may_manage(interaction, info)
    if not await acknowledge(interaction, thinking=True):
        return
    out = await app_of(interaction).resume(info.id, interaction.user.id, is_admin=is_admin(interaction))
    await interaction.followup.send(f"▶️ Game #{info.id} goes on.")
    play = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    await play.publish(out)


@slash.game("abandon", "End the game for everyone (host or Manage Server)")
async def game_abandon(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    if not info.can_manage(interaction.user.id, is_admin(interaction)):
        raise Denied("Only the host or a member with Manage Server can abandon the game.")
    await interaction.response.send_message(
        f"Abandon game #{info.id} for everyone? This cannot be undone.",
        view=views.abandon_view(info.id),
        ephemeral=True,
    )


def kickable(info: GameInfo) -> list[tuple[str, str]]:
    """(seat, label) of the seats ``/game kick`` can take: in the lobby every seat but
    the host's; in a running game the human seats the AI does not play yet."""
    out = []
    for s in sorted(info.seats, key=lambda s: s.position):
        if info.status == "lobby":
            if s.user_id is not None and s.user_id == info.host_id:
                continue
        elif info.status in ("active", "paused"):
            if not s.is_human or s.ai_takeover:
                continue
        else:
            continue
        kind = "" if s.is_human else " (AI)"
        out.append((s.seat, f"{s.display_name}{kind} — seat {s.seat}"))
    return out


async def _seat_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    info = await app_of(interaction).game_in_channel(int(interaction.channel_id or 0))
    if info is None:
        return []
    needle = current.lower().strip()
    return [
        app_commands.Choice(name=label[:100], value=seat)
        for seat, label in kickable(info)
        if needle in label.lower()
    ][:25]


@slash.game("kick", "Remove a seat, or hand it to the AI (host or Manage Server)")
@app_commands.describe(seat="The seat to remove (lobby) or to hand to the AI (running game)")
@app_commands.autocomplete(seat=_seat_autocomplete)
async def game_kick(interaction: discord.Interaction[Any], seat: app_commands.Range[str, None, 100]) -> None:
    """Lobby: the seat leaves the game. Running game: the AI plays the seat from now on
    (the player can take it back with ``/game reclaim``)."""
    app = app_of(interaction)
    info = await game_here(interaction)
    admin = is_admin(interaction)
    if not info.can_manage(interaction.user.id, admin):
        raise Denied("Only the host or a member with Manage Server can kick a seat.")
    target = info.seat_named(seat) or next(
        (s for s in info.seats if s.display_name.lower() == seat.lower()), None
    )
    if target is None:
        raise UserError(f"There is no seat {seat!r} in this game; pick one from the list.")
    who = f"<@{target.user_id}>" if target.user_id else target.display_name
    if info.status == "lobby":
        if not await acknowledge(interaction, thinking=True):
            return
        info = await app.remove_seat(info.id, interaction.user.id, target.seat, is_admin=admin)
        await interaction.followup.send(
            f"{who} was removed from game #{info.id} by {interaction.user.mention}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        lobby = interaction.client.get_cog("Lobby")  # type: ignore[attr-defined]
        await lobby.refresh_lobby(info)
        log.info("game %s: seat %s removed by %s", info.id, target.seat, interaction.user.id)
        return
    if info.status == "paused":
        raise UserError("The game is paused: resume it first, then hand the seat to the AI.")
    if not target.is_human:
        raise UserError(f"{target.display_name} is already an AI seat.")
    if target.ai_takeover:
        raise UserError(f"The AI already plays for {target.display_name}.")
    if not await acknowledge(interaction, thinking=True):
        return
    out = await app.take_over(info.id, target.seat, user_id=interaction.user.id, is_admin=admin)
    await interaction.followup.send(
        f"🤖 {interaction.user.mention} handed {who}'s seat to the AI: it plays for "
        f"{target.display_name} from now on (`/game reclaim` takes it back).",
        allowed_mentions=discord.AllowedMentions.none(),
    )
    log.info("game %s: seat %s handed to the AI by %s", info.id, target.seat, interaction.user.id)
    play = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    await play.publish(out)


@slash.game("reclaim", "Play your seat again after an AI takeover")
async def game_reclaim(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    if not await acknowledge(interaction, thinking=True):
        return
    out = await app_of(interaction).reclaim(info.id, interaction.user.id)
    await interaction.followup.send(f"{interaction.user.mention} plays their seat again.")
    play = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    await play.publish(out)


@slash.game("move", "Move a game into this channel (host or Manage Server)")
@app_commands.describe(game="The game to move into this channel or thread (its number)")
@app_commands.autocomplete(game=game_autocomplete)
async def game_move(interaction: discord.Interaction[Any], game: app_commands.Range[str, None, 30]) -> None:
    """The game is played here from now on (its channel was deleted, or the bot may not
    post there): its waiting posts come here (issue 8 §1)."""
    app = app_of(interaction)
    if interaction.guild_id is None:
        raise UserError("Use this in the server channel where the game should go on.")
    try:
        gid = int(game.strip().lstrip("#"))
    except ValueError:
        raise UserError("Pick a game from the list.") from None
    info = await app.info(gid)
    _may_manage(interaction, info)
    channel_id, thread_id = place_of(interaction)
    if not await acknowledge(interaction, ephemeral=True, thinking=True):
        return
    info = await app.move(
        gid, interaction.user.id, channel_id, thread_id, guild_id=interaction.guild_id, is_admin=is_admin(interaction)
    )
    log.info("game %s moved to %s by %s", gid, info.place_id, interaction.user.id)
    await interaction.followup.send(
        f"Game #{gid} is played here from now on; what it could not post comes here now.", ephemeral=True
    )
    play = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    await play.post_notice(info, f"📦 Game #{gid} moved here by {interaction.user.mention}.", ordered=True)


class Admin(commands.Cog):
    def __init__(self, bot: BoardroomBot) -> None:
        self.bot = bot

    async def on_abandon_confirmed(self, interaction: discord.Interaction[Any], gid: int) -> None:
        if not await acknowledge(interaction):
            return
        info = await self.bot.app.abandon(gid, interaction.user.id, is_admin=is_admin(interaction))
        await interaction.edit_original_response(content=f"Game #{gid} is abandoned.", view=None)
        play = self.bot.get_cog("Play")
        await play.post_notice(  # type: ignore[union-attr]
            info, f"🛑 Game #{gid} was abandoned by {interaction.user.mention}. Start a new one with `/game new`."
        )
        lobby = self.bot.get_cog("Lobby")
        await lobby.refresh_lobby(info)  # type: ignore[union-attr]
        log.info("game %s abandoned by %s", gid, interaction.user.id)


async def setup(bot: BoardroomBot) -> None:
    await bot.add_cog(Admin(bot))
    slash.add_to(bot)


async def teardown(bot: BoardroomBot) -> None:
    slash.remove_from(bot)
