"""The Discord side of the delivery outbox: :class:`DiscordSender` sends one outbox row
(:mod:`bot.delivery` decides when and in what order) and turns Discord's answers into
the deliverer's exceptions.

Row payloads (JSON, written by the app: :mod:`bot.app.compose`):

* ``post`` (target ``"place"``: the game's thread or channel, looked up at delivery, so
  ``/game move`` takes the waiting posts along): ``content``, ``pictures`` (a list of
  ``{"file", "fn", "args"}``: ``renderer.<fn>(*args)`` drawn now), ``embeds`` (dicts),
  ``buttons`` (``"open"``: the "Open my turn" button), ``remember`` (a message kind the
  game edits later, e.g. ``"sealed"``), ``dm_note`` (add "I cannot send you direct
  messages" for the players whose DM of the same batch was refused), ``held`` (put the
  held log lines of the phase's earlier turns under the post's first line);
* ``edit`` (target: a remembered message kind): ``content``; a deleted status message
  is posted anew;
* ``dm`` (target: a user id): ``planner`` (a seat: its private decision, built now from
  the current state; skipped if the seat has nothing to decide any more) or ``content``
  (+ ``buttons``), and ``fallback`` (posted in the game's place when DMs are closed).

Posts carry the row's nonce with ``enforce_nonce``: a post repeated after a crash between
sending it and marking it delivered is answered with the first message, not doubled.
A post in the game's place goes instead as a public follow-up of the newest click there
while its token lives (an interaction answer: not counted against the bot's global limit
of 50 requests a second, issue 37); a follow-up carries no nonce, so a crash in that
moment can double that one post. A message the game edits later (``remember``) is always
the bot's own post.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from bot import text, views
from bot.delivery import MAX_PICTURES, Blocked, DmClosed, Gone, Refused, Retry, picture_calls
from bot.errors import UserError
from bot.records import NotFound as GameNotFound

if TYPE_CHECKING:
    from bot.records import GameInfo
    from bot.storage import OutboxRow

log = logging.getLogger("boardroom.posting")

CLOSED_DMS = 50007
CANNOT_POST = (50013, 50001, 10003)  # Missing Permissions, Missing Access, Unknown Channel
UNKNOWN_MESSAGE = 10008
CLOSED_NOTE = ": I cannot send you direct messages. Use `/plan` in this channel: only you will see your planner."
DM_CHANNELS = 4096  # users whose DM channel is remembered (discord.py keeps only 128)


def classify(exc: discord.HTTPException) -> Exception:
    """The deliverer's exception for a Discord error answer."""
    if exc.code == CLOSED_DMS:
        return DmClosed(str(exc))
    if exc.code in CANNOT_POST:
        return Blocked(exc.code)
    if exc.code == UNKNOWN_MESSAGE:
        return Gone(str(exc))
    if exc.status == 429:
        after = getattr(exc, "retry_after", None)
        return Retry("rate limited", float(after) if after else None)
    if exc.status >= 500 or exc.status == 0:
        return Retry(f"Discord answered {exc.status}")
    if exc.status in (400, 413):
        return Refused(f"{exc.status} {exc.code}: {exc.text[:200]}")
    return Retry(f"Discord answered {exc.status} ({exc.code})")


def blocked_text(info: GameInfo, title: str, code: int) -> str:
    where = f"<#{info.place_id}>"
    if code == 10003:
        why = f"The channel of game #{info.id} ({title}) is gone, so I cannot post its moves."
        fix = (
            f"The host (or a member with Manage Server) can move the game to another channel with "
            f"`/game move game:{info.id}` there."
        )
    else:
        why = f"I cannot post in {where} for game #{info.id} ({title}): a permission is missing there."
        fix = (
            "A moderator can give me the permissions View Channel, Send Messages, Embed Links, Attach Files "
            f"and Send Messages in Threads in {where}; or the host can move the game with "
            f"`/game move game:{info.id}` in another channel."
        )
    return f"⚠️ {why} {fix} Nothing is lost: every move is recorded, and I post them as soon as I can."


class DiscordSender:
    def __init__(self, bot: Any) -> None:
        self.bot = bot  # the BoardroomBot (not imported: it imports this module)
        # the pictures of posts that wait for their turn, drawn ahead (row id -> task)
        self._ready: dict[int, asyncio.Task[list[discord.File]]] = {}
        # user id -> their DM channel: a DM needs no look-up of the user (a request when
        # the user is not cached) nor of the channel; a DM channel's id never changes
        self._dms: OrderedDict[int, discord.DMChannel] = OrderedDict()

    def prepare(self, row: OutboxRow) -> None:
        """Start drawing the pictures of a post that waits (for its batch's DMs, for the
        pace): when its turn comes they are ready, or closer to it."""
        if row.id in self._ready or not row.payload.get("pictures"):
            return
        while len(self._ready) >= 64:  # a bound: rows that wait long are drawn again
            self._ready.pop(next(iter(self._ready))).cancel()
        self._ready[row.id] = asyncio.get_running_loop().create_task(
            self.pictures(row.payload["pictures"]), name=f"boardroom-deliver-pictures-{row.id}"
        )

    async def _row_pictures(self, rows: list[OutboxRow]) -> list[discord.File]:
        """The pictures of ``rows`` (a post and the posts merged into it), in order: those
        drawn ahead by :meth:`prepare`, the others now, all together."""
        calls = []
        for r in rows:
            task = self._ready.pop(r.id, None)
            calls.append(task if task is not None else self.pictures(r.payload.get("pictures") or []))
        files = [f for group in await asyncio.gather(*calls) for f in group]
        return files[:MAX_PICTURES]

    @property
    def app(self) -> Any:
        return self.bot.app

    async def _info(self, game_id: int) -> GameInfo:
        try:
            return await self.app.info(game_id)  # type: ignore[no-any-return]
        except GameNotFound:
            raise Gone(f"game {game_id} is gone") from None

    # -- the deliverer's interface ------------------------------------------------------

    async def channel_key(self, row: OutboxRow) -> str | None:
        if row.kind == "post":
            return str((await self._info(row.game_id)).place_id)
        if row.kind == "edit":
            ref = await self.app.message(row.game_id, row.target)
            return str(ref.channel_id) if ref else None
        return None

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        try:
            if row.kind == "post":
                return await self._post(row, merged)
            if row.kind == "edit":
                return await self._edit(row)
            if row.kind == "dm":
                return await self._dm(row)
        except discord.HTTPException as exc:
            raise classify(exc) from exc
        raise Refused(f"unknown outbox row kind {row.kind!r}")

    async def tell_blocked(self, game_id: int, code: int) -> None:
        info = await self._info(game_id)
        words = blocked_text(info, self.app.presenter(info.game).title, code)
        users = {s.user_id for s in info.seats if s.user_id is not None} | {info.host_id}
        for uid in sorted(users):
            try:
                dm = await self.dm_channel(uid)
                await dm.send(words)
            except discord.HTTPException as exc:
                log.info("game %s: could not tell user %s that the game cannot post (%s)", game_id, uid, exc.code)

    # -- sending -------------------------------------------------------------------------

    async def dm_channel(self, user_id: int) -> discord.DMChannel:
        known = self._dms.get(user_id)
        if known is not None:
            self._dms.move_to_end(user_id)
            return known
        # the DM channel opened with the user's id (one request; discord.py answers from its
        # cache if it has the channel): no look-up of the user first (issue 34 §4)
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        self._dms[user_id] = channel
        while len(self._dms) > DM_CHANNELS:
            self._dms.popitem(last=False)
        return channel

    async def _post(self, row: OutboxRow, merged: list[OutboxRow]) -> int:
        from bot.delivery import merge_payloads

        info = await self._info(row.game_id)
        payload = merge_payloads([row.payload] + [r.payload for r in merged]) if merged else dict(row.payload)
        content = payload.get("content") or ""
        if payload.get("held"):  # the log lines of the turns inside the phase that ended
            async with self.bot.storage.read() as q:
                held = await q.held_lines(row.game_id, max(r.id for r in [row, *merged]))
            if held:
                head, _, rest = content.partition("\n")
                content = "\n".join(x for x in (head, text.log_block(held, limit=900), rest) if x)
        if payload.get("dm_note"):
            closed: list[int] = []
            async with self.bot.storage.read() as q:
                for batch in sorted({row.batch, *(r.batch for r in merged)}):
                    closed += [u for u in await q.closed_dms_in_batch(batch) if u not in closed]
            if closed:
                content += "\n" + " ".join(f"<@{u}>" for u in closed) + CLOSED_NOTE
        files = await self._row_pictures([row, *merged])
        embeds = [discord.Embed.from_dict(e) for e in payload.get("embeds") or []]
        if not content and not files and not embeds:
            return 0  # nothing left to say (e.g. no renderer for a picture-only post)
        # merged posts: the button opens the newest decision they announce
        opened_at = [p.get("open_at") for p in [row.payload, *(r.payload for r in merged)] if p.get("open_at") is not None]
        ui = views.open_view(info.id, max(opened_at) if opened_at else None) if payload.get("buttons") == "open" else MISSING
        kw = {"content": text.clip(content, 2000) or None, "files": files, "embeds": embeds, "view": ui}
        message_id = None
        if not payload.get("remember"):  # (a message the game edits later is the bot's own post)
            message_id = await self.place_followup(info.place_id, **kw)
        if message_id is None:
            message_id = await self.send(info.place_id, row.nonce, **kw)
        if payload.get("remember"):
            await self.app.remember_message(info.id, payload["remember"], info.place_id, message_id)
        return message_id

    async def send(self, channel_id: int, nonce: str, **kw: Any) -> int:
        """POST a message with ``nonce`` and ``enforce_nonce`` (a repeat is not doubled)."""
        kw.setdefault("allowed_mentions", self.bot.allowed_mentions)
        files = kw.pop("files", None) or MISSING
        embeds = kw.pop("embeds", None) or MISSING
        content = kw.pop("content", None)
        with handle_message_parameters(content=content, files=files, embeds=embeds, nonce=nonce, **kw) as params:
            if params.payload is not None:
                params.payload["enforce_nonce"] = True
            elif params.multipart:
                body = json.loads(params.multipart[0]["value"])
                body["enforce_nonce"] = True
                params.multipart[0]["value"] = json.dumps(body)
            data = await self.bot.http.send_message(channel_id, params=params)
        return int(data["id"])

    async def send_dm(self, channel_id: int, **kw: Any) -> int:
        """POST a direct message (as ``DMChannel.send``, without building a
        :class:`discord.Message` of the answer nor keeping its view: the buttons are
        persistent, matched by their ids as the posts' are); the message id."""
        kw.setdefault("allowed_mentions", self.bot.allowed_mentions)
        with handle_message_parameters(
            content=kw.pop("content", None), files=kw.pop("files", None) or MISSING, **kw
        ) as params:
            data = await self.bot.http.send_message(channel_id, params=params)
        return int(data["id"])

    async def followup(self, ix: discord.Interaction[Any], **kw: Any) -> int:
        """A public follow-up of interaction ``ix`` (in its channel): its message id."""
        hook = ix.followup
        kw.setdefault("allowed_mentions", self.bot.allowed_mentions)
        with handle_message_parameters(
            content=kw.get("content"), files=kw.get("files") or MISSING, embed=kw.get("embed", MISSING),
            embeds=kw.get("embeds") or MISSING, view=kw.get("view", MISSING), allowed_mentions=kw["allowed_mentions"],
        ) as params:
            data = await async_context.get().execute_webhook(
                hook.id, hook.token or "", session=hook.session, proxy=hook.proxy, proxy_auth=hook.proxy_auth,
                payload=params.payload, multipart=params.multipart, files=params.files, wait=True,
            )
        return int(data["id"])  # type: ignore[index]

    async def place_followup(self, channel_id: int, **kw: Any) -> int | None:
        """A post in the game's place as a public follow-up of the newest click there while
        its token lives (an interaction answer: not counted against the bot's global limit
        of requests, issue 37): its message id, or None (no such click, or it failed: the
        caller posts it in the channel). A post sent so carries no nonce: a crash between it
        and its "delivered" mark sends it again after the restart."""
        play = self.bot.get_cog("Play")
        ix = play.place_interaction(channel_id) if play is not None else None
        if ix is None or ix.channel_id != channel_id:
            return None
        try:
            return await self.followup(ix, **kw)
        except discord.HTTPException as exc:  # (an expired token) through the channel
            log.info("a post in %s as a follow-up failed (%s); posted", channel_id, exc)
            for f in kw.get("files") or []:
                f.reset()
            return None

    async def dm_send(self, user_id: int, channel_id: int, **kw: Any) -> int:
        """A DM: as a follow-up of the user's newest click in that DM while its token lives
        (an interaction answer: not counted against the bot's global limit of requests,
        issue 37), else (or if that fails) posted in the DM channel; the message id."""
        play = self.bot.get_cog("Play")
        ix = play.dm_interaction(user_id, channel_id) if play is not None else None
        if ix is not None:
            try:
                message_id = await self.followup(ix, **kw)
                play.sent_as_followup(message_id, user_id, ix)  # (its token edits it too)
                return message_id
            except discord.HTTPException as exc:  # (an expired token) through the channel
                log.info("a DM to user %s as a follow-up failed (%s); posted", user_id, exc)
                for f in kw.get("files") or []:
                    f.reset()
        return await self.send_dm(channel_id, **kw)

    async def _edit(self, row: OutboxRow) -> int:
        info = await self._info(row.game_id)
        ref = await self.app.message(row.game_id, row.target)
        if ref is None or ref.channel_id not in (info.place_id, info.channel_id):
            raise Gone(f"no {row.target} message in the game's place")
        msg = self.bot.get_partial_messageable(ref.channel_id).get_partial_message(ref.message_id)
        content = text.clip(row.payload.get("content") or "", 2000)
        try:
            await msg.edit(content=content)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE or row.target != "status":
                raise
            # someone deleted the status message: the game gets a new one
            message_id = await self.send(info.place_id, row.nonce, content=content)
            await self.app.remember_message(info.id, "status", info.place_id, message_id)
            return message_id
        return ref.message_id

    async def taken(self, info: GameInfo, row: OutboxRow) -> bool:
        """Whether a DM about a seat's decision (a planner, "your move", "you are the last
        one", a reminder: ``seat`` or ``planner``, written at version ``open_at``) is about
        a decision already taken: the seat moved since (its move, an undo, an unseal, the
        AI's move for it), or it has nothing to decide now. Such a DM is dropped, not
        sent (issue 34 §2): its button could only say "that turn is done", and as the
        seat's newest message it would take the place of the live prompt of the seat's
        next decision."""
        seat = row.payload.get("seat") or row.payload.get("planner")
        at = row.payload.get("open_at")
        if not seat or isinstance(at, bool) or not isinstance(at, int):
            return False
        if at != info.version and await self.app.moved_since(info.id, seat, at) is not None:
            return True
        return not row.payload.get("planner") and await self.app.prompt(info.id, seat) is None

    async def _dm(self, row: OutboxRow) -> int | None:
        info = await self._info(row.game_id)
        uid = int(row.target)
        play = self.bot.get_cog("Play")
        if await self.taken(info, row):
            raise Gone("a DM about a decision already taken")
        try:
            if row.payload.get("planner"):
                try:
                    embed, files, ui = await play.decision_message(  # type: ignore[union-attr]
                        info, row.payload["planner"], note=row.payload.get("note") or ""
                    )
                except UserError:
                    raise Gone("nothing to decide any more") from None
                dm = await self.dm_channel(uid)
                message_id = await self.dm_send(uid, dm.id, embed=embed, files=files, view=ui)
                await play.remember_planner(info, row.payload["planner"], dm.id, message_id)  # type: ignore[union-attr]
                await play.shown_dm(info, row.payload["planner"], dm.id, message_id, None, kind="turn")  # type: ignore[union-attr]
            else:
                dm = await self.dm_channel(uid)
                seat = row.payload.get("seat")
                opens = row.payload.get("buttons") == "open"
                ui = views.open_view(info.id, row.payload.get("open_at")) if opens else MISSING
                content = text.clip(row.payload.get("content") or "", 2000)
                reused = None
                if row.payload.get("notice") and seat:  # a notice about an open decision: on its DM
                    reused = await play.note_on_prompt(info, seat, content)  # type: ignore[union-attr]
                    if reused:
                        return reused
                if opens and seat:  # the seat's decision is open in a prompt already: a link, not a second one
                    live = await play.live_decision(info, seat)  # type: ignore[union-attr]
                    if live is not None:
                        content = text.clip(content + (f"\nYour decision is open here: {live}" if live else ""), 2000)
                        opens, ui = False, MISSING
                if opens and seat:  # a redo after an undo: the turn's DM edited back, not a second one
                    reused = await play.reuse_turn_dm(info, seat, content, ui)  # type: ignore[union-attr]
                message_id = reused or await self.dm_send(uid, dm.id, content=content, view=ui)
                if opens and seat:
                    await play.shown_dm(info, seat, dm.id, message_id, row.payload.get("open_at"))  # type: ignore[union-attr]
            return message_id
        except discord.Forbidden as exc:
            if exc.code not in (CLOSED_DMS, 50001, 50013):
                raise
            fallback = row.payload.get("fallback")
            if not fallback:
                raise DmClosed(str(exc)) from exc
            ui = views.open_view(info.id, row.payload.get("open_at")) if row.payload.get("buttons") == "open" else MISSING
            return await self.send(info.place_id, row.nonce, content=text.clip(fallback, 2000), view=ui)

    async def pictures(self, specs: list[Any]) -> list[discord.File]:
        """A post's pictures, drawn together (``bot.pictures.PAINTER``: its workers, off
        the event loop), in the order given; a picture that cannot be drawn is left out.
        ``specs``: the payload's (as stored: arguments as JSON text; or dicts)."""
        calls = []
        for filename, fn, args_json in picture_calls({"pictures": specs}):
            if fn != "draw" and not hasattr(self.bot.renderer, fn):
                fn = "draw"
            calls.append(self.bot.picture_json(filename, fn, args_json))
        return [pic for pic in await asyncio.gather(*calls) if pic is not None]
