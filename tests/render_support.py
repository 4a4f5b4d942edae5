"""Helpers of the picture tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.simulate import play_game
from render import kit

State = dict[str, Any]


def record_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw from now on (through the shared canvas)."""
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
