"""Phase 8 Profit and the end of the game (MM-PROF-01..06, MM-END-01..02, MM-SOLO-12,
TS1-TS6, E12, end-of-game cards)."""

from __future__ import annotations

from typing import Any

from engine.mobile_markets import displays, effects, market
from engine.mobile_markets.common import State, earn, plural, say
from engine.mobile_markets.data import CUSTOMERS, DISPLAY_NAMES, SHARE_BONUS, card_name


def share_bonus(sold: dict[str, int], companies: int) -> dict[str, int]:
    """Market share money by Goods sold (MM-PROF-01..03): 8/4/2, tied players share the
    sum of their places rounded down; no third place with 1-2 companies; nothing for a
    company that sold nothing."""
    places = list(SHARE_BONUS[: 2 if companies <= 2 else 3])
    ranked = sorted((n for n in set(sold.values()) if n > 0), reverse=True)
    out = dict.fromkeys(sold, 0)
    pos = 0
    for n in ranked:
        tied = [s for s, v in sold.items() if v == n]
        pot = sum(places[pos : pos + len(tied)])
        for s in tied:
            out[s] = pot // len(tied)
        pos += len(tied)
    return out


def market_share(state: State) -> None:
    sold = {s: len(state["players"][s]["sales"]) for s in state["seats"]}
    state["last_sold"] = sold
    if effects.event_effects(state, "profit", "no_share_bonus"):  # E12
        state["share"] = dict.fromkeys(state["seats"], 0)
        say(state, "No market share bonus this round.")
        return
    bonus = share_bonus(sold, len(state["seats"]))
    state["share"] = bonus
    for seat in state["order"]:
        earn(state, seat, bonus[seat], "market share")


def cheapest(state: State, seat: str, display: str) -> list[str]:
    """The equally cheapest cards of a display, Discount Tokens counting (TS5/TS6)."""
    row = state["displays"][display]["row"]
    if not row:
        return []
    costs = {c: displays.cost(state, seat, display, c) for c in row}
    low = min(costs.values())
    return [c for c in row if costs[c] == low]


def take_free(state: State, seat: str, display: str, card: str) -> None:
    displays.take(state, display, card)
    p = state["players"][seat]
    {"feature": p["features"], "marketing": p["campaigns"], "technology": p["techs"]}[display].append(card)
    say(state, f"{seat} takes {card_name(card)} from the {DISPLAY_NAMES[display]} display for free.")


def round_cards(state: State) -> None:
    """End-of-round Technology, Marketing and Feature effects (MM-PROF-04)."""
    for seat in state["order"]:
        for card, e in effects.active(state, seat, "profit", "money"):
            earn(state, seat, effects.value(state, seat, e), card_name(card))
        for _card, e in effects.active(state, seat, "profit", "progress"):
            n = effects.value(state, seat, e)
            state["players"][seat]["progress"] += n
            say(state, f"{seat} gets {plural(n, 'Progress Token')}.")
        for _card, e in effects.active(state, seat, "profit", "private_customer"):
            for _ in range(effects.value(state, seat, e)):
                cid = market.draw(state, e["deck"])
                if cid is not None:
                    state["players"][seat]["private"].append(cid)
                    say(state, f"{seat} takes a Private Customer: {market.describe(cid)}.")
        for _card, e in effects.active(state, seat, "profit", "free_card"):
            choice = cheapest(state, seat, e["display"])
            if len(choice) == 1:
                take_free(state, seat, e["display"], choice[0])
            elif choice:
                state["queue"].append({"seat": seat, "kind": "free_card", "display": e["display"]})


def free_card_prompt(state: State, item: dict[str, Any]) -> dict[str, Any] | None:
    choice = cheapest(state, item["seat"], item["display"])
    if not choice:
        return None
    return {"type": "free_card", "display": item["display"], "cards": choice}


def income(state: State) -> None:
    """Goods sold x Net Profit per Sale (MM-PROF-05)."""
    for seat in state["order"]:
        p = state["players"][seat]
        n = len(p["sales"])
        if n:
            earn(state, seat, n * p["net"], f"{plural(n, 'Good')} sold x {p['net']}")


def clean_up(state: State) -> None:
    """MM-PROF-06: sales piles to their discards, Feature cards back, tracks to 0."""
    for seat in state["seats"]:
        p = state["players"][seat]
        for cid in p["sales"]:
            market.discard(state, cid)
        p["sales"] = []
        p["product"] = None
        p["goods"] = 0
        p["net"] = 0
        p["plan"] = None
        p["outcome"] = None


def end_game(state: State) -> None:
    """MM-END-01..02, MM-SOLO-12: end-of-game cards, then the most money wins; ties go
    to the lowest Starting Technology number; Steve Jr. wins ties."""
    for seat in state["order"]:
        for card, e in effects.active(state, seat, "end", "money"):
            earn(state, seat, effects.value(state, seat, e), card_name(card))
    state["result"] = result(state)
    state["phase"] = "over"
    state["turn"] = None
    win = state["result"]["winner"]
    say(state, f"The game is over: {win} wins with {state['players'][win]['money']} money.")


def result(state: State) -> dict[str, Any]:
    def key(seat: str) -> tuple[int, int, int]:
        p = state["players"][seat]
        return (-p["money"], 0 if p["steve"] else 1, p["initiative"] or 0)

    ranking = sorted(state["seats"], key=key)
    scores = []
    for i, seat in enumerate(ranking):
        p = state["players"][seat]
        scores.append({"seat": seat, "rank": i + 1, "money": p["money"], "vp": p["money"], "steve": p["steve"]})
    return {"winner": ranking[0], "ranking": ranking, "scores": scores}


def sold_types(state: State, seat: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for cid in state["players"][seat]["sales"]:
        t = CUSTOMERS[cid]["type"]
        out[t] = out.get(t, 0) + 1
    return out
