"""The round: 8 phases in order (SI-SET-01), turns in Priority order, and who is pending.

``run`` advances the state through everything that needs no decision (automatic
phases, Steve's turns, forced moves) and stops where a company must decide.
``pending`` reads the same state and says who that is and what they decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import IllegalAction, require
from engine.smartphone_inc import (
    directives,
    hardcore,
    improve,
    logistics,
    new_technologies,
    planning,
    prices,
    production,
    research,
    retailers,
    scoring,
    selling,
    small_board,
    steve,
    technologies,
)
from engine.smartphone_inc.common import State, is_steve, region_id, say
from engine.smartphone_inc.data import PHASE_TITLES, REGIONS, ROUNDS
from engine.smartphone_inc.priority import priority_order

TURN_PHASES = ("improve", "research", "logistics", "selling")
STAGES: dict[str, tuple[str, ...]] = {
    "improve": ("improvement",),
    "research": ("research",),
    "logistics": ("logistics", "wifi", "nfc", "ceo_sell"),  # ceo_sell: Update 1.1 (SU-TEC-02)
    "selling": ("sell", "second_sell"),  # second_sell: Update 1.1 (SU-TEC-04)
}
NEXT = {
    "prices": "production",
    "production": "improve",
    "improve": "research",
    "research": "logistics",
    "logistics": "selling",
    "selling": "vp",
}


def announce(state: State) -> None:
    say(state, f"Round {state['round']}: Phase {list(PHASE_TITLES).index(state['phase']) + 1}, {PHASE_TITLES[state['phase']]}.")


def start_round(state: State) -> None:
    state["phase"] = "planning"
    state["turn"] = None
    announce(state)
    if state["steve"] is not None:
        steve.begin_round(state)


def enter(state: State, phase: str) -> None:
    state["phase"] = phase
    announce(state)
    if phase in TURN_PHASES:
        order = priority_order(state)  # SI-PRIO-04: re-checked at each phase
        state["turn"] = {"order": order, "i": 0, "stage": 0, "left": None}
        say(state, "Priority: " + ", ".join(order) + ".")
    else:
        state["turn"] = None


# --- prompts ---------------------------------------------------------------------------


# a stage of a turn: its prompt (None: nothing to decide) and its decision, which says
# whether the stage is over (None: it is; Logistics and Selling go on region by region)
StagePrompt = Callable[[State, str], dict[str, Any] | None]
StageAct = Callable[[State, str, dict[str, Any]], bool | None]
STAGE_RULES: dict[str, tuple[StagePrompt, StageAct]] = {
    "improvement": (improve.prompt, improve.act),
    "research": (research.prompt, research.act),
    "logistics": (logistics.prompt, logistics.act),
    "wifi": (logistics.wifi_prompt, logistics.wifi_act),
    "nfc": (logistics.nfc_prompt, logistics.nfc_act),
    "sell": (selling.prompt, selling.act),
    "ceo_sell": (selling.ceo_sell_prompt, selling.ceo_sell_act),
    "second_sell": (new_technologies.second_prompt, new_technologies.second_act),
}


def stage_prompt(state: State, seat: str, stage: str) -> dict[str, Any] | None:
    if stage not in STAGE_RULES:
        raise RuntimeError(stage)
    return STAGE_RULES[stage][0](state, seat)


def queue_prompt(state: State, item: dict[str, Any]) -> dict[str, Any] | None:
    seat = item["seat"]
    if item["kind"] == "retailer_bonus":
        return retailers.prompt(state, seat, item)
    if item["kind"] == "directive":
        return directives.prompt(state, seat, item)
    if item["kind"] == "mini_upgrade":
        return new_technologies.mini_upgrade_prompt(state, seat)
    if item["kind"] == "place_retailer":
        return new_technologies.place_retailer_prompt(state, seat)
    if item["kind"] == "blitz":
        return new_technologies.blitz_prompt(state, seat)
    if item["kind"] == "gamepad_office":
        choices = technologies.small_region_choices(state, seat)
        if not choices:
            return None
        p: dict[str, Any] = {"type": "gamepad_office", "regions": choices}
        if len(choices) == 1:
            p["forced"] = {"type": "gamepad_office", "region": choices[0]}
        return p
    raise RuntimeError(item["kind"])


def current(state: State) -> tuple[str, dict[str, Any]] | None:
    """The seat that must decide in a turn phase and its prompt (None if nobody)."""
    if state["queue"]:
        item = state["queue"][0]
        p = queue_prompt(state, item)
        return (item["seat"], p) if p is not None else None
    t = state["turn"]
    if state["phase"] not in TURN_PHASES or t is None or t["i"] >= len(t["order"]):
        return None
    seat = t["order"][t["i"]]
    stages = STAGES[state["phase"]]
    if is_steve(state, seat) or t["stage"] >= len(stages):
        return None
    p = stage_prompt(state, seat, stages[t["stage"]])
    return (seat, p) if p is not None else None


def pending(state: State) -> dict[str, dict[str, Any]]:
    if state["phase"] == "start":  # the 2-3 player board's start (SU-BRD-02)
        return small_board.pending(state)
    if state["phase"] == "planning":
        return {s: planning.prompt(state, s) for s in planning.unsealed(state)}
    cur = current(state)
    return {cur[0]: cur[1]} if cur else {}


def _fresh(state: State) -> bool:
    t = state["turn"]
    return t is None or (t["i"] == 0 and t["stage"] == 0)


# --- acting ----------------------------------------------------------------------------


def stage_auto(state: State, seat: str, stage: str) -> None:
    """What happens when a stage has nothing to decide."""
    if stage == "improvement":
        improve.take_token(state, seat)
    elif stage == "research":
        research.complete(state, seat)


def stage_act(state: State, seat: str, stage: str, action: dict[str, Any]) -> bool:
    """Apply a decision of the current stage; returns whether the stage is over
    (Logistics and Selling go on, region by region, while there is more to do)."""
    over = STAGE_RULES[stage][1](state, seat, action) if stage in STAGE_RULES else None
    return over is not False


def next_stage(state: State) -> None:
    state["turn"]["stage"] += 1
    state["turn"]["left"] = None


def queue_act(state: State, item: dict[str, Any], action: dict[str, Any]) -> None:
    seat = item["seat"]
    if item["kind"] == "retailer_bonus":
        retailers.act(state, seat, item, action)
    elif item["kind"] == "directive":
        directives.act(state, seat, item, action)
    elif item["kind"] == "mini_upgrade":
        new_technologies.mini_upgrade_act(state, seat, action)
    elif item["kind"] == "place_retailer":
        new_technologies.place_retailer_act(state, seat, action)
    elif item["kind"] == "blitz":
        new_technologies.blitz_act(state, seat, action)
    elif item["kind"] == "gamepad_office":
        rid = region_id(action.get("region"), state)
        require(rid in technologies.small_region_choices(state, seat), f"you cannot place the Gamepad Office in {REGIONS[rid]['name']}")
        logistics.found_office(state, seat, rid)


def steve_turn(state: State, seat: str) -> None:
    phase = state["phase"]
    if phase == "improve":
        steve.improve(state, seat)
    elif phase == "research":
        steve.research(state, seat, research.markers(state, seat))
        hardcore.interest(state, seat)
    elif phase == "logistics":
        steve.logistics(state, seat, logistics.markers(state, seat))
    elif phase == "selling":
        steve.sell(state, seat)


def end_turn_phase(state: State) -> None:
    phase = state["phase"]
    if phase == "selling":
        selling.discard_unsold(state)
    enter(state, NEXT[phase])


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    """Apply one decision of ``seat`` (already known to be pending) to ``state`` in place."""
    kind = action.get("type")
    if state["phase"] == "start":
        small_board.act(state, seat, action)
        return
    if state["phase"] == "planning":
        if kind == "unseal":
            planning.unseal(state, seat)
            return
        require(kind == "plan", "it is the Planning phase: send your plan")
        planning.seal(state, seat, action)
        return
    cur = current(state)
    if cur is None or cur[0] != seat:
        raise IllegalAction("it is not your turn")
    want = cur[1]["type"]
    require(kind == want, f"you are asked for a {want!r} decision, not {kind!r}")
    if state["queue"]:
        item = state["queue"].pop(0)
        try:
            queue_act(state, item, action)
        except IllegalAction:
            state["queue"].insert(0, item)
            raise
        return
    t = state["turn"]
    stage = STAGES[state["phase"]][t["stage"]]
    if stage_act(state, seat, stage, action):
        next_stage(state)


def run(state: State, until: str | None = None, on_phase: Callable[[State], None] | None = None) -> None:
    """Advance until a decision is needed (or, for tests, until phase ``until`` begins).
    ``on_phase(state)`` is called each time a new phase begins (the end of the last)."""
    last = (state["round"], state["phase"])
    while True:
        if on_phase is not None and (state["round"], state["phase"]) != last:
            last = (state["round"], state["phase"])
            on_phase(state)
        phase = state["phase"]
        if phase == "over" or (until is not None and phase == until and _fresh(state)):
            return
        if phase == "start":  # the 2-3 player board (SU-BRD-02)
            todo = state["start"]["todo"]
            if todo and is_steve(state, todo[0][1]):
                small_board.steve_step(state)
                continue
            if todo:
                return
            small_board.finish(state)
            start_round(state)
            continue
        directives.offer(state)  # SU-DIR-02: a goal just met is offered at once
        if state["queue"] and phase not in TURN_PHASES:  # (turn phases: below)
            item = state["queue"][0]
            p = queue_prompt(state, item)
            if p is None:
                state["queue"].pop(0)
                continue
            return
        if phase == "planning":
            if planning.unsealed(state):
                return
            planning.reveal(state)
            enter(state, "prices")
            continue
        if phase == "prices":
            prices.set_prices(state)
            enter(state, "production")
            continue
        if phase == "production":
            production.produce(state)
            enter(state, "improve")
            continue
        if phase == "vp":
            if directives.on(state) and not state["directives"]["scored"]:
                scoring.receive_vp(state)
                state["directives"]["scored"] = True  # now the goals met by Phase 8
                continue
            if not directives.on(state):
                scoring.receive_vp(state)
            directives.end_round(state)  # SU-DIR-05, SU-HC-07
            if state["round"] >= ROUNDS:  # SI-END-01
                scoring.end_game(state)
                continue
            scoring.reset_round(state)
            start_round(state)
            continue
        # a turn phase
        if state["queue"]:
            item = state["queue"][0]
            p = queue_prompt(state, item)
            if p is None:
                state["queue"].pop(0)
                continue
            if "forced" in p:
                state["queue"].pop(0)
                queue_act(state, item, p["forced"])
                continue
            return
        t = state["turn"]
        if t["i"] >= len(t["order"]):
            end_turn_phase(state)
            continue
        seat = t["order"][t["i"]]
        stages = STAGES[phase]
        if is_steve(state, seat):
            steve_turn(state, seat)
            t["i"] += 1
            continue
        if t["stage"] >= len(stages):
            if phase == "research":
                research.complete(state, seat)  # markers from a Retailer bonus (SI-RET-06)
                if state["queue"]:
                    continue
                hardcore.interest(state, seat)  # SU-HC-05
            t["i"] += 1
            t["stage"] = 0
            t["left"] = None
            continue
        stage = stages[t["stage"]]
        p = stage_prompt(state, seat, stage)
        if p is None:
            stage_auto(state, seat, stage)
            next_stage(state)
            continue
        if "forced" in p:
            if stage_act(state, seat, stage, p["forced"]):
                next_stage(state)
            continue
        return
