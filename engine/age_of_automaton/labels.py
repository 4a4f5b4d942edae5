"""Player-facing texts of prompts and actions (no internal ids): the one labeller of Age
of Automaton's actions.

- :func:`label`: a legal action with what it costs and gives in the current state, e.g.
  the Overdrive offer "pay 1 credit + 1 Reliability to lower all dice by 1 → 2 passes"
  (the view's ``choices``);
- :func:`describe`: any action in words without the state (the bot's words when the
  engine's label is not at hand: the parts a long list is narrowed by, "You chose: …");
  :func:`label` says the same words where the state adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.age_of_automaton import achievements, effects, gains, special
from engine.age_of_automaton.actions import prospect
from engine.age_of_automaton.common import State, fmt_res
from engine.age_of_automaton.data import (
    ACHIEVEMENTS,
    ACTION_NAMES,
    EQUIPMENT,
    RND,
    ROMAN,
    SALES,
    SPECIAL_NAMES,
    SPECIALISTS,
    SPONSORSHIP,
    TRACKS,
)

COLOUR_WORDS = {"red": "red", "blue": "blue", "yellow": "yellow", "credits": "credits"}


def card_name(cid: Any) -> str:
    """The printed name of any card or tile id ("a card" if unknown)."""
    for group in (EQUIPMENT, RND, SALES, SPECIALISTS, ACHIEVEMENTS):
        if cid in group:
            return str(group[cid]["name"])
    if cid in SPONSORSHIP:
        return "Sponsorship tile: " + effects.describe(SPONSORSHIP[cid]["gain"])
    return "a card"


def amounts(give: Mapping[str, Any]) -> str:
    """"1 red, 2 credits": amounts in the order given ("nothing" if none)."""
    parts = [
        f"{n} credit" + ("s" if n != 1 else "") if k == "credits" else f"{n} {COLOUR_WORDS.get(k, 'resources')}"
        for k, n in give.items()
        if n
    ]
    return ", ".join(parts) or "nothing"


def _claim_ask(state: State, a: dict[str, Any]) -> str:
    cards = state["offers"][a["seat"]]
    names = " and ".join(ACHIEVEMENTS[c]["name"] for c in cards)
    when = "the Audit" if a.get("before") == "audit" else "the final scoring"
    return f"Before {when}, claim the Achievement{'s' if len(cards) != 1 else ''} you met: {names}."


# the question of each kind of ask: (state, ask, " (why)" or "") -> text
ASK_WORDS: dict[str, Callable[[State, dict[str, Any], str], str]] = {
    "pick": lambda state, a, why: f"Take {a['n']} of {', '.join(a['of'])}{why}.",
    "discard": lambda state, a, why: f"You hold more than 10 resource tokens: discard {a['n']}.",
    "upgrade": lambda state, a, why: f"Choose an automaton to upgrade {a['steps']} level{'s' if a['steps'] != 1 else ''}{why}.",
    "dice": lambda state, a, why: overdrive_offer(state, a),
    "extra": lambda state, a, why: f"Play the extra {ACTION_NAMES[a['action']]} action of {EQUIPMENT[a['card']]['name']} now, or lose it.",
    "column": lambda state, a, why: f"Choose the column (1-4) for {EQUIPMENT[a['card']]['name']}.",
    "resolve": lambda state, a, why: f"Resolve your {ACTION_NAMES[a['action']]} action: choose how.",
    "achievement": lambda state, a, why: _claim_ask(state, a),
}


def ask_text(state: State, a: dict[str, Any]) -> str:
    kind = a["kind"]
    words = ASK_WORDS.get(kind)
    return kind if words is None else words(state, a, f" ({a['why']})" if a.get("why") else "")


def _passes(n: int) -> str:
    return f"{n} pass{'es' if n != 1 else ''}"


def overdrive_deal(state: State, a: dict[str, Any]) -> str:
    """"pay 1 credit + 1 Reliability to lower all dice by 1 → 2 passes" (issue 11)."""
    dice = state["dice"]["faces"]
    after = prospect.passes([max(1, d - 1) for d in dice], a["level"])
    c, r = special.overdrive_cost(state, a["seat"])
    rel = " + 1 Reliability" if r else ""
    return f"pay {c} credit{'s' if c != 1 else ''}{rel} to lower all dice by 1 → {_passes(after)}"


def overdrive_offer(state: State, a: dict[str, Any]) -> str:
    dice = state["dice"]["faces"]
    now = prospect.passes(dice, a["level"])
    text = f"Level dice {', '.join(ROMAN[d] for d in dice)} against a Level {ROMAN[a['level']]} automaton: {_passes(now)}."
    if special.can_overdrive(state, a["seat"]):
        text += f" Overdrive: {overdrive_deal(state, a)}."
    return text


def claim_label(state: State, seat: str, card: str) -> str:
    """"Claim Achievement First Machine (1 VP; first to meet it: +1 credit or any 1
    resource)"."""
    info = ACHIEVEMENTS[card]
    bonus = "; first: +1 credit or resource" if achievements.first(state, seat, card) else ""
    return f"Claim Achievement {info['name']} ({effects.describe(info['gain'])}{bonus})"


# the words of a main action's fields, in the order they are said
MAIN_WORDS: tuple[tuple[str, Callable[[Any], str]], ...] = (
    ("track", lambda track: f"on the {TRACKS[track]['name'] if track in TRACKS else 'track'}"),
    ("worker", lambda level: f"with a Level {ROMAN.get(level, '?')} automaton"),
    ("card", lambda card: f"taking {card_name(card)}"),
    ("tile", lambda tile: f"({card_name(tile)})"),
)

# the actions that name one card, by their verb
CARD_VERBS = {
    "play_specialist": "Play",
    "use_specialist": "Use",
    "contract": "Contract",
    "equipment": "Use",
    "draft": "Keep",
    "achievement": "Claim Achievement",
}


def describe(action: Mapping[str, Any]) -> str | None:
    """Any action in words without the game state (:func:`label` adds costs and gains);
    None for a kind of action this game does not have."""
    t = action.get("type")
    if t in ("main", "extra", "resolve"):
        if action.get("skip"):
            return "Give up the extra action"
        name = ACTION_NAMES.get(str(action.get("action")), "the action")
        bits = [name] + [words(action[field]) for field, words in MAIN_WORDS if field in action]
        if action.get("before"):
            bits.append("using " + " and ".join(card_name(c) for c in action["before"]) + " first")
        return " ".join(bits)
    if t == "special":
        name = SPECIAL_NAMES.get(str(action.get("name")), "Special action")
        return name + (f" (Level {ROMAN.get(action['level'], '?')})" if "level" in action else "")
    if isinstance(t, str) and t in CARD_VERBS:
        return f"{CARD_VERBS[t]} {card_name(action.get('card'))}"
    if t == "discard_specialist":
        sp = action.get("special")
        tail = f" and a free {SPECIAL_NAMES.get(sp, '')}" if sp else ""
        return f"Discard {card_name(action.get('card'))}{tail}"
    if t == "dice":
        bonus = f", bonus {amounts(action['take'])}" if isinstance(action.get("take"), dict) else ""
        return "Overdrive" if action.get("overdrive") else "Move with these dice" + bonus
    if t == "pick":
        drop = f", discard {amounts(action['drop'])}" if isinstance(action.get("drop"), dict) else ""
        return "Take " + amounts(action.get("take") or {}) + drop
    if t == "discard":
        return "Discard " + amounts(action.get("drop") or {})
    if t == "donate":
        give = action.get("give") or {}
        return "Donate " + amounts(give) if any(give.values()) else "Donate nothing"
    if t == "upgrade":
        return f"Upgrade a Level {ROMAN.get(action.get('level'), '?')} automaton"
    if t == "column":
        column = action.get("column")
        return f"Column {int(column) + 1}" if isinstance(column, int) else "column"
    return {"end": "End the turn", "pass": "Pass for the rest of the round"}.get(str(t))


def label(state: State, seat: str, action: dict[str, Any]) -> str:
    """A short text for a legal action, with what it costs and gives (the words of
    :func:`describe` where the state adds nothing)."""
    t = action.get("type")
    p = state["players"][seat]
    if t in ("main", "extra") and action.get("skip"):
        return str(describe(action))
    if t == "main" and action.get("before"):
        names = " and ".join(EQUIPMENT[c]["name"] for c in action["before"])
        return f"{ACTION_NAMES[action['action']]}, using {names} first"
    if t in ("main", "extra", "resolve"):
        kind = action.get("action") or state["asks"][0]["action"]
        return gains.headline(state, seat, kind, action)
    if t == "special":
        n = action["name"]
        c = special.cost(p, n)
        extra = f" Level {ROMAN[action['level']]} → {ROMAN[action['level'] + 1]}" if "level" in action else ""
        what = {"overtime": ": a 2nd action in a used column", "overbuilt": ": build a Level I automaton"}.get(n, "")
        return f"{SPECIAL_NAMES[n]}{extra}{what}: pay {c} credit{'s' if c != 1 else ''} + 1 Reliability"
    if t in ("play_specialist", "upgrade", "column", "draft", "end", "pass"):
        return str(describe(action))
    if t in ("use_specialist", "contract", "equipment"):  # a card's ability
        info = (EQUIPMENT if t == "equipment" else SPECIALISTS)[action["card"]]
        return f"{CARD_VERBS[t]} {info['name']}: {effects.describe(info['ability'])}"
    if t == "discard_specialist":
        info = SPECIALISTS[action["card"]]
        sp = action.get("special")
        tail = f" and a free {SPECIAL_NAMES[sp]} (1 Reliability)" if sp else ""
        return f"Discard {info['name']} for {fmt_res(info['discard'])}{tail}"
    if t == "dice" and state["asks"] and state["asks"][0]["kind"] == "dice":
        a = state["asks"][0]
        if action.get("overdrive"):
            return f"Overdrive: {overdrive_deal(state, a)}"
        move = f"Move with these dice: {_passes(prospect.passes(state['dice']['faces'], a['level']))}"
        if isinstance(action.get("take"), dict):
            take = dict(action["take"])
            return f"{move}, bonus {fmt_res(take, take.pop('credits', 0))}"
        return move
    if t == "dice":
        return str(describe(action))
    if t == "pick":
        take = dict(action["take"])
        drop = f", discard {fmt_res(action['drop'])}" if isinstance(action.get("drop"), dict) else ""
        return "Take " + fmt_res(take, take.pop("credits", 0)) + drop
    if t == "discard":
        return "Discard " + fmt_res(action["drop"])
    if t == "donate":
        give = dict(action["give"])
        return "Donate " + fmt_res(give, give.pop("credits", 0))
    if t == "achievement":
        return claim_label(state, seat, action["card"])
    return str(t)
