"""The one effect interpreter: card, tile, track and ability effects are data (lists of
atoms) read here. Atoms are queued per seat; an atom needing a decision becomes an
*ask* (a prompt for that seat) and the queue waits until it is answered.

Data atoms: ``credits`` n, ``res`` {colour: n}, ``any`` n (resources of any colour),
``pick`` {n, of}, ``any_or_credits`` n, ``vp`` n, ``rep`` n, ``rel`` [companies],
``upgrade`` steps (one worker), ``build`` level (one worker of that level),
``donation`` n (Donation marker moves without reputation).
Steps of actions (``{"step": name, ...}``) are handled by the modules that register
them in ``STEPS``; answers to asks by ``ASKS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.age_of_automaton import donation, relationships, reputation, technology
from engine.age_of_automaton.common import (
    LIMIT,
    State,
    compositions,
    fmt_res,
    gain_credits,
    gain_res,
    say,
    score,
)
from engine.age_of_automaton.data import COLOURS, RELATIONSHIPS, ROMAN
from engine.errors import IllegalAction

STEPS: dict[str, Callable[[State, str, dict[str, Any]], None]] = {}
ASKS: dict[str, Callable[[State, str, dict[str, Any], dict[str, Any]], None]] = {}


def queue(state: State, seat: str, atoms: list[dict[str, Any]], why: str = "", front: bool = False) -> None:
    items = [[seat, dict(a, why=why) if why and "why" not in a else a] for a in atoms]
    if front:
        state["queue"][0:0] = items
    else:
        state["queue"].extend(items)


def ask(state: State, seat: str, kind: str, **info: Any) -> None:
    state["asks"].append({"seat": seat, "kind": kind, **info})


def execute(state: State, seat: str, atom: dict[str, Any]) -> None:
    why = atom.get("why", "")
    if "step" in atom:
        STEPS[atom["step"]](state, seat, atom)
    elif "credits" in atom:
        gain_credits(state, seat, atom["credits"], why)
    elif "res" in atom:
        gain_res(state, seat, atom["res"], why)
    elif "any" in atom:
        _pick(state, seat, atom["any"], list(COLOURS), why)
    elif "pick" in atom:
        _pick(state, seat, atom["pick"], list(atom["of"]), why)
    elif "any_or_credits" in atom:
        _pick(state, seat, atom["any_or_credits"], [*COLOURS, "credits"], why)
    elif "vp" in atom:
        score(state, seat, atom["vp"], why or "ability")
    elif "rep" in atom:
        reputation.gain(state, seat, atom["rep"])
    elif "rel" in atom:
        relationships.improve(state, seat, atom["rel"])
    elif "upgrade" in atom:
        p = state["players"][seat]
        options = technology.can_upgrade(p)
        if not options:
            say(state, f"{seat} has no automaton to upgrade.")
        elif len(options) == 1:
            technology.upgrade(state, seat, options[0], atom["upgrade"])
        else:
            ask(state, seat, "upgrade", steps=atom["upgrade"], levels=options, why=why)
    elif "build" in atom:
        technology.build(state, seat, atom["build"], atom.get("n", 1))
    elif "donation" in atom:
        donation.move(state, seat, atom["donation"], megaphones=False)
    else:
        raise ValueError(f"unknown effect {atom!r}")


def _pick(state: State, seat: str, n: int, of: list[str], why: str) -> None:
    if n <= 0:
        return
    if len(of) == 1:
        if of[0] == "credits":
            gain_credits(state, seat, n, why)
        else:
            gain_res(state, seat, {of[0]: n}, why)
        return
    ask(state, seat, "pick", n=n, of=of, why=why)


# --- answers --------------------------------------------------------------------------


def counts(action: dict[str, Any], key: str, allowed: list[str]) -> dict[str, int]:
    raw = action.get(key)
    if not isinstance(raw, dict):
        raise IllegalAction(f"say what to {'take' if key == 'take' else 'drop'}: a mapping of colour to number")
    out: dict[str, int] = {}
    for k, v in raw.items():
        if k not in allowed:
            raise IllegalAction(f"{k} is not one of {', '.join(allowed)}")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalAction("numbers must be whole and not negative")
        if v:
            out[k] = v
    # in key order: the state (its log lines) never depends on the order the action
    # object lists them in (the app stores actions as canonical JSON, keys sorted)
    return dict(sorted(out.items()))


def _answer_pick(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    take = counts(action, "take", a["of"])
    if sum(take.values()) != a["n"]:
        raise IllegalAction(f"take exactly {a['n']}")
    drop = action.get("drop")
    if drop is not None and int(state.get("rules", 1)) < 4:
        raise IllegalAction("'drop' with a pick is not part of this game's rules version")
    credits = take.pop("credits", 0)
    state["asks"].pop(0)
    gain_credits(state, seat, credits, a.get("why", ""))
    if take:
        gain_res(state, seat, take, a.get("why", ""))
    if drop is not None:  # rules 4: the discard to the limit, answered with the pick
        limit = state["asks"][0] if state["asks"] else None
        if limit is None or limit["seat"] != seat or limit["kind"] != "discard":
            raise IllegalAction("'drop' goes with a pick that takes you over the limit of 10 resource tokens")
        _answer_discard(state, seat, limit, {"type": "discard", "drop": drop})


def pick_options(state: State, seat: str, a: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers to a pick. Rules 4: a pick that takes the player over the limit of 10
    resource tokens carries the discard too (``"drop"``), one answer instead of two, one
    per outcome (taking 1 red and discarding 1 red is taking nothing: listed once), when
    they fit one list (25); else the pick, then the discard asked."""
    takes = [{"type": "pick", "take": c} for c in compositions(a["n"], a["of"])]
    if int(state.get("rules", 1)) < 4:
        return takes
    p = state["players"][seat]
    held = sum(p["res"].values())
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for t in takes:
        res = {c: p["res"][c] + t["take"].get(c, 0) for c in COLOURS}
        over = sum(res.values()) - LIMIT
        if over <= 0 or held > LIMIT:
            out.append(t)
            continue
        for d in compositions(over, list(COLOURS), res):
            end = (t["take"].get("credits", 0), *(res[c] - d.get(c, 0) for c in COLOURS))
            if end not in seen:
                seen.add(end)
                out.append({**t, "drop": d})
    return out if len(out) <= 25 else takes


def _answer_discard(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    drop = counts(action, "drop", list(COLOURS))
    p = state["players"][seat]
    if sum(drop.values()) != a["n"]:
        raise IllegalAction(f"discard exactly {a['n']} resource tokens (the limit is 10)")
    if any(p["res"][c] < n for c, n in drop.items()):
        raise IllegalAction("you do not hold those tokens")
    state["asks"].pop(0)
    for c, n in drop.items():
        p["res"][c] -= n
    say(state, f"{seat} discards {fmt_res(drop)} (the limit is 10 resource tokens).")


def upgrade_levels(state: State, seat: str, a: dict[str, Any]) -> list[int]:
    """The levels an upgrade question offers: rules 4, those holding a worker below IV
    now (a Reliability benefit is asked at once, and the special action that lost the
    reliability may move a worker before the answer); rules 1-3, as asked."""
    if int(state.get("rules", 1)) >= 4:
        return technology.can_upgrade(state["players"][seat])
    return list(a["levels"])


def _answer_upgrade(state: State, seat: str, a: dict[str, Any], action: dict[str, Any]) -> None:
    level = action.get("level")
    if not isinstance(level, int) or isinstance(level, bool) or level not in upgrade_levels(state, seat, a):
        raise IllegalAction("choose the level of a worker on your Technology track below Level IV")
    state["asks"].pop(0)
    technology.upgrade(state, seat, level, a["steps"])


ASKS.update({"pick": _answer_pick, "discard": _answer_discard, "upgrade": _answer_upgrade})


def ask_options(state: State, seat: str, a: dict[str, Any]) -> list[dict[str, Any]]:
    kind = a["kind"]
    if kind == "pick":
        return pick_options(state, seat, a)
    if kind == "discard":
        p = state["players"][seat]
        return [{"type": "discard", "drop": c} for c in compositions(a["n"], list(COLOURS), p["res"])]
    if kind == "upgrade":
        return [{"type": "upgrade", "level": lvl} for lvl in upgrade_levels(state, seat, a)]
    return []


def _s(n: int) -> str:
    return "s" if n != 1 else ""


# the words of each data atom, by its key, first match first (as execute reads them)
ATOM_WORDS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("credits", lambda a: f"{a['credits']} credit{_s(a['credits'])}"),
    ("res", lambda a: fmt_res(a["res"])),
    ("any", lambda a: f"{a['any']} resource{_s(a['any'])} of any colour"),
    ("pick", lambda a: f"{a['pick']} of {'/'.join(a['of'])}"),
    ("any_or_credits", lambda a: f"{a['any_or_credits']} resources and/or credits"),
    ("vp", lambda a: f"{a['vp']} VP"),
    ("rep", lambda a: f"{a['rep']} reputation"),
    ("rel", lambda a: "relationship with the " + ", ".join(RELATIONSHIPS[c]["name"] for c in a["rel"])),
    ("upgrade", lambda a: f"upgrade one automaton {a['upgrade']} level{_s(a['upgrade'])}"),
    ("build", lambda a: f"build a Level {ROMAN[a['build']]} automaton"),
    ("donation", lambda a: f"Donation +{a['donation']} (no reputation)"),
)


def describe(atoms: list[dict[str, Any]]) -> str:
    """Player-facing text of an effect list, e.g. "2 credits, 1 red"."""
    out = [next((words(a) for key, words in ATOM_WORDS if key in a), "") for a in atoms]
    return ", ".join(w for w in out if w) or "nothing"


__all__ = ["queue", "ask", "execute", "ASKS", "STEPS", "ask_options", "describe"]
