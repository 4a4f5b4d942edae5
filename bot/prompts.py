"""One live prompt per seat per decision (DESIGN.md "One live prompt per seat per decision").

Every private message the bot shows a seat with a live control of a decision is a
*prompt*: a planner or turn DM, a "🎲 Your move" DM with "Open my turn", a turn opened
privately (an ephemeral reply), a turn's "Done" with "↩ Undo", a sealed plan with
"Change my plan 🔓". :class:`PromptBoard` remembers, per (game, seat), the prompt
messages shown and what each stood for; :meth:`PromptBoard.stale` says which of them no
longer stand (the newest one of a seat is its one live prompt; an older one, or one whose
decision moved on, is edited by the bot to say so, without controls).

Pure bookkeeping: no ``discord`` import, no clock of its own (the caller passes the
time), no database (a restart forgets the board: a click on a prompt from before it is
checked by the app as any click is, and answered in place).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

KEPT_SEATS = 4096  # (game, seat) boards kept (the oldest forgotten first)
TOKEN_LIFE = 14 * 60.0  # an interaction's token edits its messages for 15 minutes

# what a prompt stands for
TURN = "turn"  # a decision's controls (a turn's select, a planner)
OPEN = "open"  # "Open my turn" in a DM
UNDO = "undo"  # a finished turn's "↩ Undo" only
SEALED = "sealed"  # a sealed plan's "Change my plan 🔓"


@dataclass
class Shown:
    """A prompt message of one seat.

    ``channel_id``/``message_id``: a message the bot may edit through its channel (a DM);
    ``interaction``: else the last interaction that showed it (an ephemeral reply is
    edited only through an interaction's token, for 15 minutes), ``message_id`` None for
    that interaction's original response; ``version``: the state version it was built
    at; ``stage``: (round, phase) then; ``at``: when (the caller's clock)."""

    gid: int
    seat: str
    kind: str
    version: int
    stage: tuple[Any, Any] = (None, None)
    channel_id: int | None = None
    message_id: int | None = None
    interaction: Any = None
    at: float = 0.0
    in_dm: bool = True

    @property
    def key(self) -> tuple[Any, ...]:
        if self.interaction is not None and self.channel_id is None:
            return ("ix", self.message_id if self.message_id is not None else id(self.interaction))
        return ("msg", self.channel_id, self.message_id)

    def link(self) -> str | None:
        if self.channel_id is None or self.message_id is None:
            return None
        return f"https://discord.com/channels/@me/{self.channel_id}/{self.message_id}"


@dataclass
class SeatBoard:
    live: list[Shown] = field(default_factory=list)  # oldest first
    undone: Shown | None = None  # a "Your move" DM retired by an undo (edited back on redo)


class PromptBoard:
    def __init__(self, kept: int = KEPT_SEATS) -> None:
        self.kept = kept
        self._seats: OrderedDict[tuple[int, str], SeatBoard] = OrderedDict()

    def board(self, gid: int, seat: str) -> SeatBoard:
        key = (gid, seat)
        b = self._seats.get(key)
        if b is None:
            b = self._seats[key] = SeatBoard()
            while len(self._seats) > self.kept:
                self._seats.popitem(last=False)
        self._seats.move_to_end(key)
        return b

    def show(self, entry: Shown, *, late: bool = False) -> list[Shown]:
        """``entry`` is now the seat's live prompt (a new message, or one edited into a
        prompt again); returns the seat's other prompts, which no longer stand.

        ``late``: a message written at ``entry.version`` and shown only now (a DM from
        the outbox): if the seat has a live prompt shown at a newer version, that one
        stays the live prompt and ``[entry]`` is returned (issue 34 §2: a late notice
        never takes the place of a newer prompt). A player's own click always makes the
        message clicked the live one (not ``late``)."""
        b = self.board(entry.gid, entry.seat)
        if late and any(s.key != entry.key and s.version > entry.version for s in b.live):
            b.live = [s for s in b.live if s.key != entry.key]
            return [entry]
        older = [s for s in b.live if s.key != entry.key]
        b.live = [entry]
        return older

    def drop(self, gid: int, seat: str, key: tuple[Any, ...]) -> None:
        """The message ``key`` shows no control any more (a finished turn, an answer)."""
        b = self.board(gid, seat)
        b.live = [s for s in b.live if s.key != key]

    def live(self, gid: int) -> list[Shown]:
        return [s for (g, _seat), b in list(self._seats.items()) if g == gid for s in b.live]

    def of_seat(self, gid: int, seat: str) -> list[Shown]:
        b = self._seats.get((gid, seat))
        return list(b.live) if b else []

    def retire(self, entry: Shown, *, undone: bool = False) -> None:
        b = self.board(entry.gid, entry.seat)
        b.live = [s for s in b.live if s.key != entry.key]
        if undone and entry.kind in (OPEN, TURN) and entry.channel_id is not None:
            b.undone = entry

    def take_undone(self, gid: int, seat: str) -> Shown | None:
        """The seat's "Your move" DM retired by an undo, if any (a redo edits it back
        instead of sending a second DM for the same turn)."""
        b = self._seats.get((gid, seat))
        if b is None or b.undone is None:
            return None
        found, b.undone = b.undone, None
        return found

    def forget_undone(self, gid: int, seat: str) -> None:
        b = self._seats.get((gid, seat))
        if b is not None:
            b.undone = None

    def forget_game(self, gid: int) -> None:
        for key in [k for k in self._seats if k[0] == gid]:
            del self._seats[key]


def editable(entry: Shown, now: float) -> bool:
    """Whether the bot can still edit the message (a channel message always; an
    ephemeral reply while its interaction's token lives)."""
    return entry.channel_id is not None or now - entry.at < TOKEN_LIFE
