"""The Mobile Markets engine behind the common protocol (see engine/__init__.py)."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import IllegalAction
from engine.jsonstate import clone
from engine.mobile_markets import actions as mm_actions
from engine.mobile_markets import (
    displays,
    flow,
    greedy,
    legal,
    market,
    pads,
    planning,
    preparation,
    product,
    sales,
    steve_jr,
    undo,
)
from engine.mobile_markets.common import State, copy_state
from engine.mobile_markets.data import (
    ALL_FEATURES,
    ALL_TECHS,
    CAMPAIGNS,
    CUSTOMERS,
    DECK_OF,
    EVENTS,
    FEATURES,
    PHASE_TITLES,
    PHASES,
    ROUNDS,
    TYPE_NAMES,
    card_name,
    card_title,
    customer_text,
    plain_line,
)
from engine.mobile_markets.preview import preview_from_view
from engine.standard import StateRecord


class MobileMarkets(StateRecord):
    name = "mobile-markets"
    min_players = 1
    max_players = 4
    player_range = (min_players, max_players)  # what engine.simulate cycles through
    flow, actions, undo, legal, greedy = flow, mm_actions, undo, legal, greedy

    # --- protocol -----------------------------------------------------------------------
    def setup(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
        state = preparation.setup(players, seed, options)
        flow.run(state)
        return state

    def _not_deciding(self, state: State, seat: str) -> str:
        if state["players"][seat]["steve"]:
            return "Steve Jr. decides by his own cards"
        return super()._not_deciding(state, seat)

    def _fresh(self, state: State) -> State:
        return copy_state(state)

    def random_action(self, state: State, seat: str, rng: Any) -> dict[str, Any]:
        """A random legal action without listing every product."""
        prompt = self.prompt(state, seat)
        if prompt["type"] == "plan":
            return {"type": "plan", "plan": dict(rng.choice(pads.arrangements()))}
        if prompt["type"] == "product":
            hand = list(prompt["features"])
            free = list(prompt["slots"])
            k = rng.below(min(len(hand), len(free)) + 1)
            cards = rng.shuffle(hand)[:k]
            where = rng.shuffle(free)[:k]
            action: dict[str, Any] = {"type": "product", "slots": dict(zip(where, cards, strict=True))}
            if prompt["tokens"]:
                action["tokens"] = rng.below(prompt["tokens"] + 1)
            return action
        return rng.choice(legal.enumerate_actions(state, seat, prompt))

    def preview(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any]:
        """Net profit per sale and buyers of a product action, without playing it."""
        prompt = flow.pending(state).get(seat)
        if prompt is None or prompt["type"] != "product":
            raise IllegalAction("you are not building a product now")
        return sales.preview(state, seat, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return make_view(state, seat)

    def events(self, state: State) -> list[str]:
        """The last action's log lines as players read them (cards by title, no number)."""
        return [plain_line(line) for line in state["log"]]

    def load(self, text: str) -> State:
        state = json.loads(text)
        if (
            not isinstance(state, dict)
            or state.get("game") != self.name
            or state.get("schema") != preparation.SCHEMA
            or state.get("rules") != preparation.RULES
        ):
            raise ValueError("not a Mobile Markets state of this version")
        return state


# --- views ---------------------------------------------------------------------------


def customer_view(cid: str) -> dict[str, Any]:
    c = CUSTOMERS[cid]
    return {
        "id": cid,
        "type": c["type"],
        "type_name": TYPE_NAMES[c["type"]],
        "price": c["price"],
        "needs": c["needs"],
        "stars": c["stars"],
        "text": customer_text(cid),
    }


def feature_view(fid: str) -> dict[str, Any]:
    f = ALL_FEATURES[fid]
    return {
        "id": fid,
        "cost": f["cost"],
        "icons": f["icons"],
        "names": [FEATURES[i] for i in f["icons"]],
        "stars": f["stars"],
        "cost_icons": f["cost_icons"],
        "text": card_name(fid),
    }


def card_view(card: str) -> dict[str, Any]:
    if card in ALL_FEATURES:
        return feature_view(card)
    c = ALL_TECHS.get(card) or CAMPAIGNS[card]
    out = {"id": card, "name": c["name"], "cost": c["cost"], "phase": c["phase"], "text": c["text"], "label": card_title(card)}
    if card in ALL_TECHS:
        out["stars"] = c["stars"]
        if c.get("slot"):
            out["slot"] = c["slot"]
    return out


def display_view(state: State, display: str, seat: str | None) -> dict[str, Any]:
    d = state["displays"][display]
    cards = []
    for card in d["row"]:
        v = card_view(card)
        v["discount"] = card in state["discounts"]
        v["cost_now"] = displays.cost(state, seat if seat in state["players"] else None, display, card)
        cards.append(v)
    return {"cards": cards, "deck": len(d["deck"]), "discard": len(d["discard"])}


def player_view(state: State, seat: str, viewer: str | None) -> dict[str, Any]:
    p = state["players"][seat]
    spot = None
    for col, seats in state["track"].items():
        if seat in seats:
            spot = [int(col), seats.index(seat)]
    hidden_plan = state["phase"] == "planning" and seat != viewer
    return {
        "colour": p["colour"],
        "company": p["company"],
        "steve": p["steve"],
        "start": p["start"],
        "initiative": p["initiative"],
        "money": p["money"],
        "price": p["price"],
        "spot": spot,
        "progress": p["progress"],
        "techs": [card_view(t) for t in p["techs"]],
        "features": [feature_view(f) for f in p["features"]],
        "campaigns": [card_view(m) for m in p["campaigns"]],
        "private": [customer_view(c) for c in market.private_order(p["private"])],
        "sales": [customer_view(c) for c in p["sales"]],
        "goods": p["goods"],
        "net": p["net"],
        "product": clone(p["product"]),
        "slots": product.slots(state, seat) if not p["steve"] else [],
        "sealed": p["steve"] or p["plan"] is not None,
        "plan": None if hidden_plan else clone(p["plan"]),
        "outcome": None if hidden_plan else clone(p["outcome"]),
    }


def slot_label(slot: str) -> str:
    if slot in ALL_TECHS:
        extra = {"free": ", ignores the card's cost icons", "double": ", double Stars"}.get(ALL_TECHS[slot].get("slot"), "")
        return f"Slot on {card_title(slot)}{extra}"
    return f"Board slot {slot}" + (" (+1 cost)" if slot == product.THIRD else "")


def make_view(state: State, seat: str | None) -> dict[str, Any]:
    """What ``seat`` may see (None: the public table). Hidden: the other companies'
    sealed plans before the reveal, the order of every deck (Customers, Events,
    displays, Steve Jr.), the cards returned to the box, the generator and the seed."""
    if seat is not None and seat not in state["players"]:
        raise IllegalAction(f"{seat!r} has no seat in this game")
    phase = state["phase"]
    pend = flow.pending(state)
    revealed = state["events"]["revealed"]
    view: dict[str, Any] = {
        "game": "mobile-markets",
        "version": state["version"],
        "round": state["round"],
        "rounds": ROUNDS,
        "phase": phase,
        "phase_title": PHASE_TITLES.get(phase, "Game over"),
        "phase_number": PHASES.index(phase) + 1 if phase in PHASES else None,
        "over": phase == "over",
        "seats": list(state["seats"]),
        "order": list(state["order"]),
        "track": clone(state["track"]),
        "market": {col: [customer_view(c) for c in state["market"][col]] for col in market.COLUMNS},
        "customers": {k: {"deck": len(v["deck"]), "discard": len(v["discard"])} for k, v in state["customers"].items()},
        "displays": {d: display_view(state, d, seat) for d in DECK_OF},
        "events": {
            "revealed": [
                {"id": e, "name": EVENTS[e]["name"], "text": EVENTS[e]["text"], "customers": EVENTS[e]["customers"], "goods": EVENTS[e]["goods"]}
                for e in revealed
            ],
            "current": revealed[-1] if revealed else None,
            "deck": len(state["events"]["deck"]),
        },
        "players": {s: player_view(state, s, seat) for s in state["seats"]},
        "share": dict(state["share"]),  # market share money of the last Profit phase
        "last_sold": dict(state["last_sold"]),  # Goods sold in the last Sales phase
        "steve": steve_jr.view(state),
        "options": clone(state["options"]),
        "pending": sorted(pend),
        "result": clone(state["result"]),
        "you": seat,
    }
    if seat is not None:
        prompt = clone(pend.get(seat))
        view["prompt"] = prompt
        me = state["players"][seat]
        if me["plan"] is not None and not me["steve"]:
            view["my_plan_outcome"] = pads.evaluate(me["plan"])
        if prompt is not None and prompt["type"] == "plan":
            prompt.update(planning.pad_layout())
        if prompt is not None and prompt["type"] == "marketing":
            prompt["deck_names"] = {k: TYPE_NAMES[k] for k in prompt["decks"]}
            prompt["private_customers"] = [customer_view(c) for c in prompt["private"]]
        if prompt is not None and prompt["type"] == "free_card":
            prompt["labels"] = {c: card_title(c) for c in prompt["cards"]}
        if prompt is not None and prompt["type"] == "product":
            prompt["slot_labels"] = {slot: slot_label(slot) for slot in prompt["slots"]}
        if prompt is not None and prompt["type"] == "product":
            # what the product would do with nothing placed, and with each card alone
            prompt["preview"] = sales.preview(state, seat, {"type": "product", "slots": {}})
            prompt["feature_cards"] = [feature_view(f) for f in prompt["features"]]
        if prompt is not None and prompt["type"] in ("technology", "marketing"):
            for o in prompt["offers"]:
                o["label"] = f"{card_title(o['card'])} (cost {o['cost']}{', discounted' if o['discount'] else ''})"
    return view


GAME = MobileMarkets()

__all__ = ["GAME", "MobileMarkets", "preview_from_view"]

