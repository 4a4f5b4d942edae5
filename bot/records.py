"""The records the application layer hands to the Discord layer, the CLI and tests:
refusals (``AppError``), game and seat information, and the ``Outcome`` of an action.
No Discord, no database: plain data."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bot.settings import Settings
from bot.storage import GameRow, dumps

State = dict[str, Any]

APP_AI_KINDS = ("bot", "random")  # AI seats the app plays with engine.ai, in every game


# --- errors ---------------------------------------------------------------------------


class AppError(Exception):
    """An expected refusal; ``str(err)`` is a polite message for the player."""


class NotFound(AppError):
    pass


class Forbidden(AppError):
    pass


class Conflict(AppError):
    """The game is not in a state that allows this (wrong status, channel busy...)."""


class ReplayMismatch(AppError):
    pass


# --- data the app hands out -----------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    seat: str  # the seat id the engine knows
    position: int
    user_id: int | None  # None for AI seats
    ai_kind: str | None  # "bot" | "random" | a game's own automaton ("steve") | None (human)
    display_name: str
    ai_takeover: bool  # a human seat the AI plays for now

    @property
    def is_human(self) -> bool:
        return self.ai_kind is None

    @property
    def played_by_app_ai(self) -> bool:
        """The app chooses this seat's actions (rule bot or taken-over human)."""
        return self.ai_kind in APP_AI_KINDS or (self.ai_kind is None and self.ai_takeover)

    @property
    def played_by_engine(self) -> bool:
        """The game's own automaton (Steve): the engine plays it (``options["automata"]``)."""
        return self.ai_kind is not None and self.ai_kind not in APP_AI_KINDS


@dataclass(frozen=True)
class GameInfo(GameRow):
    """A game's stored row (status: lobby | active | paused | finished | abandoned;
    version: committed actions) with its seats and settings."""

    seats: tuple[SeatInfo, ...] = ()
    settings: Settings = field(default_factory=Settings)

    @classmethod
    def of(cls, row: GameRow, seats: tuple[SeatInfo, ...], settings: Settings) -> GameInfo:
        return cls(**{f.name: getattr(row, f.name) for f in fields(row)}, seats=seats, settings=settings)

    def at_version(self, version: int, updated_at: float | None = None) -> GameInfo:
        """This row at another ``version`` (and ``updated_at``): ``dataclasses.replace``
        without its rebuild field by field, which every action paid for 2-3 times."""
        new = object.__new__(type(self))
        fields_ = new.__dict__
        fields_.update(self.__dict__)
        fields_["version"] = version
        if updated_at is not None:
            fields_["updated_at"] = updated_at
        return new

    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat_named(self, seat: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def drawn(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """``view`` as a picture is drawn from it: with each seat's display name under
        ``"player_names"`` (render.kit.player_name), so that the pictures, the table's
        board and replay included, name players as the messages do, never by seat id."""
        return {**view, "player_names": {s.seat: s.display_name or s.seat for s in self.seats}}

    def can_manage(self, user_id: int, is_admin: bool | int = False) -> bool:
        """The host, or a server manager of the game's own guild. ``is_admin`` is the id
        of the guild in which the caller has Manage Server (what the Discord layer
        passes), or ``True`` for an operator of a game outside any guild (CLI, tests):
        Manage Server in another guild does not count (issue 8 §5)."""
        return user_id == self.host_id or admin_here(self.guild_id, is_admin)


def admin_here(guild_id: int | None, is_admin: bool | int) -> bool:
    """Whether ``is_admin`` (a guild id, or True/False) gives manager rights over a game of
    ``guild_id``."""
    if is_admin is False or is_admin is None:
        return False
    if is_admin is True:
        return guild_id is None
    return isinstance(is_admin, int) and guild_id is not None and is_admin == guild_id


@dataclass(frozen=True)
class Applied:
    seq: int  # the state version after this action
    seat: str
    action: dict[str, Any]
    actor: str  # "player" | "bot" | "takeover"


@dataclass(frozen=True)
class Holdup:
    """A human seat the game waits for, since when."""

    seat: str
    user_id: int | None
    display_name: str
    since_at: float
    since_version: int


@dataclass(frozen=True)
class Deadline:
    """A scheduled reminder of a seat the game waits for: the next nudge, or the AI
    takeover. ``sent`` counts the nudges already sent for this wait."""

    seat: str
    user_id: int | None
    display_name: str
    kind: str  # "nudge" | "takeover"
    due_at: float
    sent: int


@dataclass
class Outcome:
    """What happened and what to post.

    - ``status``: "applied" | "already" | "stale" | "illegal" (from act), "started",
      "resumed", "takeover", "reclaimed", "advanced" (AI catch-up); ``message`` is a
      player-facing note for already/stale/illegal (reply privately) and takeover.
    - ``applied``: every committed action (the player's, then AI seats').
    - ``events``: the new log lines, in order (post them in the channel).
    - ``phase_changed`` / ``round_changed``: post the public picture; ``public_view``
      is the current public view, ``phase_views`` the public view right after each
      phase boundary crossed, oldest first (the board as each new phase began).
    - ``pending``: everyone the game waits for now, seat -> user id (humans only);
      ``mentions``: user ids whose decision is new (one mention message).
    - ``new_prompts``: seat -> prompt for humans with a new decision;
      ``secret_seats``: those of them deciding in secret (send DMs);
      ``secret_started``: at least one such DM is due.
    - ``prompt``: for stale/already/illegal, the acting seat's current prompt (or None).
    - ``over`` / ``result``: the game ended; result = engine result.
    - ``results``: the "Round N results" texts of the rounds this outcome ended.
    - ``told``: seats told "you are the last one" by this outcome.
    - ``batch``: the outbox batch holding what this outcome tells Discord (written by
      the app in the transactions of its actions; None while nothing is written).
    - ``settled``: the version whose commit wrote the outcome's final rows (the chain
      of moves ended there: no AI move followed); None while they are still to write.
    """

    game_id: int
    status: str = "applied"
    message: str = ""
    seat: str | None = None
    version: int = 0
    applied: list[Applied] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    phase_changed: bool = False
    round_changed: bool = False
    round: Any = None
    phase: str | None = None
    public_view: dict[str, Any] | None = None
    phase_views: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, int | None] = field(default_factory=dict)
    mentions: list[int] = field(default_factory=list)
    new_prompts: dict[str, dict[str, Any]] = field(default_factory=dict)
    secret_seats: list[str] = field(default_factory=list)
    secret_started: bool = False
    prompt: dict[str, Any] | None = None
    over: bool = False
    result: dict[str, Any] | None = None
    batch: int | None = None
    results: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    settled: int | None = None

    @property
    def ok(self) -> bool:
        return self.status not in ("already", "stale", "illegal")


# --- helpers --------------------------------------------------------------------------


def canonical(action: Any) -> str:
    return dumps(action)


def make_seat_id(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "", name.lower())[:16] or "player"
    if base not in taken:
        return base
    n = 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"


SECRET_PROMPT_TYPES = frozenset({"plan", "draft"})


def is_secret(prompt: Mapping[str, Any], pending: Mapping[str, Any]) -> bool:
    """Whether a prompt is a hidden (simultaneous) decision: the engine's own flag
    ("secret", else "simultaneous") if it gives one; else a known secret prompt type
    (a plan, a draft); else "several seats decide at once"."""
    for key in ("secret", "simultaneous"):
        if key in prompt:
            return bool(prompt[key])
    if prompt.get("type") in SECRET_PROMPT_TYPES:
        return True
    return len(pending) > 1


