"""Age of Automaton in words: prompts, actions and the parts of actions, never an
internal id. The engine's own labels (``view["choices"]``: each legal action with its
cost and gain) come first; the words here name actions without the state (the parts a
long list is narrowed by, donations, the log of what a player did)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import text
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
from engine.age_of_automaton.effects import describe as describe_effect
from engine.age_of_automaton.flow import PHASE_TITLES

PHASES = {**PHASE_TITLES, "market": "Market phase"}

TYPES = {
    "main": "Main action",
    "special": "Special action",
    "play_specialist": "Play a Specialist",
    "use_specialist": "Use a played Specialist",
    "discard_specialist": "Discard a Specialist",
    "contract": "Contract a common Specialist",
    "equipment": "Use an Equipment ability",
    "end": "End the turn",
    "pass": "Pass for the round",
    "dice": "The dice",
    "extra": "Extra action",
    "column": "Column",
    "resolve": "Resolve",
    "pick": "Take",
    "discard": "Discard",
    "donate": "Donate",
    "upgrade": "Upgrade",
    "draft": "Keep",
    "achievement": "Claim an Achievement",
}

KEYS = {
    "type": "Kind",
    "action": "Action",
    "track": "Prospect track",
    "worker": "Automaton",
    "card": "Card",
    "tile": "Sponsorship tile",
    "name": "Special action",
    "level": "Level",
    "special": "Free special action",
    "column": "Column",
    "skip": "Give up",
    "overdrive": "Overdrive",
    "before": "Equipment used first",
    "give": "Donate",
    "take": "Take",
    "drop": "Discard",
}

COLOUR_WORDS = {"red": "red", "blue": "blue", "yellow": "yellow", "credits": "credits"}


def card_name(cid: Any) -> str:
    """The printed name of any card or tile id ("a card" if unknown)."""
    for group in (EQUIPMENT, RND, SALES, SPECIALISTS, ACHIEVEMENTS):
        if cid in group:
            return str(group[cid]["name"])
    if cid in SPONSORSHIP:
        return "Sponsorship tile: " + describe_effect(SPONSORSHIP[cid]["gain"])
    return "a card"


def amounts(give: Mapping[str, Any]) -> str:
    parts = [
        f"{n} credit" + ("s" if n != 1 else "") if k == "credits" else f"{n} {COLOUR_WORDS.get(k, 'resources')}"
        for k, n in give.items()
        if n
    ]
    return ", ".join(parts) or "nothing"


def phase_title(phase: str | None) -> str:
    return PHASES.get(phase or "", text.words(phase or "").capitalize() or "?")


def describe_key(key: str) -> str:
    parts = [p for p in str(key).split(".") if p and p != "#"]
    if not parts:
        return "Choice"
    head = KEYS.get(parts[0], text.words(parts[0]).capitalize())
    if parts[0] in ("give", "take", "drop") and len(parts) > 1:
        return f"{head} {COLOUR_WORDS.get(parts[1], parts[1])}"
    if str(key).endswith(".#"):
        return f"{head}: how many"
    if len(parts) > 1 and parts[1].isdigit():
        return f"{head} #{int(parts[1]) + 1}"
    return head


def describe_value(key: str, value: Any) -> str:
    head = str(key).split(".")[0]
    if value is None:
        return "none"
    if head == "before" and str(key).endswith(".#"):
        return "none" if not value else f"{value} Equipment card{'s' if value != 1 else ''}"
    if head == "type":
        return TYPES.get(str(value), text.words(str(value)))
    if head == "action":
        return ACTION_NAMES.get(str(value), "action")
    if head == "track":
        return str(TRACKS[value]["name"]) if value in TRACKS else "track"
    if head in ("worker", "level"):
        return f"Level {ROMAN.get(value, value)}"
    if head in ("card", "tile", "before") and isinstance(value, str):
        return card_name(value)
    if head in ("name", "special"):
        return SPECIAL_NAMES.get(str(value), "none")
    if head == "column":
        return f"Column {int(value) + 1}" if isinstance(value, int) else "column"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    return text.describe_value(key, value)


def describe_action(action: Mapping[str, Any]) -> str:
    """An action in words without the game state (the engine's labels add costs)."""
    t = action.get("type")
    if t in ("main", "extra", "resolve"):
        if action.get("skip"):
            return "Give up the extra action"
        name = ACTION_NAMES.get(str(action.get("action")), "the action")
        bits = [name]
        if "track" in action:
            bits.append(f"on the {describe_value('track', action['track'])}")
        if "worker" in action:
            bits.append(f"with a Level {ROMAN.get(action['worker'], '?')} automaton")
        if "card" in action:
            bits.append(f"taking {card_name(action['card'])}")
        if "tile" in action:
            bits.append(f"({card_name(action['tile'])})")
        if action.get("before"):
            bits.append("using " + " and ".join(card_name(c) for c in action["before"]) + " first")
        return " ".join(bits)
    if t == "special":
        name = SPECIAL_NAMES.get(str(action.get("name")), "Special action")
        return name + (f" (Level {ROMAN.get(action['level'], '?')})" if "level" in action else "")
    if t == "play_specialist":
        return f"Play {card_name(action.get('card'))}"
    if t == "use_specialist":
        return f"Use {card_name(action.get('card'))}"
    if t == "discard_specialist":
        sp = action.get("special")
        tail = f" and a free {SPECIAL_NAMES.get(sp, '')}" if sp else ""
        return f"Discard {card_name(action.get('card'))}{tail}"
    if t == "contract":
        return f"Contract {card_name(action.get('card'))}"
    if t == "equipment":
        return f"Use {card_name(action.get('card'))}"
    if t == "dice":
        return "Overdrive" if action.get("overdrive") else "Move with these dice"
    if t == "pick":
        return "Take " + amounts(action.get("take") or {})
    if t == "discard":
        return "Discard " + amounts(action.get("drop") or {})
    if t == "donate":
        give = action.get("give") or {}
        return "Donate " + amounts(give) if any(give.values()) else "Donate nothing"
    if t == "upgrade":
        return f"Upgrade a Level {ROMAN.get(action.get('level'), '?')} automaton"
    if t == "column":
        return describe_value("column", action.get("column"))
    if t == "draft":
        return f"Keep {card_name(action.get('card'))}"
    if t == "achievement":
        return f"Claim Achievement {card_name(action.get('card'))}"
    if t == "end":
        return "End the turn"
    if t == "pass":
        return "Pass for the rest of the round"
    return text.describe_action(action)


def describe_prompt(prompt: Mapping[str, Any] | None) -> str:
    """The engine's prompt text (it already says costs, the dice and limits)."""
    if not prompt:
        return "nothing to decide"
    said = prompt.get("text")
    if isinstance(said, str) and said:
        return said
    return TYPES.get(str(prompt.get("type")), "Decide")


def specialist_line(card: Mapping[str, Any]) -> str:
    """A Specialist in one line, most important first (a select label keeps 100
    characters): name and VP, ability, what playing it needs, what discarding gives."""
    need = amounts(card.get("requirement") or {})
    return (
        f"{card.get('name', 'Specialist')} ({card.get('vp', 0)} VP): {describe_effect(card.get('ability') or [])}"
        f" · play with {'nothing' if need == 'nothing' else need} · discard for {amounts(card.get('discard') or {})}"
    )
