"""Small helpers shared by the Age of Automaton modules: log lines, names, resources,
credits and VP (every VP gain is logged as "scores N VP", so the log adds up)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.data import ACHIEVEMENTS, COLOURS, EQUIPMENT, LIMIT, SPECIALISTS
from engine.errors import IllegalAction

State = dict[str, Any]


def say(state: State, text: str) -> None:
    state["log"].append(text)


def name(state: State, seat: str) -> str:
    return seat


def player(state: State, seat: str) -> dict[str, Any]:
    return state["players"][seat]


def held(p: dict[str, Any]) -> int:
    """Resource tokens in a player's supply (credits are not resources)."""
    return sum(p["res"][c] for c in COLOURS)


def fmt_res(res: dict[str, int], credits: int = 0) -> str:
    parts = [f"{n} {c}" for c, n in res.items() if n and c in COLOURS]
    if credits:
        parts.append(f"{credits} credit" + ("s" if credits != 1 else ""))
    return ", ".join(parts) if parts else "nothing"


def gain_res(state: State, seat: str, res: dict[str, int], why: str = "") -> None:
    """Add resource tokens; above the limit of 10 the player discards at once (AA-SET-12)."""
    p = player(state, seat)
    for c, n in res.items():
        if n:
            p["res"][c] += n
    if any(res.values()):
        say(state, f"{seat} gains {fmt_res(res)}" + (f" ({why})" if why else "") + ".")
    over = held(p) - LIMIT
    if over > 0:
        # the discard decision comes before anything else
        state["asks"].insert(0, {"seat": seat, "kind": "discard", "n": over})


def gain_credits(state: State, seat: str, n: int, why: str = "") -> None:
    if n:
        player(state, seat)["credits"] += n
        say(state, f"{seat} gains {n} credit{'s' if n != 1 else ''}" + (f" ({why})" if why else "") + ".")


def pay_credits(state: State, seat: str, n: int, why: str = "") -> None:
    p = player(state, seat)
    if p["credits"] < n:
        raise IllegalAction(f"{why or 'that'} costs {n} credits and you have {p['credits']}")
    if n:
        p["credits"] -= n
        say(state, f"{seat} pays {n} credit{'s' if n != 1 else ''}" + (f" for {why}" if why else "") + ".")


def pay_res(state: State, seat: str, res: dict[str, int], why: str = "") -> None:
    p = player(state, seat)
    for c, n in res.items():
        if p["res"][c] < n:
            raise IllegalAction(f"{why or 'that'} needs {fmt_res(res)} and you have {fmt_res(p['res'])}")
    for c, n in res.items():
        p["res"][c] -= n
    if any(res.values()):
        say(state, f"{seat} pays {fmt_res(res)}" + (f" for {why}" if why else "") + ".")


def score(state: State, seat: str, n: int, why: str) -> None:
    if n:
        player(state, seat)["vp"] += n
        say(state, f"{seat} scores {n} VP ({why}).")
        book = state.get("round_vp")
        if book is not None:  # rules 4: the round's VP by source, for the round's results
            if book["round"] != state["round"]:
                book["round"], book["vp"] = state["round"], {}
            mine = book["vp"].setdefault(seat, {})
            src = source_of(why)
            mine[src] = mine.get(src, 0) + n


def source_of(why: str) -> str:
    """The source a VP gain is listed under in a round's results ("Equipment bonus",
    "Reliability", "Reputation tokens", "Achievements", "Specialists", "Equipment")."""
    if why.startswith("Reliability"):
        return "Reliability"
    if "VP token" in why:
        return "Reputation tokens"
    if why.endswith(" bonus"):
        return why
    for group, name in ((ACHIEVEMENTS, "Achievements"), (SPECIALISTS, "Specialists"), (EQUIPMENT, "Equipment")):
        if any(why.startswith(str(c["name"])) for c in group.values()):
            return name
    return "abilities"


def has_res(p: dict[str, Any], res: dict[str, int]) -> bool:
    return all(p["res"][c] >= n for c, n in res.items())


def compositions(n: int, kinds: list[str], caps: dict[str, int] | None = None) -> list[dict[str, int]]:
    """Every way to split ``n`` among ``kinds`` (at most ``caps[k]`` of each)."""
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, cur: dict[str, int]) -> None:
        if i == len(kinds) - 1:
            k = kinds[i]
            if caps is None or left <= caps.get(k, 0):
                d = dict(cur)
                if left:
                    d[k] = left
                out.append(d)
            return
        k = kinds[i]
        top = left if caps is None else min(left, caps.get(k, 0))
        for m in range(top, -1, -1):
            if m:
                cur[k] = m
            walk(i + 1, left - m, cur)
            cur.pop(k, None)

    if kinds:
        walk(0, n, {})
    return out
