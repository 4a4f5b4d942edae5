"""The delivery outbox (migration 0006; :mod:`bot.delivery`): what an action must tell
Discord, in order per game, and the games whose place the bot cannot write to."""

from __future__ import annotations

from typing import Any

from bot import jsontext
from bot.storage.base import TxCore
from bot.storage.reminders import reminders_after
from bot.storage.rows import (
    _OUTBOX_COLS,
    REMINDER_ROWS,
    OutboxRow,
    ReminderRow,
    _outbox,
    dumps,
    outbox_payload,
)

# what a delivered outbox row keeps of its payload: nothing (its kind, target, batch,
# message id and times stay)
_SPENT = "'{}'"
# the most rows of a batch written by one statement where the dialect has one
OUTBOX_ROWS_AT_ONCE = 32


class OutboxSql(TxCore):
    """The SQL of the outbox (a part of :class:`bot.storage.Tx`)."""


    async def put_outbox(
        self,
        game_id: int,
        batch: int,
        kind: str,
        target: str,
        payload: dict[str, Any],
        *,
        ordered: bool,
        at: float,
        not_before: float = 0.0,
    ) -> int:
        self._append_outbox(game_id)
        row_id = await self._insert_id(
            "INSERT INTO outbox (game_id, batch, kind, target, payload, nonce, ordered, next_try_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
            (game_id, batch, kind, target, outbox_payload(payload), int(ordered), not_before, at),
        )
        # the nonce Discord dedups a repeated send by (at most 25 characters)
        await self._write("UPDATE outbox SET nonce = ? WHERE id = ?", (f"br{row_id}", row_id))
        return row_id

    async def put_outbox_rows(
        self,
        game_id: int,
        batch: int,
        rows: list[tuple[str, str, dict[str, Any], bool]],
        *,
        at: float,
        not_before: float = 0.0,
        settle: float = 0.0,
    ) -> None:
        """The ``(kind, target, payload, ordered)`` rows of one batch, in order, as
        :meth:`put_outbox` writes them one by one (nonce ``br<id>``), in two statements.
        A row whose payload says ``settle`` is due ``settle`` seconds after ``at`` at the
        earliest (:mod:`bot.delivery`)."""
        if not rows:
            return
        self._append_outbox(game_id)
        values = [(kind, target, outbox_payload(payload), int(ordered),
                   max(not_before, at + settle) if payload.get("settle") else not_before)
                  for kind, target, payload, ordered in rows]
        statements: list[tuple[str, tuple[Any, ...]]] = []
        for i in range(0, len(values), OUTBOX_ROWS_AT_ONCE):  # (statements of a few sizes)
            part = values[i:i + OUTBOX_ROWS_AT_ONCE]
            sql = self.sql.outbox_rows_insert(len(part))
            if sql is None:
                break
            statements.append((sql, (game_id, batch, at, *(a for v in part for a in v))))
        else:  # one statement (PostgreSQL)
            for sql, args in statements:
                await self._write(sql, args)
            return
        await self._write_many(
            "INSERT INTO outbox (game_id, batch, kind, target, payload, nonce, ordered, next_try_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
            [(game_id, batch, *v, at) for v in values],
        )
        await self._write(
            "UPDATE outbox SET nonce = 'br' || id WHERE batch = ? AND nonce = ''", (batch,)
        )

    def _compose_queries(self, game_id: int, rewritten: int | None) -> list[tuple[str, tuple[Any, ...]]]:
        return [
            # (CASE, not OR: SQLite works out both sides of an OR, and the second reads the
            # payloads of the game's pending posts, a backlog under load.) The next batch
            # number with it: a statement fewer (issue 37: each cost PostgreSQL ~15 us)
            ("SELECT CASE WHEN EXISTS (SELECT 1 FROM messages WHERE game_id = ? AND kind = 'status') THEN TRUE"
             " ELSE EXISTS (SELECT 1 FROM outbox WHERE game_id = ? AND state = 'pending' AND kind = 'post'"
             f" AND batch != ? AND {self.sql.contains('payload', '?')}) END,"
             " (SELECT coalesce(max(batch), 0) + 1 FROM outbox)",
             (game_id, game_id, -1 if rewritten is None else rewritten, dumps({"remember": "status"})[1:-1])),
            (f"{REMINDER_ROWS} WHERE r.game_id = ? ORDER BY r.due_at", (game_id,)),
            ("SELECT seat FROM seat_prefs WHERE game_id = ? AND dm_every_turn = 1", (game_id,)),
        ]

    def compose_reads_ahead(self, game_id: int) -> None:
        """Read what :meth:`compose_reads` needs (of a first batch: ``rewritten`` None)
        with the transaction's next read, not in a trip of its own after the writes that
        come between (issue 37: an action is one round trip to PostgreSQL fewer). Those
        writes are taken into account: :func:`reminders_after`; any other write to the
        tables read makes :meth:`compose_reads` read them again."""
        self._read_ahead(("compose", game_id), self._compose_queries(game_id, None))

    async def compose_reads(
        self, game_id: int, rewritten: int | None = None
    ) -> tuple[bool, list[ReminderRow], set[str], int]:
        """What composing an action's posts reads, in one trip: whether the game has its
        status message (posted, or its post waiting in the outbox in another batch than
        ``rewritten``, the one being composed again: an edit then waits behind it), its
        reminder rows (by due time), the seats that asked for a DM every turn and the next
        outbox batch number."""
        ahead = self._taken(("compose", game_id))
        rows: list[list[Any]] | None = None
        reminders = None
        if ahead is not None and rewritten is None and not any(
            t in sql for sql, _args, _many in ahead[1] for t in ("outbox", "messages", "seat_prefs")
        ):
            reminders = reminders_after(game_id, [ReminderRow(*r) for r in ahead[0][1]], ahead[1])
            rows = ahead[0] if reminders is not None else None
        if rows is None or reminders is None:
            rows = await self._fetch(*self._compose_queries(game_id, rewritten))
            reminders = [ReminderRow(*r) for r in rows[1]]
        status_and_batch, _rem, every = rows
        return bool(status_and_batch[0][0]), reminders, {str(r[0]) for r in every}, int(status_and_batch[0][1])

    async def next_outbox_batch(self) -> int:
        row = await self._one("SELECT coalesce(max(batch), 0) + 1 FROM outbox")
        return int(row[0])

    async def pending_outbox(self, game_id: int, *, after: int = 0, held: bool = True) -> list[OutboxRow]:
        """The game's pending rows in order (``after``: only those with a greater id, the
        rows written since the caller's last read; ``held=False``: not the log lines held
        for the next phase post, rows of kind 'hold')."""
        but_held = "" if held else " AND kind != 'hold'"
        rows = await self._all(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? AND state = 'pending' AND id > ?{but_held}"
            " ORDER BY id",
            (game_id, after),
        )
        return [_outbox(r) for r in rows]

    async def outbox_rows(self, game_id: int) -> list[OutboxRow]:
        rows = await self._all(f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [_outbox(r) for r in rows]

    async def games_with_pending_outbox(self) -> list[int]:
        rows = await self._all(
            "SELECT DISTINCT game_id FROM outbox WHERE state = 'pending' AND kind != 'hold' ORDER BY game_id"
        )
        return [int(r[0]) for r in rows]

    async def cover_syncs(self, game_id: int, version: int) -> None:
        """The posts of everything up to ``version`` are queued: its 'sync' markers are done."""
        self._rewrite_outbox(game_id)
        await self._write(
            f"UPDATE outbox SET state = 'delivered', payload = {_SPENT}"
            " WHERE game_id = ? AND kind = 'sync' AND state = 'pending'"
            f" AND {self.sql.json_number('payload', 'version')} <= ?",
            (game_id, version),
        )

    async def held_lines(self, game_id: int, before_id: int) -> list[str]:
        """The log lines held back for the next phase post (rows of kind 'hold')."""
        rows = await self._all(
            "SELECT payload FROM outbox WHERE game_id = ? AND kind = 'hold' AND state = 'pending' AND id < ?"
            " ORDER BY id",
            (game_id, before_id),
        )
        return [line for (p,) in rows for line in jsontext.loads(p).get("lines", [])]

    async def release_held(self, game_id: int, before_id: int) -> None:
        """The 'hold' rows before ``before_id`` are done (posted with the phase post).
        Not an outbox rewrite for the deliverer: it never keeps 'hold' rows."""
        await self._write(
            f"UPDATE outbox SET state = 'delivered', payload = {_SPENT}"
            " WHERE game_id = ? AND kind = 'hold' AND state = 'pending' AND id < ?",
            (game_id, before_id),
        )

    async def closed_dms_in_batch(self, batch: int) -> list[int]:
        rows = await self._all(
            "SELECT target FROM outbox WHERE batch = ? AND kind = 'dm' AND state = 'closed' ORDER BY id", (batch,)
        )
        return [int(r[0]) for r in rows]

    async def mark_outbox(
        self,
        row_id: int,
        state: str,
        *,
        message_id: int | None = None,
        attempts: int | None = None,
        next_try_at: float | None = None,
    ) -> None:
        """A row's new state. A delivered row keeps its ids and times but not its payload
        (nothing reads it again; issue 25: the delivered rows of a finished game were
        nine tenths of its bytes)."""
        await self._write(
            "UPDATE outbox SET state = ?, message_id = coalesce(?, message_id),"
            " attempts = coalesce(?, attempts), next_try_at = coalesce(?, next_try_at),"
            f" payload = CASE WHEN ? = 'delivered' THEN {_SPENT} ELSE payload END WHERE id = ?",
            (state, message_id, attempts, next_try_at, state, row_id),
        )

    async def prune_outbox(self, before: float) -> None:
        """Forget delivered rows older than ``before`` (pending ones are kept)."""
        await self._write(
            "DELETE FROM outbox WHERE state IN ('delivered', 'failed') AND created_at < ?", (before,)
        )

    async def drop_outbox_batch(self, game_id: int, batch: int) -> int:
        """Delete a batch's rows that nothing has touched yet (pending, never tried): an
        outcome's rows are rewritten at each commit of its chain. Returns how many of
        the batch's rows were touched already (delivered, or tried) and so were kept."""
        self._rewrite_outbox(game_id)
        await self._write(
            "DELETE FROM outbox WHERE game_id = ? AND batch = ? AND state = 'pending' AND attempts = 0",
            (game_id, batch),
        )
        row = await self._one("SELECT count(*) FROM outbox WHERE game_id = ? AND batch = ?", (game_id, batch))
        return int(row[0]) if row else 0

    async def release_batch(self, game_id: int, batch: int) -> None:
        """The rows of one batch held back for the end of a chain are due now (the chain
        ended early: its AI moves could not be saved)."""
        self._rewrite_outbox(game_id)
        await self._write(
            "UPDATE outbox SET next_try_at = 0 WHERE game_id = ? AND batch = ? AND state = 'pending'"
            " AND attempts = 0 AND next_try_at > 0",
            (game_id, batch),
        )

    async def release_held_batches(self) -> int:
        """At start-up (no chain of AI moves runs yet): the rows a dead process held back
        for the end of its chain are due now."""
        self._rewrite_outbox(None)
        return await self._rowcount(
            "UPDATE outbox SET next_try_at = 0 WHERE state = 'pending' AND attempts = 0 AND next_try_at > 0"
        )


    async def retry_outbox_now(self, game_id: int) -> None:
        self._rewrite_outbox(game_id)
        await self._write("UPDATE outbox SET next_try_at = 0 WHERE game_id = ? AND state = 'pending'", (game_id,))

    async def delivery_block(self, game_id: int) -> tuple[int, float, float | None] | None:
        row = await self._one("SELECT code, since, told_at FROM delivery_blocks WHERE game_id = ?", (game_id,))
        return (int(row[0]), float(row[1]), row[2]) if row else None

    async def put_delivery_block(self, game_id: int, code: int, at: float) -> None:
        await self._write(
            "INSERT INTO delivery_blocks (game_id, code, since) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET code = excluded.code",
            (game_id, code, at),
        )

    async def told_delivery_block(self, game_id: int, at: float) -> None:
        await self._write("UPDATE delivery_blocks SET told_at = ? WHERE game_id = ?", (at, game_id))

    async def clear_delivery_block(self, game_id: int) -> None:
        await self._write("DELETE FROM delivery_blocks WHERE game_id = ?", (game_id,))

