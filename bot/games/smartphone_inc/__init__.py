"""Smartphone Inc. as the bot presents it (:data:`PRESENTER`)."""

from __future__ import annotations

from bot.games.smartphone_inc.presenter import PRESENTER, SmartphoneInc

__all__ = ["PRESENTER", "SmartphoneInc"]
