"""The Priority Rule (SI-PRIO-01..04): lowest price first, then lowest VP, then the
starting position on the VP Scoreboard. Re-checked at the start of every phase."""

from __future__ import annotations

from engine.smartphone_inc.common import State


def priority_order(state: State) -> list[str]:
    players = state["players"]
    return sorted(
        state["seats"],
        key=lambda s: (players[s]["price"], players[s]["vp"], players[s]["start"]),
    )
