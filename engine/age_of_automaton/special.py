"""Special actions: Overtime, Overbuilt, Overclock, Overdrive; each costs exactly 1
reliability plus credits (AA-SPC-01..05)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects, reliability, technology
from engine.age_of_automaton.common import State, pay_credits, say
from engine.age_of_automaton.data import ROMAN, SPECIAL_COST, SPECIAL_NAMES
from engine.errors import IllegalAction


def cost(p: dict[str, Any], name: str, free: bool = False) -> int:
    """Credits the action costs now: its price (0 when free by a discarded Specialist) plus
    2 when the reliability is at or below 0 (AA-REL-02)."""
    return (0 if free else SPECIAL_COST[name]) + reliability.surcharge(p)


def available(state: State, p: dict[str, Any]) -> int:
    """Credits a player can spend on a special action now: those held plus (rules 4) the
    credits the reliability space it reaches gives at once."""
    return p["credits"] + (reliability.next_credits(p) if reliability.immediate(state) else 0)


def affordable(state: State, p: dict[str, Any], name: str, free: bool = False) -> bool:
    return available(state, p) >= cost(p, name, free)


def gain_now(state: State, seat: str, atoms: list[dict[str, Any]], why: str) -> None:
    """Rules 4: gain ``atoms`` at once; a question they raise (a resource to choose, an
    automaton to upgrade) comes before any question already open."""
    asks = state["asks"]
    before = len(asks)
    ahead = asks[:before]
    for atom in atoms:
        effects.execute(state, seat, dict(atom, why=why))
    new = [a for a in asks if not any(a is b for b in ahead)]
    asks[:] = new + ahead


def _pay(state: State, seat: str, name: str, free: bool) -> None:
    p = state["players"][seat]
    total = cost(p, name, free)
    if not affordable(state, p, name, free):
        raise IllegalAction(f"{SPECIAL_NAMES[name]} costs {total} credits and you have {p['credits']}")
    extra = reliability.surcharge(p)
    gains = reliability.lose(state, seat)
    if gains and reliability.immediate(state):
        # "the player gains those benefits IMMEDIATELY" (AA-REL-01): before paying, so the
        # credits of the space reached can pay this action (rules 4, versions.py)
        gain_now(state, seat, gains, "Reliability track")
        gains = []
    if extra:
        pay_credits(state, seat, extra, "losing reliability below 0")
    pay_credits(state, seat, total - extra, SPECIAL_NAMES[name])
    if gains:
        effects.queue(state, seat, gains, why="Reliability track", front=True)


def overtime(state: State, seat: str, free: bool = False) -> None:
    turn = state["turn"]
    if turn["main"] or turn["overtime"]:
        raise IllegalAction("Overtime is played right before a main action")
    _pay(state, seat, "overtime", free)
    turn["overtime"] = True
    say(state, f"{seat} plays Overtime: the next main action may share a used column.")


def overbuilt(state: State, seat: str, free: bool = False) -> None:
    if state["players"][seat]["unbuilt"] <= 0:
        raise IllegalAction("you have no unbuilt automaton left")
    _pay(state, seat, "overbuilt", free)
    say(state, f"{seat} plays Overbuilt.")
    technology.build(state, seat, 1, 1)


def overclock(state: State, seat: str, level: Any, free: bool = False) -> None:
    p = state["players"][seat]
    if not isinstance(level, int) or isinstance(level, bool) or level not in technology.can_upgrade(p):
        raise IllegalAction("choose the level of one of your automatons below Level IV")
    _pay(state, seat, "overclock", free)
    say(state, f"{seat} plays Overclock.")
    technology.upgrade(state, seat, level, 1)


def overdrive_cost(state: State, seat: str) -> tuple[int, int]:
    """(credits, reliability) of lowering the dice once more: the first Overdrive on a roll
    loses the one reliability (plus the surcharge below 0) and 1 credit; each further
    lowering of the same roll costs 1 credit only ("one and only one reliability"; the
    example: II, IV, V -> I, II, III for 1 reliability and 2 credits)."""
    p = state["players"][seat]
    if state["dice"] and state["dice"].get("overdrives"):
        return SPECIAL_COST["overdrive"], 0
    return cost(p, "overdrive"), 1


def can_overdrive(state: State, seat: str) -> bool:
    dice = state["dice"]
    p = state["players"][seat]
    if not dice or not any(d > 1 for d in dice["faces"]):
        return False
    c, r = overdrive_cost(state, seat)
    return (available(state, p) if r else p["credits"]) >= c


def overdrive(state: State, seat: str) -> None:
    """After the Level dice: every die -1, never below I; repeatable (AA-SPC-05)."""
    if not can_overdrive(state, seat):
        raise IllegalAction("Overdrive needs credits and a Level die above I")
    dice = state["dice"]
    if dice.get("overdrives"):
        pay_credits(state, seat, SPECIAL_COST["overdrive"], "Overdrive")
    else:
        _pay(state, seat, "overdrive", False)
    dice["faces"] = [max(1, d - 1) for d in dice["faces"]]
    dice["overdrives"] = dice.get("overdrives", 0) + 1
    say(state, f"{seat} plays Overdrive: the Level dice are now {', '.join(ROMAN[d] for d in dice['faces'])}.")


def play(state: State, seat: str, action: dict[str, Any], free: bool = False) -> None:
    name = action.get("name") if not free else action.get("special")
    if not isinstance(name, str):
        raise IllegalAction("special actions are overtime, overbuilt and overclock")
    if name == "overtime":
        overtime(state, seat, free)
    elif name == "overbuilt":
        overbuilt(state, seat, free)
    elif name == "overclock":
        overclock(state, seat, action.get("level"), free)
    elif name == "overdrive":
        raise IllegalAction("Overdrive is played only after rolling the Level dice")
    else:
        raise IllegalAction("special actions are overtime, overbuilt and overclock")
