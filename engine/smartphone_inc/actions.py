"""The fields of each kind of decision, and the canonical form of an action.

The app stores exactly what the engine reads: ``canonical_action`` keeps an action's
known fields (a plan in its canonical structure) and names the unknown ones, so a
move carrying junk is refused and a repeated click with junk is still recognised as
the same move. Each field has its JSON shape (:mod:`engine.canonical`): a move of
another type, or with a field of the wrong kind (a list as its ``type``, an object
where a region goes), is refused with :class:`IllegalAction` before the rules see it.
"""

from __future__ import annotations

from typing import Any

from engine.canonical import Fields, canonical, either, flag, list_of, map_of, maybe, number, text
from engine.smartphone_inc import pads

_counts = map_of(number)  # {technology or region: how many}
_pair = list_of(either(text, number), most=2)  # [region, how many] / [region, Buyer index]

FIELDS: Fields = {
    "plan": {"plan": pads.canonical_plan},
    "unseal": {},
    "improvement": {"id": text},
    "research": {"place": _counts, "token": maybe(_pair)},  # token: a Marketing Token (New Technologies)
    "logistics": {"place": list_of(_pair), "ceo": maybe(text)},  # ceo: where the CEO moves (New Technologies)
    "wifi": {"region": maybe(text)},
    "nfc": {"sell": number},
    "sell": {"regions": _counts, "extra": _counts},
    "gamepad_office": {"region": text},
    "retailer_bonus": {
        "use": flag, "place": _counts, "delta": number, "region": text, "from": text, "to": text,
    },
    # Update 1.1 modules
    "directive": {"take": flag},
    "mini_upgrade": {"id": text},
    "place_retailer": {"region": text, "retailer": either(text, number), "side": number},
    "blitz": {"research": number, "logistics": number},
    "ceo_sell": {"sell": number},
    "second_sell": {"regions": _counts},
    "company": {"colour": text},
    "start_region": {"region": text},
    "start_retailer": {"region": text},
}


def canonical_action(action: Any) -> tuple[dict[str, Any], list[str]]:
    """(the action with only its known fields, the names of the unknown ones)."""
    return canonical(action, FIELDS)
