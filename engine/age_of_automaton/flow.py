"""The round: Market, Action, Donation, Audit and Clean-up phases (AA-RND-01), the turn
structure of the Action phase (AA-ACT-01..05) and the dispatch of every decision."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from engine.age_of_automaton import (
    achievements,
    audit,
    cleanup,
    donation,
    draft,
    effects,
    free,
    market,
    scoring,
    special,
    technology,
)
from engine.age_of_automaton.actions import (
    assembling,
    equipment,
    funding,
    prospect,
    purchasing,
    rnd,
    sale,
    sponsorship,
)
from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import (
    ACHIEVEMENTS,
    ACTION_NAMES,
    BLOCKED,
    COLUMN_OF,
    EQUIPMENT,
    MAIN_ACTIONS,
    ROUNDS,
    SPECIALISTS,
)
from engine.age_of_automaton.labels import ask_text
from engine.errors import IllegalAction
from engine.jsonstate import clone

MODULES: dict[str, Any] = {
    "prospect": prospect,
    "equipment": equipment,
    "rnd": rnd,
    "sale": sale,
    "funding": funding,
    "assembling": assembling,
    "sponsorship": sponsorship,
    "purchasing": purchasing,
}

PHASE_TITLES = {
    "draft": "Specialist draft",
    "start": "Market phase",
    "action": "Action phase",
    "action_over": "Action phase (ended)",
    "donation": "Donation phase",
    "audit": "Audit phase",
    "cleanup": "Clean-up phase",
    "over": "Game over",
}


# --- the turn --------------------------------------------------------------------------


def action_choices(state: State, seat: str, kind: str, extra: bool = False) -> list[dict[str, Any]]:
    return MODULES[kind].choices(state, seat, extra)


def resolve_action(state: State, seat: str, kind: str, params: dict[str, Any], extra: bool) -> None:
    MODULES[kind].resolve(state, seat, params, extra)


# an Equipment card's extra action goes through this dispatch
effects.STEPS["equipment_extra"] = partial(equipment.extra_step, action_choices=action_choices)
effects.ASKS["extra"] = partial(equipment.answer_extra, resolve_action=resolve_action)


def column_used(p: dict[str, Any], kind: str) -> bool:
    col = COLUMN_OF.get(kind)
    return col is not None and any(COLUMN_OF[m] == col for m in p["markers"])


def main_blocked(state: State, seat: str, kind: str, overtime: bool | None = None) -> str | None:
    """Why ``kind`` cannot be chosen now (None: it can, if it has a legal choice)."""
    p = state["players"][seat]
    turn = state["turn"]
    if turn["main"]:
        return "you already played your main action this turn"
    if len(p["markers"]) >= p["markers_total"]:
        return "you have no Action marker left this round"
    if kind in p["markers"]:
        return f"{ACTION_NAMES[kind]} was already played this round (each main action once per round)"
    ot = turn["overtime"] if overtime is None else overtime
    if column_used(p, kind) and not ot:
        return f"you already played a main action in the column of {ACTION_NAMES[kind]}; Overtime allows a second"
    return None


def overtime_useful(state: State, seat: str) -> bool:
    p = state["players"][seat]
    turn = state["turn"]
    if turn["main"] or turn["overtime"]:
        return False
    return any(
        column_used(p, k) and main_blocked(state, seat, k, overtime=True) is None and action_choices(state, seat, k)
        for k in MAIN_ACTIONS
    )


def playable_after(state: State, seat: str, kind: str, cards: list[Any]) -> bool:
    """Whether ``kind`` has a legal choice once the Equipment ``cards`` are used first (an
    ability with a choice of its own counts as making it playable)."""
    if any(not isinstance(c, str) or c not in EQUIPMENT for c in cards):
        return False
    trial = clone(state)
    trial["log"], trial["asks"], trial["queue"] = [], [], []
    for card in cards:
        for atom in EQUIPMENT[card]["ability"]:
            if not ({"credits", "res", "vp", "donation", "rep"} & set(atom)):
                return True
            effects.execute(trial, seat, atom)
    return bool(action_choices(trial, seat, kind))


def quick(state: State) -> bool:
    """Rules 4 (versions.py): a main action may end the turn by itself once resolved
    (``"end": true``), and the Level dice are not asked about when Overdrive cannot be
    played (the only continuation is to move).

    ``end`` is an *option* of every main action, not a separate action: ``legal_actions``
    lists each main action once, without it, and any listed main action may be sent with
    ``"end": true`` added (``play_main`` checks it; the turn prompt says so with
    ``"can_end": true``, so a client offers "Confirm and end the turn" only then)."""
    return int(state.get("rules", 1)) >= 4


def main_options(state: State, seat: str) -> list[dict[str, Any]]:
    out = []
    for kind in MAIN_ACTIONS:
        if main_blocked(state, seat, kind) is None:
            choices = action_choices(state, seat, kind)
            out += [{"type": "main", "action": kind, **c} for c in choices]
            cards = free.column_equipment(state, seat, COLUMN_OF[kind])
            subsets = [[c] for c in cards] + ([cards] if len(cards) == 2 else [])
            out += [
                {"type": "main", "action": kind, "before": s}
                for s in subsets
                if choices or playable_after(state, seat, kind, s)
            ]
    return out


def turn_actions(state: State, seat: str) -> list[dict[str, Any]]:
    p = state["players"][seat]
    turn = state["turn"]
    mains = main_options(state, seat)
    if overtime_pending(state, seat, mains):  # Overtime is played right before its main action
        return [m for m in mains if column_used(p, m["action"])]
    out = list(mains)
    if overtime_useful(state, seat) and special.affordable(state, p, "overtime"):
        out.append({"type": "special", "name": "overtime"})
    if p["unbuilt"] > 0 and special.affordable(state, p, "overbuilt"):
        out.append({"type": "special", "name": "overbuilt"})
    if special.affordable(state, p, "overclock"):
        out += [{"type": "special", "name": "overclock", "level": lvl} for lvl in technology.can_upgrade(p)]
    for card in p["hand"]:
        if all(p["res"][c] >= n for c, n in SPECIALISTS[card]["requirement"].items()):
            out.append({"type": "play_specialist", "card": card})
    out += [{"type": "use_specialist", "card": c} for c in p["played"] if c not in p["rotated"]]
    for card in p["hand"]:
        out.append({"type": "discard_specialist", "card": card, "special": None})
        if special.affordable(state, p, "overbuilt", free=True):
            if overtime_useful(state, seat):
                out.append({"type": "discard_specialist", "card": card, "special": "overtime"})
            if p["unbuilt"] > 0:
                out.append({"type": "discard_specialist", "card": card, "special": "overbuilt"})
            out += [
                {"type": "discard_specialist", "card": card, "special": "overclock", "level": lvl}
                for lvl in technology.can_upgrade(p)
            ]
    if p["contracts"] > 0:
        out += [{"type": "contract", "card": c} for c in state["commons"] if seat not in state["contracts_on"][c]]
    out += [{"type": "equipment", "card": c} for c in free.usable_equipment(state, seat)]
    if turn["main"]:
        out.append({"type": "end"})
    elif not mains:
        out.append({"type": "pass"})
    return out


def overtime_pending(state: State, seat: str, mains: list[dict[str, Any]] | None = None) -> bool:
    """Overtime was just played and its main action can still be played (if a forced
    discard made it unplayable, the Overtime is simply lost)."""
    if not state["turn"]["overtime"]:
        return False
    p = state["players"][seat]
    return any(column_used(p, m["action"]) for m in (main_options(state, seat) if mains is None else mains))


def start_turn(state: State, seat: str) -> None:
    state["turn"] = {"seat": seat, "main": False, "overtime": False, "columns": [], "used": [], "nested": False}


def next_turn(state: State) -> None:
    """The next player in turn order with an Action marker left; else the Donation phase."""
    order = state["order"]
    cur = state["turn"]["seat"] if state["turn"] else None
    start = order.index(cur) + 1 if cur in order else 0
    for k in range(len(order)):
        s = order[(start + k) % len(order)]
        p = state["players"][s]
        if not p["passed"] and len(p["markers"]) < p["markers_total"]:
            start_turn(state, s)
            return
    state["turn"] = None
    state["phase"] = "action_over"


def play_main(state: State, seat: str, action: dict[str, Any]) -> None:
    kind = action.get("action")
    if not isinstance(kind, str) or kind not in MODULES:
        raise IllegalAction("main actions: " + ", ".join(ACTION_NAMES.values()))
    why = main_blocked(state, seat, kind)
    if why:
        raise IllegalAction(why)
    before = action.get("before")
    if not action_choices(state, seat, kind) and not (
        isinstance(before, list) and playable_after(state, seat, kind, before)
    ):
        raise IllegalAction(f"{ACTION_NAMES[kind]} cannot be played now")
    end = action.get("end")  # rules 4: an option of every main action (see quick)
    if end is not None and not quick(state):
        raise IllegalAction("'end' (end the turn once this main action is resolved) is not part of this game's rules version")
    if end is not None and not isinstance(end, bool):
        raise IllegalAction("'end' is true (end the turn once this main action is resolved) or false")
    p = state["players"][seat]
    turn = state["turn"]
    if end:
        turn["end_after"] = True
    p["markers"].append(kind)
    turn["columns"].append(COLUMN_OF[kind])
    turn["main"] = True
    turn["overtime"] = False
    if before:
        # Equipment abilities of this column used after placing the marker and before
        # resolving (AA-EQP-04); the action's choices are asked for afterwards
        if not isinstance(before, list) or len(set(map(str, before))) != len(before):
            raise IllegalAction("'before' lists Equipment cards of this action's column")
        usable = free.column_equipment(state, seat, COLUMN_OF[kind])
        for card in before:
            if card not in usable:
                raise IllegalAction("only Equipment under this action's column can be used before it, once a turn")
            free.use_equipment(state, seat, card)
        state["queue"].append([seat, {"step": "resolve_main", "action": kind}])
        return
    params = {k: v for k, v in action.items() if k not in ("type", "action", "end")}
    resolve_action(state, seat, kind, params, extra=False)


def _resolve_step(state: State, seat: str, atom: dict[str, Any]) -> None:
    if action_choices(state, seat, atom["action"]):
        effects.ask(state, seat, "resolve", action=atom["action"])
    else:
        say(state, f"{seat} can no longer resolve {ACTION_NAMES[atom['action']]}.")


def _answer_resolve(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    state["asks"].pop(0)
    params = {k: v for k, v in action.items() if k != "type"}
    resolve_action(state, seat, a["action"], params, extra=False)


effects.STEPS["resolve_main"] = _resolve_step
effects.ASKS["resolve"] = _answer_resolve


# the free actions that name one card (AA-ACT-05): the card's id goes to the rule
FREE_CARD_ACTIONS: dict[str, Callable[[State, str, Any], None]] = {
    "play_specialist": free.play_specialist,
    "use_specialist": free.use_specialist,
    "contract": free.contract,
    "equipment": free.use_equipment,
}


def _overtime_check(state: State, seat: str, name: Any) -> None:
    if name == "overtime" and not overtime_useful(state, seat):
        raise IllegalAction("Overtime now would not open any main action")


def act_turn(state: State, seat: str, action: dict[str, Any]) -> None:
    turn = state["turn"]
    if turn is None or turn["seat"] != seat:
        raise IllegalAction("it is not your turn")
    kind = action.get("type")
    p = state["players"][seat]
    if overtime_pending(state, seat) and (kind != "main" or not column_used(p, str(action.get("action")))):
        raise IllegalAction("after Overtime, play the second main action of a used column at once")
    if kind == "main":
        play_main(state, seat, action)
    elif kind == "special":
        _overtime_check(state, seat, action.get("name"))
        special.play(state, seat, action)
    elif isinstance(kind, str) and kind in FREE_CARD_ACTIONS:
        FREE_CARD_ACTIONS[kind](state, seat, action.get("card"))
    elif kind == "discard_specialist":
        _overtime_check(state, seat, action.get("special"))
        free.discard_specialist(state, seat, action)
    elif kind == "end":
        if not turn["main"]:
            raise IllegalAction("play a main action first (or pass if none can be played)")
        say(state, f"{seat} ends the turn.")
        next_turn(state)
    elif kind == "pass":
        if turn["main"] or main_options(state, seat):
            raise IllegalAction("you must play a main action when one can be played")
        p["passed"] = True
        say(state, f"{seat} cannot play a main action and passes for the rest of the round.")
        next_turn(state)
    else:
        raise IllegalAction(f"unknown action type {kind!r}")


# --- phases ----------------------------------------------------------------------------


def start_round(state: State) -> None:
    market.run(state)
    if len(state["seats"]) == 3:
        block_spaces(state)
    state["phase"] = "action"
    say(state, f"Round {state['round']}, Action phase.")
    state["turn"] = None
    next_turn(state)


def block_spaces(state: State) -> None:
    """AA-ACT-03: move the top Blocked Action card to the discard (round 1: draw one), block
    one space of each action it shows, and show the next card."""
    b = state["blocked"]
    if not b["deck"]:
        b["deck"], b["discard"] = b["discard"], []
    card = b["deck"].pop(0)
    b["discard"].append(card)
    b["now"] = card
    for a in BLOCKED[card]["actions"]:
        state["spaces"][a][0] = "blocked"
    say(state, "Blocked this round: one space of " + " and ".join(ACTION_NAMES[a] for a in BLOCKED[card]["actions"]) + ".")


def run(state: State, on_phase: Any = None) -> None:
    """Carry on until somebody must decide; ``on_phase(state)`` is called at the end of
    every phase (for the pictures posted after each phase)."""

    def ended() -> None:
        if on_phase is not None:
            on_phase(state)

    while True:
        if state["asks"]:
            return
        if state["queue"]:
            seat, atom = state["queue"].pop(0)
            effects.execute(state, seat, atom)
            continue
        phase = state["phase"]
        if phase not in ("draft", "over") and achievements.check(state):
            continue
        if phase == "draft":
            return
        if phase == "start":
            start_round(state)
        elif phase == "action":
            turn = state["turn"]
            if turn and turn.get("end_after") and turn["main"] and not overtime_pending(state, turn["seat"]):
                say(state, f"{turn['seat']} ends the turn.")
                next_turn(state)
                continue
            return
        elif phase == "action_over":
            ended()
            state["phase"] = "donation"
            state["donors"] = list(reversed(state["order"]))
            say(state, "Donation phase, in reverse turn order.")
        elif phase == "donation":
            if state["donors"]:
                return
            ended()
            state["phase"] = "audit"
        elif phase == "audit":
            if state["round"] >= 2 and ask_audit_claims(state):
                continue
            if state["round"] >= 2:
                audit.run(state)
            else:
                say(state, "No Audit in the first round.")
            ended()
            state["phase"] = "cleanup"
        elif phase == "cleanup":
            last = state["round"] >= ROUNDS
            if last and ask_last_claims(state):
                continue
            cleanup.run(state)
            if last:
                scoring.end_game(state)
                ended()
                return
            ended()
            state["phase"] = "start"
        else:
            return


# --- Achievements offered (rules 2, see versions.py) -------------------------------------


def claim_options(state: State, seat: str) -> list[dict[str, Any]]:
    """The Achievements ``seat`` may claim now: those offered to it, in its turn, its
    Donation, or when asked before the final scoring (rules 3: and before the Audit;
    rules 1: none, the engine claims)."""
    if state.get("rules", 1) < 2 or not state["offers"].get(seat):
        return []
    if state["asks"]:
        a = state["asks"][0]
        if a["kind"] != "achievement" or a["seat"] != seat:
            return []
    elif not (
        (state["phase"] == "action" and state["turn"] and state["turn"]["seat"] == seat)
        or (state["phase"] == "donation" and state["donors"] and state["donors"][0] == seat)
    ):
        return []
    return [{"type": "achievement", "card": c} for c in state["offers"][seat]]


def ask_last_claims(state: State) -> bool:
    """Before the final scoring, ask each player in turn order to claim the Achievements
    still offered to it (claiming only ever gains, so there is no "no")."""
    if state.get("rules", 1) < 2:
        return False
    for seat in state["order"]:
        if state["offers"][seat]:
            effects.ask(state, seat, "achievement")
            return True
    return False


def ask_audit_claims(state: State) -> bool:
    """Rules 3: before the Audit resolves, ask each player in turn order to claim the
    Achievements still offered to it, so that their gains (and first-fulfilment bonus)
    count in the Audit (AA-ACH-01 "at any time"; AA-AUD-03)."""
    if state.get("rules", 1) < 3:
        return False
    for seat in state["order"]:
        if state["offers"][seat]:
            effects.ask(state, seat, "achievement", before="audit")
            return True
    return False


def claim_achievement(state: State, seat: str, action: dict[str, Any]) -> None:
    if not claim_options(state, seat):
        if state["offers"].get(seat):
            raise IllegalAction("claim your Achievements in your turn or your Donation (finish the question first)")
        raise IllegalAction("you meet no unclaimed Achievement now")
    if state["asks"]:  # the question before the Audit (rules 3) or the final scoring
        state["asks"].pop(0)
    achievements.claim(state, seat, action.get("card"))


def offers_text(state: State, seat: str) -> str:
    """" You meet the Achievement X: claim it." for the seat's prompt ("" if none)."""
    cards = state.get("offers", {}).get(seat) or []
    if not cards:
        return ""
    names = " and ".join(ACHIEVEMENTS[c]["name"] for c in cards)
    many = len(cards) != 1
    return f" You meet the Achievement{'s' if many else ''} {names}: claim {'them' if many else 'it'}."


def pending_seats(state: State) -> list[str]:
    """Who decides now (cheap; ``pending`` builds the prompts)."""
    if state["phase"] == "over":
        return []
    if state["asks"]:
        return [state["asks"][0]["seat"]]
    if state["phase"] == "draft":
        return draft.waiting(state)
    if state["phase"] == "action" and state["turn"]:
        return [state["turn"]["seat"]]
    if state["phase"] == "donation" and state["donors"]:
        return [state["donors"][0]]
    return []


def pending(state: State) -> dict[str, dict[str, Any]]:
    if state["phase"] == "over":
        return {}
    if state["asks"]:
        a = state["asks"][0]
        return {a["seat"]: ask_prompt(state, a)}
    if state["phase"] == "draft":
        return {s: draft.prompt(state, s) for s in draft.waiting(state)}
    if state["phase"] == "action" and state["turn"]:
        seat = state["turn"]["seat"]
        return {seat: turn_prompt(state, seat)}
    if state["phase"] == "donation" and state["donors"]:
        seat = state["donors"][0]
        p = state["players"][seat]
        return {
            seat: {
                "type": "donate",
                "limit": donation.limit(p),
                "text": f"Donate up to {donation.limit(p)} resources and/or credits "
                f"({donation.advanced(p)} Prospect track{'s' if donation.advanced(p) != 1 else ''} advanced + 2)."
                f"{offers_text(state, seat)}",
                "achievements": list(state.get("offers", {}).get(seat) or []),
            }
        }
    return {}


def turn_prompt(state: State, seat: str) -> dict[str, Any]:
    p = state["players"][seat]
    turn = state["turn"]
    return {
        "type": "turn",
        "main_done": turn["main"],
        "overtime": turn["overtime"],
        "markers_left": p["markers_total"] - len(p["markers"]),
        **({"can_end": True} if quick(state) else {}),  # main actions accept "end": true
        "text": (
            "Play one main action (with special and free actions before or after)."
            if not turn["main"]
            else "Play special or free actions, or end your turn."
        )
        + offers_text(state, seat),
        "achievements": list(state.get("offers", {}).get(seat) or []),
    }


def ask_prompt(state: State, a: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in a.items() if k != "seat"}
    out["type"] = a["kind"]
    out["text"] = ask_text(state, a)
    if a["kind"] == "dice":
        dice = state["dice"]["faces"]
        out["dice"] = list(dice)
        out["passes"] = prospect.passes(dice, a["level"])
        out["overdrive"] = {
            "allowed": special.can_overdrive(state, a["seat"]),
            "credits": special.overdrive_cost(state, a["seat"])[0],
            "reliability": special.overdrive_cost(state, a["seat"])[1],
            "dice_after": [max(1, d - 1) for d in dice],
            "passes_after": prospect.passes([max(1, d - 1) for d in dice], a["level"]),
        }
    return out


def options(state: State, seat: str) -> list[dict[str, Any]]:
    """Every legal action of ``seat`` now."""
    if seat not in pending_seats(state):
        return []
    claims = claim_options(state, seat)
    if state["asks"]:
        a = state["asks"][0]
        if a["kind"] == "achievement":
            return claims
        if a["kind"] == "dice":  # (rules 4: moving carries the Prospect bonus where it is a choice)
            bonus = prospect.bonus_choices(state, a)
            opts = [{"type": "dice", "overdrive": False, **({"take": t} if bonus else {})} for t in bonus or [None]]
            if special.can_overdrive(state, seat):
                opts.append({"type": "dice", "overdrive": True})
            return opts
        if a["kind"] == "extra":
            chs = action_choices(state, seat, a["action"], extra=True)
            return (
                [{"type": "extra", **c} for c in chs]
                + [{"type": "extra", "skip": True}]
                + extra_free_options(state, seat)
            )
        if a["kind"] == "column":
            return [{"type": "column", "column": c} for c in a["columns"]]
        if a["kind"] == "resolve":
            return [{"type": "resolve", **c} for c in action_choices(state, seat, a["action"])]
        return effects.ask_options(state, seat, a)
    if state["phase"] == "draft":
        return [{"type": "draft", "card": c} for c in state["draft"]["hands"][seat]]
    if state["phase"] == "donation":
        return claims + donation.options(state, seat)
    return claims + turn_actions(state, seat)


FREE_DURING_EXTRA = ("special", "play_specialist", "use_specialist", "discard_specialist", "contract")


def extra_free_options(state: State, seat: str) -> list[dict[str, Any]]:
    """Special and free actions allowed before an Equipment's extra action (AA-EQP-02):
    not Overtime (it belongs to a main action), not Equipment abilities."""
    return [
        o
        for o in turn_actions(state, seat)
        if o["type"] in FREE_DURING_EXTRA and "overtime" not in (o.get("name"), o.get("special"))
    ]


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    if action.get("type") == "achievement" and state.get("rules", 1) >= 2:
        claim_achievement(state, seat, action)
        return
    if state["asks"]:
        a = state["asks"][0]
        if a["seat"] != seat:
            raise IllegalAction("another player is deciding now")
        if a["kind"] == "extra" and action.get("type") in FREE_DURING_EXTRA:
            if "overtime" in (action.get("name"), action.get("special")):
                raise IllegalAction("Overtime cannot be played for an extra action")
            # the extra action is offered again once this action and its effects are done
            state["asks"].pop(0)
            state["queue"].insert(0, [seat, {"step": "equipment_extra", "card": a["card"]}])
            act_turn(state, seat, action)
            return
        if action.get("type") != a["kind"]:
            raise IllegalAction(f"answer the question first ({a['kind']})")
        effects.ASKS[a["kind"]](state, seat, a, action)
        return
    phase = state["phase"]
    if phase == "draft":
        if action.get("type") != "draft":
            raise IllegalAction("choose a Specialist to keep")
        draft.pick(state, seat, action)
    elif phase == "donation":
        if not state["donors"] or state["donors"][0] != seat:
            raise IllegalAction("it is not your turn to donate")
        if action.get("type") != "donate":
            raise IllegalAction("say what you donate (possibly nothing)")
        donation.donate(state, seat, action)
        state["donors"].pop(0)
    elif phase == "action":
        act_turn(state, seat, action)
    else:
        raise IllegalAction("nothing to decide now")
