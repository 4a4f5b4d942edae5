"""A seat's half-built decision at the table (issue 35): kept on the server, per seat,
until the seat's move is made or the decision is over (table ``table_drafts``,
migration 0011), so that a reload or another device shows it again.

A draft is the page's own JSON object (a game's drawing module decides what is in it),
at most :data:`MAX_CHARS` characters, stored for one decision: :func:`decision_key` of
the seat's view and prompt (round, phase, prompt type). Read for another decision it is
stale: nothing is shown, and the next save replaces it. The server lets only the seat
itself read or write its draft (its session's own seat).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

from bot.limits import json_size, too_deep
from bot.storage import Storage

MAX_CHARS = 4096  # a plan of Pads and six Improvements is about 500

# per storage, the seats known to have a row (saved here, or found by a read): a move
# deletes only those, so that a move of a seat without a draft costs no write
_KNOWN: WeakKeyDictionary[Storage, set[tuple[int, str]]] = WeakKeyDictionary()


def _known(storage: Storage) -> set[tuple[int, str]]:
    return _KNOWN.setdefault(storage, set())


def decision_key(view: Mapping[str, Any], prompt: Mapping[str, Any] | None) -> str | None:
    """Which decision a draft belongs to, or None when the seat has none to build."""
    if not isinstance(prompt, Mapping):
        return None
    return f"{view.get('round')}:{view.get('phase')}:{prompt.get('type')}"


def acceptable(draft: Any) -> bool:
    """Whether ``draft`` may be stored: a JSON object (or None: forget it), small and flat enough."""
    if draft is None:
        return True
    size = json_size(draft)
    return isinstance(draft, dict) and size is not None and size <= MAX_CHARS and not too_deep(draft)


async def load(storage: Storage, game_id: int, seat: str, key: str | None) -> dict[str, Any] | None:
    """The seat's draft of decision ``key``, or None."""
    if key is None:
        return None
    async with storage.read() as q:
        row = await q._one("SELECT decision, draft FROM table_drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
    if row is None:
        return None
    _known(storage).add((game_id, seat))
    if row[0] != key:
        return None
    try:
        got = json.loads(row[1])
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


async def save(storage: Storage, game_id: int, seat: str, key: str, draft: dict[str, Any] | None, at: float) -> None:
    """Keep ``draft`` as the seat's draft of decision ``key`` (None: forget it)."""
    if draft is None:
        await drop(storage, game_id, seat)
        return
    async with storage.transaction() as q:
        await q._write(
            "INSERT INTO table_drafts (game_id, seat, decision, draft, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET decision = excluded.decision, draft = excluded.draft,"
            " updated_at = excluded.updated_at",
            (game_id, seat, key, json.dumps(draft, separators=(",", ":")), at),
        )
    _known(storage).add((game_id, seat))


async def drop(storage: Storage, game_id: int, seat: str) -> None:
    """Forget the seat's draft: a write only where a row is known to be kept (one from
    before a restart is known once a table has read it, which it does before showing it)."""
    if (game_id, seat) not in _known(storage):
        return
    _known(storage).discard((game_id, seat))
    async with storage.transaction() as q:
        await q._write("DELETE FROM table_drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
