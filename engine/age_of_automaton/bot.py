"""A rule-following bot ("greedy"): it only ever chooses among the legal actions, and
prefers by simple estimates in VP (cards and tracks it can reach now, the resources it
needs for the Sale Orders and Specialists in sight, never spending reliability below 4
except for Overdrive that adds passes). Deterministic: no randomness at all."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import flow, reliability, reputation, scoring, technology
from engine.age_of_automaton.actions import discounted, prospect
from engine.age_of_automaton.common import State, held
from engine.age_of_automaton.data import (
    COLOURS,
    EQUIPMENT,
    RND,
    SALES,
    SPECIALISTS,
    SPONSORSHIP,
    TRACKS,
)

P_PASS = {1: 1 / 6, 2: 2 / 6, 3: 3 / 6, 4: 4 / 6}


def atoms_value(state: State, seat: str, atoms: list[dict[str, Any]]) -> float:
    p = state["players"][seat]
    v = 0.0
    late = state["round"] >= 5
    for a in atoms:
        if "credits" in a:
            v += a["credits"] * (0.34 if late else 0.5)
        elif "res" in a:
            v += sum(a["res"].values()) * (0.34 if late else 0.7)
        elif "any" in a or "pick" in a or "any_or_credits" in a:
            n = a.get("any") or a.get("pick") or a.get("any_or_credits")
            v += n * (0.34 if late else 0.75)
        elif "vp" in a:
            v += a["vp"]
        elif "rep" in a:
            v += 1.5 * a["rep"]
        elif "rel" in a:
            v += 1.2 * len(a["rel"])
        elif "upgrade" in a:
            v += 0.8 * a["upgrade"] if technology.can_upgrade(p) else 0
        elif "build" in a:
            v += (1.2 + 0.3 * a["build"]) if p["unbuilt"] else 0
        elif "donation" in a:
            v += 0.8 * a["donation"]
    return v


def _wanted(state: State, seat: str) -> dict[str, float]:
    """How much the bot wants each colour: costs of reachable Sale Orders and Specialists."""
    p = state["players"][seat]
    want = {c: 0.1 for c in COLOURS}
    for card in state["rows"]["sale"][:3]:
        for c, n in SALES[card]["cost"].items():
            want[c] += max(0, n - p["res"][c])
    for card in state["rows"]["equipment"][:3]:
        for c, n in discounted(p, EQUIPMENT[card]["cost"]).items():
            want[c] += 0.5 * max(0, n - p["res"][c])
    for card in p["hand"]:
        for c, n in SPECIALISTS[card]["requirement"].items():
            want[c] += 0.7 * max(0, n - p["res"][c])
    return want


def main_value(state: State, seat: str, a: dict[str, Any]) -> float:
    p = state["players"][seat]
    kind = a["action"] if a["type"] == "main" else state["asks"][0]["action"]
    lvl = a.get("worker", 0)
    worker_cost = 0.25 * lvl  # a used worker returns unbuilt
    rnd_left = 6 - state["round"]
    if kind == "sale":
        card = SALES[a["card"]]
        return card["vp"] + 1.5 + 1.2 * len(card["logos"]) + 0.5 * lvl - 0.7 * sum(card["cost"].values()) + 2 - worker_cost
    if kind == "equipment":
        card = EQUIPMENT[a["card"]]
        n = len(p["equipment"])
        table = scoring.equipment_vp(n + 1) - scoring.equipment_vp(n)
        cost = sum(discounted(p, card["cost"]).values())
        ability = atoms_value(state, seat, card["ability"]) * 0.4 * rnd_left
        return lvl + table + ability + 1.0 + 0.5 * (rnd_left > 2) - 0.7 * cost - worker_cost
    if kind == "rnd":
        card = RND[a["card"]]
        parts = [RND[c]["part"] for c in p["rnd"]]
        gain = scoring.rnd_vp([*parts, card["part"]]) - scoring.rnd_vp(parts)
        up = 0.8 * card["upgrade"] if technology.can_upgrade(p) or lvl < 4 else 0
        bonus = lvl * (0.5 if state["round"] == 1 else 0.7)
        return gain + up + 1.2 * len(card["logos"]) + bonus - worker_cost
    if kind == "prospect":
        t = a["track"]
        h = p["prospect"][t]
        exp = 3 * P_PASS.get(lvl, 1.0)
        steps = min(int(exp + 0.5), len(TRACKS[t]["spaces"]) - 1 - h)
        v = 0.0
        for k in range(1, steps + 1):
            sp = TRACKS[t]["spaces"][h + k]
            req = sp.get("req", {})
            if len(p["rnd"]) < req.get("rnd", 0) or len(p["sale"]) < req.get("sale", 0):
                break
            v += sp["vp"] - TRACKS[t]["spaces"][h + k - 1]["vp"] + 1.5 * sp.get("rep", 0) + 1.2 * len(sp.get("rel", []))
            v -= 0.5 * req.get("credits", 0)
        if h == 0:
            v += 1.0 * rnd_left / 2  # a newly advanced track raises the Donation limit
        return v + 0.7 * lvl - worker_cost
    if kind == "funding":
        return 0.5 * (3 + reputation.engineers(p))
    if kind == "assembling":
        n = min(p["unbuilt"], 1 + reputation.engineers(p))
        first = min(4, 1 + len(p["sale"]))
        return (0.9 * n + 0.3 * first) * (1 if rnd_left > 1 else 0.6) + (1.5 if technology.built(p) == 0 else 0)
    if kind == "sponsorship":
        return atoms_value(state, seat, SPONSORSHIP[a["tile"]]["gain"]) + 0.3
    if kind == "purchasing":
        room = 10 - held(p)
        return 0.6 * min(room, 3 + reputation.engineers(p))
    return 0.0


def _best(options: list[dict[str, Any]], value: Any) -> dict[str, Any]:
    best, best_v = options[0], float("-inf")
    for o in options:
        v = value(o)
        if v > best_v:
            best, best_v = o, v
    return best


def choose(state: State, seat: str) -> dict[str, Any]:
    options = flow.options(state, seat)
    if not options:
        raise ValueError(f"{seat} has nothing to decide")
    if len(options) == 1:
        return options[0]
    p = state["players"][seat]
    kind = options[0]["type"]
    if kind == "achievement":  # claiming only ever gains: always, at once
        return options[0]
    if state["asks"]:
        a = state["asks"][0]
        want = _wanted(state, seat)
        late = state["round"] >= 5

        def take_value(o: dict[str, Any]) -> float:
            return sum(
                n * (0.4 if late else 1.0) if c == "credits" else n * (want[c] + 0.01 * (3 - p["res"][c]))
                for c, n in o["take"].items()
            )

        def drop_cost(o: dict[str, Any]) -> float:
            return sum(n * want[c] for c, n in (o.get("drop") or {}).items())

        if a["kind"] == "pick":  # (rules 4: with the discard to the limit, where it comes to that)
            return _best(options, lambda o: take_value(o) - drop_cost(o))
        if a["kind"] == "discard":
            return _best(options, lambda o: -drop_cost(o))
        if a["kind"] == "upgrade":
            return _best(options, lambda o: o["level"])
        if a["kind"] == "dice":
            if special_ok(p) or any(o.get("overdrive") for o in options):
                dice = state["dice"]["faces"]
                now = prospect.passes(dice, a["level"])
                after = prospect.passes([max(1, d - 1) for d in dice], a["level"])
                if after > now and reliability.value(p) > 2 and p["credits"] >= 3:
                    return {"type": "dice", "overdrive": True}
            moves = [o for o in options if not o.get("overdrive") and "take" in o]
            if moves:  # rules 4: the Prospect bonus chosen with the move, as the pick would be
                return _best(moves, take_value)
            return {"type": "dice", "overdrive": False}
        if a["kind"] == "resolve":
            return _best(options, lambda o: main_value(state, seat, o))
        if a["kind"] == "extra":
            real = [o for o in options if o["type"] == "extra" and not o.get("skip")]
            return _best(real, lambda o: main_value(state, seat, o)) if real else {"type": "extra", "skip": True}
        if a["kind"] == "column":
            return options[0]
        return options[0]
    if kind == "draft":
        return _best(options, lambda o: specialist_value(state, seat, o["card"]))
    if kind == "donate":
        keep_credits = 0 if state["round"] == 5 else 3
        want = _wanted(state, seat)

        def donate_value(o: dict[str, Any]) -> float:
            give = o["give"]
            if give.get("credits", 0) > max(0, p["credits"] - keep_credits):
                return -99
            loss = sum(n * (0.3 + 0.4 * want[c]) for c, n in give.items() if c != "credits")
            loss += 0.5 * give.get("credits", 0) if state["round"] < 5 else 0.34 * give.get("credits", 0)
            return 0.8 * sum(give.values()) - loss

        return _best(options, donate_value)
    return turn_choice(state, seat, options)


def special_ok(p: dict[str, Any]) -> bool:
    return reliability.value(p) >= 6


def specialist_value(state: State, seat: str, card: str) -> float:
    info = SPECIALISTS[card]
    return info["vp"] + 4 * atoms_value(state, seat, info["ability"]) - 0.3 * sum(info["requirement"].values())


def turn_choice(state: State, seat: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    p = state["players"][seat]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for o in options:
        by_type.setdefault(o["type"], []).append(o)
    # free gains first
    for t in ("play_specialist", "use_specialist", "equipment"):
        if t in by_type:
            return by_type[t][0]
    if "contract" in by_type and p["contracts"] > 6 - state["round"] - (1 if state["round"] >= 4 else 0):
        return _best(by_type["contract"], lambda o: atoms_value(state, seat, SPECIALISTS[o["card"]]["ability"]))
    mains = [o for o in by_type.get("main", []) if not o.get("before")]
    if not mains and by_type.get("main"):
        return by_type["main"][0]  # playable only with an Equipment ability first
    if mains:
        best = _best(mains, lambda o: main_value(state, seat, o))
        # build workers first when none can play a worker action well
        if technology.built(p) <= 1 and "special" in by_type and special_ok(p) and p["credits"] >= 6:
            for o in by_type["special"]:
                if o["name"] == "overbuilt":
                    return o
        return best
    if state["round"] == 5 and "contract" in by_type:
        return _best(by_type["contract"], lambda o: atoms_value(state, seat, SPECIALISTS[o["card"]]["ability"]))
    if state["round"] >= 4 and "discard_specialist" in by_type:
        plain = [o for o in by_type["discard_specialist"] if o.get("special") is None and o["card"] in p["hand"]]
        unplayable = [
            o
            for o in plain
            if state["round"] == 5 and any(p["res"][c] < n for c, n in SPECIALISTS[o["card"]]["requirement"].items())
        ]
        if unplayable:
            return unplayable[0]
    if "special" in by_type and special_ok(p) and state["round"] >= 4:
        for o in by_type["special"]:
            if o["name"] == "overclock" and p["credits"] >= 4:
                return o
    for t in ("end", "pass"):
        if t in by_type:
            return by_type[t][0]
    return options[0]
