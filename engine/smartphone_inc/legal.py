"""The legal actions of a Smartphone Inc. prompt, listed (``legal_actions``, the random
and the greedy players): every one a prompt accepts where there are few, a sample of the
plans where there are millions (``decisions.sample_plans``)."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc import decisions, pads, research, selling
from engine.smartphone_inc.common import State


def _spreads(needed: dict[str, int], total: int) -> list[dict[str, int]]:
    """Every way to place 1..``total`` markers with at most ``needed[k]`` on each key,
    most markers first (used for the Retailer's Progress bonus: 1 or 2 markers)."""
    keys = list(needed)
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, chosen: dict[str, int]) -> None:
        if i == len(keys):
            if chosen:
                out.append(dict(chosen))
            return
        for n in range(min(needed[keys[i]], left), -1, -1):
            if n:
                chosen[keys[i]] = n
            walk(i + 1, left - n, chosen)
            chosen.pop(keys[i], None)

    walk(0, total, {})
    out.sort(key=lambda d: -sum(d.values()))
    return out


def enumerate_actions(state: State, seat: str, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    kind = prompt["type"]
    if kind == "plan":
        owned = prompt["improvements"]
        plans = pads.arrangements() + decisions.sample_plans(owned, prompt["has_4g"], 16, salt=state["version"])
        return [{"type": "plan", "plan": p} for p in plans]
    if kind == "improvement":
        return [{"type": "improvement", "id": i} for i in prompt["block"]]
    if kind == "research":  # one Technology at a time (the turn goes on), or stop
        left = prompt["markers"]
        return (
            [
                {"type": "research", "place": {t: n}}
                for t, need in prompt["needed"].items()
                for n in range(min(need, left), 0, -1)
            ]
            + [{"type": "research", "place": {}, "token": tok} for tok in prompt.get("token", [])]
            + [{"type": "research", "place": {}}]
        )
    if kind == "logistics":  # one region at a time (the turn goes on), or stop
        left = prompt["markers"]
        ceo = [
            {"type": "logistics", "place": [], "ceo": r} for r in state["regions"] if "ceo" in prompt and r != prompt["ceo"]
        ]
        return [
            {"type": "logistics", "place": [[r, n]]}
            for r, need in prompt["needed"].items()
            for n in range(min(need, left), 0, -1)
        ] + ceo + [{"type": "logistics", "place": []}]
    if kind == "wifi":
        return [{"type": "wifi", "region": r} for r in prompt["regions"]] + [{"type": "wifi", "region": None}]
    if kind == "nfc":
        return [{"type": "nfc", "sell": n} for n in range(prompt["max"], -1, -1)]
    if kind == "sell":  # one region at a time, until nothing more can be sold
        return selling.options(state, seat)
    if kind == "gamepad_office":
        return [{"type": "gamepad_office", "region": r} for r in prompt["regions"]]
    if kind == "directive":
        return [{"type": "directive", "take": True}, {"type": "directive", "take": False}]
    if kind == "mini_upgrade":
        return [{"type": "mini_upgrade", "id": m} for m in prompt["choices"]]
    if kind == "place_retailer":
        return [
            {"type": "place_retailer", "region": r, "retailer": x, "side": side}
            for r, rets in prompt["regions"].items()
            for x in rets
            for side in (0, 1)
        ]
    if kind == "blitz":
        syms = prompt["symbols"]
        picks = [{k: 1 for k in combo} for combo in ([*syms], *([k] for k in syms), [])]
        return [{"type": "blitz", **p} for p in picks if sum(p.values()) <= prompt["goods"]]
    if kind == "second_sell":
        regions = prompt["regions"]
        every = {r: n for r, n in regions.items()}
        opts = [{"type": "second_sell", "regions": {r: 1}} for r in regions]
        if sum(every.values()) <= prompt["goods"] and len(every) > 1:
            opts.insert(0, {"type": "second_sell", "regions": every})
        return opts + [{"type": "second_sell", "regions": {}}]
    if kind == "company":
        return [{"type": "company", "colour": c} for c in prompt["colours"]]
    if kind in ("start_region", "start_retailer"):
        return [{"type": kind, "region": r} for r in prompt["regions"]]
    if kind == "ceo_sell":
        return [{"type": "ceo_sell", "sell": n} for n in range(prompt["max"], -1, -1)]
    if kind == "retailer_bonus":
        return retailer_actions(state, seat, prompt)
    return []


def retailer_actions(state: State, seat: str, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    bonus = prompt["bonus"]
    out: list[dict[str, Any]] = []
    k = bonus["kind"]
    if k == "goods":
        out.append({"type": "retailer_bonus", "use": True})
    elif k == "progress":
        needed = {t: research.needed(state, seat, t) for t in prompt["techs"]}
        for d in _spreads(needed, bonus["n"]):
            out.append({"type": "retailer_bonus", "use": True, "place": d})
    elif k == "price":
        price = state["players"][seat]["price"]
        out.append({"type": "retailer_bonus", "use": True, "delta": 1})
        if price > 1:
            out.append({"type": "retailer_bonus", "use": True, "delta": -1})
    elif k == "second_office":
        out += [{"type": "retailer_bonus", "use": True, "region": r} for r in prompt["regions"]]
    elif k == "move_office":
        out += [{"type": "retailer_bonus", "use": True, "from": a, "to": b} for a, b in prompt["moves"]]
    out.append({"type": "retailer_bonus", "use": False})
    return out
