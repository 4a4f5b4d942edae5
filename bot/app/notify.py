"""How a player is told of a turn, in every game (issue 36), and the daily digest.

A player's choice, stored per user (``user_home.notify``), valid in all their games:

- ``mention``: a mention in the game's channel, no DM for a turn;
- ``dm``: a DM for every turn of theirs, no mention (their name, in bold);
- ``both``: the mention and a DM for every turn;
- ``digest``: neither: one DM a day, at the hour they chose in their own time zone,
  listing every game waiting on them.
- not chosen: each game's default (a mention, and a DM for a turn inside a phase).

Quiet hours stay as they are. A reminder follows the choice: a player who chose
``mention`` is reminded by a mention in the game's channel, everyone else by DM (a
``digest`` player too: a reminder is about a game held up now, which tomorrow's digest
would not mend). The choice is applied when an action's
messages are composed (:meth:`NotifyOps._compose_context_and_batch`), from a copy kept
in memory (this process is the database's one writer), so an action reads nothing more.
The digests due are prepared and written to the outbox in one transaction
(:meth:`NotifyOps.send_digests`); the deliverer sends them, paced like every DM.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.app.compose import Context
from bot.app.core import Core, State
from bot.records import AppError, GameInfo, Outcome
from bot.settings import zone
from bot.storage import Tx
from engine import Game

NOTIFY = ("mention", "dm", "both", "digest")
NOTIFY_WORDS = {
    "mention": "a mention in the game's channel, no DM",
    "dm": "a DM for every turn of yours, no mention",
    "both": "a mention and a DM for every turn of yours",
    "digest": "one DM a day at {hour}:00 ({tz}) listing the games waiting on you",
    None: "each game's default: a mention, and a DM for a turn inside a phase",
}
DEFAULT_DIGEST_HOUR = 9


@dataclass(frozen=True)
class Digest:
    user_id: int
    game_id: int  # the outbox row's game (the first game listed)
    text: str


def next_at_hour(now: float, hour: int, tz: str) -> float:
    """The next time (UTC seconds, after ``now``) it is ``hour``:00 in zone ``tz``."""
    z = zone(tz)
    local = datetime.fromtimestamp(now, z)
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at.timestamp() <= now:
        at = (local + timedelta(days=1)).replace(hour=hour, minute=0, second=0, microsecond=0)
    return at.timestamp()


def digest_text(rows: list[Any], title: Any) -> str:
    """The digest DM: every game waiting on the player (rows of ``waiting_games_of``)."""
    lines = [f"☀️ Your daily digest: {len(rows)} game{'s' if len(rows) != 1 else ''} waiting on you."]
    for _, gid, game, guild, channel, thread, since in rows[:40]:
        link = f"https://discord.com/channels/{guild if guild is not None else '@me'}/{thread or channel}"
        lines.append(f"• #{gid} {title(game)}: waiting since <t:{int(since)}:R> · [open]({link})")
    if len(rows) > 40:
        lines.append(f"…and {len(rows) - 40} more: `/games` lists them all.")
    return "\n".join(lines)


class NotifyOps(Core):
    """The players' notification choices and the daily digest."""

    _notify_cache: dict[int, str] | None = None

    async def _compose_context_and_batch(
        self, tx: Tx, info: GameInfo, game: Game, state: State, out: Outcome, *, notices: bool = True
    ) -> tuple[Context, int]:
        ctx, batch = await super()._compose_context_and_batch(tx, info, game, state, out, notices=notices)
        if self._notify_cache is None:
            self._notify_cache = await tx.notify_prefs()
        if self._notify_cache:
            for s in info.seats:
                choice = self._notify_cache.get(s.user_id) if s.user_id is not None else None
                if choice in ("dm", "both"):
                    ctx.every_turn.add(s.user_id)  # type: ignore[arg-type]
                if choice in ("mention", "digest"):
                    ctx.no_dm.add(s.user_id)  # type: ignore[arg-type]
                if choice in ("dm", "digest"):
                    ctx.no_mention.add(s.user_id)  # type: ignore[arg-type]
        return ctx, batch

    async def set_notify(
        self, user_id: int, notify: str | None, *, digest_hour: int | None = None, tz: str | None = None
    ) -> str:
        """Choose how ``user_id`` is told of a turn (None: each game's default); the
        sentence that says what they chose. A bad choice changes nothing."""
        if notify is not None and notify not in NOTIFY:
            raise AppError("Choose mention, dm, both or digest.")
        if digest_hour is not None and (isinstance(digest_hour, bool) or not isinstance(digest_hour, int)
                                        or not 0 <= digest_hour <= 23):
            raise AppError("The digest hour is a whole hour from 0 to 23.")
        if tz is not None:
            try:
                zone(tz)
            except ValueError as exc:
                raise AppError(str(exc)) from None
        async with self.storage.transaction() as tx:
            _hidden, old, old_hour, _next = await tx.user_home(user_id)
            if notify is None:  # a digest hour alone: the digest; a time zone alone: as before
                notify = "digest" if digest_hour is not None else old
            if tz is not None:
                await tx.put_tz(user_id, tz)
            zone_name = tz or await tx.user_tz(user_id)
            hour = digest_hour if digest_hour is not None else (old_hour if old_hour is not None else DEFAULT_DIGEST_HOUR)
            fields: dict[str, Any] = {"notify": notify}
            if notify == "digest":
                fields.update(digest_hour=hour, digest_next=next_at_hour(self.clock(), hour, zone_name))
            await tx.put_user_home(user_id, **fields)
        self._notify_cache = None  # read again at the next action
        return NOTIFY_WORDS[notify].format(hour=f"{hour:02d}", tz=zone_name)

    async def notify_of(self, user_id: int) -> str | None:
        """The player's choice (one of :data:`NOTIFY`), or None: each game's default."""
        async with self.storage.read() as q:
            _hidden, notify, _hour, _next = await q.user_home(user_id)
        return notify

    async def notify_choice(self, user_id: int) -> str:
        async with self.storage.read() as q:
            _hidden, notify, hour, _next = await q.user_home(user_id)
            tz = await q.user_tz(user_id)
        return NOTIFY_WORDS[notify].format(hour=f"{hour or DEFAULT_DIGEST_HOUR:02d}", tz=tz)

    async def prepare_digests(self, q: Tx, now: float, limit: int = 100_000) -> tuple[list[Digest], list[tuple[float, int]]]:
        """The digests due at ``now`` (a player with no game waiting gets none) and each
        player's next digest time: two indexed queries, whatever the number of games."""
        due = await q.due_digests(now, limit)
        if not due:
            return [], []
        waiting: dict[int, list[Any]] = defaultdict(list)
        for row in await q.waiting_games_of([int(r[0]) for r in due]):
            waiting[int(row[0])].append(row)
        titles: dict[str, str] = {}

        def title(name: str) -> str:
            if name not in titles:
                titles[name] = self.presenter(name).title
            return titles[name]

        digests, nexts = [], []
        for user, hour, tz in due:
            user = int(user)
            try:
                nexts.append((next_at_hour(now, int(hour if hour is not None else DEFAULT_DIGEST_HOUR), str(tz)), user))
            except ValueError:
                nexts.append((next_at_hour(now, DEFAULT_DIGEST_HOUR, "UTC"), user))
            rows = waiting.get(user)
            if rows:
                digests.append(Digest(user, int(rows[0][1]), digest_text(rows, title)))
        return digests, nexts

    async def send_digests(self) -> list[Digest]:
        """Write the digests due now to the outbox (one DM each) and move each player's
        next digest a day on: one transaction."""
        now = self.clock()
        async with self.storage.transaction() as tx:
            digests, nexts = await self.prepare_digests(tx, now)
            if nexts:
                batch = await tx.next_outbox_batch()
                for d in digests:
                    await tx.put_outbox(d.game_id, batch, "dm", str(d.user_id), {"content": d.text}, ordered=False,
                                        at=self.wall())
                await tx.put_digest_next(nexts)
        return digests
