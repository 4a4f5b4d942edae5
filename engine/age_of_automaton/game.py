"""The Age of Automaton engine behind the common protocol (see engine/__init__.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.age_of_automaton import canonical, flow, setup, undo
from engine.age_of_automaton.bot import choose
from engine.age_of_automaton.common import State
from engine.age_of_automaton.labels import label
from engine.age_of_automaton.versions import KNOWN, RULES
from engine.age_of_automaton.view import make_view
from engine.errors import IllegalAction
from engine.standard import VersionedRecord, hidden_action


class AgeOfAutomaton(VersionedRecord):
    name = "age-of-automaton"
    player_range = (2, 4)
    rules_version = RULES  # the rules version a new game starts under (versions.py)
    flow, actions, undo = flow, canonical, undo

    def _setup(self, players: list[str], seed: int, options: dict[str, Any] | None, rules: int | None, rng: str | None) -> State:
        state = setup.setup(players, seed, options, rules, rng)
        flow.run(state)
        return state

    def legal_actions(self, state: State, seat: str) -> list[dict[str, Any]]:
        return flow.options(state, seat)

    def _deciding(self, state: State) -> list[str]:
        return flow.pending_seats(state)

    def random_action(self, state: State, seat: str, rng: Any) -> dict[str, Any]:
        actions = flow.options(state, seat)
        if not actions:
            raise IllegalAction(f"{seat} has nothing to decide")
        return actions[rng.below(len(actions))]

    def greedy_action(self, state: State, seat: str) -> dict[str, Any]:
        return choose(state, seat)

    def label(self, state: State, seat: str, action: dict[str, Any]) -> str:
        return label(state, seat, action)

    def shown_action(
        self, before: State, seat: str, action: dict[str, Any], now: State, viewer: str | None
    ) -> dict[str, Any]:
        """A logged action as ``viewer`` may see it at ``now`` (engine/__init__.py). A
        drafted Specialist (AA-SET-10) stays hidden from the others while its drafter
        still holds it (picked, kept, or in hand): it becomes public when it is played or
        discarded, or when the game is over. Every other action is public (the decks'
        orders are in the seed, never in an action)."""
        if viewer == seat or now["phase"] == "over" or action.get("type") != "draft":
            return action
        card = action.get("card")
        draft = now["draft"]
        held = card in now["players"][seat]["hand"] or (
            draft is not None and (card in draft["kept"][seat] or draft["picks"][seat] == card)
        )
        return hidden_action(action) if held else action

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return make_view(state, seat)

    def load(self, text: str) -> State:
        state = json.loads(text)
        if state.get("game") != self.name or state.get("schema") != setup.SCHEMA or state.get("rules") not in KNOWN:
            raise ValueError("not an Age of Automaton state of this version")
        return state


GAME = AgeOfAutomaton()

__all__ = ["GAME", "AgeOfAutomaton"]
