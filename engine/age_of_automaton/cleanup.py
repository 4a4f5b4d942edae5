"""Clean-up phase (AA-CLN-01..08)."""

from __future__ import annotations

from engine.age_of_automaton import reliability
from engine.age_of_automaton.common import State, say, score
from engine.age_of_automaton.data import BOARD, WORKER_ACTIONS
from engine.age_of_automaton.setup import fill_row, sponsorship_row_size
from engine.rng import Rng


def section_four(state: State) -> None:
    for seat in state["order"]:
        if reliability.section(state["players"][seat]) == 4:
            score(state, seat, 1, "Reliability section 4")


def new_order(order: list[str], nxt: list[str | None]) -> list[str]:
    """7.1-7.3: the Next Turn Order markers keep their spaces; the others fill the free spaces
    in their current order."""
    if not any(nxt):
        return list(order)
    rest = [s for s in order if s not in nxt]
    out: list[str] = []
    for s in nxt:
        out.append(s if s is not None else rest.pop(0))
    return out + rest


def run(state: State) -> None:
    section_four(state)
    if state["round"] >= BOARD["rounds"]["count"]:
        return  # AA-CLN-02
    state["market"] = []
    for a in WORKER_ACTIONS:
        state["spaces"][a] = [occ if occ == "blocked" and len(state["seats"]) == 2 else None for occ in state["spaces"][a]]
    for p in state["players"].values():
        p["unbuilt"] += p["placed"]
        p["placed"] = 0
    rng = Rng(state["rng"])
    for kind in ("equipment", "rnd", "sale"):
        row = state["rows"][kind]
        if row:
            state["discards"][kind].append(row.pop(0))
        fill_row(rng, row, state["decks"][kind], state["discards"][kind])
    sp = state["sponsorship"]
    sp["discard"].extend(sp["row"])
    sp["row"] = []
    if state["round"] == 2:  # the R1-R2 tiles leave; the R3-R5 tiles are used
        state["removed"].extend(sp["deck"] + sp["discard"])
        sp["deck"], sp["discard"] = sp["late"], []
        sp["late"] = []
        say(state, "The R1-R2 Sponsorship tiles leave the game; the R3-R5 tiles come in.")
    fill_row(rng, sp["row"], sp["deck"], sp["discard"], sponsorship_row_size(len(state["seats"])))
    state["rng"] = rng.state
    for card in state["contracts_on"]:
        state["contracts_on"][card] = []
    old = state["order"]
    state["order"] = new_order(old, state["next_order"])
    state["next_order"] = [None] * len(old)
    if state["order"] != old:
        say(state, "New turn order: " + ", ".join(state["order"]) + ".")
    state["round"] += 1
    markers = BOARD["rounds"]["markers"][state["round"] - 1]
    for p in state["players"].values():
        p["markers"] = []
        p["markers_total"] = markers
        p["rotated"] = []
        p["passed"] = False
    if state["round"] == 4:
        say(state, "Round 4: every player takes a fourth Action marker.")
