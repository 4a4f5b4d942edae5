"""The round: 8 phases in order (MM-SET-06), turns in turn order (Technology, Sales)
or reverse turn order (Marketing), and who is pending.

``run`` advances through everything that needs no decision (automatic phases,
Steve Jr.'s rows, forced moves) and stops where a company must decide; ``pending``
reads the same state and says who that is and what they decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import IllegalAction, require
from engine.mobile_markets import (
    marketing,
    planning,
    preparation,
    pricing,
    production,
    profit,
    sales,
    steve_jr,
    technology,
)
from engine.mobile_markets.common import State, is_steve, say
from engine.mobile_markets.data import PHASE_TITLES, PHASES, ROUNDS

TURN_PHASES = ("technology", "marketing", "sales")
NEXT = {
    "planning": "pricing",
    "pricing": "technology",
    "technology": "marketing",
    "marketing": "production",
    "production": "sales",
    "sales": "profit",
}


def enter(state: State, phase: str) -> None:
    state["phase"] = phase
    say(state, f"Round {state['round']}: Phase {PHASES.index(phase) + 1}, {PHASE_TITLES[phase]}.")
    if phase in TURN_PHASES:
        order = list(state["order"])
        if phase == "marketing":  # reverse turn order (MM-MKT-01)
            order.reverse()
        state["turn"] = {"order": order, "i": 0, "started": False}
    elif phase == "profit":
        state["turn"] = {"cards": False}
    else:
        state["turn"] = None


# --- prompts ------------------------------------------------------------------------------


# what a company's turn starts with, by phase (its points for the turn)
TURN_STARTS: dict[str, Callable[[State, str], None]] = {"technology": technology.begin, "marketing": marketing.begin}


def begin_turn(state: State, seat: str) -> None:
    start = TURN_STARTS.get(state["phase"])
    if start is not None:
        start(state, seat)
    state["turn"]["started"] = True


def turn_prompt(state: State, seat: str) -> dict[str, Any] | None:
    phase = state["phase"]
    if phase == "technology":
        return technology.prompt(state, seat)
    if phase == "marketing":
        return marketing.prompt(state, seat)
    p = sales.prompt(state, seat)
    if not p["features"] and not p["tokens"]:
        p["forced"] = {"type": "product", "slots": {}}
    return p


def current(state: State) -> tuple[str, dict[str, Any]] | None:
    """The seat that must decide now (outside Planning) and its prompt."""
    if state["queue"]:
        item = state["queue"][0]
        p = profit.free_card_prompt(state, item)
        return (item["seat"], p) if p is not None else None
    t = state["turn"]
    if state["phase"] not in TURN_PHASES or t is None or t["i"] >= len(t["order"]):
        return None
    seat = t["order"][t["i"]]
    if is_steve(state, seat) or not t["started"]:
        return None
    p = turn_prompt(state, seat)
    if p is None or "forced" in p:
        return None
    return seat, p


def pending(state: State) -> dict[str, dict[str, Any]]:
    if state["phase"] == "planning":
        return {s: planning.prompt(state, s) for s in planning.unsealed(state)}
    cur = current(state)
    return {cur[0]: cur[1]} if cur else {}


# --- acting -------------------------------------------------------------------------------


def end_turn(state: State, seat: str) -> None:
    if state["phase"] == "technology":
        technology.finish(state, seat)
    elif state["phase"] == "marketing":
        marketing.finish(state, seat)
    t = state["turn"]
    t["i"] += 1
    t["started"] = False
    for key in ("points", "bought", "place"):
        t.pop(key, None)


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    """Apply one decision of ``seat`` (known to be pending) to ``state`` in place."""
    kind = action.get("type")
    if state["phase"] == "planning":
        require(kind == "plan", "it is the Planning phase: send your plan")
        planning.seal(state, seat, action)
        return
    if state["queue"]:
        item = state["queue"][0]
        require(kind == "free_card", "choose the card you take for free")
        card = action.get("card")
        prompt = profit.free_card_prompt(state, item)
        require(prompt is not None and card in prompt["cards"], "choose one of the equally cheapest cards")
        state["queue"].pop(0)
        profit.take_free(state, seat, item["display"], card)
        return
    phase = state["phase"]
    if phase == "technology":
        over = technology.act(state, seat, action)
    elif phase == "marketing":
        over = marketing.act(state, seat, action)
    elif phase == "sales":
        sales.act(state, seat, action)
        over = True
    else:
        raise IllegalAction("nothing to decide in this phase")
    if over:
        end_turn(state, seat)


def _steve_sells(state: State, seat: str) -> None:
    sales.build(state, seat, {}, 0)
    sales.sell(state, seat)


# Steve Jr.'s turn, by phase (he decides by his own cards)
STEVE_TURNS: dict[str, Callable[[State, str], None]] = {
    "technology": steve_jr.technology,
    "marketing": steve_jr.marketing,
    "sales": _steve_sells,
}


def steve_turn(state: State, seat: str) -> None:
    turn = STEVE_TURNS.get(state["phase"])
    if turn is not None:
        turn(state, seat)


def _fresh(state: State) -> bool:
    t = state["turn"]
    if t is None:
        return True
    if "order" in t:
        return t["i"] == 0 and not t["started"]
    return not t.get("cards", False)


def run(state: State, on_phase: Callable[[State], None] | None = None, until: str | None = None) -> None:
    """Advance until a decision is needed (or, for tests, until phase ``until`` is about
    to begin its work). ``on_phase(state)`` is called at the end of every phase."""
    while True:
        phase = state["phase"]
        if phase == "over" or (until is not None and phase == until and _fresh(state)):
            return
        if phase == "preparation":
            preparation.prepare(state)
            if on_phase is not None:
                on_phase(state)
            enter(state, "planning")
            continue
        if phase == "planning":
            if planning.unsealed(state):
                return
            planning.reveal(state)
            _next(state, on_phase)
            continue
        if phase == "pricing":
            pricing.set_prices(state)
            _next(state, on_phase)
            continue
        if phase == "production":
            production.produce(state)
            _next(state, on_phase)
            continue
        if phase == "profit":
            t = state["turn"]
            if not t["cards"]:
                profit.market_share(state)
                profit.round_cards(state)
                t["cards"] = True
            if state["queue"]:
                if profit.free_card_prompt(state, state["queue"][0]) is None:
                    state["queue"].pop(0)
                    continue
                return
            profit.income(state)
            if on_phase is not None:
                on_phase(state)
            profit.clean_up(state)
            if state["round"] >= ROUNDS:  # MM-END-01: the Event deck is empty
                profit.end_game(state)
                if on_phase is not None:
                    on_phase(state)
                return
            state["phase"] = "preparation"
            state["turn"] = None
            continue
        # a turn phase
        t = state["turn"]
        if t["i"] >= len(t["order"]):
            _next(state, on_phase)
            continue
        seat = t["order"][t["i"]]
        if is_steve(state, seat):
            steve_turn(state, seat)
            t["i"] += 1
            continue
        if not t["started"]:
            begin_turn(state, seat)
        p = turn_prompt(state, seat)
        if p is None:
            end_turn(state, seat)
            continue
        if "forced" in p:
            act(state, seat, p["forced"])
            continue
        return


def _next(state: State, on_phase: Callable[[State], None] | None) -> None:
    if on_phase is not None:
        on_phase(state)
    enter(state, NEXT[state["phase"]])
