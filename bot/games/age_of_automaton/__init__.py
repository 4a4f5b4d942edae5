"""Age of Automaton as the bot presents it (:data:`PRESENTER`)."""

from __future__ import annotations

from bot.games.age_of_automaton.presenter import PRESENTER, AgeOfAutomaton

__all__ = ["PRESENTER", "AgeOfAutomaton"]
