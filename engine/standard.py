"""What every game answers the same way (the three engines keep their state alike:
``players`` by seat, ``log`` holds the last action's lines, ``version`` counts the moves,
``phase`` is ``"over"`` at the end, ``result`` is filled in then; each has a ``flow``
module that lists who is to decide and plays a move). A game class inherits these and
defines the rest of the protocol (engine/__init__.py)."""

from __future__ import annotations

from collections.abc import Collection
from types import ModuleType
from typing import Any

from engine.errors import IllegalAction
from engine.jsonstate import clone, dumps

State = dict[str, Any]


class StateRecord:
    """A game class names its modules ``flow`` (``pending(state)``, ``act(state, seat,
    action)``, ``run(state, on_phase=...)``: the round's automatic steps up to the next
    decision, ``on_phase(state)`` called at the end of every phase completed), ``actions``
    (``canonical_action(action)``) and ``undo`` (``undoable(before, after, seat)``), and
    gives ``view``; ``_apply`` is the one order of a move for every game. ``legal``
    (``enumerate_actions(state, seat, prompt)``) and ``greedy`` (``greedy_action(state,
    seat)``) give ``legal_actions`` and ``greedy_action``, unless the game has its own."""

    flow: ModuleType
    actions: ModuleType
    undo: ModuleType
    legal: ModuleType
    greedy: ModuleType

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        raise NotImplementedError

    def pending(self, state: State) -> dict[str, dict[str, Any]]:
        return self.flow.pending(state)

    def canonical_action(self, state: State, seat: str, action: Any) -> tuple[dict[str, Any], list[str]]:
        """(the action as the engine reads it, the names of fields it does not know);
        IllegalAction for a malformed one (engine/canonical.py)."""
        return self.actions.canonical_action(action)

    def undoable(self, before: State, after: State, seat: str) -> bool:
        """Whether ``seat``'s move that turned ``before`` into ``after`` may be taken back
        (BGA's undo): no die rolled, no card drawn or shown from a hidden hand or deck
        (the game's ``undo.py`` lists what the rulebook keeps hidden)."""
        return self.undo.undoable(before, after, seat)

    def shown_action(
        self, before: State, seat: str, action: dict[str, Any], now: State, viewer: str | None
    ) -> dict[str, Any]:
        """A logged action as ``viewer`` may see it at ``now`` (engine/__init__.py): by
        default a sealed plan is hidden from the others until the reveal and every other
        action is public (a deck's order is in the seed, never in an action)."""
        return sealed_until_reveal(self, before, seat, action, now, viewer)

    def legal_actions(self, state: State, seat: str) -> list[dict[str, Any]]:
        prompt = self.flow.pending(state).get(seat)
        return [] if prompt is None else self.legal.enumerate_actions(state, seat, prompt)

    def greedy_action(self, state: State, seat: str) -> dict[str, Any]:
        """The greedy player's choice (``engine.ai`` kind "greedy")."""
        return self.greedy.greedy_action(state, seat)

    def prompt(self, state: State, seat: str) -> dict[str, Any]:
        """What ``seat`` is asked now; IllegalAction if it has nothing to decide."""
        return prompt_for(self.flow, state, seat)

    # --- a move: checked, played on a copy, the automatic steps after it run ------------
    def _deciding(self, state: State) -> Collection[str]:
        """The seats that may move now."""
        return self.flow.pending(state)

    def _refuse(self, state: State, seat: str, action: dict[str, Any]) -> None:
        """IllegalAction if ``seat`` may not make this move now (the game over and a seat
        not in the game are already refused)."""
        if seat not in self._deciding(state):
            raise IllegalAction(self._not_deciding(state, seat))

    def _not_deciding(self, state: State, seat: str) -> str:
        """Why ``seat`` may not move now, for the player."""
        return "you have nothing to decide right now"

    def _fresh(self, state: State) -> State:
        """A copy of ``state`` that the move may change, without the last move's lines."""
        shell = dict(state)
        shell["log"] = []  # (the last action's lines are not copied)
        return clone(shell)

    def _apply(self, state: State, seat: str, action: dict[str, Any], on_phase: Any) -> State:
        if not isinstance(action, dict):
            raise IllegalAction("an action is a JSON object with a 'type'")
        if not isinstance(seat, str) or seat not in state["players"]:
            raise IllegalAction(f"{seat!r} has no seat in this game")
        if state["phase"] == "over":
            raise IllegalAction("the game is over")
        self._refuse(state, seat, action)
        new = self._fresh(state)
        self.flow.act(new, seat, action)
        new["version"] += 1
        self.flow.run(new, on_phase=on_phase)
        return new

    def apply(self, state: State, seat: str, action: dict[str, Any]) -> State:
        return self._apply(state, seat, action, None)

    def trace(self, state: State, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        """The public views at the end of every phase that ``action`` completes (the
        automatic phases included), for the pictures posted after each phase."""
        return self.apply_traced(state, seat, action)[1]

    def apply_traced(self, state: State, seat: str, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        """``apply`` and ``trace`` in one pass: (the new state, the phase views). The app
        applies a move once and has its pictures' views with it."""
        views: list[dict[str, Any]] = []
        new = self._apply(state, seat, action, lambda s: views.append(self.view(s, None)))
        return new, views

    def events(self, state: State) -> list[str]:
        return list(state["log"])

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        if state["result"] is None:
            raise IllegalAction("the game is not over yet")
        return clone(state["result"])

    def dump(self, state: State) -> str:
        return dumps(state)


def prompt_for(
    flow: ModuleType, state: State, seat: str, error: type[ValueError] = IllegalAction
) -> dict[str, Any]:
    """What ``seat`` is asked now (``flow.pending``); ``error`` if it has nothing to decide."""
    prompt = flow.pending(state).get(seat)
    if prompt is None:
        raise error(f"{seat} has nothing to decide")
    return prompt


class VersionedRecord(StateRecord):
    """A game that versions its rules (engine/versions.py): ``setup`` takes the rules
    version and the generator kind a game started with; the game gives ``_setup``."""

    rules_version: int  # the rules version a new game starts under

    def setup(
        self,
        players: list[str],
        seed: int,
        options: dict[str, Any] | None = None,
        *,
        rules: int | None = None,
        rng: str | None = None,
    ) -> State:
        """A new game under the current rules and generator; ``rules``/``rng`` set up a
        game under the ones it started with (the replay of an older game's log)."""
        return self._setup(players, seed, options, rules, rng)

    def _setup(self, players: list[str], seed: int, options: dict[str, Any] | None, rules: int | None, rng: str | None) -> State:
        raise NotImplementedError


def check_companies(players: Any, seed: Any, most: int, title: str) -> None:
    """IllegalAction unless ``players`` lists 1 to ``most`` distinct seats (non-empty
    strings) and ``seed`` is an integer."""
    if not isinstance(players, list) or not 1 <= len(players) <= most:
        raise IllegalAction(f"{title} is for 1 to {most} companies")
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise IllegalAction("seats must be distinct non-empty strings")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise IllegalAction("seed must be an integer")


def options_and_automaton(
    seats: list[str], options: dict[str, Any] | None, known: Collection[str], automaton: str
) -> tuple[dict[str, Any], list[str]]:
    """A game's set-up options (a copy) and its ``automata`` (the seats the engine plays,
    at most one, called ``automaton``): IllegalAction for an option not in ``known`` and
    for automata that are not a list of this game's seats."""
    options = dict(options or {})
    unknown = set(options) - set(known)
    if unknown:
        raise IllegalAction(f"unknown option(s): {', '.join(sorted(unknown))}")
    automata = options.get("automata", [])
    if not isinstance(automata, list) or any(a not in seats for a in automata):
        raise IllegalAction("automata must list seats of this game")
    if len(automata) > 1:
        raise IllegalAction(f"only one seat can be {automaton}")
    return options, automata


def hidden_action(action: dict[str, Any]) -> dict[str, Any]:
    """A logged action as shown while what it carries is secret: its kind only."""
    kind = action.get("type")
    return {"type": kind, "hidden": True} if isinstance(kind, str) else {"hidden": True}


def sealed_until_reveal(
    game: Any, before: State, seat: str, action: dict[str, Any], now: State, viewer: str | None
) -> dict[str, Any]:
    """The common rule for a secret simultaneous decision (a sealed plan): the action that
    answered a ``"secret"`` prompt is hidden from everyone but its seat while the game is
    still at the stage (round, phase) it was made in; the reveal ends that stage. After
    the game is over everything may be shown."""
    if viewer == seat or game.is_over(now):
        return action
    prompt = game.pending(before).get(seat)
    if prompt is None or not prompt.get("secret"):
        return action
    if (before.get("round"), before.get("phase")) == (now.get("round"), now.get("phase")):
        return hidden_action(action)
    return action
