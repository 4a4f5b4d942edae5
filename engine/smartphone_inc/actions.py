"""The fields of each kind of decision, and the canonical form of an action.

The app stores exactly what the engine reads: ``canonical_action`` keeps an action's
known fields (a plan in its canonical structure) and names the unknown ones, so a
move carrying junk is refused and a repeated click with junk is still recognised as
the same move. An action type not listed here is left as it is (the phase refuses it).
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.smartphone_inc import pads

FIELDS: dict[str, tuple[str, ...]] = {
    "plan": ("plan",),
    "unseal": (),
    "improvement": ("id",),
    "research": ("place", "token"),  # token: a Marketing Token (New Technologies)
    "logistics": ("place", "ceo"),  # ceo: where the CEO moves (New Technologies)
    "wifi": ("region",),
    "nfc": ("sell",),
    "sell": ("regions", "extra"),
    "gamepad_office": ("region",),
    "retailer_bonus": ("use", "place", "delta", "region", "from", "to"),
    # Update 1.1 modules
    "directive": ("take",),
    "mini_upgrade": ("id",),
    "place_retailer": ("region", "retailer", "side"),
    "blitz": ("research", "logistics"),
    "ceo_sell": ("sell",),
    "second_sell": ("regions",),
    "company": ("colour",),
    "start_region": ("region",),
    "start_retailer": ("region",),
}


def canonical_action(action: Any) -> tuple[dict[str, Any], list[str]]:
    """(the action with only its known fields, the names of the unknown ones)."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a JSON object with a 'type'")
    fields = FIELDS.get(action.get("type"))  # type: ignore[arg-type]
    if fields is None:
        return dict(action), []
    canon = {"type": action["type"], **{k: action[k] for k in fields if k in action}}
    if "plan" in canon:
        canon["plan"] = pads.canonical_plan(canon["plan"])
    unknown = sorted(str(k) for k in action if k != "type" and k not in fields)
    return canon, unknown
