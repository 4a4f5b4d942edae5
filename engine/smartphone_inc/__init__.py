"""Smartphone Inc. (base game with Steve): see ``game.SmartphoneInc``."""

from engine.smartphone_inc.game import GAME

__all__ = ["GAME"]
