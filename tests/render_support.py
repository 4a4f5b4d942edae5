"""Helpers of the picture tests."""

from __future__ import annotations

from typing import Any

import pytest

from render import kit


def record_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw from now on (through the shared canvas)."""
    seen: list[str] = []
    text = kit.Canvas.text

    def recording(self: kit.Canvas, x: float, y: float, s: str, *args: Any, **kw: Any) -> float:
        seen.append(s)
        return text(self, x, y, s, *args, **kw)

    monkeypatch.setattr(kit.Canvas, "text", recording)
    return seen
