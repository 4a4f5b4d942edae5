"""How Mobile Markets' prompts, actions and cards read (no internal id: cards by their
printed number and title, Features and Customers by what they show)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import text
from engine.mobile_markets.data import (
    ALL_FEATURES,
    CARDS,
    CUSTOMERS,
    PHASE_TITLES,
    TYPE_NAMES,
    card_title,
    customer_text,
)

DISPLAY_NAMES = {"technology": "Technology", "feature": "Feature", "marketing": "Marketing Campaign"}


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 or word.endswith('s') else 's'}"


def card(cid: Any) -> str:
    """A card in words (a Feature by its icons, a Customer by price and needs)."""
    if not isinstance(cid, str) or cid not in CARDS and cid not in CUSTOMERS:
        return "?"
    return customer_text(cid) if cid in CUSTOMERS else card_title(cid)


def phase_title(phase: str | None) -> str:
    if phase == "over":
        return "Game over"
    return PHASE_TITLES.get(phase or "", text.words(phase or "?").capitalize())


def outcome_text(price: int, tech: int, mkt: int, goods: int) -> str:
    return f"price {price:+d}, {tech} Technology, {mkt} Marketing, {plural(goods, 'Goods')}"


def offer_text(offer: Mapping[str, Any]) -> str:
    """A card on offer with its cost after the Discount token."""
    cost = offer.get("cost", "?")
    disc = " after discount" if offer.get("discount") else ""
    return f"{card(offer.get('card'))} — cost {cost}{disc}"


def slot_name(slot: str) -> str:
    if slot in ("1", "2"):
        return f"board slot {slot}"
    if slot == "3":
        return "board slot 3 (+1 cost)"
    return f"slot on {card(slot)}"


def feature_short(fid: str) -> str:
    """A Feature card by its one name, as the pictures and every select say it."""
    return card(fid) if fid in ALL_FEATURES else "?"


def describe_prompt(prompt: Mapping[str, Any]) -> str:
    """One line for what a seat must decide now (the presenter words a seat without a prompt)."""
    kind = prompt.get("type")
    if kind == "plan":
        return "plan your Pads in secret"
    if kind == "technology":  # what to decide; the select's options carry the cards
        left = prompt.get("technology_left", 0)
        what = f"at most {plural(left, 'Technology card')} and Feature cards" if left else "Feature cards only"
        return (
            f"Technology: {plural(prompt.get('points', 0), 'Technology Point')} + {plural(prompt.get('progress', 0), 'Progress token')} "
            f"to spend on {what} (points left become Progress tokens)"
        )
    if kind == "marketing":
        if prompt.get("place"):
            return f"place {plural(prompt['place'], 'Private Customer')}"
        decks = ", ".join(f"{TYPE_NAMES.get(k, k)} {n}" for k, n in (prompt.get("decks") or {}).items())
        points = plural(prompt.get("points", 0), "Marketing Point")
        if not prompt.get("offers"):  # (a campaign bought, or none affordable): only Customers are left
            return f"Marketing: {points} left, each takes a Private Customer from the deck you choose (cards left: {decks})"
        return (
            f"Marketing: {points} left: buy at most 1 Marketing Campaign, and every point "
            f"left takes a Private Customer from the deck you choose (cards left: {decks})"
        )
    if kind == "product":
        return f"build your product and sell: price {prompt.get('price')}, {plural(prompt.get('goods', 0), 'Goods')}"
    if kind == "free_card":
        return f"take a free card from the {DISPLAY_NAMES.get(str(prompt.get('display')), 'display')} display"
    return text.describe_prompt(prompt)


def describe_action(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "plan":
        from engine.mobile_markets import pads

        try:
            o = pads.evaluate(dict(action.get("plan") or {}))
        except ValueError:
            return "a plan"
        return "plan: " + outcome_text(o["up"] - o["down"], o["tech"], o["mkt"], o["prod"] + o["covered"])
    if kind == "buy":
        return f"buy {card(action.get('card'))}"
    if kind == "customer":
        return f"take a Private Customer from the {TYPE_NAMES.get(str(action.get('deck')), '?')} deck"
    if kind == "place":
        if "customer" in action:
            return f"place {card(action.get('customer'))} in the market"
        return f"place the top {TYPE_NAMES.get(str(action.get('deck')), '?')} Customer in the market"
    if kind == "done":
        return "finish the turn"
    if kind == "free_card":
        return f"take {card(action.get('card'))} for free"
    if kind == "product":
        slots = action.get("slots") or {}
        parts = [f"{card(f)} in {slot_name(s)}" for s, f in slots.items()]  # the card's one name
        out = "sell a product with " + ("; ".join(parts) if parts else "no Feature card")
        if action.get("tokens"):
            out += f", {plural(int(action['tokens']), 'Progress token')} turned into Goods"
        return out
    return text.describe_action(dict(action))


def card_effect(cid: Any) -> str:
    """A Technology or Marketing Campaign card's effect as printed ("" for other cards)."""
    c = CARDS.get(cid) if isinstance(cid, str) else None
    if c is None or cid in CUSTOMERS or cid in ALL_FEATURES:
        return ""
    return str(c.get("text") or "")


# effects printed longer than a select's description (100 characters), said shorter
SHORTER = (
    ("if you sold 2 or more fewer Goods than you produced", "if you sold 2+ fewer Goods than you made"),
    ("(from the top of any deck, or one of your Private Customers)", "(top of any deck, or a Private Customer)"),
    ("(from the top of any deck, or your Private Customers)", "(top of any deck, or your Private Customers)"),
)


def effect_line(cid: Any) -> str:
    """The card's effect in at most 100 characters (a select option's description)."""
    words = card_effect(cid)
    for long, short in SHORTER:
        if len(words) <= 100:
            break
        words = words.replace(long, short)
    return words


# Where a card's cost comes from (MM-TECH-02, MM-MKT-01; T17): each reason said in full
# when the option has room, else short (a select's label holds 100 characters)
TOKEN_WHY = ("−1 Discount token: not bought last round", "−1 Discount token")
DEALS_WHY = ("−{n} from your Component Deals", "−{n} Component Deals")


def cost_reasons(cid: Any, offer: Mapping[str, Any], twins: Mapping[str, tuple[int, ...]] | None = None) -> list[tuple[str, str]]:
    """Why ``cid`` costs what ``offer`` says, as (in full, short) pairs: a Discount token
    (the rulebook's Preparation puts one on each card left in a display when it is
    refilled: a card nobody bought last round), the company's own Component Deals (its
    Technology: Feature cards 1 less), or, at its printed cost, a look-alike card printed
    at another cost (``twins``: a card's name -> the printed costs of the cards offered)."""
    cost = offer.get("cost")
    printed = CARDS.get(cid, {}).get("cost") if isinstance(cid, str) else None
    if not isinstance(printed, int) or not isinstance(cost, int):
        return []
    if printed == cost:
        others = sorted({p for p in (twins or {}).get(card(cid), ()) if p != printed})
        if not others:
            return []
        said = " or ".join(str(p) for p in others)
        return [(f"the other card alike is printed {said}", f"the other is printed {said}")]
    why = []
    if offer.get("discount"):
        why.append(TOKEN_WHY)
    rest = printed - cost - (1 if offer.get("discount") else 0)
    if rest > 0:
        why.append((DEALS_WHY[0].format(n=rest), DEALS_WHY[1].format(n=rest)))
    return why or [("discounted", "discounted")]


def cost_words(
    cid: Any, offer: Mapping[str, Any], twins: Mapping[str, tuple[int, ...]] | None = None, room: int = 100
) -> str:
    """"cost 1 (printed 2, −1 Discount token: not bought last round)": the cost to pay and
    where each discount comes from, in full if it fits in ``room`` characters, else short
    ("cost 1 (printed 2, −1 Discount token)"); "cost 1 (printed 1, the other card alike
    is printed 2)" for two look-alike cards printed at different costs. A Feature card
    with a long name and two discounts says "discounts below": its description says them
    (:func:`cost_line`; a Technology or Marketing card has one discount at most: its
    label holds it)."""
    cost = offer.get("cost")
    printed = CARDS.get(cid, {}).get("cost") if isinstance(cid, str) else None
    why = cost_reasons(cid, offer, twins)
    if not why:
        return f"cost {cost}"
    for said in (
        f"cost {cost} (printed {printed}, {', '.join(w[0] for w in why)})",
        f"cost {cost} (printed {printed}, {', '.join(w[1] for w in why)})",
    ):
        if len(said) <= room:
            return said
    return f"cost {cost} (printed {printed}, discounts below)"  # a Feature card's description says them


def offer_label(
    action: Mapping[str, Any], offers: Mapping[str, Mapping[str, Any]], twins: Mapping[str, tuple[int, ...]] | None = None
) -> str:
    """"buy Loyalty Program · cost 1 (printed 2, −1 Discount token: not bought last
    round)": an option of the Technology or Marketing select with the cost to pay and
    where it differs from the printed one (two Feature cards that look alike differ by
    it). Its effect is the option's description (:meth:`ViewWords.describe_detail`)."""
    cid = action.get("card")
    head = describe_action(action)
    offer = offers.get(cid) if isinstance(cid, str) else None
    if offer is not None and action.get("type") == "buy":
        head += " · " + cost_words(cid, offer, twins, 100 - len(head) - 3)
    return head


def cost_line(cid: Any, offer: Mapping[str, Any] | None, twins: Mapping[str, tuple[int, ...]] | None = None) -> str:
    """A Feature card's description (it has no effect to say): where its cost comes from,
    each reason in full ("Printed 2; −1 Discount token: not bought last round"), or ""."""
    why = cost_reasons(cid, offer, twins) if offer is not None else []
    if not why:
        return ""
    return f"Printed {CARDS[cid]['cost']}; " + "; ".join(w[0] for w in why)


class ViewWords:
    """The words of a seat's current select: each card to buy or take with its cost
    after discount and its effect (from the seat's view of its prompt)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        prompt = view.get("prompt") or {}
        self.offers = {str(o.get("card")): o for o in prompt.get("offers") or []}
        costs: dict[str, set[Any]] = {}
        printed: dict[str, set[int]] = {}
        for o in self.offers.values():
            costs.setdefault(card(o.get("card")), set()).add(o.get("cost"))
            c = CARDS.get(o.get("card"), {}).get("cost") if isinstance(o.get("card"), str) else None
            if isinstance(c, int):
                printed.setdefault(card(o.get("card")), set()).add(c)
        # look-alike cards at different costs: the printed costs of each
        self.twins = {name: tuple(sorted(printed.get(name, ()))) for name, c in costs.items() if len(c) > 1}

    def describe_action(self, action: dict[str, Any]) -> str:
        if action.get("type") in ("buy", "free_card"):
            return offer_label(action, self.offers, self.twins)
        return describe_action(action)

    def describe_detail(self, action: dict[str, Any]) -> str:
        """A select option's description: the card's effect as printed; a Feature card's
        (which has none): where its cost comes from, in full."""
        if action.get("type") in ("buy", "free_card"):
            cid = action.get("card")
            effect = effect_line(cid)
            if effect or action.get("type") != "buy":
                return effect
            offer = self.offers.get(cid)
            label = offer_label(action, self.offers, self.twins)
            why = cost_reasons(cid, offer, self.twins) if offer is not None else []
            return "" if all(full in label for full, _short in why) else cost_line(cid, offer, self.twins)
        return ""

    def describe_key(self, key: str) -> str:
        return describe_key(key)

    def describe_value(self, key: str, value: Any) -> str:
        return describe_value(key, value)


def describe_key(key: str) -> str:
    return {"card": "card", "deck": "Customer deck", "customer": "Customer", "slots": "product", "tokens": "Progress tokens"}.get(
        key, text.describe_key(key)
    )


def describe_value(key: str, value: Any) -> str:
    if key in ("card", "customer") or key.startswith("slots."):
        return card(value) if key != "customer" else card(value)
    if key == "deck":
        return TYPE_NAMES.get(str(value), str(value))
    if key == "difficulty":
        return str(value)
    return text.describe_value(key, value)
