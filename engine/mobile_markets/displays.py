"""The Technology, Feature and Marketing Campaign displays (MM-SET-04, MM-PREP-05,
MM-TECH-02, MM-MKT-01): drawing, the Preparation refresh, Discount tokens and costs."""

from __future__ import annotations

from engine.mobile_markets import effects, events
from engine.mobile_markets.common import State, draw_from
from engine.mobile_markets.data import DECK_OF, DISPLAY_NAMES, DISPLAY_SIZE, DISPLAYS


def size(state: State, display: str) -> int:
    """How many cards the display is refilled to (E1/E2: 7 this round)."""
    return events.display_event(state, "preparation", "display_size", display, DISPLAY_SIZE[display])


def turn_points(state: State, seat: str, phase: str, cells: str, effect: str) -> int:
    """The Points of a buying turn (Technology, Marketing): the visible cells of the
    phase's symbol + card effects (T15/T22)."""
    return state["players"][seat]["outcome"][cells] + effects.total(state, seat, phase, effect)


def card_limit(state: State, display: str) -> int:
    """1 card a turn from the phase's display (Technology, Marketing); E1/E2: 2."""
    return events.display_event(state, display, "card_limit", display, 1)


def draw(state: State, display: str) -> str | None:
    """The top card of a display's deck; an empty deck is rebuilt from that display's
    discard pile (DATA.md). None when both are empty."""
    return draw_from(state, state["displays"][display], DISPLAY_NAMES[display])


def refill(state: State, display: str) -> list[str]:
    row = state["displays"][display]["row"]
    drawn = []
    while len(row) < size(state, display):
        card = draw(state, display)
        if card is None:
            break
        row.append(card)
        drawn.append(card)
    return drawn


def refresh(state: State) -> None:
    """Preparation step 3 from round 2 (MM-PREP-05): discard the cards with a Discount
    Token and those costing 1, put a Discount Token on every card left, refill."""
    for display in DISPLAYS:
        d = state["displays"][display]
        keep = []
        for card in d["row"]:
            if card in state["discounts"] or DECK_OF[display][card]["cost"] == 1:
                d["discard"].append(card)
                if card in state["discounts"]:
                    state["discounts"].remove(card)
            else:
                keep.append(card)
        d["row"] = keep
        for card in keep:
            state["discounts"].append(card)
        refill(state, display)


def discard_card(state: State, display: str, card: str) -> None:
    """Take a card off a display to its discard pile (Steve Jr.)."""
    state["displays"][display]["row"].remove(card)
    state["displays"][display]["discard"].append(card)
    if card in state["discounts"]:
        state["discounts"].remove(card)


def take(state: State, display: str, card: str) -> None:
    """Take a card off a display (bought); its Discount Token goes back to the pile."""
    state["displays"][display]["row"].remove(card)
    if card in state["discounts"]:
        state["discounts"].remove(card)


def feature_discount(state: State, seat: str | None) -> int:
    return effects.total(state, seat, "technology", "feature_discount") if seat is not None else 0


def cost(state: State, seat: str | None, display: str, card: str, off: int | None = None) -> int:
    """A card's cost now: printed, 1 less with a Discount Token (MM-TECH-02, MM-MKT-01);
    Feature cards also less by the company's Feature discounts (T17), never below 1.
    ``off`` is that Feature discount when the caller has it already."""
    c = DECK_OF[display][card]["cost"] - (1 if card in state["discounts"] else 0)
    if display == "feature":
        if off is None:
            off = feature_discount(state, seat)
        if off and c >= 1:
            c = max(1, c - off)
    return max(0, c)
