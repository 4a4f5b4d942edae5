"""Age of Automaton in words: prompts, actions and the parts of actions, never an
internal id. The engine's own labels (``view["choices"]``: each legal action with its
cost and gain) come first; without the state, actions are named by the engine's same
labeller (:func:`engine.age_of_automaton.labels.describe`); the words here name the
parts a long list is narrowed by (keys and values of a step-by-step action)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import text
from engine.age_of_automaton.data import (
    ACTION_NAMES,
    ROMAN,
    SPECIAL_NAMES,
    TRACKS,
)
from engine.age_of_automaton.effects import describe as describe_effect
from engine.age_of_automaton.flow import PHASE_TITLES
from engine.age_of_automaton.labels import COLOUR_WORDS, amounts, card_name, describe

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
    """An action in words without the game state (the engine's labels add costs): the
    engine's one labeller, :func:`engine.age_of_automaton.labels.describe`."""
    return describe(action) or text.describe_action(action)


def describe_prompt(prompt: Mapping[str, Any]) -> str:
    """The engine's prompt text (it already says costs, the dice and limits); a seat
    without a prompt is worded by the presenter."""
    said = prompt.get("text")
    if isinstance(said, str) and said:
        # the draft's select names the player on the left (turns.draft_title)
        return said.replace(" to the player on your left.", ".") if prompt.get("type") == "draft" else said
    return TYPES.get(str(prompt.get("type")), "Decide")


def specialist_parts(card: Mapping[str, Any]) -> tuple[str, str]:
    """A Specialist as a select option, most important first: (name, VP and ability: the
    label; what playing it needs and what discarding gives: the description). Each part
    keeps within Discord's 100 characters (the longest: 63 and 61)."""
    need = amounts(card.get("requirement") or {})
    head = f"{card.get('name', 'Specialist')} ({card.get('vp', 0)} VP): {describe_effect(card.get('ability') or [])}"
    rest = f"play with {'nothing' if need == 'nothing' else need} · discard for {amounts(card.get('discard') or {})}"
    return head, rest


def specialist_line(card: Mapping[str, Any]) -> str:
    """A Specialist in one line: name and VP, ability, what playing it needs, what
    discarding gives."""
    return " · ".join(specialist_parts(card))
