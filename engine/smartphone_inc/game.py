"""The Smartphone Inc. engine behind the common protocol (see engine/__init__.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import IllegalAction
from engine.jsonstate import clone
from engine.smartphone_inc import (
    actions,
    decisions,
    directives,
    flow,
    greedy,
    legal,
    migrations,
    new_technologies,
    pads,
    planning,
    preparation,
)
from engine.smartphone_inc.common import (
    State,
    costs_for,
    full_costs,
    has_effect,
    is_steve,
    plural_markers,
)
from engine.smartphone_inc.data import PHASE_TITLES, PHASES, TECH_SIDES, tech_side
from engine.smartphone_inc.priority import priority_order
from engine.smartphone_inc.versions import RULES
from engine.standard import VersionedRecord


class SmartphoneInc(VersionedRecord):
    name = "smartphone-inc"

    # --- protocol ---------------------------------------------------------------------
    rules_version = RULES  # the rules version a new game starts under (versions.py)
    flow, actions, legal, greedy = flow, actions, legal, greedy

    def _setup(self, players: list[str], seed: int, options: dict[str, Any] | None, rules: int | None, rng: str | None) -> State:
        state = preparation.setup(players, seed, options, rules=rules, rng=rng)
        if all(is_steve(state, s) for s in state["seats"]):
            raise IllegalAction("Steve needs at least one human company to play against")
        if state["phase"] == "planning":  # (the 2-3 player board starts with decisions)
            flow.start_round(state)
        flow.run(state)
        return state

    def _refuse(self, state: State, seat: str, action: dict[str, Any]) -> None:
        if action.get("type") == "unseal":  # a sealed plan taken back, while allowed
            if not planning.can_unseal(state, seat):
                raise IllegalAction("there is no sealed plan of yours to take back now")
            return
        super()._refuse(state, seat, action)

    def _not_deciding(self, state: State, seat: str) -> str:
        return "Steve decides by his own rules" if is_steve(state, seat) else super()._not_deciding(state, seat)

    def undoable(self, before: State, after: State, seat: str) -> bool:
        """Whether ``seat``'s action that turned ``before`` into ``after`` may be taken
        back (BGA's rule): nothing hidden was revealed and no chance was used. Not across
        the reveal of the plans, a draw from the Improvement pile, or any use of the
        random generator (Steve's draws, a new round's Block, Retailer tiles)."""
        if before.get("rng") != after.get("rng") or before.get("pile") != after.get("pile"):
            return False
        if before.get("phase") == "planning" and after.get("phase") != "planning":
            return False  # the plans were revealed
        return seat in before.get("players", {}) and after.get("phase") != "over"

    def random_action(self, state: State, seat: str, rng: Any) -> dict[str, Any]:
        """A uniformly drawn legal action without listing them all where that is costly
        (Planning: an arrangement, or one sampled placement of Improvements)."""
        prompt = self.prompt(state, seat)
        if prompt["type"] == "plan":
            owned = prompt["improvements"]
            if owned and rng.below(2):
                plans = decisions.sample_plans(owned, prompt["has_4g"], 1, salt=rng.below(1 << 30))
                if plans:
                    return {"type": "plan", "plan": plans[0]}
            return {"type": "plan", "plan": rng.choice(pads.arrangements())}
        return rng.choice(legal.enumerate_actions(state, seat, prompt))

    def events(self, state: State) -> list[str]:
        """The last action's log lines as players read them ("1 Progress marker", not "marker(s)")."""
        return [plural_markers(line) for line in state["log"]]

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return make_view(state, seat)

    def load(self, text: str) -> State:
        """A saved state, upgraded to the current schema (``migrations.upgrade``); one
        saved by a newer boardroom is refused (``engine.errors.StateTooNew``)."""
        state = json.loads(text)
        if not isinstance(state, dict) or state.get("game") != self.name:
            raise ValueError("not a Smartphone Inc. state")
        return migrations.upgrade(state)


# --- views -------------------------------------------------------------------------------


def _hiding(player: dict[str, Any], hide: bool) -> dict[str, Any]:
    """The company as the view shows it before the copy: its sealed plan hidden."""
    return {**player, "plan": None} if hide and player["plan"] is not None else player


def make_view(state: State, seat: str | None) -> dict[str, Any]:
    """What ``seat`` may see (None: the public table). Hidden: sealed plans of others
    before the reveal, the order of the Improvement pile, the PRNG and the seed.

    Called several times after every action (each seat, the public table): the parts
    the view hands out are copied from the state in one go, and what every company's
    entry needs (Offices, Technology costs) is read once."""
    if seat is not None and seat not in state["players"]:
        raise IllegalAction(f"{seat!r} has no seat in this game")
    phase = state["phase"]
    in_planning = phase == "planning"
    get = state.get
    (
        copied,
        start,
        regions,
        turn,
        steve,
        options,
        result,
        last_round,
        ceo,
        marketing,
        mini_upgrades,
        seconds,
    ) = clone(
        (
            [_hiding(state["players"][s], in_planning and s != seat) for s in state["seats"]],
            get("start"),
            state["regions"],
            state["turn"],
            state["steve"],
            state["options"],
            state["result"],
            get("last_round"),
            get("ceo"),
            get("marketing"),
            get("mini_upgrades"),
            get("seconds"),
        )
    )
    offices: dict[str, list[str]] = {s: [] for s in state["seats"]}
    for r, reg in state["regions"].items():
        for o in reg["offices"]:
            if o in offices:
                offices[o].append(r)
    space = state["techs"]
    full = full_costs(state)
    players = {}
    for s, p in zip(state["seats"], copied, strict=True):
        sealed = state["players"][s]["plan"] is not None  # (another's plan is hidden in Planning)
        p["sealed"] = sealed or p["steve"]
        p["offices"] = offices[s]
        p["costs"] = costs_for(state, s, full)
        if p["outcome"] is not None:
            p["yields"] = planning.yields(state, s, p["outcome"])
        players[s] = p
    pend = flow.pending(state)
    view: dict[str, Any] = {
        "game": "smartphone-inc",
        "version": state["version"],
        "rules": get("rules", 1),
        "round": state["round"],
        "rounds": 5,
        "phase": phase,
        "phase_title": "Start" if phase == "start" else PHASE_TITLES.get(phase, "Game over"),
        "board": state["options"].get("board", "big"),
        "start": start,  # the 2-3 player board's start decisions still to make
        "phase_number": PHASES.index(phase) + 1 if phase in PHASES else None,
        "over": phase == "over",
        "seats": list(state["seats"]),
        "players": players,
        "priority": priority_order(state),
        "regions": regions,
        "techs": {t: {**v, **(TECH_SIDES.get((t, v["side"])) or tech_side(t, v["side"]))} for t, v in space.items()},  # name, cost, Patent VP, text
        "block": list(state["block"]),
        "pile_count": len(state["pile"]),
        "turn": turn,
        "steve": steve,
        "options": options,
        "pending": sorted(pend),
        "result": result,
        "last_round": last_round,
        "directives": directives.public(state),
        "ceo": ceo,  # Update 1.1: CEO figures, region by seat
        "marketing": marketing,  # Marketing Tokens: region -> {Buyer index: seat}
        "mini_upgrades": mini_upgrades,  # Mini-upgrade tokens left
        "seconds": seconds,  # Gamepad Patent: second Goods, region -> Buyer indices
        "you": seat,
    }
    if seat is not None:
        me = players[seat]
        view["prompt"] = pend.get(seat)
        if me["plan"] is not None and not me["steve"]:
            try:
                ev = pads.evaluated(
                    me["plan"],
                    state["players"][seat]["improvements"],
                    has_effect(state, seat, "improvements_off_edge"),
                    planning.literal_cover(state),
                )
                ev["yields"] = planning.yields(
                    state, seat, {**ev, "face_down": new_technologies.face_down_goods(ev["face_down"])}
                )
                view["my_plan_outcome"] = ev
            except IllegalAction:
                view["my_plan_outcome"] = None
    return view


GAME = SmartphoneInc()

__all__ = ["GAME", "SmartphoneInc"]
