"""Prospect: roll 3 Level dice, move up one space per pass (AA-PRO-01..05); Overdrive
may follow the roll (AA-SPC-05)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects, relationships, reliability, reputation, special
from engine.age_of_automaton.actions import log_action, place_worker, worker_levels
from engine.age_of_automaton.common import State, compositions, say
from engine.age_of_automaton.data import BOARD, ROMAN, TRACK_IDS, TRACKS
from engine.errors import IllegalAction
from engine.rng import Rng

LEVEL_DIE = BOARD["dice"]["level"]


def top(track: str) -> int:
    return len(TRACKS[track]["spaces"]) - 1


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    p = state["players"][seat]
    tracks = [t for t in TRACK_IDS if p["prospect"][t] < top(t)]
    return [{"worker": lvl, "track": t} for lvl in worker_levels(state, seat, "prospect", extra) for t in tracks]


def passes(dice: list[int], level: int) -> int:
    """A die at or below the worker's level is a pass (AA-PRO-01)."""
    return sum(1 for d in dice if d <= level)


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    track, level = params.get("track"), params.get("worker")
    if not isinstance(track, str) or track not in TRACKS:
        raise IllegalAction("choose one of the four Prospect tracks")
    if state["players"][seat]["prospect"][track] >= top(track):
        raise IllegalAction("you are already at the top of that track")
    place_worker(state, seat, "prospect", level, extra)
    log_action(state, seat, f"Prospect on the {TRACKS[track]['name']} with a Level {ROMAN[level]} automaton")
    rng = Rng(state["rng"])
    dice = [LEVEL_DIE[rng.below(len(LEVEL_DIE))] for _ in range(3)]
    state["rng"] = rng.state
    state["dice"] = {"kind": "level", "seat": seat, "faces": dice, "rolled": list(dice), "level": level}
    say(state, f"{seat} rolls the Level dice: {', '.join(ROMAN[d] for d in dice)} "
        f"→ {passes(dice, level)} pass{'es' if passes(dice, level) != 1 else ''}.")
    if _only_move(state, seat):  # rules 4: no question with one answer
        _move_and_bonus(state, seat, track, level)
        return
    effects.ask(state, seat, "dice", track=track, level=level)


def _only_move(state: State, seat: str) -> bool:
    return int(state.get("rules", 1)) >= 4 and not special.can_overdrive(state, seat)


def _move_and_bonus(state: State, seat: str, track: str, level: int, take: dict[str, int] | None = None) -> None:
    move(state, seat, track, level, passes(state["dice"]["faces"], level))
    colours = TRACKS[track]["bonus"]
    # (``take``: the bonus chosen with the move, gained where the pick would be asked)
    atom = {"pick": level, "of": colours} if take is None else {"res": take}
    effects.queue(state, seat, [atom], why="Prospect bonus", front=True)


def bonus_choices(state: State, a: dict[str, Any]) -> list[dict[str, int]]:
    """Rules 4: the Prospect bonus (as many resources as the automaton's level, of the
    track's colours) is chosen with "Move with these dice" when it is a choice, one
    answer instead of two (the bonus does not depend on the dice); [] otherwise."""
    colours = list(TRACKS[a["track"]]["bonus"])
    if int(state.get("rules", 1)) < 4 or len(colours) < 2:
        return []
    return compositions(a["level"], colours)


def move(state: State, seat: str, track: str, level: int, n: int) -> int:
    """Move up to ``n`` spaces, stopping at an unmet requirement or an occupied top."""
    p = state["players"][seat]
    moved = 0
    spaces = TRACKS[track]["spaces"]
    for _ in range(n):
        h = p["prospect"][track]
        if h >= top(track):
            break
        nxt = spaces[h + 1]
        if h + 1 == top(track) and any(
            q["prospect"][track] == top(track) for s, q in state["players"].items() if s != seat
        ):
            say(state, f"The top space of the {TRACKS[track]['name']} is taken; the other passes are lost.")
            break
        req = nxt.get("req", {})
        need_c = req.get("credits", 0)
        if p["credits"] < need_c or len(p["rnd"]) < req.get("rnd", 0) or len(p["sale"]) < req.get("sale", 0):
            say(state, f"{seat} does not meet the requirement of the next space; the other passes are lost.")
            break
        if need_c:
            p["credits"] -= need_c
            say(state, f"{seat} pays {need_c} credit{'s' if need_c != 1 else ''} to move up.")
        p["prospect"][track] = h + 1
        moved += 1
        say(state, f"{seat} moves up to space {h + 1} of the {TRACKS[track]['name']}.")
        if nxt.get("rep"):
            reputation.gain(state, seat, nxt["rep"])
        if nxt.get("rel"):
            relationships.improve(state, seat, nxt["rel"])
    return moved


def overdrive_cost(p: dict[str, Any]) -> int:
    return BOARD["special_actions"]["overdrive"] + reliability.surcharge(p)


def answer_dice(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    take = action.get("take")
    if take is not None:  # rules 4: move, and the Prospect bonus chosen at once
        choices = bonus_choices(state, a)
        if not choices or action.get("overdrive"):
            raise IllegalAction("'take' (the Prospect bonus) goes with moving, where the bonus is a choice")
        take = effects.counts(action, "take", list(TRACKS[a["track"]]["bonus"]))
        if take not in choices:
            raise IllegalAction(f"take exactly {a['level']} of {', '.join(TRACKS[a['track']]['bonus'])}")
        state["asks"].remove(a)
        _move_and_bonus(state, seat, a["track"], a["level"], take)
        return
    if action.get("overdrive"):
        special.overdrive(state, seat)
        if not _only_move(state, seat) or state["asks"][0] is not a:
            return  # asked again (or a Reliability benefit to choose comes first)
    state["asks"].remove(a)
    _move_and_bonus(state, seat, a["track"], a["level"])


effects.ASKS["dice"] = answer_dice
