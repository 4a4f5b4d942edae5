"""Mobile Markets: A Smartphone Inc. Game (1-4 companies, Steve Jr.): see ``game.MobileMarkets``."""

from engine.mobile_markets.game import GAME

__all__ = ["GAME"]
