"""A game's reminder settings and a player's quiet hours: plain data with validation.

The lowest layer of the bot's own modules (no ``bot`` import): storage stores these,
the records carry them, the reminder policy (:mod:`bot.reminders`) computes with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


@dataclass(frozen=True)
class Settings:
    """Per-game reminder settings (hours are real hours). A new game reminds after 4 h
    and lets the AI take over after 24 h, so one absent player never stalls a game for
    good; the host changes this in ``/game settings``."""

    remind_after_hours: float = 4.0
    repeat_hours: float = 12.0
    takeover: bool = True
    takeover_after_hours: float = 24.0

    def validate(self) -> None:
        if not isinstance(self.takeover, bool):
            raise ValueError("takeover must be on or off (true or false)")
        for name in ("remind_after_hours", "repeat_hours", "takeover_after_hours"):
            value = getattr(self, name)
            label = name.replace("_", " ")
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                raise ValueError(f"{label} must be a number of hours")
            if not (0 < value <= 24 * 60):
                raise ValueError(f"{label} must be between 0 and 1440 hours")


def _quote(text: object, limit: int = 40) -> str:
    """User input quoted in a reply: one line, at most ``limit`` characters."""
    s = " ".join(str(text).split())
    return repr(s if len(s) <= limit else s[: limit - 1] + "…")


def parse_hhmm(text: str) -> int:
    """"22:30" -> minutes after midnight (1350). Raises ValueError on bad input."""
    try:
        hh, mm = text.strip().split(":")
        h, m = int(hh), int(mm)
    except ValueError:
        raise ValueError(f"{_quote(text)} is not a time like 22:30") from None
    if not (0 <= h <= 23 and 0 <= m <= 59):
        raise ValueError(f"{_quote(text)} is not a time like 22:30")
    return h * 60 + m


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {_quote(name)} (use a name like Europe/Paris)") from None


@dataclass(frozen=True)
class QuietHours:
    start: str  # local "HH:MM", inclusive
    end: str  # local "HH:MM", exclusive
    tz: str = "UTC"

    def validate(self) -> None:
        if parse_hhmm(self.start) == parse_hhmm(self.end):
            raise ValueError("quiet hours must not start and end at the same time")
        zone(self.tz)
