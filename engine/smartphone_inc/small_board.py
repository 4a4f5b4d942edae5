"""The 2-3 player board of Update 1.1 (option ``board: "small"``, SU-BRD-01..04).

Its regions are in ``map_small.json`` (mixed Buyers are read by ``selling.willing``).
The start is played as decisions before round 1 (phase ``"start"``,
``state["start"] = {"first", "todo": [[step, seat], ...], "retailers": [...]}``):
a random first player picks a company, then the others clockwise; then from the
last player backwards each chooses a starting region among the 3 medium regions; in
a game of 1 or 2 players the last player then places the S and the M Retailer drawn
at random (SU-BRD-01/02). Steve decides his steps by fixed rules (DATA.md).
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction, require
from engine.smartphone_inc import new_technologies
from engine.smartphone_inc.common import State, is_steve, say
from engine.smartphone_inc.data import (
    BOARD_ALPHABETICAL,
    BOARD_REGIONS,
    COLOURS,
    REGIONS,
    RETAILERS,
    START_VP,
    STARTING,
)


def on(state: State) -> bool:
    return state["options"].get("board") == "small"


def setup(state: State, rng: Any) -> None:
    """Draw the first player and (1-2 players) 1 S and 1 M Retailer with a random side."""
    seats = state["seats"]
    first = rng.below(len(seats))
    order = seats[first:] + seats[:first]  # clockwise from the first player
    retailers: list[dict[str, Any]] = []
    if len(seats) <= 2:  # SU-BRD-01
        pool = rng.shuffle(sorted(RETAILERS))
        for size in ("S", "M"):
            rid = next(x for x in pool if RETAILERS[x]["size"] == size)
            retailers.append({"id": rid, "side": rng.below(2)})
    todo: list[list[str]] = [["company", s] for s in order]
    for s in reversed(order):
        todo.append(["region", s])
        if s == order[-1]:
            todo += [["retailer", s] for _ in retailers]
    state["phase"] = "start"
    state["start"] = {"first": order[0], "todo": todo, "retailers": retailers}
    say(state, f"{order[0]} is the first player and picks a company first.")


def _free_colours(state: State) -> list[str]:
    taken = {p["colour"] for p in state["players"].values()}
    return [c for c in COLOURS if c not in taken]


def _free_regions(state: State, size: str) -> list[str]:
    return [
        r
        for r in BOARD_REGIONS["small"]
        if REGIONS[r]["size"] == size and not state["regions"][r]["offices"] and state["regions"][r]["retailer"] is None
    ]


def prompt(state: State, seat: str, step: str) -> dict[str, Any]:
    if step == "company":
        return {"type": "company", "colours": _free_colours(state)}
    if step == "region":
        return {"type": "start_region", "regions": _free_regions(state, "M")}
    ret = state["start"]["retailers"][0]
    size = RETAILERS[ret["id"]]["size"]
    return {
        "type": "start_retailer",
        "retailer": ret["id"],
        "side": ret["side"],
        "vp": RETAILERS[ret["id"]]["sides"][ret["side"]]["vp"],
        "regions": _free_regions(state, size),
    }


def pending(state: State) -> dict[str, dict[str, Any]]:
    todo = state["start"]["todo"]
    if not todo or is_steve(state, todo[0][1]):
        return {}
    step, seat = todo[0]
    return {seat: prompt(state, seat, step)}


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    todo = state["start"]["todo"]
    if not todo or todo[0][1] != seat:
        raise IllegalAction("it is not your turn to choose")
    step = todo[0][0]
    p = prompt(state, seat, step)
    require(action.get("type") == p["type"], f"you are asked for a {p['type']!r} decision")
    if step == "company":
        colour = action.get("colour")
        require(colour in p["colours"], f"choose a free company: {', '.join(p['colours'])}")
        pick_company(state, seat, colour)
    elif step == "region":
        rid = action.get("region")
        require(rid in p["regions"], "choose a free medium region to start in")
        state["regions"][rid]["offices"].append(seat)
        state["players"][seat]["home"] = rid
        say(state, f"{seat} starts in {REGIONS[rid]['name']}.")
    else:
        rid = action.get("region")
        require(rid in p["regions"], "choose a free region of the Retailer's size")
        ret = state["start"]["retailers"].pop(0)
        state["regions"][rid]["retailer"] = ret
        say(state, f"{seat} places a Retailer in {REGIONS[rid]['name']}.")
    todo.pop(0)


def pick_company(state: State, seat: str, colour: str) -> None:
    p = state["players"][seat]
    p["colour"] = colour
    p["start"] = COLOURS.index(colour)
    if not p["steve"]:
        p["improvements"] = [STARTING[colour]]
    else:
        state["steve"]["delayed"] = STARTING[colour]
    say(state, f"{seat} takes the {colour} company.")


def steve_step(state: State) -> None:
    """Steve's start (DATA.md): the first free company in scoreboard order, the first
    free region in his alphabetical order, Retailers likewise."""
    step, seat = state["start"]["todo"][0]
    p = prompt(state, seat, step)
    if step == "company":
        act(state, seat, {"type": "company", "colour": p["colours"][0]})
        return
    first = next(r for r in BOARD_ALPHABETICAL["small"] if r in p["regions"])
    act(state, seat, {"type": p["type"], "region": first})


def finish(state: State) -> None:
    """The rest of the setup as usual: starting VP of the colour, CEOs."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if int(state.get("rules", 1)) >= 2:
            p["vp"] = START_VP[p["colour"]]
    new_technologies.setup(state)
    del state["start"]
    state["phase"] = "planning"
