"""The game's record as a viewer may see it: the true log, step by step (issue 20 §1,
issue 21 "A log that tells what happened", "Replay, move by move").

One pass over the action log from the seed (the engine is deterministic) gives, for
every logged row, a :class:`Step`: the action as the viewer may see it now (the
engine's ``shown_action``: a sealed plan hidden until the reveal, an Age of Automaton
drafted Specialist until it is played; after the game is over everything), its log
lines, and its stage. An undone move shows once, its lines marked as taken back, and
its undo row says "<seat> took back their last move."; nothing repeats. ``/game
export``, ``/game log``, ``/game history`` and ``/game replay`` all read this one
record; none keeps a list of secrets of its own.

Nothing new is stored: a record keeps a few states along the way (``CHECKPOINT``) so
that the board after any step (for its picture) is replayed on demand from the nearest
one; the app keeps the last few records (``RECORDS_KEPT``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.app.core import Core, is_undo, replay_row
from bot.records import GameInfo
from engine import Game
from engine.standard import hidden_action, sealed_until_reveal
from engine.versions import setup_as

State = dict[str, Any]

CHECKPOINT = 24  # rows between two kept states of a record
RECORDS_KEPT = 8  # records the app keeps (a stepper's clicks read the same one)
TAKEN_BACK = " (taken back)"


@dataclass(frozen=True)
class Step:
    """One logged row as the viewer may see it."""

    seq: int
    seat: str
    actor: str
    action: dict[str, Any]  # the engine's shown form (``hidden``: redacted), or the undo row
    hidden: bool
    lines: tuple[str, ...]  # its log lines (seat ids; the caller puts names in)
    round: Any  # the stage after it
    phase: Any
    taken_back: bool = False  # undone later: its lines are marked
    undo: bool = False  # the row that took the move before it back
    detail: str = ""  # a finished game: what a private decision was (the engine's label)


@dataclass
class Record:
    """A game's steps for one viewer at one version, with states to replay pictures from."""

    game: str
    version: int
    over: bool
    opening: tuple[str, ...]  # the setup's log lines
    steps: list[Step] = field(default_factory=list)
    # (index of the last step applied: -1 = the setup, state, the state before it)
    checkpoints: list[tuple[int, State, State | None]] = field(default_factory=list)
    rows: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)  # seq, seat, true action

    @property
    def hidden(self) -> int:
        return sum(1 for s in self.steps if s.hidden)

    def rounds(self) -> list[int]:
        return sorted({s.round for s in self.steps if isinstance(s.round, int)})

    def first_step_of_round(self, round_no: int) -> int | None:
        return next((i for i, s in enumerate(self.steps) if s.round == round_no), None)


def shown(game: Game, before: State, seat: str, action: dict[str, Any], now: State, viewer: str | None) -> dict[str, Any]:
    """The engine's rule (``shown_action``), or the common one for a sealed decision."""
    rule = getattr(game, "shown_action", None)
    if rule is not None:
        return dict(rule(before, seat, action, now, viewer))
    return sealed_until_reveal(game, before, seat, action, now, viewer)


def _stage(state: State) -> tuple[Any, Any]:
    return state.get("round"), state.get("phase")


def taken_back_at(rows: Sequence[Any]) -> dict[int, int]:
    """seq of a secret decision taken back by an ``unseal`` -> the seq of that unseal
    (the moment it stopped counting: it is shown as it could be seen then)."""
    undone = {int(r.action["undoes"]) for r in rows if is_undo(r.action)}
    latest: dict[str, int] = {}
    out: dict[int, int] = {}
    for r in rows:
        if is_undo(r.action) or r.seq in undone:
            continue
        if r.action.get("type") == "unseal" and r.seat in latest:
            out[latest[r.seat]] = r.seq
        latest[r.seat] = r.seq
    return out


def build_record(
    game: Game, start: State, rows: Sequence[Any], now: State, viewer: str | None, *, label_private: bool = True
) -> Record:
    """Walk the log ``rows`` (``seq``, ``seat``, ``action``, ``actor``) from ``start``;
    ``now`` is the state the game is in (what is public is decided against it)."""
    over = bool(game.is_over(now))
    undone = {int(r.action["undoes"]) for r in rows if is_undo(r.action)}
    unsealed = taken_back_at(rows)
    rec = Record(getattr(game, "name", ""), int(now.get("version", 0)), over, tuple(game.events(start)))
    rec.checkpoints.append((-1, start, None))
    waiting: dict[int, tuple[int, State]] = {}  # taken-back seq -> (step index, its before)
    label = getattr(game, "label", None)
    state, before = start, None
    for i, r in enumerate(rows):
        prior = state
        state, before = replay_row(game, state, before, r.seat, r.action, int(r.seq))
        rnd, phase = _stage(state)
        rec.rows.append((int(r.seq), r.seat, r.action))
        if is_undo(r.action):
            step = Step(int(r.seq), r.seat, r.actor, dict(r.action), False,
                        (f"{r.seat} took back their last move.",), rnd, phase, undo=True)
        else:
            if int(r.seq) in unsealed and not over:
                waiting[int(r.seq)] = (i, prior)
                action, hid = hidden_action(r.action), True  # settled at its unseal below
            else:
                action = shown(game, prior, r.seat, r.action, now, viewer)
                hid = bool(action.get("hidden")) and action != r.action
            lines = tuple(game.events(state))
            back = int(r.seq) in undone
            if back:
                lines = tuple(line + TAKEN_BACK for line in lines)
            detail = ""
            if over and label_private and label is not None and _was_secret(game, prior, r.seat):
                try:
                    detail = str(label(prior, r.seat, r.action))
                except Exception:  # noqa: BLE001 - a label is a nicety
                    detail = ""
            step = Step(int(r.seq), r.seat, r.actor, action, hid, lines, rnd, phase, taken_back=back, detail=detail)
        rec.steps.append(step)
        for seq, (idx, prior_of) in list(waiting.items()):
            if unsealed[seq] == int(r.seq):  # taken back here: as it could be seen now
                old = rec.steps[idx]
                true = rec.rows[idx][2]
                action = shown(game, prior_of, old.seat, true, state, viewer)
                hid = bool(action.get("hidden")) and action != true
                rec.steps[idx] = Step(old.seq, old.seat, old.actor, action, hid, old.lines, old.round, old.phase)
                del waiting[seq]
        if (i + 1) % CHECKPOINT == 0:
            rec.checkpoints.append((i, state, before))
    return rec


def _was_secret(game: Game, before: State, seat: str) -> bool:
    prompt = game.pending(before).get(seat)
    return isinstance(prompt, Mapping) and bool(prompt.get("secret"))


def state_after(game: Game, rec: Record, index: int) -> State:
    """The state after step ``index`` (-1: the setup), replayed from the nearest kept state."""
    if not -1 <= index < len(rec.steps):
        raise IndexError(index)
    at, state, before = max((c for c in rec.checkpoints if c[0] <= index), key=lambda c: c[0])
    for j in range(at + 1, index + 1):
        seq, seat, action = rec.rows[j]
        state, before = replay_row(game, state, before, seat, action, seq)
    return state


def round_phases(game: Game, rec: Record, round_no: int) -> list[tuple[int, list[str]]]:
    """For each phase of round ``round_no``: the index of the step that ended it (or the
    last step, for a phase still running) and its log lines, the opening's included."""
    out: list[tuple[int, list[str]]] = []
    lines: list[str] = list(rec.opening)
    stage = _stage(state_after(game, rec, -1)) if rec.checkpoints else None
    last = -1
    for i, s in enumerate(rec.steps):
        lines.extend(s.lines)
        last = i
        if (s.round, s.phase) != stage:
            if stage is not None and stage[0] == round_no:
                out.append((i, lines))
            lines = []
            if stage is not None and isinstance(stage[0], int) and stage[0] > round_no:
                return out
            stage = (s.round, s.phase)
    if stage is not None and stage[0] == round_no:
        out.append((last, lines))
    return out


class ReplayOps(Core):
    """The record calls of :class:`bot.app.App`."""

    _records: OrderedDict[tuple[int, int, str, str | None], Record]

    async def latest_game_at(self, place_id: int) -> GameInfo | None:
        """The newest game of a channel or thread (live, finished or abandoned), or None."""
        async with self.storage.read() as q:
            row = await q.latest_game_at(place_id)
            return None if row is None else await self._info_q(q, row.id)

    async def record(self, game_id: int, viewer: str | None = None) -> Record:
        """The game's steps as ``viewer`` (None: the public) may see them now; cached by
        version (a click of a stepper reads the same record)."""
        info = await self.info(game_id)
        if info.status == "lobby" or info.seed is None:
            return Record(info.game, 0, False, ())
        key = (game_id, info.version, info.status, viewer)
        cache = self.__dict__.setdefault("_records", OrderedDict())
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit
        rec = await self._build(info, viewer)
        cache[key] = rec
        while len(cache) > RECORDS_KEPT:
            cache.popitem(last=False)
        return rec

    async def _build(self, info: GameInfo, viewer: str | None) -> Record:
        import asyncio

        game = self.engine(info.game)
        async with self.storage.read() as q:
            rows = await q.actions(info.id, upto=info.version)
        now = await self._state(info)
        start = setup_as(game, [s.seat for s in info.seats], int(info.seed or 0), info.options,
                         rules=info.rules, rng=info.rng)
        return await asyncio.to_thread(build_record, game, start, rows, now, viewer)

    async def step_view(self, game_id: int, rec: Record, index: int) -> dict[str, Any]:
        """The public board after step ``index`` of ``rec`` (-1: the setup)."""
        import asyncio

        game = self.engine(rec.game)
        state = await asyncio.to_thread(state_after, game, rec, index)
        return game.view(state, None)
