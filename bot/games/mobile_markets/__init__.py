"""Mobile Markets as the bot presents it (:data:`PRESENTER`)."""

from __future__ import annotations

from bot.games.mobile_markets.presenter import PRESENTER, MobileMarkets

__all__ = ["PRESENTER", "MobileMarkets"]
