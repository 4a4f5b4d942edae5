"""Steve Jr., the solo opponent (MM-SOLO-01..12). He never decides through a prompt:
each of his phase rows is resolved here when his turn comes.

His table (``state["steve"]``): the face-down deck (order hidden), and the stack of
face-up cards, oldest first. Cards revealed for the difficulty show only their top
part (features and ability), never their phase rows (``full`` false); each card
revealed in Planning goes on top of the stack, covering the phase rows of the one
before, so every card shows its features and its ability, and the newest card's phase
rows are this round's orders.
"""

from __future__ import annotations

from typing import Any

from engine.mobile_markets import displays, effects, events, market
from engine.mobile_markets.common import State, say
from engine.mobile_markets.data import (
    BASE_COST,
    FEATURES,
    STEVE_CARDS,
    card_name,
    order_key,
)
from engine.rng import Rng


def setup(state: State, seat: str, revealed: int, rng: Rng) -> None:
    """MM-SOLO-01/02: shuffle his 16 cards; reveal 0, 1 or 2 (their top part only)."""
    deck = rng.shuffle(sorted(STEVE_CARDS, key=order_key))
    stack = [{"card": deck.pop(0), "full": False} for _ in range(revealed)]
    state["steve"] = {"seat": seat, "deck": deck, "stack": stack}


def reveal_card(state: State) -> None:
    """MM-SOLO-04: after the player has planned, his next card goes on his stack."""
    sj = state["steve"]
    card = sj["deck"].pop(0)
    sj["stack"].append({"card": card, "full": True})
    rows = STEVE_CARDS[card]["rows"]
    say(state, f"Steve Jr. reveals a card: {STEVE_CARDS[card]['text']} Price {rows['price']}.")


def rows(state: State) -> dict[str, Any]:
    return STEVE_CARDS[state["steve"]["stack"][-1]["card"]]["rows"]


def price(state: State) -> int:
    """MM-SOLO-05: his price row."""
    return int(rows(state)["price"])


def _pick(state: State, display: str, how: str) -> str | None:
    row = state["displays"][display]["row"]
    if not row or how == "none":
        return None
    if how == "leftmost":
        return row[0]
    costs = [(displays.cost(state, None, display, c), i) for i, c in enumerate(row)]
    if how == "cheapest":
        return row[min(costs)[1]]
    return row[max(costs, key=lambda x: (x[0], -x[1]))[1]]  # most expensive, leftmost on ties


def technology(state: State, seat: str) -> None:
    """MM-SOLO-06: he buys nothing; he discards display cards as his row says."""
    row = rows(state)["technology"]
    gone = []
    card = _pick(state, "technology", row["technology"])
    if card is not None:
        displays.discard_card(state, "technology", card)
        gone.append(card)
    for _ in range(row["features"]):
        card = _pick(state, "feature", "leftmost")
        if card is None:
            break
        displays.discard_card(state, "feature", card)
        gone.append(card)
    say(state, "Steve Jr. discards " + (", ".join(card_name(c) for c in gone) if gone else "nothing") + ".")


def marketing(state: State, seat: str) -> None:
    """MM-SOLO-07: he discards Marketing cards and takes Private Customers from the top
    of the decks his row names (his abilities may add some)."""
    row = rows(state)["marketing"]
    for _ in range(row["campaigns"]):
        card = _pick(state, "marketing", "leftmost")
        if card is None:
            break
        displays.discard_card(state, "marketing", card)
        say(state, f"Steve Jr. discards {card_name(card)}.")
    decks = list(row["customers"])
    for _, e in effects.active(state, seat, "marketing", "customers"):
        decks += [e["deck"]] * effects.value(state, seat, e)
    p = state["players"][seat]
    for deck in decks:
        cid = market.draw(state, deck)
        if cid is not None:
            p["private"].append(cid)
            say(state, f"Steve Jr. takes a Private Customer: {market.describe(cid)}.")


def production(state: State) -> int:
    """MM-SOLO-08: his production row (base + round x per round + Event Goods icons);
    his abilities' Goods are added by the Production phase."""
    row = rows(state)["production"]
    goods = events.goods_icons(state)
    return int(row["base"]) + int(row["round"]) * state["round"] + goods


def segments(state: State, n: int) -> list[dict[str, Any]]:
    """MM-SOLO-10: up to ``n`` feature segments, from the newest card to the oldest."""
    out: list[dict[str, Any]] = []
    for entry in reversed(state["steve"]["stack"]):
        for seg in STEVE_CARDS[entry["card"]]["features"]:
            if len(out) >= n:
                return out
            out.append(seg)
    return out


def product(state: State, seat: str) -> dict[str, Any]:
    """MM-SOLO-09/10: his product from his sale row; his discounts add to the number
    of features; base cost included; any number of features and Stars."""
    n = int(rows(state)["sales"]["features"]) + effects.total(state, seat, "sales", "discount")
    segs = segments(state, n)
    icons = sorted({i for s in segs for i in s["icons"]})
    stars = sum(s["stars"] for s in segs) + effects.total(state, seat, "sales", "stars")
    base = effects.event_value(state, "sales", "base_cost", BASE_COST)
    cost = max(0, base + sum(s["cost"] for s in segs) + effects.total(state, seat, "sales", "cost"))
    p = state["players"][seat]
    return {
        "slots": {},
        "segments": len(segs),
        "icons": icons,
        "icon_count": sum(len(s["icons"]) for s in segs),
        "full": False,
        "stars": stars,
        "cost": cost,
        "net": p["price"] - cost,
    }


def view(state: State) -> dict[str, Any] | None:
    """His table as the human sees it (the cards as on the table; the deck face down)."""
    sj = state["steve"]
    if sj is None:
        return None
    cards = []
    for i, entry in enumerate(sj["stack"]):
        c = STEVE_CARDS[entry["card"]]
        shown: dict[str, Any] = {
            "card": entry["card"],
            "features": [
                {"icons": s["icons"], "names": [FEATURES[x] for x in s["icons"]], "stars": s["stars"], "cost": s["cost"]}
                for s in c["features"]
            ],
        }
        shown["ability"] = c["ability"]
        shown["text"] = c["text"]
        if entry["full"] and i == len(sj["stack"]) - 1:
            shown["rows"] = c["rows"]
        cards.append(shown)
    return {"seat": sj["seat"], "deck": len(sj["deck"]), "stack": cards}
