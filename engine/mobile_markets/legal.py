"""The legal actions of a Mobile Markets prompt, listed (``legal_actions``, the random
player): every one a prompt accepts, products included while the list stays short."""

from __future__ import annotations

import itertools
from typing import Any

from engine.jsonstate import dumps
from engine.mobile_markets import pads
from engine.mobile_markets.common import State

MAX_PRODUCTS = 400


def product_actions(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    """Products to choose from: every set of cards that fits, placed in a canonical
    slot order (board slots 1-2, then the cards' slots, then board slot 3), and, while
    the list stays short, every way of placing them."""
    hand = list(prompt["features"])
    free = list(prompt["slots"])
    canonical = [s for s in free if s in ("1", "2")] + [s for s in free if s not in ("1", "2", "3")] + ["3"]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for k in range(min(len(hand), len(free)) + 1):
        for cards in itertools.combinations(hand, k):
            placements = [dict(zip(canonical[:k], cards, strict=True))]
            if len(out) < MAX_PRODUCTS:
                placements += [dict(zip(where, cards, strict=True)) for where in itertools.permutations(free, k)]
            for placement in placements:
                key = dumps(placement)
                if key not in seen:
                    seen.add(key)
                    out.append({"type": "product", "slots": placement})
    if prompt["tokens"]:
        out += [{"type": "product", "slots": {}, "tokens": n} for n in range(1, prompt["tokens"] + 1)]
    return out


def enumerate_actions(state: State, seat: str, prompt: dict[str, Any]) -> list[dict[str, Any]]:
    kind = prompt["type"]
    if kind == "plan":
        return [{"type": "plan", "plan": dict(a)} for a in pads.arrangements()]
    if kind == "technology":
        return [{"type": "buy", "card": o["card"]} for o in prompt["offers"]] + [{"type": "done"}]
    if kind == "marketing":
        out = [{"type": "buy", "card": o["card"]} for o in prompt["offers"]]
        if prompt["points"]:
            out += [{"type": "customer", "deck": d} for d in prompt["decks"]]
        if prompt["place"]:
            out += [{"type": "place", "deck": d} for d in prompt["decks"]]
            out += [{"type": "place", "customer": c} for c in prompt["private"]]
        if prompt["can_finish"]:
            out.append({"type": "done"})
        return out
    if kind == "product":
        return product_actions(prompt)
    if kind == "free_card":
        return [{"type": "free_card", "card": c} for c in prompt["cards"]]
    return []


# --- views --------------------------------------------------------------------------------
