"""The discord.py client: ``create_bot(db_path=...)`` returns it unstarted.

::

    bot = create_bot(db_path="boardroom.db")
    await bot.start(token)          # or bot.run(token); boardroom run does this

``setup_hook`` (runs once, inside the event loop, before the gateway connects):
opens the database (:class:`bot.storage.Storage`; its WAL checkpoints run in the
background, :meth:`~bot.storage.Storage.start_checkpoints`), builds the
:class:`bot.app.App`, loads the extensions (one cog per area), registers the
persistent components (:data:`bot.views.DYNAMIC_ITEMS`), installs the one error
handler, starts the reminder scheduler (jobs rebuilt from the database: none
lost across a restart), and syncs the slash commands. ``close`` stops the
scheduler and closes the database (an open aiosqlite connection would hang the
process at exit).

Test overrides (keyword arguments of :func:`create_bot`): ``clock``,
``seed_source``, ``ai_choose``, ``games`` (engines by name), ``presenters`` (game
presenters by name, beside the registry of :mod:`bot.games`), ``renderer`` (a
module with ``draw``/``draw_plan``, or ``None`` for no pictures),
``sync_commands``, ``sync_guild_id``, ``guild_ready_timeout``, ``scheduler``, ``table``
(a :class:`bot.table.config.TableConfig`: serve the live table),
(an APScheduler instance), ``delivery`` (keyword arguments of
:class:`bot.delivery.Deliverer`: back-off, pacing, sweep period), ``intents``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, pictures

log = logging.getLogger("boardroom.bot")

LEASE_SECONDS = 60.0  # a crashed process's database is free again after this long
DB_START_WAIT_S = 60.0  # how long a database down at start is waited for (bot.storage.open_when_up)

EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.admin", "bot.cogs.help", "bot.cogs.table", "bot.cogs.home")

_UNSET: Any = object()


def default_renderer() -> Any | None:
    """The ``render`` package if it is installed and has ``draw`` (pictures are optional)."""
    try:
        import render  # type: ignore[import-not-found]
    except ImportError:
        return None
    if not hasattr(render, "draw"):
        return None
    return render


class BoardroomBot(commands.Bot):
    """The bot. Attributes set in ``setup_hook``: ``storage``, ``app``, ``reminders``."""

    def __init__(
        self,
        db_path: str,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        ai_choose: Any = None,
        games: dict[str, Any] | None = None,
        presenters: dict[str, Any] | None = None,
        renderer: Any = _UNSET,
        sync_commands: bool = True,
        sync_guild_id: int | None = None,
        scheduler: Any = None,
        delivery: dict[str, Any] | None = None,
        intents: discord.Intents | None = None,
        table: Any = None,
        collector: Any = None,
        **discord_kwargs: Any,
    ) -> None:
        intents = intents or discord.Intents.default()
        discord_kwargs.setdefault("chunk_guilds_at_startup", False)
        discord_kwargs.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **discord_kwargs)
        self.db_path = db_path
        self.clock = clock
        self.table_config = table  # bot.table.config.TableConfig: serve the live table (bot.cogs.table)
        self._app_kwargs: dict[str, Any] = {"clock": clock}
        if seed_source is not None:
            self._app_kwargs["seed_source"] = seed_source
        if ai_choose is not None:
            self._app_kwargs["ai_choose"] = ai_choose
        if games is not None:
            self._app_kwargs["games"] = games
        if presenters is not None:
            self._app_kwargs["presenters"] = presenters
        self.renderer = default_renderer() if renderer is _UNSET else renderer
        self.upload_limit = pictures.MAX_UPLOAD  # bytes per picture and per message
        self.sync_commands = sync_commands
        self.sync_guild_id = sync_guild_id
        self._scheduler = scheduler
        self.storage: Any = None
        self.app: Any = None
        self.reminders: Any = None
        self.delivery: Any = None  # bot.delivery.Deliverer (the outbox)
        self._delivery_kwargs = dict(delivery or {})
        self.game_group = app_commands.Group(name="game", description="Create, join and run board games", guild_only=True)
        self._token_filter: errors.RedactFilter | None = None
        errors.hide_secret_payloads()
        self.ready_event = asyncio.Event()
        self.lease_owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._heartbeat: asyncio.Task[None] | None = None
        self.collector = collector  # bot.runtime.Collector: the garbage collector, on the loop

    # -- lifecycle -------------------------------------------------------------------

    async def login(self, token: str) -> None:
        # The token never appears in a log line, whatever logs it.
        self._token_filter = errors.redact_token_everywhere(token)
        try:
            await super().login(token)
        except discord.LoginFailure:
            raise discord.LoginFailure("Improper token has been passed (the token is not shown).") from None

    async def setup_hook(self) -> None:
        from bot.app import App
        from bot.reminders import ReminderScheduler
        from bot.storage import open_when_up
        from bot.version import version_line
        from bot.views import DYNAMIC_ITEMS, answer_stray

        log.info("%s", version_line())
        if self.collector is not None:
            self.collector.start()
        # a database down at start (a server restarting, or started after the bot) is
        # waited for, with a log line a try; a wrong URL or password stops the bot at once
        self.storage = await open_when_up(self.db_path, DB_START_WAIT_S)
        try:  # one live process per database (a second one would fight over every write)
            await self.storage.take_lease(self.lease_owner, LEASE_SECONDS, self.clock)
        except BaseException:
            storage, self.storage = self.storage, None
            await storage.close()
            raise
        self._heartbeat = self.loop.create_task(self._renew_lease(), name="boardroom-lease")
        self.storage.start_checkpoints()  # WAL checkpoints off the moves' path (issue 9)
        self.app = App(self.storage, **self._app_kwargs)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.tree.add_command(self.game_group)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.add_listener(answer_stray, "on_interaction")  # a crafted button: a polite reply
        errors.install(self.tree)
        from bot.delivery import Deliverer, global_share
        from bot.posting import DiscordSender

        delivery_kwargs = dict(self._delivery_kwargs)
        chain_hold = delivery_kwargs.pop("chain_hold", None)
        if chain_hold is not None:
            self.app.chain_hold = float(chain_hold)
        status_settle = delivery_kwargs.pop("status_settle", None)
        if status_settle is not None:
            self.app.status_settle = float(status_settle)
        # rows a dead process held back for the end of its chain of moves are due now
        # (nothing runs yet: no interaction before the gateway connects)
        # (not on a database shared with other live processes: their chains hold theirs,
        # and a dead one's are due by themselves after their hold)
        if not self.storage.shared:
            async with self.storage.transaction() as tx:
                await tx.release_held_batches()
        # several processes, each with its range of shards: a fixed share of Discord's
        # global limit each
        share = global_share(getattr(self, "shard_count", None), getattr(self, "shard_ids", None))
        if share is not None:
            delivery_kwargs.setdefault("global_rate", share)
        self.delivery = Deliverer(self.storage, DiscordSender(self), **delivery_kwargs)
        play = self.get_cog("Play")
        self.delivery.on_sync = self.app.resync  # a "sync" marker left by an older version
        self.reminders = ReminderScheduler(
            self.app, play.send_reminder, clock=self.clock, scheduler=self._scheduler  # type: ignore[union-attr]
        )
        jobs = await self.reminders.start()
        log.info("reminder scheduler started with %d job(s)", jobs)
        if self.sync_commands:
            await self._sync()
        self.loop.create_task(self._after_ready(), name="boardroom-after-ready")

    async def _renew_lease(self) -> None:
        while True:
            await asyncio.sleep(LEASE_SECONDS / 4)
            try:
                await self.storage.take_lease(self.lease_owner, LEASE_SECONDS, self.clock)
            except asyncio.CancelledError:
                raise
            except Exception:  # a full disk or a lost lease: say so, keep trying
                log.exception("could not renew the database lease")

    async def _sync(self) -> None:
        try:
            if self.sync_guild_id:
                guild = discord.Object(id=self.sync_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("synced %d application command(s)", len(synced))
        except discord.HTTPException as exc:
            log.warning("could not sync application commands: %s", exc.status)

    async def _after_ready(self) -> None:
        """Once connected: let AI seats catch up after downtime and post what they did."""
        await self.wait_until_ready()
        self.ready_event.set()
        # the AI moves owed first, then the deliverer (its first sweep sends what a restart
        # left in the outbox, and the catch-up's rows): delivering a thousand games' posts
        # while the catch-up runs made the catch-up wait for the database and the event
        # loop (bench_scale.py --ai-seats: 46 s instead of 3 s plus the moves)
        await self.catch_up()
        self.delivery.start()
        if self.renderer is not None:  # then the first pictures cost what the next ones cost (bench_planner.py)
            pictures.PAINTER.warm_up()  # after the catch-up: start-up is not slowed down
        self.delivery.on_sweep.append(self.catch_up)  # and again with every sweep (issue 8 §5)

    async def catch_up(self) -> None:
        """AI seats owed a move (e.g. the process died between a player's commit and the
        AI's reply) move now; what they did goes to the outbox."""
        try:
            outcomes = await self.app.advance_all()
        except Exception:
            log.exception("could not let the AI seats catch up")
            return
        play = self.get_cog("Play")
        for out in outcomes:
            try:
                await play.publish(out)  # type: ignore[union-attr]
            except Exception:
                log.exception("could not post the catch-up of game %s", out.game_id)

    async def close(self) -> None:
        try:
            if self.reminders is not None:
                self.reminders.shutdown()
            if self.delivery is not None:
                await self.delivery.close()
            if self._heartbeat is not None:
                self._heartbeat.cancel()
            if self.collector is not None:
                self.collector.stop()
            if self.storage is not None:
                await self.storage.release_lease(self.lease_owner)
        except Exception:
            log.exception("could not release the database lease cleanly")
        finally:
            try:
                await super().close()
            finally:
                if self.storage is not None:
                    storage, self.storage = self.storage, None
                    await storage.close()

    # -- pictures --------------------------------------------------------------------

    async def picture_json(self, filename: str, fn_name: str, args_json: str) -> discord.File | None:
        """:meth:`picture` with the arguments as JSON text (a stored post's), decoded in the
        worker that draws it (:func:`bot.pictures.call_json`)."""
        renderer = self.renderer
        fn = getattr(renderer, fn_name, None) if renderer is not None else None
        if fn is None:
            return None
        return await self._picture(filename, pictures.call_json, fn, args_json)

    async def picture(self, filename: str, fn_name: str, *args: Any) -> discord.File | None:
        """``renderer.<fn_name>(*args)`` as a PNG file, drawn in a worker (``pictures.PAINTER``); None if
        there is no renderer, it fails, or the picture cannot be brought under Discord's
        upload limit (:func:`bot.pictures.png_bytes`): the game goes on without it."""
        renderer = self.renderer
        fn = getattr(renderer, fn_name, None) if renderer is not None else None
        if fn is None:
            return None
        return await self._picture(filename, fn, *args)

    async def _picture(self, filename: str, fn: Any, *args: Any) -> discord.File | None:
        try:
            data = await pictures.PAINTER.png(fn, *args, limit=self.upload_limit)
        except Exception:
            log.exception("drawing %s failed", filename)
            return None
        if data is None:
            log.warning("%s is too large to upload even re-encoded; sent without it", filename)
            return None
        return discord.File(io.BytesIO(data), filename=filename)


class ShardedBoardroomBot(BoardroomBot, commands.AutoShardedBot):
    """The same bot on discord.py's :class:`discord.AutoShardedClient`: one gateway
    connection per shard, each carrying its share of the servers (Discord requires
    shards from 2,500 servers on). Ready (``wait_until_ready``) once every shard is."""


async def approximate_guild_count(token: str) -> int | None:
    """How many servers the bot is in (Discord's application info), asked before the
    gateway is opened; None if Discord cannot say (the bot's own login then reports a
    bad token)."""
    client = discord.Client(intents=discord.Intents.none())
    errors.redact_token_everywhere(token)
    try:
        await client.login(token)
        info = await client.application_info()
        count = getattr(info, "approximate_guild_count", None)
        return int(count) if count is not None else None
    except Exception as exc:  # never echo the token: the type is enough
        log.warning("could not ask Discord how many servers the bot is in (%s)", type(exc).__name__)
        return None
    finally:
        await client.close()


def create_bot(
    db_path: str = "boardroom.db", *, shards: int | str | None = None, shard_ids: list[int] | None = None,
    **test_overrides: Any,
) -> BoardroomBot:
    """The bot, unstarted. ``boardroom run`` calls this and then ``bot.start(token)``.

    ``shards``: None, one gateway connection (:class:`BoardroomBot`); ``"auto"``, a
    :class:`ShardedBoardroomBot` with as many shards as Discord recommends; a number,
    that many shards (:func:`bot.config.shards_for` decides from ``BOARDROOM_SHARDS``
    and the server count). ``shard_ids``: only these of the ``shards`` (a number) run
    here (several processes on one PostgreSQL database, each its own range)."""
    if shards is None:
        return BoardroomBot(str(db_path), **test_overrides)
    if shards != "auto":
        test_overrides["shard_count"] = int(shards)
    if shard_ids is not None:
        test_overrides["shard_ids"] = list(shard_ids)
    return ShardedBoardroomBot(str(db_path), **test_overrides)
