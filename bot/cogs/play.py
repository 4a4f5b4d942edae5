"""Play: secret planning, turn prompts, ``/plan``, status, history, export.

What an action tells Discord is not composed here: the application layer writes it as
outbox rows in the action's own transaction (:mod:`bot.app.compose`: one post per
phase, the round's results, the status message, the DMs), and the deliverer
(:mod:`bot.delivery`, :mod:`bot.posting`) sends them, in order, paced, retried, and
never lost when Discord fails or the process dies (issue 8 §1). :meth:`Play.publish`
only wakes the deliverer up. What is built here is the private side: the planner and
the turn prompt of one player (DM or ephemeral), drawn when they are sent.

Nothing here posts or logs a plan before the reveal: a plan lives only in the
planner message of its owner (DM or ephemeral) and in the engine.

Nothing here knows a game: what to call things, whether a prompt has a builder of its
own (a planner) or gets the generic "pick one of the legal actions" select, and which
extra pictures a round needs, all come from the game's presenter (:mod:`bot.games`).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from collections import OrderedDict, defaultdict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import choices, labels, pictures, text, views
from bot import prompts as board
from bot.app.compose import Row, decision_key, post_row
from bot.app.replay import round_phases
from bot.cogs import CommandSet, app_of, game_autocomplete, game_here, seat_owner
from bot.errors import UserError
from bot.records import AppError
from engine import IllegalAction

if TYPE_CHECKING:
    from bot.discord_bot import BoardroomBot
    from bot.games import Presenter, SecretBuilder
    from bot.records import GameInfo, Outcome
    from bot.reminders import Nudge

# the answers that left the clicked message its original response (edited in place)
IN_PLACE = (discord.InteractionResponseType.message_update, discord.InteractionResponseType.deferred_message_update)
DM_CLICKS = 4096  # users whose newest DM click is kept (its token sends their DMs)
# a click answered so: a follow-up of it is a new message, public unless it asks otherwise
PUBLIC_FOLLOWUP = (discord.InteractionResponseType.channel_message, *IN_PLACE)
PLACE_CLICKS = 4096  # channels whose newest click is kept (its token sends the game's posts there)
log = logging.getLogger("boardroom.play")

CLOSED_DMS = 50007


def history_views(export: dict[str, Any], round_no: int, game: Any = None) -> list[tuple[dict[str, Any], list[str]]]:
    """Replay an export (up to its first hidden row): for each phase of round
    ``round_no``, the public view right after it ended (or the current view for a phase
    still running) and its log lines: the true log (:mod:`bot.app.replay`). Pure."""
    from types import SimpleNamespace

    from bot.app.replay import build_record, round_phases, state_after
    from engine import get_game
    from engine.versions import export_edition, setup_as

    if export.get("seed") is None:
        return []
    game = game or get_game(export["game"])
    seats = [s["seat"] for s in sorted(export["seats"], key=lambda s: s["position"])]
    rules, rng_kind = export_edition(export)  # the rules and generator the game started with
    start = setup_as(game, seats, int(export["seed"]), dict(export["options"]), rules=rules, rng=rng_kind)
    rows = []
    for r in sorted(export["actions"], key=lambda r: r["seq"]):
        if r.get("hidden"):
            break
        rows.append(SimpleNamespace(seq=int(r["seq"]), seat=r["seat"], action=r["action"], actor=r.get("actor", "")))
    from bot.app.core import replay_row

    now, before = start, None
    for r in rows:
        now, before = replay_row(game, now, before, r.seat, r.action, r.seq)
    rec = build_record(game, start, rows, now, None)
    return [(game.view(state_after(game, rec, i), None), lines) for i, lines in round_phases(game, rec, round_no)]


SHOWN_KEPT = 4096  # turn messages whose decision is remembered (see Play._shown)


def decision_mark(prompt: Any, actions: list[dict[str, Any]]) -> str:
    """A seat's decision as a whole: its prompt and the legal actions a turn message's
    choices are numbered over (the same mark: the same choices mean the same actions),
    as a 128-bit digest (a few thousand are kept)."""
    return hashlib.blake2b(text.compact_json([prompt, actions]).encode(), digest_size=16).hexdigest()


class Play(commands.Cog):
    def __init__(self, bot: BoardroomBot) -> None:
        self.bot = bot
        # (game, seat, version a turn message was built at) -> what that decision was
        # (decision_mark): a click on it after another player's move that did not change
        # this seat's decision (a simultaneous draft) goes on instead of starting over
        self._shown: OrderedDict[tuple[int, str, int], str] = OrderedDict()
        # every prompt message each seat was shown: the newest is its one live prompt; an
        # older one, or one whose decision is over, is edited to say so (bot/prompts.py)
        self.prompts = board.PromptBoard()
        self._sweeps: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # one sweep per game at a time
        self._tasks: set[asyncio.Task[None]] = set()
        # user id -> (their newest click in their DM with the bot, when): for 15 minutes its
        # token sends the bot's next DMs to them as follow-ups, interaction answers that do
        # not count against the bot's global limit of requests (issue 37)
        self._dm_clicks: OrderedDict[int, tuple[discord.Interaction[Any], float]] = OrderedDict()
        # message id -> (the click, when) whose follow-up a DM was: its token edits it too
        self._followups: OrderedDict[int, tuple[discord.Interaction[Any], float]] = OrderedDict()
        # channel id -> (the newest click in that server channel or thread, when): for 15
        # minutes its token sends the posts of a game there as follow-ups (issue 37)
        self._place_clicks: OrderedDict[int, tuple[discord.Interaction[Any], float]] = OrderedDict()
        # interaction id -> when a click came in, until its handler is done (:meth:`answered`)
        self._arrived: OrderedDict[int, float] = OrderedDict()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        self._arrived[interaction.id] = self._clock()  # (its token lives 15 minutes from now)
        while len(self._arrived) > DM_CLICKS + PLACE_CLICKS:
            self._arrived.popitem(last=False)

    def answered(self, interaction: discord.Interaction[Any]) -> None:
        """The handler of a click is done: its own answer (the clicked prompt edited into
        the next step, a private reply) is sent. Only now, while its token lives, does the
        click carry the bot's next DMs to its user (a click in their DM) or the game's posts
        in its channel, as follow-ups: a post through it before that would reach Discord
        ahead of the click's own answer, and a player who took it for the answer would use
        the prompt still showing the step before (judged stale: "Already done")."""
        if interaction.type != discord.InteractionType.component:
            return
        at = self._arrived.pop(interaction.id, None)
        got = (interaction, self._clock() if at is None else at)
        if interaction.guild_id is None:
            self._dm_clicks[interaction.user.id] = got
            self._dm_clicks.move_to_end(interaction.user.id)
            while len(self._dm_clicks) > DM_CLICKS:
                self._dm_clicks.popitem(last=False)
        elif interaction.channel_id is not None:
            self._place_clicks[interaction.channel_id] = got
            self._place_clicks.move_to_end(interaction.channel_id)
            while len(self._place_clicks) > PLACE_CLICKS:
                self._place_clicks.popitem(last=False)

    def sent_as_followup(self, message_id: int, user_id: int, ix: discord.Interaction[Any]) -> None:
        """DM ``message_id`` was sent as a follow-up of ``ix``, the user's newest DM click
        when it was sent: that click's token edits it too (a follow-up webhook edits only
        the messages it created; if a newer click of the user came in meanwhile, the DM is
        edited through its channel)."""
        got = self._dm_clicks.get(user_id)
        if got is not None and got[0] is ix:
            self._followups[message_id] = got
            while len(self._followups) > DM_CLICKS:
                self._followups.popitem(last=False)

    def dm_interaction(self, user_id: int, channel_id: int) -> discord.Interaction[Any] | None:
        """The user's newest click in their DM channel ``channel_id``, answered, whose token
        still lives (a follow-up of it is a DM like any other), or None."""
        got = self._dm_clicks.get(user_id)
        if got is None:
            return None
        ix, at = got
        if ix.channel_id != channel_id or self._clock() - at >= board.TOKEN_LIFE or not ix.response.is_done():
            return None
        if ix.response.type == discord.InteractionResponseType.deferred_channel_message:
            return None  # ("thinking": its first follow-up would take the place of its loading message)
        return ix

    def place_interaction(self, channel_id: int) -> discord.Interaction[Any] | None:
        """The newest click in the server channel or thread ``channel_id`` (anyone's),
        answered, whose token still lives: a public follow-up of it is a post there like
        any other, but an interaction answer (not counted against the bot's global limit
        of requests, issue 37); or None."""
        got = self._place_clicks.get(channel_id)
        if got is None:
            return None
        ix, at = got
        if self._clock() - at >= board.TOKEN_LIFE or not ix.response.is_done():
            return None
        # (not "thinking": its first follow-up would take the place of its loading message,
        # ephemeral if that was; nor a modal's answer)
        return ix if ix.response.type in PUBLIC_FOLLOWUP else None

    @property
    def app(self) -> Any:
        return self.bot.app

    def presenter(self, info: GameInfo) -> Presenter:
        return self.app.presenter(info.game)  # type: ignore[no-any-return]

    # ----------------------------------------------------------------- publishing
    async def publish(self, out: Outcome) -> None:
        """Have the deliverer send what an Outcome tells Discord. The rows are already in
        the outbox: the app wrote them in the transactions of the outcome's actions
        (:mod:`bot.app.compose`). Never raises for Discord's sake. Prompts whose
        decision is over are edited to say so (:meth:`sweep`)."""
        self.kick(out.game_id)
        self.spawn(self.sweep(out.game_id))

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro, name="boardroom-play-sweep")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ live prompts
    def _clock(self) -> float:
        return asyncio.get_running_loop().time()

    def _entry(
        self, interaction: discord.Interaction[Any], gid: int, seat: str, kind: str, version: int,
        *, message_id: int | None = None, stage: tuple[Any, Any] = (None, None),
    ) -> board.Shown:
        """The prompt an interaction's message now is: a DM (edited through its channel
        later) or an ephemeral reply (through this interaction's token)."""
        msg = interaction.message
        ephemeral = msg is not None and msg.flags.ephemeral
        if message_id is None and msg is not None and not ephemeral and interaction.guild_id is None:
            # (the interaction kept: its token edits the DM for free while it lives, :meth:`_edit_dm`)
            return board.Shown(gid, seat, kind, version, stage, channel_id=int(interaction.channel_id or 0),
                               message_id=msg.id, interaction=interaction, at=self._clock())
        mid = message_id if message_id is not None else (msg.id if msg is not None else None)
        return board.Shown(gid, seat, kind, version, stage, message_id=mid, interaction=interaction,
                           at=self._clock(), in_dm=interaction.guild_id is None)

    async def _edit_dm(self, entry: board.Shown, **kw: Any) -> None:
        """Edit the DM ``entry`` is: through the token of the click that last updated it in
        place, or of the click it was sent as a follow-up of, while that token lives (an
        interaction answer: it does not count against the bot's global limit of requests,
        issue 37), else (or if that fails) through its channel."""
        assert entry.channel_id is not None and entry.message_id is not None
        ix = entry.interaction
        if (
            ix is not None and ix.message is not None and ix.message.id == entry.message_id
            and ix.response.type in IN_PLACE and self._clock() - entry.at < board.TOKEN_LIFE
        ):
            try:
                await ix.edit_original_response(**kw)
                return
            except discord.HTTPException as exc:
                log.info("game %s: a DM edit through its interaction failed (%s); through its channel", entry.gid, exc)
        sent = self._followups.get(entry.message_id)
        if sent is not None and self._clock() - sent[1] < board.TOKEN_LIFE:  # a follow-up: through its click's token
            try:
                await sent[0].followup.edit_message(entry.message_id, **kw)
                return
            except discord.HTTPException as exc:
                log.info("game %s: a DM edit through its interaction failed (%s); through its channel", entry.gid, exc)
        msg = self.bot.get_partial_messageable(entry.channel_id).get_partial_message(entry.message_id)
        await msg.edit(**kw)

    async def show(self, entry: board.Shown, *, late: bool = False) -> None:
        """``entry`` is the seat's live prompt now: its older prompts are edited to point to
        it (``late``: see :meth:`bot.prompts.PromptBoard.show`; a late DM older than the
        live prompt is the one edited, to point to the live one)."""
        older = self.prompts.show(entry, late=late)
        if not older:
            return
        live = next(iter(self.prompts.of_seat(entry.gid, entry.seat)), entry)
        link = live.link()
        if link:
            where = f" {link}"
        elif live.channel_id is None:  # an ephemeral reply: no link
            where = " (the newest message)" if live is entry else " (the one where you opened it)"
        else:
            where = ""
        words = f"↪ This decision moved to a newer message{where}." if live is entry else (
            f"↪ This decision is open in another message{where}."
        )
        for old in older:
            await self._retire(old, words)

    def drop(self, interaction: discord.Interaction[Any], gid: int, seat: str) -> None:
        """The interaction's message shows no live control any more."""
        self.prompts.drop(gid, seat, self._entry(interaction, gid, seat, board.TURN, 0).key)

    async def shown_dm(
        self, info: GameInfo, seat: str, channel_id: int, message_id: int, version: int | None, *, kind: str = board.OPEN
    ) -> None:
        """A DM just sent to ``seat`` with a live control (a planner or turn prompt, or
        "Open my turn"): the seat's one live prompt."""
        stage = await self._stage(info.id)
        entry = board.Shown(info.id, seat, kind, info.version if version is None else int(version), stage,
                            channel_id=channel_id, message_id=message_id, at=self._clock())
        why = await self._over(await self.app.info(info.id), entry)
        if why is not None:  # the seat moved while the DM was on its way: it stands for nothing
            await self._retire(entry, why[0], undone=why[1])
            return
        await self.show(entry, late=True)

    async def live_decision(self, info: GameInfo, seat: str) -> str | None:
        """If ``seat``'s decision is open in a prompt that still stands: its link ("" for
        an ephemeral reply, which has none); else None."""
        newest = next(iter(self.prompts.of_seat(info.id, seat)), None)
        if newest is None or newest.kind != board.TURN:
            return None
        if await self._over(await self.app.info(info.id), newest) is not None:
            return None
        return newest.link() or ""

    async def note_on_prompt(self, info: GameInfo, seat: str, note: str) -> int | None:
        """Put ``note`` (e.g. "You are the last one") on the seat's open decision DM instead
        of sending a second DM for the same decision; the DM's id, or None if it has none."""
        newest = next(iter(self.prompts.of_seat(info.id, seat)), None)
        if newest is None or newest.kind != board.TURN or newest.channel_id is None or newest.message_id is None:
            return None
        if await self._over(await self.app.info(info.id), newest) is not None:
            return None
        try:
            await self._edit_dm(newest, content=text.clip(note, 2000))
        except discord.HTTPException:
            return None
        return newest.message_id

    async def reuse_turn_dm(self, info: GameInfo, seat: str, content: str, ui: Any) -> int | None:
        """A turn DM for a decision that an undo took away and a redo gives back: the DM
        retired by the undo is edited back (one DM per turn), if the bot can still edit it."""
        old = self.prompts.take_undone(info.id, seat)
        if old is None or old.channel_id is None or old.message_id is None:
            return None
        try:
            await self._edit_dm(old, content=content, embed=None, attachments=[], view=ui)
        except discord.HTTPException:
            return None
        return old.message_id

    async def _stage(self, gid: int) -> tuple[Any, Any]:
        try:
            view = await self.app.view(gid, None)
        except AppError:
            return (None, None)
        return view.get("round"), view.get("phase")

    async def _retire(self, entry: board.Shown, note: str | None, *, undone: bool = False) -> None:
        """Edit a prompt that no longer stands: ``note`` replaces its text (None: its text
        stays, only its controls go), no controls left."""
        self.prompts.retire(entry, undone=undone)
        if not board.editable(entry, self._clock()):
            return  # (an old ephemeral reply: its buttons are answered in place when clicked)
        kw: dict[str, Any] = {"view": None}
        if note is not None:
            kw["content"] = note
        try:
            if entry.channel_id is not None and entry.message_id is not None:
                await self._edit_dm(entry, **kw)
            elif entry.interaction is not None:
                ix = entry.interaction
                original = ix.message is None or entry.message_id in (None, ix.message.id)
                if original and ix.response.is_done():
                    await ix.edit_original_response(**kw)
                elif entry.message_id is not None:
                    await ix.followup.edit_message(entry.message_id, **kw)
        except discord.HTTPException as exc:  # deleted, or an expired token: its clicks answer in place
            log.info("game %s: could not retire a prompt of %s (%s)", entry.gid, entry.seat, exc)

    def _sweep_lock(self, gid: int) -> asyncio.Lock:
        return self._sweeps[gid]

    async def sweep(self, gid: int) -> None:
        """Edit every prompt of the game whose decision is over (the seat moved since, the
        game moved on without it, an undo took it away, an Undo that no longer works, a
        sealed plan that can no longer be changed), saying what became of it."""
        try:
            async with self._sweep_lock(gid):
                entries = self.prompts.live(gid)
                if not entries:
                    return
                info = await self.app.info(gid)
                for entry in entries:
                    why = await self._over(info, entry)
                    if why is not None:
                        await self._retire(entry, why[0], undone=why[1])
                if info.status in ("finished", "abandoned"):
                    self.prompts.forget_game(gid)
        except Exception:  # a nicety: a click on a prompt left live is answered in place
            log.exception("game %s: sweeping old prompts failed", gid)

    async def _over(self, info: GameInfo, entry: board.Shown) -> tuple[str | None, bool] | None:
        """(the note, whether an undo took the decision away) for a prompt whose decision
        is over; None while it stands."""
        if info.status == "finished":
            return ("🏁 The game is over.", False) if entry.kind not in (board.UNDO, board.SEALED) else (None, False)
        if info.status not in ("active", "paused"):
            return (f"The game is {info.status}.", False)
        if entry.kind == board.UNDO:
            ok = await self.app.can_undo(info.id, entry.seat, entry.version)
            return None if ok else (None, False)
        if entry.kind == board.SEALED:
            prompt = await self.app.prompt(info.id, entry.seat)
            if prompt is None and await self._stage(info.id) == entry.stage:
                return None
            return (None, False)
        if info.version == entry.version:
            return None
        moved = await self.app.moved_since(info.id, entry.seat, entry.version)
        if moved is not None:
            return (await self.app.taken_over_since(info.id, entry.seat, entry.version) or "✅ Done: your move is recorded.", False)
        if await self.app.prompt(info.id, entry.seat):
            return None  # other seats moved; this seat's decision still stands here
        async with self.app.storage.read() as q:
            last = await q.actions(info.id, after=info.version - 1, upto=info.version)
        if last and last[-1].action.get("type") == "undo":
            who = info.seat_named(last[-1].seat)
            name = who.display_name if who else "A player"
            return (f"↩ {name} took back their move: nothing for you to decide yet.", True)
        return ("Nothing to decide here now: the game moved on.", False)

    def kick(self, game_id: int) -> None:
        delivery = getattr(self.bot, "delivery", None)
        if delivery is not None:
            delivery.kick(game_id)

    async def enqueue(self, game_id: int, rows: list[Row]) -> None:
        """Rows no action carries (a reminder's DM, a notice), then a kick."""
        if not rows:
            return
        await self.app.queue(game_id, rows)
        self.kick(game_id)

    async def post_notice(self, info: GameInfo, content: str, *, ordered: bool = False) -> None:
        """A notice in the game's place (through the outbox; by default it holds up nothing)."""
        await self.enqueue(info.id, [post_row(content, ordered=ordered)])

    async def dm_user(self, user_id: int) -> discord.DMChannel:
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        return user.dm_channel or await user.create_dm()

    async def seat_now(
        self, gid: int, seat: str, info: GameInfo | None = None
    ) -> tuple[GameInfo, dict[str, Any] | None, dict[str, Any] | None]:
        """The game's info, ``seat``'s prompt and private view, all of one committed state
        (as ``app.info``, ``app.prompt`` and ``app.view`` give them, with one look-up of the
        game instead of three: a round end sends a planner to every seat). ``info``, if
        given, is used unless the game has moved on since. The prompt and the view are
        None when the game is not running (a lobby, a finished game)."""
        if info is None:
            info = await self.app.info(gid)
        for _ in range(3):
            if info.status not in ("active", "paused"):
                return info, None, None
            state = await self.app.state(gid)
            if int(state.get("version", -1)) == info.version:
                game = self.app.engine(info.game)
                return info, game.pending(state).get(seat), self.app.reads.seat_view(game, state, seat)
            info = await self.app.info(gid)  # an action came in between: look again
        return info, await self.app.prompt(gid, seat), await self.app.view(gid, seat)

    async def remember_planner(self, info: GameInfo, seat: str, channel_id: int, message_id: int) -> None:
        """A planner DM just sent (message ``message_id`` in DM channel ``channel_id``) is the
        one live planner of this decision: a reminder links it instead of sending another
        (the half-built plan lives in the database)."""
        info, prompt, view = await self.seat_now(info.id, seat, info)
        builder = self.presenter(info).secret_builder(prompt)
        if builder is None or view is None:
            return
        # only the message reference: a click saved while the DM was sent keeps its draft
        fresh = builder.encode(builder.decode(None))
        await self.app.remember_draft_message(info.id, seat, decision_key(view), fresh, channel_id, message_id)

    async def decision_message(
        self, info: GameInfo, seat: str, *, note: str = ""
    ) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
        """A fresh private prompt for whatever ``seat`` must decide now."""
        now = await self.seat_now(info.id, seat, info)
        if self.presenter(now[0]).secret_builder(now[1]) is not None:
            return await self.planner_message(info.id, seat, note=note, now=now)
        return await self.action_message(info.id, seat, choices.ActionPath(), note=note)

    # -------------------------------------------------------------------- planner
    async def planner_message(
        self,
        gid: int,
        seat: str,
        draft: Any = None,
        *,
        note: str = "",
        now: tuple[GameInfo, dict[str, Any] | None, dict[str, Any] | None] | None = None,
    ) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
        """The private planner of ``seat``'s secret decision (``draft`` None: a fresh one);
        ``now``: :meth:`seat_now`'s answer, if the caller has it."""
        info, prompt, seat_view = now or await self.seat_now(gid, seat)
        builder = self.presenter(info).secret_builder(prompt)
        if builder is None or seat_view is None:
            raise UserError("Nothing to plan now: your decision is sealed, or the game has moved on.")
        ctx = builder.context(prompt, seat_view, seat)
        if draft is None:  # the seat's draft of this decision, kept in the database
            row = await self.app.draft(gid, seat, decision_key(seat_view))
            draft = builder.decode(row.draft if row is not None else None)
        # outcome lists can take a moment: a worker (process) computes them, off the event
        # loop, while the other worker draws the picture
        preview = builder.preview(draft, ctx)
        options, pic = await asyncio.gather(
            pictures.PAINTER.call(pictures.method_call, builder, "choices", draft, ctx),
            self._planner_picture(info, prompt, seat_view, preview),
        )
        embed = discord.Embed(
            title=f"Your {builder.noun} — round {seat_view.get('round')} (game #{gid})",
            description=text.clip((note + "\n\n" if note else "") + builder.describe(draft, ctx), 4000),
            colour=discord.Colour.dark_teal(),
        )
        files = [pic] if pic is not None else []
        if pic is not None:
            embed.set_image(url=f"attachment://{pic.filename}")
        ui = views.planner_view(
            gid,
            seat,
            info.version,
            options,
            builder.placeholder(draft),
            can_seal=builder.action(draft, ctx) is not None,
            can_back=builder.can_back(draft),
            extra=builder.extra_ops,
            seal_label=builder.seal_label,
        )
        return embed, files, ui

    async def _planner_picture(
        self, info: GameInfo, prompt: Any, seat_view: dict[str, Any], preview: Any
    ) -> discord.File | None:
        """The planner's picture: the plan's preview, else the game's picture of this
        decision (the compact one reads on a phone), else the full private picture."""
        if preview is not None:
            return await self.bot.picture("plan.png", "draw_plan", info.game, info.drawn(seat_view), preview)
        draw = self.presenter(info).prompt_picture(prompt) or "draw"
        pic = await self.bot.picture("decision.png", draw, info.game, info.drawn(seat_view))
        if pic is None and draw != "draw":  # the full private picture if there is none
            pic = await self.bot.picture("pads.png", "draw", info.game, info.drawn(seat_view))
        return pic

    async def on_planner(
        self, interaction: discord.Interaction[Any], gid: int, seat: str, ver: int, op: str, value: str
    ) -> None:
        info = await self.app.info(gid)
        seat_owner(info, seat, interaction.user.id)
        moved = await self.app.moved_since(gid, seat, ver) if info.version != ver else None
        if moved is not None or self._moved_on(interaction, gid, seat, ver):
            # a second click, or a click on a message older than the seat's own last move:
            # answered privately (the message shows what came after, or was edited already)
            words = "✅ Already done: your plan is recorded." if moved is not None else "The message shows your plan as it is now; use it."
            if moved is not None:
                words = await self.app.taken_over_since(gid, seat, ver) or words
            await interaction.response.send_message(words, ephemeral=True)
            return
        if op == "unseal":
            await self.unseal(interaction, info, seat)
            return
        prompt = await self.app.prompt(gid, seat) if info.status == "active" else None
        builder = self.presenter(info).secret_builder(prompt)
        if builder is None:
            await interaction.response.edit_message(
                content="Nothing to plan now: your decision is sealed, or the game has moved on.", view=None
            )
            self.drop(interaction, gid, seat)
            return

        seat_view = await self.app.view(gid, seat)
        ctx = builder.context(prompt, seat_view, seat)
        key = decision_key(seat_view)
        row = await self.app.draft(gid, seat, key)
        draft = builder.decode(row.draft if row is not None else None)
        if op == "seal":  # one confirmation
            action = builder.action(draft, ctx)
            if action is None:
                why = builder.problem(draft, ctx) or "it is not finished"
                raise UserError(f"This {builder.noun} cannot be sealed yet: {why}.")
            secret = bool((prompt or {}).get("secret"))  # a sealed secret may be unsealed; a move may not
            embed = discord.Embed(
                title=f"Seal this {builder.noun}? — round {seat_view.get('round')} (game #{gid})",
                description=text.clip(builder.describe(draft, ctx, sealed=True), 4000)
                + (
                    f"\n\nYou can still take it back and change it until the last {builder.noun} is in."
                    if secret else "\n\nOnce confirmed, this cannot be taken back."
                ),
                colour=discord.Colour.gold(),
            )
            confirm = views.seal_confirm_view(gid, seat, ver) if secret else views.seal_confirm_view(
                gid, seat, ver, seal_label=f"Yes: {builder.seal_label}"
            )
            await interaction.response.edit_message(embed=embed, view=confirm)
            await self.show(self._entry(interaction, gid, seat, board.TURN, ver))
            return
        if op == "sealok":
            await self.seal(interaction, info, seat, ver, builder, draft, ctx)
            return
        if op != "cancel":
            draft = builder.step(draft, ctx, op, value)
        await interaction.response.defer()
        if await self.app.save_draft(gid, seat, key, builder.encode(draft)):
            self.kick(gid)  # the status message: one fewer "changed nothing yet"
        embed, files, ui = await self.planner_message(gid, seat, draft)
        await interaction.edit_original_response(embed=embed, attachments=files, view=ui)
        await self.show(self._entry(interaction, gid, seat, board.TURN, ver))

    async def seal(
        self,
        interaction: discord.Interaction[Any],
        info: GameInfo,
        seat: str,
        ver: int,
        builder: SecretBuilder,
        draft: Any,
        ctx: Any,
    ) -> None:
        action = builder.action(draft, ctx)
        if action is None:
            why = builder.problem(draft, ctx) or "it is not finished"
            raise UserError(f"This {builder.noun} cannot be sealed yet: {why}.")
        await interaction.response.defer()
        out = await self.app.act(info.id, interaction.user.id, seat, action, ver)
        if out.status == "applied":
            log.info("game %s: seat %s sealed a %s", info.id, seat, builder.noun)  # never the decision itself
            still_open = out.phase == "planning" and not out.phase_changed and not out.over
            sealed_round = out.round - 1 if isinstance(out.round, int) and out.round_changed else out.round  # (the last seal ends it)
            embed = discord.Embed(
                title=f"{builder.noun.capitalize()} sealed 🔒 — round {sealed_round if sealed_round is not None else '?'} (game #{info.id})",
                description=builder.describe(draft, ctx, sealed=True)
                + ("\n\nChanged your mind? Take it back while the others still decide." if still_open else ""),
                colour=discord.Colour.green(),
            )
            ui = views.unseal_view(info.id, seat, out.version) if still_open else None
            await interaction.edit_original_response(embed=embed, attachments=[], view=ui)
            if still_open:
                await self.show(self._entry(interaction, info.id, seat, board.SEALED, out.version,
                                            stage=(out.round, out.phase)))
            else:
                self.drop(interaction, info.id, seat)
            await self.publish(out)
        elif out.status == "already":
            await interaction.followup.send("✅ Already sealed.", ephemeral=True)  # the message stays as it is
        elif out.status == "stale" and self.presenter(info).secret_builder(out.prompt) is not None:
            embed, files, ui = await self.planner_message(info.id, seat, draft, note=f"⚠️ {out.message}")
            await interaction.edit_original_response(embed=embed, attachments=files, view=ui)
            await self.show(self._entry(interaction, info.id, seat, board.TURN, out.version))
        else:
            await interaction.followup.send(out.message or "That did not work.", ephemeral=True)

    async def unseal(self, interaction: discord.Interaction[Any], info: GameInfo, seat: str) -> None:
        """Take a sealed decision back (the engine allows it while the others decide) and
        show the planner again with the same draft."""
        await interaction.response.defer()
        out = await self.app.act(info.id, interaction.user.id, seat, {"type": "unseal"}, info.version)
        if out.status != "applied":
            await interaction.edit_original_response(
                content=out.message or "Too late: every plan is in and revealed.", embed=None, view=None
            )
            return
        log.info("game %s: seat %s took a sealed decision back", info.id, seat)
        embed, files, ui = await self.planner_message(info.id, seat, note="🔓 Unsealed: change it and seal again.")
        await interaction.edit_original_response(content=None, embed=embed, attachments=files, view=ui)
        entry = self._entry(interaction, info.id, seat, board.TURN, out.version)
        await self.show(entry)  # this message is the planner again (no second planner DM)
        if entry.channel_id is not None and entry.message_id is not None:
            await self.remember_planner(await self.app.info(info.id), seat, entry.channel_id, entry.message_id)
        await self.publish(out)

    # --------------------------------------------------------------- turn actions
    async def action_message(
        self, gid: int, seat: str, path: choices.ActionPath, *, note: str = "", picture: bool = True,
        undo: bool = False,
    ) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
        """The generic "pick one of the legal actions" prompt, labelled by the presenter
        (with the seat's private picture where the presenter wants it and ``picture``)."""
        info = await self.app.info(gid)
        game = self.presenter(info)
        prompt = await self.app.prompt(gid, seat)
        actions = await self.app.legal_actions(gid, seat)
        draw = game.prompt_picture(prompt) if picture and not path.picks else None
        seat_view = await self.app.view(gid, seat) if game.view_labels or draw else {}
        # the one labeller of the table and Discord: the engine's labels with costs and
        # gains, or each option with the numbers it changes (the engine's own previews)
        words: Any = await labels.action_words(self.app, game, gid, seat, seat_view if game.view_labels else None)
        step = game.action_step(prompt, actions, path, words)
        title = text.with_player_names([step.title], info)[0]  # a seat it names, by its player's name
        self._remember_shown(gid, seat, info.version, prompt, actions)
        lines = [f"**{game.describe_prompt(prompt)}**"]
        if note:
            lines.insert(0, note)
        if step.action is not None:
            lines.append(f"You chose: **{words.describe_action(step.action)}**. Confirm it, or go back.")
        else:
            lines.append(title)
        embed = discord.Embed(title=f"Your turn — game #{gid}", description="\n".join(lines))
        ui = views.action_view(
            gid, seat, info.version, path.encode(), step.choices, title or "Choose",
            done=step.action is not None, undo=undo, finish=step.finish is not None,
        )
        files: list[discord.File] = []
        if draw:  # the decision's picture, readable on a phone (see Presenter.prompt_picture)
            pic = await self.bot.picture("decision.png", draw, info.game, info.drawn(seat_view))
            if pic is not None:  # attached (not the embed's image: edits of this message drop files)
                files.append(pic)
        return embed, files, ui

    def _moved_on(self, interaction: discord.Interaction[Any], gid: int, seat: str, ver: int) -> bool:
        """Whether the clicked message shows something newer than the click saw: the second
        click of a double click (or a click on a screen not refreshed yet) reaches the bot
        after the first one edited the message into the next step (the bot knows each
        seat's live prompt, :mod:`bot.prompts`). Its answer then goes privately: an edit
        would overwrite the newer step."""
        key = self._entry(interaction, gid, seat, board.TURN, ver).key
        return any(e.key == key and e.version > ver for e in self.prompts.of_seat(gid, seat))

    async def _already(
        self, interaction: discord.Interaction[Any], gid: int, seat: str, ver: int, *, in_place: bool
    ) -> None:
        """"Already done": a click on a message older than the seat's own last move (or
        what happened, if that move was the AI's: it took the seat over at the deadline)."""
        words = await self.app.taken_over_since(gid, seat, ver) or (
            "✅ Already done: you moved since this message (your move is recorded)."
        )
        newest = next(iter(self.prompts.of_seat(gid, seat)), None)
        link = newest.link() if newest is not None else None
        if link:
            words += f" Your current decision: {link}"
        if in_place:
            await interaction.response.edit_message(content=words, embed=None, view=None, attachments=[])
            self.drop(interaction, gid, seat)
        else:  # the message already shows what came after: it stays as it is
            await interaction.response.send_message(words, ephemeral=True)

    async def on_action(
        self,
        interaction: discord.Interaction[Any],
        gid: int,
        seat: str,
        ver: int,
        code: str,
        op: str,
        value: str,
    ) -> None:
        info = await self.app.info(gid)
        seat_owner(info, seat, interaction.user.id)
        path = choices.ActionPath.decode(code)
        current = not self._moved_on(interaction, gid, seat, ver)
        if op == "undo":  # the app says whether it is still allowed
            if not current:
                await interaction.response.send_message("That Undo was already pressed.", ephemeral=True)
                return
            await interaction.response.defer()
            try:
                out = await self.app.undo(gid, interaction.user.id, seat, ver)
            except AppError as exc:  # too late: the button goes, the message says why
                await interaction.edit_original_response(view=None)
                self.drop(interaction, gid, seat)
                await interaction.followup.send(str(exc), ephemeral=True)
                return
            embed, files, ui = await self.action_message(gid, seat, choices.ActionPath(), note="↩ Taken back.")
            await interaction.edit_original_response(content=None, embed=embed, view=ui, attachments=files)
            await self.show(self._entry(interaction, gid, seat, board.TURN, out.version))
            await self.publish(out)
            return
        if info.version != ver:
            if await self.app.moved_since(gid, seat, ver) is not None:  # whatever the decision looks like
                await self._already(interaction, gid, seat, ver, in_place=current)
                return
            if not current:  # the message moved on already (it shows the next step)
                await interaction.response.send_message("The message shows your decision as it is now; use it.", ephemeral=True)
                return
            prompt = await self.app.prompt(gid, seat) if info.status == "active" else None
            if not prompt:
                await interaction.response.edit_message(content="Nothing to decide now: the game moved on.", embed=None, view=None, attachments=[])
                self.drop(interaction, gid, seat)
                return
            shown = self._shown.get((gid, seat, ver))
            if shown is None or shown != decision_mark(prompt, await self.app.legal_actions(gid, seat)):
                embed, files, ui = await self.action_message(gid, seat, choices.ActionPath(), note="⚠️ The game moved on; here is your current decision.")
                await interaction.response.edit_message(embed=embed, view=ui, attachments=files)
                await self.show(self._entry(interaction, gid, seat, board.TURN, info.version))
                return
            # only other seats moved and this seat's decision is the same: go on (the app
            # checks the version the message showed: a move of this seat since is refused)
        elif not current:
            await interaction.response.send_message("The message shows your decision as it is now; use it.", ephemeral=True)
            return
        if op == "select":
            path = path.then(value)
            op = await self._at_once(info, seat, path)  # "confirm": the presenter applies this pick at once
        elif op == "back":
            path = path.back()
        if op in ("confirm", "finish"):
            actions = await self.app.legal_actions(gid, seat)
            game = self.presenter(info)
            words = game.action_words(await self.app.view(gid, seat)) if game.view_labels else game
            step = game.action_step(await self.app.prompt(gid, seat), actions, path, words)
            chosen = step.finish if op == "finish" else step.action
            if chosen is None:
                raise UserError("Finish choosing first.")
            await interaction.response.defer()
            out = await self.app.act(gid, interaction.user.id, seat, chosen, ver)
            if out.status == "applied":
                done = text.sentence(f"Done: {words.describe_action(chosen)}")
                can_undo = await self.app.can_undo(gid, seat, out.version)
                if seat in out.pending and not out.over and not out.phase_changed:  # the turn goes on
                    embed, files, ui = await self.action_message(gid, seat, choices.ActionPath(), note=done, undo=can_undo)
                    await interaction.edit_original_response(content=None, embed=embed, view=ui, attachments=files)
                    await self.show(self._entry(interaction, gid, seat, board.TURN, out.version))
                else:
                    ui = views.undo_view(gid, seat, out.version) if can_undo else None
                    await interaction.edit_original_response(content=done, embed=None, view=ui, attachments=[])
                    if can_undo:
                        await self.show(self._entry(interaction, gid, seat, board.UNDO, out.version))
                    else:
                        self.drop(interaction, gid, seat)
                await self.publish(out)
            elif out.status == "already":
                await interaction.followup.send("✅ Already done: your move is recorded.", ephemeral=True)
            elif out.status == "stale" and out.prompt:
                embed, files, ui = await self.action_message(gid, seat, choices.ActionPath(), note=f"⚠️ {out.message}")
                await interaction.edit_original_response(content=None, embed=embed, view=ui, attachments=files)
                await self.show(self._entry(interaction, gid, seat, board.TURN, out.version))
            else:
                await interaction.followup.send(out.message or "That did not work.", ephemeral=True)
            return
        embed, _files, ui = await self.action_message(gid, seat, path, picture=False)  # same decision: picture kept
        await interaction.response.edit_message(embed=embed, view=ui)

    async def _at_once(self, info: GameInfo, seat: str, path: choices.ActionPath) -> str:
        """"confirm" when the presenter applies the pick that led to ``path`` at once
        (``Step.at_once``), else "select"."""
        game = self.presenter(info)
        actions = await self.app.legal_actions(info.id, seat)
        words = game.action_words(await self.app.view(info.id, seat)) if game.view_labels else game
        try:
            step = game.action_step(await self.app.prompt(info.id, seat), actions, path, words)
        except IllegalAction:
            return "select"
        return "confirm" if step.action is not None and step.at_once else "select"

    def _remember_shown(self, gid: int, seat: str, ver: int, prompt: Any, actions: list[dict[str, Any]]) -> None:
        key = (gid, seat, ver)
        self._shown[key] = decision_mark(prompt, actions)
        self._shown.move_to_end(key)
        while len(self._shown) > SHOWN_KEPT:
            self._shown.popitem(last=False)

    # -------------------------------------------------------------- open decision
    async def open_decision(self, interaction: discord.Interaction[Any], gid: int, ver: int | None = None) -> None:
        """The "Open my turn" button and ``/plan``: the caller's decision, privately. On a
        DM (a "your move" DM), the DM itself becomes the decision; in the channel, an
        ephemeral reply. A button whose decision is over (``ver``: the version it was
        posted at; the caller moved since, or has nothing to decide) answers in place:
        the DM is edited to say so, a channel button answers privately; never a new DM."""
        info = await self.app.info(gid)
        me = info.seat_of(interaction.user.id)
        if me is None:
            raise UserError("You have no seat in this game.")
        msg = interaction.message
        in_dm = msg is not None and interaction.guild_id is None and not msg.flags.ephemeral
        over: str | None = None
        if info.status != "active":
            over = f"The game is {info.status}."
        elif ver is not None and await self.app.moved_since(gid, me.seat, ver) is not None:
            over = await self.app.taken_over_since(gid, me.seat, ver) or "✅ That turn is done: you moved since this message."
        prompt = await self.app.prompt(gid, me.seat) if info.status == "active" else None
        if over is None and not prompt:
            pending = await self.app.holdups(gid)
            who = ", ".join(h.display_name for h in pending) or "nobody"
            over = f"You have nothing to decide right now (waiting for {who})."
        note = ""
        if over is not None and prompt and not in_dm:  # privately, with the current decision itself
            note, over = over.replace("this message", "that message") + " Here is your current decision.", None
        if over is not None:
            if prompt:
                newest = next(iter(self.prompts.of_seat(gid, me.seat)), None)
                link = newest.link() if newest is not None else None
                over += f" Your current decision: {link}" if link else " Your current decision: use `/plan`."
            if in_dm:
                await interaction.response.edit_message(content=over, embed=None, view=None, attachments=[])
                self.drop(interaction, gid, me.seat)
                return
            raise UserError(over)
        if in_dm:  # the DM itself becomes the decision
            await interaction.response.defer()
            embed, files, ui = await self.decision_message(info, me.seat)
            await interaction.edit_original_response(content=None, embed=embed, attachments=files, view=ui)
            entry = self._entry(interaction, gid, me.seat, board.TURN, info.version)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)  # pictures may take a moment
            embed, files, ui = await self.decision_message(info, me.seat, note=note)
            sent = await interaction.followup.send(embed=embed, files=files, view=ui, ephemeral=True, wait=True)
            entry = self._entry(interaction, gid, me.seat, board.TURN, info.version, message_id=sent.id)
        await self.show(entry)

    # ------------------------------------------------------------------ reminders
    async def send_reminder(self, nudge: Nudge) -> None:
        """The reminder scheduler's send callback: a DM (a channel mention if DMs are
        closed), or the AI takeover notice and what the AI did, all through the outbox."""
        info = await self.app.info(nudge.game_id)
        if nudge.kind == "takeover":  # the app wrote the notice and the outcome's rows
            self.kick(info.id)
            self.spawn(self.sweep(info.id))
            return
        if nudge.user_id is None:
            return
        prompt = await self.app.prompt(nudge.game_id, nudge.seat)
        game = self.presenter(info)
        what = game.describe_prompt(prompt)
        note = f"⏰ Reminder: game #{info.id} in <#{info.place_id}> is waiting for you since <t:{int(nudge.since_at)}:R>: {what}."
        takeover = [d for d in await self.app.deadlines(info.id) if d.seat == nudge.seat and d.kind == "takeover"]
        if takeover:  # the clock on every prompt
            note += f" The AI takes over your seat <t:{int(takeover[0].due_at)}:R>."
        fallback = f"<@{nudge.user_id}> ⏰ the game is waiting for you: {what}. Use `/plan` here."
        if await self.app.notify_of(nudge.user_id) == "mention":  # no DMs for turns: a mention, as for a turn
            clock = f" The AI takes over your seat <t:{int(takeover[0].due_at)}:R>." if takeover else ""
            mention = f"<@{nudge.user_id}> ⏰ Reminder: the game is waiting for you since <t:{int(nudge.since_at)}:R>: {what}. Use `/plan` here.{clock}"
            await self.enqueue(info.id, [post_row(mention, ordered=False)])
            return
        payload: dict[str, Any] = {"fallback": fallback, "buttons": "open", "open_at": info.version, "seat": nudge.seat}
        draft = None
        if game.secret_builder(prompt) is not None:
            view = await self.app.view(info.id, nudge.seat)
            draft = await self.app.draft(info.id, nudge.seat, decision_key(view))
        if draft is not None and draft.message_id is not None and draft.channel_id is not None:
            # the same planner, linked: never a second live one
            link = f"https://discord.com/channels/@me/{draft.channel_id}/{draft.message_id}"
            payload["content"] = f"{note}\nYour planner is here, as you left it: {link}"
            payload.pop("buttons")  # the planner is the one live prompt
        elif game.secret_builder(prompt) is not None:
            payload.update(planner=nudge.seat, note=note)
        else:
            payload["content"] = note
        await self.enqueue(info.id, [("dm", str(nudge.user_id), payload, False)])

    async def on_replay(self, interaction: discord.Interaction[Any], gid: int, op: str, n: int) -> None:
        """A ``/game replay`` button: the step it goes to, in place (:func:`replay_step`)."""
        await replay_click(self, interaction, gid, op, n)


# --------------------------------------------------------------------- commands


slash = CommandSet()  # the module's slash commands, declared above each function


@slash.top("plan", "Open your decision privately (the planner in Planning)")
@app_commands.describe(game="The game (only needed outside the game's channel)")
@app_commands.autocomplete(game=game_autocomplete)
async def plan_command(interaction: discord.Interaction[Any], game: app_commands.Range[str, None, 30] | None = None) -> None:
    app = app_of(interaction)
    gid: int | None = None
    if game:
        try:
            gid = int(game.lstrip("#"))
        except ValueError:
            raise UserError("Pick a game from the list.") from None
    elif interaction.guild_id is not None:
        here = await app.game_in_channel(int(interaction.channel_id or 0))
        gid = here.id if here else None
    if gid is None:
        mine = [g for g in await app.games_of_user(interaction.user.id) if g.status == "active"]
        waiting = []
        for g in mine:
            s = g.seat_of(interaction.user.id)
            if s is not None and await app.prompt(g.id, s.seat):
                waiting.append(g)
        if len(waiting) == 1:
            gid = waiting[0].id
        elif not waiting:
            raise UserError("You have nothing to decide in any game right now.")
        else:
            raise UserError("You play several games: pick one with the `game` option.")
    await _play(interaction).open_decision(interaction, gid)


@slash.game("status", "Phase, whose move, sealed plans, deadlines")
async def game_status(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    play = _play(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    embed, files = await play_status(play, info)
    await interaction.followup.send(embed=embed, files=files, ephemeral=True)


async def play_status(play: Play, info: GameInfo) -> tuple[discord.Embed, list[discord.File]]:
    app = play.app
    game = play.presenter(info)
    embed = discord.Embed(title=f"Game #{info.id} — {game.title} ({info.status})")
    files: list[discord.File] = []
    if info.status in ("lobby",):
        embed.description = "In the lobby: " + ", ".join(s.display_name for s in info.seats)
        return embed, files
    view = await app.view(info.id, None)
    phase = view.get("phase_title") or game.phase_title(view.get("phase"))
    lines = [f"Round **{view.get('round')}**/{view.get('rounds', '?')} · phase **{phase}**"]
    holdups = await app.holdups(info.id)
    due = {(d.seat, d.kind): d.due_at for d in await app.deadlines(info.id)}
    away = await app.away_in_game(info.id)  # /away (issue 36)
    for s in sorted(info.seats, key=lambda s: s.position):
        bits = [f"**{s.display_name}**", *game.status_bits(view, s.seat)]
        if s.ai_takeover:
            bits.append("(AI plays this seat)")
        if s.seat in away:
            bits.append(f"🏖️ away until <t:{int(away[s.seat])}:D>")
        h = next((h for h in holdups if h.seat == s.seat), None)
        if h is not None:
            wait = f"⏳ to move since <t:{int(h.since_at)}:R>"
            if (s.seat, "nudge") in due:
                wait += f", reminder <t:{int(due[(s.seat, 'nudge')])}:R>"
            if (s.seat, "takeover") in due:
                wait += f", AI takes over <t:{int(due[(s.seat, 'takeover')])}:R>"
            bits.append(wait)
        lines.append(" · ".join(bits))
    st = info.settings
    lines.append(
        f"Reminders after {text.hours(st.remind_after_hours)}, then every {text.hours(st.repeat_hours)}; "
        + (f"AI takeover after {text.hours(st.takeover_after_hours)}." if st.takeover else "no AI takeover.")
    )
    embed.description = "\n".join(lines)
    pic = await play.bot.picture("board.png", "draw", info.game, info.drawn(view))
    if pic is not None:
        files.append(pic)
        embed.set_image(url="attachment://board.png")
    return embed, files


async def rounds_of(play: Play, info: GameInfo) -> int | None:
    """How many rounds the game has (its public view's ``rounds``), None if it does not say."""
    n = (await play.app.view(info.id, None)).get("rounds")
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


def no_such_round(round_no: int, rounds: int | None) -> str | None:
    """The answer to a round the game does not have (None: it has it, or does not say)."""
    if rounds is None or 1 <= round_no <= rounds:
        return None
    return f"This game has {rounds} rounds: choose a round from 1 to {rounds}."


# the commands' bound on what Discord lets be typed; each game's own count is checked (no_such_round)
ROUND_TYPED_MOST = 50
ROUND_HELP = "Which round (from 1 to the game's last round)"


async def round_asked(
    interaction: discord.Interaction[Any], round_no: int | None
) -> tuple[GameInfo, Play, int, list[tuple[int, list[str]]], Any] | None:
    """What ``/game history`` and ``/game log`` answer privately (deferred here): the game
    here, the Play cog, the round (None: the current one), its true log as the public may
    see it now (each phase: the step that ended it, its lines with the players' names) and
    the record (:mod:`bot.app.replay`: what is secret is the engine's to say). None, the
    asker told why, before the game starts, for a round the game does not have, or before
    the round is played."""
    info = await game_here(interaction)
    play = _play(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if info.status == "lobby":
        await interaction.followup.send("The game has not started yet.", ephemeral=True)
        return None
    if round_no is None:
        round_no = int((await play.app.view(info.id, None)).get("round") or 1)
    else:
        refusal = no_such_round(round_no, await rounds_of(play, info))
        if refusal is not None:
            await interaction.followup.send(refusal, ephemeral=True)
            return None
    rec = await play.app.record(info.id)
    game = play.app.engine(info.game)
    phases = await asyncio.to_thread(round_phases, game, rec, round_no)
    if not phases:
        await interaction.followup.send(f"Round {round_no} has not been played yet.", ephemeral=True)
        return None
    return info, play, round_no, [(i, text.with_player_names(lines, info)) for i, lines in phases], rec


@slash.game("history", "The pictures and log of one round")
@app_commands.describe(round=ROUND_HELP)
async def game_history(
    interaction: discord.Interaction[Any], round: app_commands.Range[int, 1, ROUND_TYPED_MOST]
) -> None:
    """The pictures and log of one round, answered privately (only the asker sees it)."""
    asked = await round_asked(interaction, int(round))
    if asked is None:
        return
    info, play, round, phases, rec = asked
    files: list[discord.File] = []
    lines: list[str] = []
    for i, (step, log_lines) in enumerate(phases[:10]):
        v = await play.app.step_view(info.id, rec, step)
        pic = await play.bot.picture(f"round{round}-{i + 1}-{v.get('phase')}.png", "draw", info.game, info.drawn(v))
        if pic is not None:
            files.append(pic)
        lines.extend(log_lines)
    head = f"**Round {round}** of game #{info.id}\n"
    fit = pictures.within_budget([file_size(f) for f in files], play.bot.upload_limit)
    if fit < len(files):  # one message's pictures together stay under the upload limit
        head += f"({len(files) - fit} picture(s) left out: too large for one message.)\n"
        files = files[:fit]
    content = head + text.log_block(lines, 1700)
    await interaction.followup.send(content=text.clip(content, 2000), files=files, ephemeral=True)


LOG_MESSAGE = 1900  # characters of log per message (Discord: 2000 per message)
LOG_MESSAGES = 5  # at most this many private messages per /game log


def log_messages(head: str, lines: list[str], size: int = LOG_MESSAGE, most: int = LOG_MESSAGES) -> list[str]:
    """``head`` and the log lines ("• line") split into messages of at most ``size``
    characters, at most ``most`` of them (a last line says how many lines were left out)."""
    messages: list[str] = []
    current = head
    for i, line in enumerate(lines):
        item = "• " + text.clip(line, size - 100)
        last = len(messages) + 1 == most  # the last message keeps room for the note
        if len(current) + 1 + len(item) > size - (80 if last else 0):
            if last:
                messages.append(f"{current}\n… and {len(lines) - i} more line(s): `/game export` has the whole game.")
                return messages
            messages.append(current)
            current = item
        else:
            current = f"{current}\n{item}" if current else item
    messages.append(current)
    return messages


@slash.game("log", "The game's log as text, one round (privately)")
@app_commands.describe(round=ROUND_HELP + "; the current one if not given")
async def game_log(
    interaction: discord.Interaction[Any], round: app_commands.Range[int, 1, ROUND_TYPED_MOST] | None = None
) -> None:
    """The game's log as text, one round at a time, answered privately: the game's
    applied actions in order, as the public may see them (an undone move once, marked
    as taken back; nothing repeats)."""
    asked = await round_asked(interaction, None if round is None else int(round))
    if asked is None:
        return
    info, _play_cog, round, phases, _rec = asked
    lines = [line for _i, log_lines in phases for line in log_lines if line]
    head = f"**Log of round {round}** of game #{info.id}" + ("" if lines else "\n(nothing happened yet)")
    for content in log_messages(head, lines):
        await interaction.followup.send(content, ephemeral=True)


REPLAY_PICTURES = 16  # replay pictures kept (PNG bytes, a few hundred KiB each); the oldest goes first
_replay_pictures: OrderedDict[tuple[int, int, int, bool], bytes] = OrderedDict()


async def replay_message(play: Play, info: GameInfo, pos: int | None) -> tuple[str, discord.File | None, discord.ui.View]:
    """The stepper at position ``pos`` (0: the opening board; ``k``: after the game's
    ``k``-th logged action; None: the newest): its text (the step's log lines, as the
    public may see them now), the board after it (replayed from the log, drawn on
    demand, a few kept) and its buttons."""
    rec = await play.app.record(info.id)
    total = len(rec.steps)
    pos = total if pos is None else max(0, min(int(pos), total))
    game = play.presenter(info)
    if pos == 0:
        what, rnd, phase = ["The game begins.", *rec.opening], None, None
        step = None
        view_round = None
    else:
        step = rec.steps[pos - 1]
        what, rnd, phase = list(step.lines), step.round, step.phase
        view_round = rnd
    name = {s.seat: s.display_name for s in info.seats}
    if step is not None and not step.undo:
        who = name.get(step.seat, step.seat)
        if step.hidden:
            what.insert(0, f"{who} made a secret decision (shown once it is public).")
        elif step.detail:
            what.insert(0, f"{who}'s private decision: {step.detail}")
        elif not what:
            what.insert(0, f"{who}: {game.describe_action(step.action)}")
    key = (info.id, pos, rec.version, rec.over)
    data = _replay_pictures.get(key)
    if data is None:
        board = await play.app.step_view(info.id, rec, pos - 1)
        pic = await play.bot.picture(f"replay-{pos}.png", "draw", info.game, info.drawn(board))
        if pic is not None:
            data = pic.fp.read()
            _replay_pictures[key] = data
            while len(_replay_pictures) > REPLAY_PICTURES:
                _replay_pictures.popitem(last=False)
    else:
        _replay_pictures.move_to_end(key)
    stage = f"Round {view_round}" if view_round is not None else "the opening board"
    if phase is not None:
        stage += f" · {game.phase_title(phase)}"
    head = f"**Replay of game #{info.id}** · step {pos} of {total} · {stage}"
    if not rec.over:
        head += "\n(The game is running: only what is public now is shown.)"
    lines = text.with_player_names(what, info)
    content = text.clip(head + "\n" + text.log_block(lines, 1500), 2000)
    rounds = [(r, i + 1) for r in rec.rounds() if (i := rec.first_step_of_round(r)) is not None]
    ui = views.replay_view(info.id, pos, total, rounds, view_round if pos else None)
    file = discord.File(io.BytesIO(data), filename=f"replay-{pos}.png") if data is not None else None
    return content, file, ui


async def replay_click(play: Play, interaction: discord.Interaction[Any], gid: int, op: str, n: int) -> None:
    """A stepper button: edit its own message to the step it goes to."""
    try:
        info = await play.app.info(gid)
    except AppError:
        raise UserError("That game is gone.") from None
    if interaction.guild_id is not None and info.guild_id not in (None, interaction.guild_id):
        raise UserError("That game is not one of this server.")
    if info.status == "lobby" or info.seed is None:
        raise UserError("The game has not started yet.")
    pos: int | None = n
    if op == "last":
        pos = None
    elif op == "round":
        rec = await play.app.record(gid)
        first = rec.first_step_of_round(n)
        if first is None:
            raise UserError(f"Round {n} has not been played yet.")
        pos = first + 1
    await interaction.response.defer()  # (an edit of this message follows)
    content, file, ui = await replay_message(play, info, pos)
    await interaction.edit_original_response(content=content, attachments=[file] if file else [], view=ui)


@slash.game("replay", "The game move by move, privately")
@app_commands.describe(game="The game's number (default: this channel's game, or its last one)")
async def game_replay(interaction: discord.Interaction[Any], game: app_commands.Range[int, 1, None] | None = None) -> None:
    """The game move by move, privately: ◀ ▶ step through the log, ⏮ ⏭ to either end,
    "Round N" to a round's start; each step is one logged action with its log lines and
    the board after it. A running game shows only what is public; a finished one, also
    finished games of this channel, everything."""
    if interaction.guild_id is None:
        raise UserError("Use this in the channel of a game.")
    play = _play(interaction)
    info = None
    if game is not None:
        try:
            info = await play.app.info(int(game))
        except AppError:
            info = None
        if info is not None and info.guild_id != interaction.guild_id:
            info = None
        if info is None:
            raise UserError(f"There is no game #{game} in this server.")
    else:
        info = await play.app.latest_game_at(int(interaction.channel_id or 0))
        if info is None:
            raise UserError("There is no game in this channel. Start one with `/game new`.")
    if info.status == "lobby" or info.seed is None:
        raise UserError("The game has not started yet.")
    await interaction.response.defer(ephemeral=True, thinking=True)
    content, file, ui = await replay_message(play, info, None)
    if file is not None:
        await interaction.followup.send(content, file=file, view=ui, ephemeral=True)
    else:
        await interaction.followup.send(content, view=ui, ephemeral=True)


@slash.game("export", "The game record as JSON")
async def game_export(interaction: discord.Interaction[Any]) -> None:
    info = await game_here(interaction)
    data = await app_of(interaction).export(info.id)  # as the public may see it; the seed once over
    payload = json.dumps(data, indent=1, sort_keys=True).encode()
    await interaction.response.send_message(
        f"Game #{info.id} as JSON (seed and action log; replay it with `boardroom replay`).",
        file=discord.File(io.BytesIO(payload), filename=f"boardroom-game-{info.id}.json"),
        ephemeral=True,
    )


async def _history_round_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    info = await app_of(interaction).game_in_channel(int(interaction.channel_id or 0))
    rounds = 5
    if info is not None and info.status != "lobby":
        view = await app_of(interaction).view(info.id, None)
        rounds = int(view.get("round") or 5)
    return [app_commands.Choice(name=f"Round {n}", value=n) for n in range(1, rounds + 1) if current in str(n)]


game_history = app_commands.autocomplete(round=_history_round_autocomplete)(game_history)
game_log = app_commands.autocomplete(round=_history_round_autocomplete)(game_log)


def file_size(file: discord.File) -> int:
    """The byte size of an upload (its data is in memory)."""
    fp = file.fp
    here = fp.tell()
    size = fp.seek(0, io.SEEK_END)
    fp.seek(here)
    return size


def _play(interaction: discord.Interaction[Any]) -> Play:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined,return-value]


async def setup(bot: BoardroomBot) -> None:
    await bot.add_cog(Play(bot))
    slash.add_to(bot)


async def teardown(bot: BoardroomBot) -> None:
    slash.remove_from(bot)
