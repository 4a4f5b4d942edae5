"""Phase 7 Sales, in turn order: build the product, set the Net Profit per Sale, then
sell to Private Customers and the market (MM-SALE-01..12, T2, T7)."""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.jsonstate import clone
from engine.mobile_markets import effects, market, product
from engine.mobile_markets.common import State, plural, say
from engine.mobile_markets.data import FEATURES, feature_text


def token_goods_allowed(state: State, seat: str) -> bool:
    return bool(effects.active(state, seat, "sales", "tokens_to_goods"))  # T2


def prompt(state: State, seat: str) -> dict[str, Any]:
    p = state["players"][seat]
    return {
        "type": "product",
        "slots": product.slots(state, seat),
        "features": list(p["features"]),
        "goods": p["goods"],
        "price": p["price"],
        "tokens": p["progress"] if token_goods_allowed(state, seat) else 0,
    }


def parse(state: State, seat: str, action: dict[str, Any]) -> tuple[dict[str, str], int]:
    placement = product.validate(state, seat, action.get("slots"))
    tokens = action.get("tokens", 0)
    tokens = as_int(tokens, "tokens", 0, state["players"][seat]["progress"])
    require(tokens == 0 or token_goods_allowed(state, seat), "you cannot turn Progress Tokens into Goods")
    return placement, tokens


def build(state: State, seat: str, placement: dict[str, str], tokens: int) -> None:
    """Place the cards, produce the Sales-phase Goods (T7, T2) and set Net Profit."""
    p = state["players"][seat]
    built = product.evaluate(state, seat, placement)
    p["product"] = built
    if placement:
        say(state, f"{seat} builds a product with " + ", ".join(feature_text(f) for f in placement.values()) + ".")
    extra = effects.total(state, seat, "sales", "goods")  # T7
    if tokens:
        p["progress"] -= tokens
        extra += tokens
    if extra:
        p["goods"] += extra
        say(state, f"{seat} produces {extra} more Goods in Sales.")
    p["net"] = built["net"]
    icons = ", ".join(FEATURES[i] for i in built["icons"]) or "no features"
    say(state, f"{seat}'s product: {icons}, {plural(built['stars'], 'Star')}, Manufacturing Cost {built['cost']}, Net Profit per Sale {built['net']}.")


def buyers(state: State, seat: str) -> list[tuple[str, str]]:
    """(customer, 'private'|'market') in sale order, as many as the Goods allow."""
    p = state["players"][seat]
    seen = market.offer(state, seat, p["product"])
    room = p["goods"] - len(p["sales"])
    out: list[tuple[str, str]] = []
    for cid in market.private_order(p["private"]):
        if len(out) >= room:
            return out
        if market.buys(cid, seen):
            out.append((cid, "private"))
    for cid in market.sale_order(state):
        if len(out) >= room:
            return out
        if market.buys(cid, seen):
            out.append((cid, "market"))
    return out


def sell(state: State, seat: str) -> None:
    """Sell while able (MM-SALE-10..12): Private Customers first, lowest price first;
    then the market, columns 2 to 8, each from bottom to top."""
    p = state["players"][seat]
    sold = buyers(state, seat)
    for cid, where in sold:
        if where == "private":
            p["private"].remove(cid)
        else:
            state["market"][str(market.CUSTOMERS[cid]["price"])].remove(cid)
        p["sales"].append(cid)
    priv = sum(1 for _, w in sold if w == "private")
    say(state, f"{seat} sells {plural(len(sold), 'Good')} ({priv} to Private Customers), {plural(p['goods'] - len(sold), 'Good')} unsold.")


def act(state: State, seat: str, action: dict[str, Any]) -> None:
    require(action.get("type") == "product", "build your product (you may place no Feature card)")
    placement, tokens = parse(state, seat, action)
    build(state, seat, placement, tokens)
    sell(state, seat)


def preview(state: State, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """What a product would do, without doing it: Net Profit per Sale, Stars, features,
    Goods, and the Customers who would buy, in sale order (for prompts and pictures)."""
    trial = clone({k: state[k] for k in ("players", "market", "events", "seats", "steve", "customers")})
    trial["log"] = []
    placement, tokens = parse(trial, seat, action)
    build(trial, seat, placement, tokens)
    p = trial["players"][seat]
    who = buyers(trial, seat)
    return {
        "net": p["net"],
        "cost": p["product"]["cost"],
        "stars": p["product"]["stars"],
        "icons": p["product"]["icons"],
        "goods": p["goods"],
        "buyers": [{"customer": c, "where": w, "text": market.describe(c)} for c, w in who],
        "profit": p["net"] * len(who),
    }
