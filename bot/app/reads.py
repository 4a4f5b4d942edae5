"""The engine's read functions of recent states, each computed once per state.

A committed action reads the public view, who is pending and whether the game is over
several times: the stage of the outcome, the ``ai_owed`` flag, the waiting rows, the
outcome itself and the posts composed from it. Each is a pure function of the state,
and the app never changes a state in place (an action makes a new one), so the answer
is kept with the state object for as long as the state is among the last few read.
Callers must not change what they get (as with the engine's own answers, which the
outcome and the posts share).

A seat's own view, its legal actions and the previews of its options
(:meth:`EngineReads.seat_view`, :meth:`EngineReads.legal_actions`,
:meth:`EngineReads.previews`) are kept apart, for the last few states and seats read
only: one click reads them several times (the pick, the confirmation, the message
drawn after it), and they are large (a preview is a view per legal action), so they
are not kept for every game at rest.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine import Game, IllegalAction

State = dict[str, Any]


def stage_of(view: dict[str, Any]) -> tuple[Any, Any]:
    """(round, phase) of a public view."""
    return view.get("round"), view.get("phase")


SEAT_READS_KEPT = 16  # seat views, legal actions and previews kept together: the last states and seats read

Preview = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


class EngineReads:
    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._memo: OrderedDict[int, tuple[State, dict[str, Any]]] = OrderedDict()
        self._seat: OrderedDict[tuple[int, str, Any], tuple[State, Any]] = OrderedDict()

    def _seat_read(self, state: State, key: tuple[str, Any], make: Any) -> Any:
        full = (id(state), *key)
        hit = self._seat.get(full)
        if hit is not None and hit[0] is state:  # the same object, not a reused id
            self._seat.move_to_end(full)
            return hit[1]
        value = make()
        self._seat[full] = (state, value)  # holding the state keeps its id its own
        while len(self._seat) > SEAT_READS_KEPT:
            self._seat.popitem(last=False)
        return value

    def seat_view(self, game: Game, state: State, seat: str | None) -> dict[str, Any]:
        """``game.view(state, seat)`` (``seat`` None: the public view)."""
        return self._seat_read(state, ("view", seat), lambda: game.view(state, seat))  # type: ignore[no-any-return]

    def legal_actions(self, game: Game, state: State, seat: str) -> list[dict[str, Any]]:
        """``game.legal_actions(state, seat)``."""
        return self._seat_read(state, ("legal", seat), lambda: game.legal_actions(state, seat))  # type: ignore[no-any-return]

    def previews(self, game: Game, state: State, seat: str, limit: int) -> list[Preview]:
        """(action, seat's view before, seat's view after) for each of the first ``limit``
        legal actions of ``seat`` that the engine applies (see ``App.previews``)."""

        def make() -> list[Preview]:
            before = self.seat_view(game, state, seat)
            out = []
            for action in self.legal_actions(game, state, seat)[:limit]:
                try:
                    after = game.view(game.apply(state, seat, action), seat)
                except IllegalAction:
                    continue
                out.append((action, before, after))
            return out

        return self._seat_read(state, ("previews", seat, limit), make)  # type: ignore[no-any-return]

    def _slot(self, state: State) -> dict[str, Any]:
        key = id(state)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is state:  # the same object, not a reused id
            self._memo.move_to_end(key)
            return hit[1]
        slot: dict[str, Any] = {}
        self._memo[key] = (state, slot)  # holding the state keeps its id its own
        while len(self._memo) > self.size:
            self._memo.popitem(last=False)
        return slot

    def known_stage(self, state: State) -> tuple[Any, Any] | None:
        """The stage of ``state`` if it was worked out already (else None; nothing is computed)."""
        hit = self._memo.get(id(state))
        if hit is not None and hit[0] is state:
            return hit[1].get("stage")  # type: ignore[no-any-return]
        return None

    def forget(self, state: State) -> None:
        """Drop what was kept for ``state`` (a game's state replaced by its successor:
        nothing reads it again, and its view is thousands of objects for the garbage
        collector to walk)."""
        hit = self._memo.get(id(state))
        if hit is not None and hit[0] is state:
            del self._memo[id(state)]

    def public(self, game: Game, state: State) -> dict[str, Any]:
        """``game.view(state, None)``."""
        slot = self._slot(state)
        if "public" not in slot:
            view = slot["public"] = game.view(state, None)
            slot["stage"] = stage_of(view)
        return slot["public"]

    def stage(self, game: Game, state: State) -> tuple[Any, Any]:
        """(round, phase) of the public view; kept when the view is let go (:meth:`rest`)."""
        slot = self._slot(state)
        if "stage" not in slot:
            self.public(game, state)
        return slot["stage"]

    def rest(self, state: State) -> None:
        """Let go of ``state``'s public view: the game's action is over. What the next
        action asks of it first (its stage, who is pending, whether it is over) is kept; a
        later reader of the view works it out again. Kept for every game at rest, the
        views were a quarter of the objects the garbage collector walks (issue 25)."""
        hit = self._memo.get(id(state))
        if hit is not None and hit[0] is state:
            hit[1].pop("public", None)

    def over(self, game: Game, state: State) -> bool:
        """``game.is_over(state)``."""
        slot = self._slot(state)
        if "over" not in slot:
            slot["over"] = bool(game.is_over(state))
        return slot["over"]

    def pending(self, game: Game, state: State) -> dict[str, Any]:
        """``game.pending(state)``, or nothing once the game is over."""
        slot = self._slot(state)
        if "pending" not in slot:
            slot["pending"] = {} if self.over(game, state) else game.pending(state)
        return slot["pending"]
