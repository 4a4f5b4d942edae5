"""Age of Automaton: see ``game.AgeOfAutomaton``."""

from engine.age_of_automaton.game import GAME

__all__ = ["GAME"]
