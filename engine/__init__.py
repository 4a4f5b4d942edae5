"""boardroom engines: pure, deterministic rules for each game.

Every game implements the :class:`Game` protocol (see ``shared/DESIGN.md``)::

    game = get_game("smartphone-inc")
    state = game.setup(players=["ann", "bob"], seed=42, options={})
    game.pending(state)                  # {seat: prompt}
    state = game.apply(state, "ann", action)

Nothing here does I/O, reads a clock or uses the global ``random`` module.

Beyond shared/DESIGN.md, a game may offer two optional methods, which the app layer
and the AI use when present:

- ``trace(state, seat, action) -> [view]``: the public views at the end of every phase
  the action completes, automatic phases included (the bot posts the picture of a
  round's sales before Phase 8 clears the map); ``apply_traced(state, seat, action) ->
  (state, [view])`` is ``apply`` and ``trace`` in one pass, what the app calls (a move
  is applied once). All three games have both (``engine.standard.StateRecord``);
- ``random_action(state, seat, rng)``: a uniformly drawn legal action without listing
  every action (the random player; ``rng`` is an :class:`engine.rng.Rng`);
- ``undoable(before, after, seat) -> bool``: whether ``seat``'s action that turned
  ``before`` into ``after`` may be taken back (BGA's undo): nothing hidden revealed, no
  chance used. Without it the app offers no undo. The app adds its own conditions (the
  seat's own last logged move, nobody moved since, same phase) and keeps the move in
  its log, marked by an undo row;
- a secret decision may be taken back with the action ``{"type": "unseal"}`` while the
  engine allows it (Smartphone Inc.: until the last plan is in); the app lets it through
  although the seat is not pending;
- ``canonical_action(state, seat, action) -> (action, unknown_fields)``: the action with
  only the fields the engine reads, in canonical form (what the app stores in the log),
  and the names of any other fields (the app refuses such a move). Raises IllegalAction
  for a malformed action (not an object, a type that is not the game's, a field of the
  wrong shape), so that ``apply`` only ever sees well-formed moves; the common core is
  :mod:`engine.canonical`. All three games have it; without it the app stores actions
  as sent.

What a logged action shows (every game; DESIGN.md "Hidden information is enforced in the
engine"): ``shown_action(before, seat, action, now, viewer) -> action`` is ``seat``'s
logged ``action`` (applied to ``before``) as ``viewer`` (a seat, or None: the public and
any bystander) may see it while the game is at ``now``: the action itself once what it
carries is public to that viewer, else a redacted copy (``engine.standard.hidden_action``:
``{"type": ..., "hidden": True}``). A sealed plan stays hidden until the reveal, an Age of
Automaton drafted Specialist until it is played or discarded; a draw or a deck's order
is never in an action (it comes from the seed, which the app withholds). Once ``now`` is
over, everything may be shown. For a decision taken back before it counted (an unsealed
plan), the app passes as ``now`` the state it was taken back in (or the final one).
Exports, ``/game log``, ``/game history``, ``/game replay`` and the log filter all go
through this one rule (``bot.app.replay``); the bot keeps no list of secrets of its own.
A game without it gets ``engine.standard.sealed_until_reveal`` (an answer to a
``"secret"`` prompt hidden until its stage ends).

Versions (``engine/versions.py``; Smartphone Inc. is the example): a game keeps the
rules version and the random generator it started with until it ends. Its state says
both: ``state["rules"]`` (an int; absent = 1) and ``state["rng"]`` (from
``engine.rng.initial_state(seed)``, which tells its own kind). A package that versions
its rules exposes ``rules_version`` (the current one, for new games), takes keyword
arguments ``setup(..., rules=None, rng=None)`` (None: the current ones) to set a game
up again under the ones it recorded, and upgrades older saved states in ``load``
(``engine/<game>/migrations.py``), refusing newer ones (``engine.errors.StateTooNew``).

A prompt of ``pending`` carries ``"secret": True`` when it is a hidden simultaneous
decision (the bot asks for it in private and never shows it before the reveal).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Protocol

from engine.errors import IllegalAction

__all__ = ["IllegalAction", "Game", "get_game", "game_names"]

State = dict[str, Any]
Action = dict[str, Any]


class Game(Protocol):
    name: str

    def setup(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> State: ...
    def pending(self, state: State) -> dict[str, dict[str, Any]]: ...
    def legal_actions(self, state: State, seat: str) -> list[Action]: ...
    def apply(self, state: State, seat: str, action: Action) -> State: ...
    def view(self, state: State, seat: str | None) -> dict[str, Any]: ...
    def events(self, state: State) -> list[str]: ...
    def is_over(self, state: State) -> bool: ...
    def result(self, state: State) -> dict[str, Any]: ...
    def dump(self, state: State) -> str: ...
    def load(self, text: str) -> State: ...
    def shown_action(
        self, before: State, seat: str, action: Action, now: State, viewer: str | None
    ) -> Action: ...


# Every game package registers here: name -> module exposing ``GAME``. A package that
# is not there yet (a game still being built) is simply not offered.
_PACKAGES = {
    "smartphone-inc": "engine.smartphone_inc",
    "mobile-markets": "engine.mobile_markets",
    "age-of-automaton": "engine.age_of_automaton",
}


def game_names() -> list[str]:
    """The games this installation can play, in registry order."""
    return [name for name, module in _PACKAGES.items() if importlib.util.find_spec(module) is not None]


def get_game(name: str) -> Game:
    """Return the game registered under ``name``."""
    module = _PACKAGES.get(name)
    if module is not None:
        try:  # an imported package is found in sys.modules at once (no file-system search)
            return importlib.import_module(module).GAME
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise
    raise KeyError(f"unknown game {name!r}; known: {', '.join(game_names())}")
