"""Phase 4. Improve Production (SI-IMP-01..04, SI-STEVE-06)."""

from __future__ import annotations

from typing import Any

from engine.errors import require
from engine.smartphone_inc.common import State, say
from engine.smartphone_inc.data import improvement_name


def active(state: State, seat: str) -> bool:
    return state["players"][seat]["outcome"]["active"]["improve"] > 0


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    if not active(state, seat) or not state["block"]:
        return None
    p = {"type": "improvement", "block": list(state["block"])}
    if len(state["block"]) == 1:
        p["forced"] = {"type": "improvement", "id": state["block"][0]}
    return p


def take_token(state: State, seat: str) -> None:
    """SI-IMP-02 (also when the Block is empty)."""
    state["players"][seat]["tokens"] += 1
    say(state, f"{seat} takes a Goods token.")


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    imp = action.get("id")
    require(isinstance(imp, str) and imp in state["block"], "that Improvement is not in the Improvement Block (any more)")
    state["block"].remove(imp)
    state["players"][seat]["improvements"].append(imp)  # usable from the next Planning (SI-IMP-03)
    say(state, f"{seat} takes {improvement_name(imp)}.")


def refill(state: State) -> None:
    """SI-IMP-04: the Block's leftovers leave the game; new ones are revealed."""
    size = state["options"]["block_size"]
    state["block"] = state["pile"][:size]
    state["pile"] = state["pile"][size:]
