"""The fields of each kind of decision, and the canonical form of an action.

The app stores exactly what the engine reads: ``canonical_action`` keeps an action's
known fields, each in the JSON shape the rules read (:mod:`engine.canonical`), and
names the unknown ones (the app refuses a move with them). A move of another type, or
with a field of the wrong kind (an object as the bottom Pad), is refused with
:class:`IllegalAction` before the rules see it.
"""

from __future__ import annotations

from typing import Any

from engine.canonical import Fields, canonical, list_of, map_of, number, record, text

FIELDS: Fields = {
    # Planning: the bottom Pad (A/B), both sides (0/1) and the covered cells (0-4)
    "plan": {"plan": record({"bottom": text, "bottom_side": number, "top_side": number, "cover": list_of(number, 5)})},
    # Technology and Marketing
    "buy": {"card": text},
    "done": {},
    "customer": {"deck": text},
    "place": {"deck": text, "customer": text},
    "free_card": {"card": text},
    # Sales: {slot: Feature card}, and the Marketing tokens used
    "product": {"slots": map_of(text), "tokens": number},
}


def canonical_action(action: Any) -> tuple[dict[str, Any], list[str]]:
    """(the action with only its known fields, the names of the unknown ones)."""
    return canonical(action, FIELDS)
