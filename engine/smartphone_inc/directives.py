"""The Directives module of Update 1.1 (option ``directives``, SU-DIR-01..05, SU-HC-07).

Common goals every company chases, each taken by one company only. The drawn cards
are public: ``state["directives"] = {"cards": [{"number", "holder", "round",
"flipped"}], "declined": {number: [seats]}, "scored": bool}`` (``scored``: Phase 8
has given its VP and the round waits for the Directives met by it).

Readings (DATA.md): a goal is checked after every decision and at every step of the
automatic phases (never during Planning); a company that meets it is asked at once
("take Directive 7 (12 VP)?"). Several companies meeting it at the same check: the
active company first, then the others from the lowest price (the Priority Rule); if
the one asked declines, the next is asked. A company that declined a Directive is
not asked again this round. Steve takes every Directive he may, never declining.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction, require
from engine.smartphone_inc import control
from engine.smartphone_inc.common import State, goods_on, is_steve, say
from engine.smartphone_inc.data import DIRECTIVES, REGIONS
from engine.smartphone_inc.priority import priority_order

DRAWN = {1: 5, 2: 5, 3: 6, 4: 7, 5: 8}  # SU-DIR-01 (solo: as for 2, DATA.md)
TURN_PHASES = ("improve", "research", "logistics", "selling")


def on(state: State) -> bool:
    return state.get("directives") is not None


def setup(state: State, rng: Any) -> None:
    """SU-DIR-01: draw 5/6/7/8 for 2/3/4/5 companies (Steve counts); all public."""
    numbers = rng.shuffle(sorted(DIRECTIVES))[: DRAWN[len(state["seats"])]]
    state["directives"] = {
        "cards": [{"number": n, "holder": None, "round": None, "flipped": False} for n in sorted(numbers)],
        "declined": {},
        "scored": False,
    }


def label(number: int) -> str:
    return f"Directive {number} ({DIRECTIVES[number]['vp']} VP)"


# --- goals -------------------------------------------------------------------------------


def _office_regions(state: State, seat: str) -> list[str]:
    return [r for r, reg in state["regions"].items() if seat in reg["offices"]]


def _sold(state: State, seat: str) -> dict[str, int]:
    return {r: goods_on(state, seat, r) for r, reg in state["regions"].items() if seat in reg["sold"]}


def measure(state: State, seat: str, kind: str, memo: dict[Any, Any] | None = None) -> int:
    """The count a goal of ``kind`` compares with its number (for a price: the price).
    ``memo``: the counts already measured in this unchanged state (``offer`` checks
    every card for every company)."""
    if memo is None:
        memo = {}
    key = (seat, kind)
    if key not in memo:
        memo[key] = _measure(state, seat, kind, memo)
    return int(memo[key])


def _measure(state: State, seat: str, kind: str, memo: dict[Any, Any]) -> int:
    p = state["players"][seat]
    if (seat, "#regions") not in memo:
        memo[seat, "#regions"] = _office_regions(state, seat)
    regions = memo[seat, "#regions"]
    if kind == "regions":
        return len(regions)
    if kind == "large_regions":
        return sum(1 for r in regions if REGIONS[r]["size"] == "L")
    if kind == "small_regions":
        return sum(1 for r in regions if REGIONS[r]["size"] == "S")
    if kind == "retailers":
        return sum(1 for r in regions if state["regions"][r]["retailer"] is not None)
    if kind == "second_offices":
        return sum(1 for r in regions if state["regions"][r]["offices"].count(seat) >= 2)
    if kind == "offices":
        return sum(state["regions"][r]["offices"].count(seat) for r in regions)
    if kind == "technologies":
        return len(p["techs"])
    if kind == "patents":
        return len(p["patents"])
    if (seat, "#sold") not in memo:
        memo[seat, "#sold"] = _sold(state, seat)
    sold = memo[seat, "#sold"]
    if kind == "sold":
        return sum(sold.values())
    if kind == "sold_in_one_region":
        return max(sold.values(), default=0)
    if kind == "sold_regions":
        return len(sold)
    if kind == "control":  # first place, once Phase 8 has scored the round
        if state["phase"] != "vp" or not state["directives"]["scored"]:
            return 0
        return sum(1 for r in state["regions"] if (control.ranking(state, r)[:1] == [seat] and control.control_vp(state, r)))
    if kind == "price_at_most":
        return p["price"]
    if kind == "vp":
        return p["vp"]
    raise RuntimeError(kind)


def meets(state: State, seat: str, number: int, memo: dict[Any, Any] | None = None) -> bool:
    goal = DIRECTIVES[number]["goal"]
    value = measure(state, seat, goal["kind"], memo)
    if goal["kind"] == "price_at_most":  # a price is set in Phase 2 (5 before it)
        return state["phase"] not in ("planning", "prices") and value <= goal["n"]
    return value >= goal["n"]


def _card(state: State, number: int) -> dict[str, Any] | None:
    return next((c for c in state["directives"]["cards"] if c["number"] == number), None)


def took_this_round(state: State, seat: str) -> bool:
    return any(c["holder"] == seat and c["round"] == state["round"] for c in state["directives"]["cards"])


def may_take(state: State, seat: str, number: int) -> bool:
    """SU-DIR-02/04: the card is free, ``seat`` meets its goal, took none this round and
    did not decline this one this round."""
    card = _card(state, number)
    return (
        card is not None
        and card["holder"] is None
        and not took_this_round(state, seat)
        and seat not in state["directives"]["declined"].get(str(number), [])
        and meets(state, seat, number)
    )


def _active(state: State) -> str | None:
    t = state["turn"]
    if state["phase"] in TURN_PHASES and t is not None and t["i"] < len(t["order"]):
        return t["order"][t["i"]]
    return None


def offer(state: State) -> bool:
    """Ask the first company that may take a Directive (SU-DIR-02/03): queue the
    question, or let Steve take it. Returns whether a question was queued."""
    if not on(state) or state["queue"] or state["phase"] in ("planning", "over"):
        return False
    active = _active(state)
    order = priority_order(state)
    if active is not None:
        order = [active] + [s for s in order if s != active]  # SU-DIR-03
    # may_take(state, seat, number) for each free card and company, with what does not
    # change while Steve takes cards read once: the goals' counts and who took one
    took: dict[str, bool] = {}
    memo: dict[Any, Any] = {}
    declined = state["directives"]["declined"]
    for card in state["directives"]["cards"]:
        if card["holder"] is not None:
            continue
        number = card["number"]
        for seat in order:
            if seat not in took:
                took[seat] = took_this_round(state, seat)
            if took[seat] or seat in declined.get(str(number), []) or not meets(state, seat, number, memo):
                continue
            if is_steve(state, seat):
                take(state, seat, number)
                took[seat] = True
                break
            state["queue"].append({"seat": seat, "kind": "directive", "number": number})
            return True
    return False


def prompt(state: State, seat: str, item: dict[str, Any]) -> dict[str, Any] | None:
    number = item["number"]
    if not may_take(state, seat, number):
        return None
    d = DIRECTIVES[number]
    return {
        "type": "directive",
        "number": number,
        "vp": d["vp"],
        "goal": d["text"],
        "question": f"take {label(number)}?",
    }


def take(state: State, seat: str, number: int) -> None:
    card = _card(state, number)
    if card is None:
        raise RuntimeError(f"Directive {number} is not in play")
    card["holder"] = seat
    card["round"] = state["round"]
    say(state, f"{seat} takes {label(number)}: {DIRECTIVES[number]['text']}")


def act(state: State, seat: str, item: dict[str, Any], action: dict[str, Any]) -> None:
    number = item["number"]
    want = action.get("take")
    require(isinstance(want, bool), "say whether you take the Directive (take: true/false)")
    if not may_take(state, seat, number):
        raise IllegalAction(f"you cannot take {label(number)} now")
    if want:
        take(state, seat, number)
    else:  # SU-DIR-04: may take it in a later round
        state["directives"]["declined"].setdefault(str(number), []).append(seat)
        say(state, f"{seat} leaves {label(number)} for now.")


# --- the end of the round and of the game ---------------------------------------------------


def end_round(state: State) -> None:
    """SU-DIR-05: the Directives taken this round are flipped; under Hardcore they score
    now (SU-HC-07). Declines are forgotten."""
    if not on(state):
        return
    hardcore = bool(state["options"].get("hardcore"))
    for card in state["directives"]["cards"]:
        if card["holder"] is not None and not card["flipped"]:
            card["flipped"] = True
            if hardcore:
                seat = card["holder"]
                vp = DIRECTIVES[card["number"]]["vp"]
                state["players"][seat]["vp"] += vp
                say(state, f"{seat} scores {label(card['number'])}; {state['players'][seat]['vp']} VP.")
    state["directives"]["declined"] = {}
    state["directives"]["scored"] = False


def final_vp(state: State, seat: str) -> int:
    """SU-DIR-05: the Directives held score at the end (not under Hardcore, SU-HC-07)."""
    if not on(state) or state["options"].get("hardcore"):
        return 0
    return sum(DIRECTIVES[c["number"]]["vp"] for c in state["directives"]["cards"] if c["holder"] == seat)


def public(state: State) -> list[dict[str, Any]] | None:
    """The drawn Directives and who holds them, for the views."""
    if not on(state):
        return None
    return [
        {
            "number": c["number"],
            "vp": DIRECTIVES[c["number"]]["vp"],
            "goal": DIRECTIVES[c["number"]]["text"],
            "holder": c["holder"],
            "round": c["round"],
            "flipped": c["flipped"],
        }
        for c in state["directives"]["cards"]
    ]

