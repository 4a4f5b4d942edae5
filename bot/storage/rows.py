"""The rows the storage hands out, and the conversions of stored columns into them:
the same for every backend (a row is a tuple of Python values in the column order)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot import jsontext
from bot.settings import Settings
from bot.storage.errors import DamagedRecord

LIVE = ("lobby", "active", "paused")
# SQLite INTEGER and PostgreSQL BIGINT are signed 64-bit numbers: a larger id names no row.
SQL_INT_MIN, SQL_INT_MAX = -(2**63), 2**63 - 1


def out_of_range(args: Iterable[Any]) -> bool:
    """Whether a query argument is an integer SQLite cannot hold (so no row matches it)."""
    return any(
        isinstance(a, int) and not isinstance(a, bool) and not SQL_INT_MIN <= a <= SQL_INT_MAX
        for a in args
    )


def snapshot_checksum(game_id: int, version: int, state: str) -> str:
    """What a snapshot must hash to: the state text together with the log sequence it
    stands for (so a snapshot edited, or moved to another version, is not trusted)."""
    digest = hashlib.sha256(f"{int(game_id)}:{int(version)}:".encode())
    digest.update(state.encode("utf-8"))
    return digest.hexdigest()



def _action_row(r: Any) -> ActionRow:
    try:
        action = jsontext.loads(r[3])
    except (TypeError, ValueError):
        raise DamagedRecord(int(r[0]), int(r[1])) from None
    if not isinstance(action, dict):
        raise DamagedRecord(int(r[0]), int(r[1]))
    return ActionRow(r[0], r[1], r[2], action, r[4], r[5])




@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    options: dict[str, Any]
    seed: int | None
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: str
    version: int
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    rules: int | None = None  # the rules version it started under (None: in the lobby)
    rng: str | None = None  # the random generator kind it draws from (None: in the lobby)

    @property
    def place_id(self) -> int:
        """Where the game is played: its thread, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: str
    position: int
    user_id: int | None
    ai_kind: str | None
    display_name: str
    ai_takeover: bool


@dataclass(frozen=True)
class DraftRow:
    """A seat's half-built secret decision and the planner message showing it."""

    decision: str
    draft: str
    channel_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: str
    action: dict[str, Any]
    actor: str
    created_at: float


@dataclass(frozen=True)
class WaitingRow:
    game_id: int
    seat: str
    since_version: int
    since_at: float


@dataclass(frozen=True)
class ReminderRow:
    game_id: int
    seat: str
    kind: str
    due_at: float
    sent_at: float | None
    count: int


# a ReminderRow's columns, in its order, from the reminders (as ``r``)
REMINDER_ROWS = "SELECT r.game_id, r.seat, r.kind, r.due_at, r.sent_at, r.count FROM reminders r"


@dataclass(frozen=True)
class OutboxRow:
    """One thing to tell Discord (migration 0004; :mod:`bot.delivery`)."""

    id: int
    game_id: int
    batch: int
    kind: str  # post | edit | dm
    target: str  # post: "place"; edit: a remembered message kind; dm: a user id
    payload: dict[str, Any]
    nonce: str
    ordered: bool
    state: str  # pending | delivered | closed | failed
    message_id: int | None
    attempts: int
    next_try_at: float
    created_at: float


_OUTBOX_COLS = (
    "id, game_id, batch, kind, target, payload, nonce, ordered, state, message_id,"
    " attempts, next_try_at, created_at"
)


def _outbox(row: Iterable[Any]) -> OutboxRow:
    r = list(row)
    r[5] = jsontext.loads(r[5])
    r[7] = bool(r[7])
    return OutboxRow(*r)


@dataclass(frozen=True)
class MessageRef:
    game_id: int
    kind: str
    channel_id: int
    message_id: int


dumps = jsontext.dumps  # canonical JSON text (bot.jsontext)


def outbox_payload(payload: dict[str, Any]) -> str:
    """An outbox row's payload as stored: a post's picture arguments kept as JSON text
    (``{"file", "fn", "args_json"}``, issue 25). A picture's arguments are a whole view;
    the deliverer reads a paced game's pending rows again and keeps them, and a view
    decoded is thousands of objects for the garbage collector to walk (the longest
    event-loop stalls under load). As text it is one string, handed as it is to the
    picture worker, which decodes it (:func:`bot.delivery.picture_calls`)."""
    pictures = payload.get("pictures")
    if pictures:
        payload = {**payload, "pictures": [_stored_picture(p) for p in pictures]}
    return dumps(payload)


def _stored_picture(spec: Any) -> dict[str, Any]:
    if isinstance(spec, str):
        spec = jsontext.loads(spec)
    if "args_json" in spec:
        return dict(spec)
    return {"file": spec.get("file"), "fn": spec.get("fn"), "args_json": dumps(list(spec.get("args") or []))}


_GAME_COLS = (
    "id, game, options, seed, guild_id, channel_id, thread_id, host_id, status, version,"
    " result, created_at, updated_at, rules, rng"
)


def _game(row: Iterable[Any] | None) -> GameRow | None:
    if row is None:
        return None
    r = list(row)
    r[2] = jsontext.loads(r[2])
    r[3] = int(r[3]) if r[3] is not None else None  # TEXT since 0002: seeds of 128 bits
    r[10] = jsontext.loads(r[10]) if r[10] is not None else None
    return GameRow(*r)


def _seat(row: Iterable[Any]) -> SeatRow:
    r = list(row)
    r[6] = bool(r[6])
    return SeatRow(*r)



def _settings(row: Any) -> Settings:
    if row is None:
        return Settings()
    return Settings(float(row[0]), float(row[1]), bool(row[2]), float(row[3]))
