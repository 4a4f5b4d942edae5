"""``bot.records``: the game row the app keeps between actions (issue 25: moved to the
next version without ``dataclasses.replace``, which every action paid for 2-3 times)."""

from __future__ import annotations

from dataclasses import fields, replace

from bot.records import GameInfo, SeatInfo, Settings


def test_a_game_row_at_another_version_is_the_same_row_but_for_its_version() -> None:
    info = GameInfo(
        7, "smartphone-inc", {"board": "big"}, 12345, 3, 40, 41, 1, "active", 9, None, 100.0, 200.0, 2, "blake2b",
        seats=(SeatInfo("s1", 0, 1, None, "ann", False),), settings=Settings(12.0, 24.0, True, 48.0),
    )
    moved = info.at_version(10, 250.0)
    assert moved == replace(info, version=10, updated_at=250.0)
    assert type(moved) is GameInfo and moved is not info
    assert (info.version, info.updated_at) == (9, 200.0)  # the row it came from is as it was
    kept = info.at_version(11)
    assert kept == replace(info, version=11)
    for f in fields(GameInfo):
        if f.name not in ("version", "updated_at"):
            assert getattr(moved, f.name) is getattr(info, f.name), f.name
