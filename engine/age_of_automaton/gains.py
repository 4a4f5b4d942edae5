"""What a main action costs and gives, in numbers, after discounts and with the automaton
it uses: the labels of the turn's options (issue 22), e.g. "Funding: +5 credits (3 + 2
engineers)" or "Prospect, red planet, Level I: 3 dice, each ≤ I passes · next needs 1
R&D". :func:`headline` leads with the decisive fact (a select label keeps 100
characters); :func:`detail` adds the rest (a select description, also 100)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects, reputation
from engine.age_of_automaton.actions import assembling, discounted, funding, sponsorship
from engine.age_of_automaton.common import State, fmt_res
from engine.age_of_automaton.data import (
    ACTION_NAMES,
    EQUIPMENT,
    RELATIONSHIPS,
    RND,
    ROMAN,
    SALES,
    SPONSORSHIP,
    TRACKS,
)

LABEL = 100  # a select option's label (Discord cuts longer ones)
SHORT_TRACK = {"asteroid": "green asteroid", "ringed": "teal ringed planet", "red": "red planet", "moon": "white moon"}


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _need(req: dict[str, int]) -> str:
    bits = []
    if req.get("credits"):
        bits.append(_n(req["credits"], "credit"))
    if req.get("rnd"):
        bits.append(f"{req['rnd']} R&D")
    if req.get("sale"):
        bits.append(_n(req["sale"], "Sale Order"))
    return " + ".join(bits)


def _logos(logos: list[str]) -> str:
    return ", ".join(str(RELATIONSHIPS[c]["name"]) for c in logos if c in RELATIONSHIPS)


def _bonus_rnd(state: State, level: int) -> str:
    if state["round"] == 1:
        return f"+{_n(level, 'credit')}"
    s = "" if level == 1 else "s"
    return f"+{level} resource{s}/credit{s}"


def _with(action: dict[str, Any]) -> str:
    return f" with Level {ROMAN[action['worker']]}" if "worker" in action else ""


def headline(state: State, seat: str, kind: str, action: dict[str, Any]) -> str:
    p = state["players"][seat]
    name = ACTION_NAMES[kind]
    w = _with(action)
    if kind == "prospect":
        track = action["track"]
        spaces = TRACKS[track]["spaces"]
        h = p["prospect"][track]
        lvl = ROMAN[action["worker"]]
        needs = [_need(spaces[k].get("req", {})) for k in range(h + 1, min(h + 4, len(spaces)))]
        first = next((f"space {h + 1 + i} needs {n}" for i, n in enumerate(needs) if n), "no space needs anything")
        head = f"Prospect on the {SHORT_TRACK.get(track, track)}{w}: 3 dice, each ≤ {lvl} passes"
        return f"{head}; {first}" if len(head) + len(first) + 2 <= LABEL else head
    if kind == "funding":
        n = reputation.engineers(p)
        return f"Funding: +{funding.amount(p)} credits (3 + {_n(n, 'engineer')})"
    if kind == "assembling":
        first = assembling.first_level(p)
        more = min(reputation.engineers(p), max(0, p["unbuilt"] - 1))
        tail = f" + {more} × Level I" if more else ""
        return f"Assembling: build Level {ROMAN[first]}{tail} ({_n(len(p['sale']), 'Sale Order')}, {_n(reputation.engineers(p), 'engineer')})"
    if kind == "purchasing":
        market = {c: state["market"].count(c) for c in ("red", "blue", "yellow")}
        n = reputation.engineers(p)
        rolled = f" + {n} rolled ({_n(n, 'engineer')})" if n else ""
        return f"Purchasing: +{fmt_res(market)} (Market){rolled}"
    if kind == "sponsorship":
        spot = sponsorship.spot(state, seat)
        where = f" · turn order {spot + 1} next round" if spot is not None else ""
        return f"Sponsorship: {effects.describe(SPONSORSHIP[action['tile']]['gain'])}{where}"
    if kind == "equipment":
        card = EQUIPMENT[action["card"]]
        cost = discounted(p, card["cost"])
        vp = f" · +{action['worker']} VP" if "worker" in action else ""
        extra = "" if action.get("type") == "extra" else f" · extra {ACTION_NAMES[card['extra']]}"
        return f"Equipment{w}: {card['name']} for {fmt_res(cost)}{vp}{extra}"
    if kind == "rnd":
        card = RND[action["card"]]
        return f"R&D{w}: {card['name']} ({card['part']}) · upgrade {card['upgrade']} · {_bonus_rnd(state, action['worker'])}"
    if kind == "sale":
        card = SALES[action["card"]]
        return (f"Sale{w}: {card['name']} for {fmt_res(card['cost'])} · {card['vp']} VP, "
                f"+1 reputation, +{_n(action['worker'], 'credit')}")
    return name


def detail(state: State, seat: str, kind: str, action: dict[str, Any]) -> str:
    """The rest of an option (where it stands, what it unlocks), "" if nothing more."""
    p = state["players"][seat]
    if kind == "prospect":
        track = action["track"]
        t = TRACKS[track]
        h = p["prospect"][track]
        top = len(t["spaces"]) - 1
        bonus = f"+{action['worker']} {'/'.join(t['bonus'])}"
        needs = [f"{k}: {_need(t['spaces'][k]['req'])}" for k in range(h + 1, top + 1) if t["spaces"][k].get("req")][:2]
        return f"on space {h} of {top} · bonus {bonus}" + (" · needs " + ", ".join(needs) if needs else "")
    if kind == "equipment":
        card = EQUIPMENT[action["card"]]
        return (f"ability {effects.describe(card['ability'])} · discount {fmt_res(card['discount'])}"
                f" · printed cost {fmt_res(card['cost'])}")
    if kind == "rnd":
        card = RND[action["card"]]
        return f"relationship: {_logos(card['logos'])}" if card["logos"] else ""
    if kind == "sale":
        card = SALES[action["card"]]
        return f"{card['vp']} VP at the end · relationship: {_logos(card['logos'])}"
    return ""
