"""Helpers of the picture tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.simulate import play_game
from render import kit

State = dict[str, Any]


class _NoGuesses(dict):  # type: ignore[type-arg]
    """A :data:`render.kit._HEIGHTS` that keeps nothing: every picture drawn once, at full height."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def record_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw from now on (through the shared canvas), each picture
    drawn once: :func:`render.kit.drawn_to_fit` draws a picture a second time when its
    kept height guess is too small, and how often depended on what the process drew
    before (a test counting a text saw it 2 or 3 times by the order of the tests)."""
    monkeypatch.setattr(kit, "_HEIGHTS", _NoGuesses())
    seen: list[str] = []
    text = kit.Canvas.text

    def recording(self: kit.Canvas, x: float, y: float, s: str, *args: Any, **kw: Any) -> float:
        seen.append(s)
        return text(self, x, y, s, *args, **kw)

    monkeypatch.setattr(kit.Canvas, "text", recording)
    return seen


def first_states(
    game: str, seats: list[str], seed: int, options: dict[str, Any], setup_round: int
) -> tuple[dict[tuple[int, str], State], State]:
    """A random game of ``game``: the first state of every (round, phase) it stops in, the
    set-up's first (filed under round ``setup_round``), and the end state."""
    first = get_game(game).setup(seats, seed, options)
    seen: dict[tuple[int, str], State] = {(setup_round, first["phase"]): first}

    def on_state(s: State) -> None:
        seen.setdefault((s["round"], s["phase"]), s)

    final, _, _ = play_game(game, seats, seed, options, kind="random", on_state=on_state)
    return seen, final
