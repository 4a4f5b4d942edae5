"""Games and their actions: the game rows, seats, the append-only action log, state
snapshots, planner drafts, the messages the bot edits, round starts and notices told once."""

from __future__ import annotations

import logging
from typing import Any

from bot import jsontext
from bot.settings import Settings
from bot.storage.base import TxCore, upsert
from bot.storage.errors import StorageError
from bot.storage.rows import (
    _GAME_COLS,
    ActionRow,
    DraftRow,
    GameRow,
    MessageRef,
    SeatRow,
    WaitingRow,
    _action_row,
    _game,
    _seat,
    _settings,
    dumps,
    snapshot_checksum,
)

log = logging.getLogger("boardroom.storage")

_ACTIONS = (
    "SELECT game_id, seq, seat, action, actor, created_at FROM actions"
    " WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq"
)
_SEAT_COLS = "game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"
SETTINGS_SQL = (
    "SELECT remind_after_hours, repeat_hours, takeover, takeover_after_hours FROM game_settings WHERE game_id = ?"
)


_SNAPSHOT_UPSERT = upsert(
    "snapshots", ("game_id", "version", "state", "created_at", "checksum"), ("game_id", "version")
)
_ROUND_START = "SELECT round, scores FROM round_starts WHERE game_id = ?"
_TELL = upsert("told", ("game_id", "seat", "what"), ("game_id", "seat", "what"), ignore=True)


class GamesSql(TxCore):
    """The SQL of games and actions (a part of :class:`bot.storage.Tx`)."""

    # games
    async def insert_game(
        self,
        game: str,
        options: dict[str, Any],
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        at: float,
    ) -> int:
        game_id = await self._insert_id(
            "INSERT INTO games (game, options, guild_id, channel_id, thread_id, host_id,"
            " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
            (game, dumps(options), guild_id, channel_id, thread_id, host_id, at, at),
        )
        if not game_id:
            raise StorageError("INSERT INTO games returned no id")
        await self.put_settings(game_id, Settings())  # today's defaults (the column defaults are 0001's)
        return int(game_id)

    async def game_row(self, game_id: int) -> GameRow | None:
        return _game(await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)))

    async def live_game_at(self, place_id: int) -> GameRow | None:
        return _game(
            await self._one(
                f"SELECT {_GAME_COLS} FROM games WHERE coalesce(thread_id, channel_id) = ?"
                " AND status IN ('lobby', 'active', 'paused')",
                (place_id,),
            )
        )

    async def latest_game_at(self, place_id: int) -> GameRow | None:
        """The newest game of a channel or thread, whatever its status."""
        return _game(
            await self._one(
                f"SELECT {_GAME_COLS} FROM games WHERE coalesce(thread_id, channel_id) = ? OR channel_id = ?"
                " ORDER BY id DESC LIMIT 1",
                (place_id, place_id),
            )
        )

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [g for g in map(_game, rows) if g is not None]

    async def games_owing_ai(self) -> list[int]:
        """Ids of the active games whose committed state may wait for an app-played
        seat (``games.ai_owed``, migration 0004): one indexed query, whatever the number
        of games."""
        rows = await self._all(
            f"SELECT id FROM games{self.sql.indexed_by('games_ai_owed')}"
            " WHERE ai_owed = 1 AND status = 'active' ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def clear_ai_owed(self, game_id: int, version: int) -> None:
        """Nothing is owed at ``version`` (a later commit wrote its own flag)."""
        await self._write(
            "UPDATE games SET ai_owed = 0 WHERE id = ? AND version = ?", (game_id, version)
        )

    async def games_of_user(self, user_id: int) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ('lobby', 'active', 'paused')"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?) ORDER BY id",
            (user_id,),
        )
        return [g for g in map(_game, rows) if g is not None]

    async def update_game(self, game_id: int, at: float, **fields: Any) -> None:
        allowed = {
            "options", "seed", "status", "version", "result", "channel_id", "thread_id", "host_id", "rules", "rng",
            "ai_owed",
        }
        if not fields or set(fields) - allowed:
            raise ValueError(f"bad game fields {sorted(fields)}")
        if fields.get("seed") is not None:
            fields["seed"] = str(int(fields["seed"]))  # decimal TEXT: more than 64 bits
        values = [dumps(v) if k in ("options", "result") and v is not None else v for k, v in fields.items()]
        sets = ", ".join(f"{k} = ?" for k in fields)
        self._touch(game_id)
        await self._write(
            f"UPDATE games SET {sets}, updated_at = ? WHERE id = ?", (*values, at, game_id)
        )

    async def game_with_seats(self, game_id: int) -> tuple[GameRow | None, list[SeatRow], Settings]:
        """A game's row, its seats and its settings: one trip (what every action reads first)."""
        g, seats, sets = await self._fetch(
            (f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)),
            (f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position", (game_id,)),
            (SETTINGS_SQL, (game_id,)),
        )
        return _game(g[0] if g else None), [_seat(r) for r in seats], _settings(sets[0] if sets else None)

    # seats
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY position",
            (game_id,),
        )
        return [_seat(r) for r in rows]

    async def seat(self, game_id: int, seat: str) -> SeatRow | None:
        row = await self._one(
            f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return _seat(row) if row else None

    async def insert_seat(
        self, game_id: int, seat: str, position: int, user_id: int | None,
        ai_kind: str | None, display_name: str,
    ) -> None:
        self._touch(game_id)
        await self._write(
            "INSERT INTO seats (game_id, seat, position, user_id, ai_kind, display_name)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seat, position, user_id, ai_kind, display_name),
        )

    async def delete_seat(self, game_id: int, seat: str) -> None:
        self._touch(game_id)
        await self._write("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
        # close the gap in positions (two steps: UNIQUE(game_id, position))
        rows = await self._all(
            "SELECT seat FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        await self._write(
            "UPDATE seats SET position = -position - 1 WHERE game_id = ?", (game_id,)
        )
        for pos, (name,) in enumerate(rows):
            await self._write(
                "UPDATE seats SET position = ? WHERE game_id = ? AND seat = ?", (pos, game_id, name)
            )

    async def set_takeover(self, game_id: int, seat: str, on: bool) -> None:
        self._touch(game_id)
        await self._write(
            "UPDATE seats SET ai_takeover = ? WHERE game_id = ? AND seat = ?",
            (int(on), game_id, seat),
        )

    async def lock_game(self, game_id: int) -> None:
        """Hold the game until this transaction ends (PostgreSQL: another process's
        action on it waits; SQLite's write transaction holds the whole database)."""
        if self.sql.game_lock is not None:
            await self._write(self.sql.game_lock, (game_id,))

    # action log
    async def append_action(
        self, game_id: int, seq: int, seat: str, action: Any, actor: str, at: float
    ) -> None:
        await self._write(
            "INSERT INTO actions (game_id, seq, seat, action, actor, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, seat, dumps(action), actor, at),
        )

    async def actions(self, game_id: int, after: int = 0, upto: int | None = None) -> list[ActionRow]:
        rows = await self._all(_ACTIONS, (game_id, after, upto if upto is not None else 2**62))
        return [_action_row(r) for r in rows]

    def actions_ahead(self, game_id: int, after: int, upto: int) -> None:
        """Read the log rows after ``after`` up to ``upto`` with the transaction's next read
        (:meth:`actions_read`): a move on an older prompt is judged with the action's own
        first read, under the game's lock (issue 37: one round trip fewer)."""
        self._read_ahead(("actions", game_id, after, upto), [(_ACTIONS, (game_id, after, upto))])

    async def actions_read(self, game_id: int, after: int, upto: int) -> list[ActionRow]:
        """The rows :meth:`actions_ahead` read (or, not read yet, read now). A transaction
        writes only rows after the game's last: none in the range read."""
        got = self._taken(("actions", game_id, after, upto))
        if got is None:
            return await self.actions(game_id, after, upto)
        return [_action_row(r) for r in got[0][0]]

    async def actions_and_waiting(
        self, game_id: int, after: int, upto: int
    ) -> tuple[list[ActionRow], list[WaitingRow]]:
        """:meth:`actions` and :meth:`waiting_of` in one trip (issue 37: a move on an older
        prompt reads both before it is decided; each trip is a round trip to PostgreSQL)."""
        actions, waiting = await self._fetch(
            (_ACTIONS, (game_id, after, upto)),
            ("SELECT game_id, seat, since_version, since_at FROM waiting WHERE game_id = ? ORDER BY seat", (game_id,)),
        )
        return [_action_row(r) for r in actions], [WaitingRow(*r) for r in waiting]

    # snapshots
    async def put_snapshot(self, game_id: int, version: int, state: str, at: float) -> None:
        await self._write(
            _SNAPSHOT_UPSERT,
            (game_id, version, state, at, snapshot_checksum(game_id, version, state)),
        )

    async def latest_snapshot(self, game_id: int, upto: int) -> tuple[int, str] | None:
        """The newest snapshot at or before ``upto`` whose checksum holds. One that does
        not (edited or damaged) is skipped with a warning: the log is the record, so the
        caller rebuilds from an older snapshot or from the start."""
        rows = await self._all(
            "SELECT version, state, checksum FROM snapshots WHERE game_id = ? AND version <= ?"
            " ORDER BY version DESC",
            (game_id, upto),
        )
        for version, state, checksum in rows:
            if checksum == snapshot_checksum(game_id, version, state):
                return int(version), str(state)
            if checksum is None:  # written before migration 0003: not trusted, not alarming
                log.info("game %s: snapshot %s has no checksum; rebuilding from the log", game_id, version)
                continue
            log.warning(
                "game %s: snapshot of version %s fails its checksum; rebuilding from the log",
                game_id, version,
            )
        return None

    async def prune_snapshots(self, game_id: int, keep: int) -> None:
        await self._write(
            "DELETE FROM snapshots WHERE game_id = ? AND version NOT IN"
            " (SELECT version FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT ?)",
            (game_id, game_id, keep),
        )

    # planner drafts (the half-built secret decision of a seat)
    async def draft(self, game_id: int, seat: str) -> DraftRow | None:
        row = await self._one(
            "SELECT decision, draft, channel_id, message_id FROM drafts WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return DraftRow(str(row[0]), str(row[1]), row[2], row[3]) if row else None

    async def drafts(self, game_id: int) -> dict[str, DraftRow]:
        """Every seat's draft row of the game: one query."""
        rows = await self._all(
            "SELECT seat, decision, draft, channel_id, message_id FROM drafts WHERE game_id = ?", (game_id,)
        )
        return {str(r[0]): DraftRow(str(r[1]), str(r[2]), r[3], r[4]) for r in rows}

    async def put_draft(
        self, game_id: int, seat: str, decision: str, draft: str,
        channel_id: int | None, message_id: int | None, at: float,
    ) -> None:
        await self._write(
            "INSERT INTO drafts (game_id, seat, decision, draft, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
            " decision = excluded.decision, draft = excluded.draft,"
            " channel_id = COALESCE(excluded.channel_id, drafts.channel_id),"
            " message_id = COALESCE(excluded.message_id, drafts.message_id),"
            " updated_at = excluded.updated_at",
            (game_id, seat, decision, draft, channel_id, message_id, at),
        )

    async def put_draft_message(
        self, game_id: int, seat: str, decision: str, fresh: str, channel_id: int, message_id: int, at: float,
    ) -> None:
        """Record the planner message showing the seat's draft of ``decision``, in one
        statement: the draft itself is kept (``fresh`` only where there is none of this
        decision), so a click saved meanwhile is never written over."""
        await self._write(
            "INSERT INTO drafts (game_id, seat, decision, draft, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
            " draft = CASE WHEN drafts.decision = excluded.decision THEN drafts.draft ELSE excluded.draft END,"
            " decision = excluded.decision, channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, updated_at = excluded.updated_at",
            (game_id, seat, decision, fresh, channel_id, message_id, at),
        )

    async def delete_draft(self, game_id: int, seat: str) -> None:
        await self._write("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))

    # messages
    async def put_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, at: float
    ) -> None:
        await self._write(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " updated_at = excluded.updated_at",
            (game_id, kind, channel_id, message_id, at),
        )

    async def message(self, game_id: int, kind: str) -> MessageRef | None:
        row = await self._one(
            "SELECT game_id, kind, channel_id, message_id FROM messages"
            " WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return MessageRef(*row) if row else None

    async def game_of_message(self, message_id: int) -> int | None:
        row = await self._one("SELECT game_id FROM messages WHERE message_id = ?", (message_id,))
        return int(row[0]) if row else None


    # round results, notices told once, a seat's preferences (0007)
    def round_start_ahead(self, game_id: int) -> None:
        """Read :meth:`round_start` with the transaction's next read (a round's end)."""
        self._read_ahead(("round_start", game_id), [(_ROUND_START, (game_id,))])

    async def round_start(self, game_id: int) -> tuple[int, dict[str, int]] | None:
        ahead = self._taken_unless(("round_start", game_id), ("round_starts",))
        row = next(iter(ahead[0]), None) if ahead is not None else await self._one(_ROUND_START, (game_id,))
        return (int(row[0]), {str(k): int(v) for k, v in jsontext.loads(row[1]).items()}) if row else None

    async def put_round_start(self, game_id: int, round_no: int, scores: dict[str, int]) -> None:
        await self._write(
            "INSERT INTO round_starts (game_id, round, scores) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET round = excluded.round, scores = excluded.scores",
            (game_id, round_no, dumps(scores)),
        )

    async def tell_once(self, game_id: int, seat: str, what: str) -> bool:
        """True the first time ``what`` is told to ``seat`` (then recorded), else False."""
        return bool(await self._rowcount(_TELL, (game_id, seat, what)))

    def first_asked_ahead(self, game_id: int, asks: dict[str, str]) -> None:
        """Read what :meth:`first_asked_of` needs of these seats (a superset of those it
        will ask about) with the transaction's next read."""
        if asks and self._queued is not None:  # (in a transaction)
            self._read_ahead(("asked", game_id), [_first_asked_query(game_id, asks)])
            self._asked_ahead[game_id] = dict(asks)

    async def first_asked_of(self, game_id: int, asks: dict[str, str], now: float) -> dict[str, float]:
        """:meth:`first_asked` of several seats (seat -> decision), in one read (or none:
        read ahead with the action's first, :meth:`first_asked_ahead`)."""
        if not asks:
            return {}
        ahead_asks = self._asked_ahead.pop(game_id, {})
        ahead = self._taken_unless(("asked", game_id), ("told",))
        if ahead is not None and all(ahead_asks.get(s) == d for s, d in asks.items()):
            rows = ahead[0]
        else:
            rows = await self._all(*_first_asked_query(game_id, asks))
        out: dict[str, float] = {}
        for seat, what in rows:
            decision = asks.get(str(seat))
            if decision is None or seat in out or not str(what).startswith(decision + "@"):
                continue
            try:
                out[str(seat)] = float(str(what)[len(decision) + 1:])
            except ValueError:
                continue
        for seat, decision in asks.items():
            if seat not in out:
                await self._write(_TELL, (game_id, seat, f"{decision}@{now!r}"))
                out[seat] = now
        return out

    async def first_asked(self, game_id: int, seat: str, decision: str, now: float) -> float:
        """When ``decision`` was first asked of ``seat`` (recorded now, the first time):
        a row of ``told`` named ``<decision>@<time>``."""
        return (await self.first_asked_of(game_id, {seat: decision}, now))[seat]


def _first_asked_query(game_id: int, asks: dict[str, str]) -> tuple[str, tuple[Any, ...]]:
    """The ``told`` rows recording when each seat's decision was first asked."""
    conds = " OR ".join("(seat = ? AND substr(what, 1, ?) = ?)" for _ in asks)
    args = [x for seat, d in asks.items() for x in (seat, len(d) + 1, d + "@")]
    return f"SELECT seat, what FROM told WHERE game_id = ? AND ({conds})", (game_id, *args)
