"""The fields of each kind of decision, and the canonical form of an action.

The app stores exactly what the engine reads: ``canonical_action`` keeps an action's
known fields, each in the JSON shape the rules read (:mod:`engine.canonical`), and
names the unknown ones (the app refuses a move with them). A move of another type, or
with a field of the wrong kind, is refused with :class:`IllegalAction` before the
rules see it.
"""

from __future__ import annotations

from typing import Any

from engine.canonical import Fields, canonical, flag, list_of, map_of, maybe, number, text

_resources = map_of(number)  # {resource or "credits": how many}
# a main action, an Equipment's extra action, or the answer that completes one
_action = {
    "action": text, "card": text, "tile": text, "track": text, "worker": number,
    "before": list_of(text), "skip": flag,
}

FIELDS: Fields = {
    "draft": {"card": text},
    "donate": {"give": _resources},
    "main": {**_action, "end": flag},
    "extra": _action,
    "resolve": _action,
    "special": {"name": text, "level": number},
    "play_specialist": {"card": text},
    "use_specialist": {"card": text},
    "discard_specialist": {"card": text, "level": number, "special": maybe(text)},
    "contract": {"card": text},
    "equipment": {"card": text},
    "achievement": {"card": text},
    "end": {},
    "pass": {},
    # answers to a question of an effect
    "pick": {"take": _resources, "drop": _resources},
    "discard": {"drop": _resources},
    "upgrade": {"level": number},
    "column": {"column": number},
    "dice": {"overdrive": flag, "take": _resources},
}


def canonical_action(action: Any) -> tuple[dict[str, Any], list[str]]:
    """(the action with only its known fields, the names of the unknown ones)."""
    return canonical(action, FIELDS)
