"""Setting up the game (MM-SET-01..05, MM-SOLO-01..02) and Phase 1 Preparation
(MM-PREP-01..08)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.mobile_markets import displays, events, market, steve_jr
from engine.mobile_markets.common import State, say
from engine.mobile_markets.data import (
    CAMPAIGNS,
    COMPANIES,
    CUSTOMER_TYPES,
    CUSTOMERS,
    EVENTS,
    EVENTS_IN_GAME,
    FEATURE_CARDS,
    SETUP,
    SPOTS,
    START_PRICE,
    STARTING_FEATURES,
    STARTING_TECHS,
    TECHS,
    order_key,
)
from engine.rng import Rng, initial_state
from engine.standard import check_companies, options_and_automaton

SCHEMA = 1
RULES = 1
KNOWN_OPTIONS = {"automata", "difficulty"}
DIFFICULTY = {"easy": 0, "medium": 1, "hard": 2}


def normalize_options(seats: list[str], options: dict[str, Any] | None) -> dict[str, Any]:
    options, automata = options_and_automaton(seats, options, KNOWN_OPTIONS, "Steve Jr.")
    if automata and len(seats) == len(automata):
        raise IllegalAction("Steve Jr. needs at least one human company to play against")
    difficulty = options.get("difficulty", "easy")
    if difficulty not in DIFFICULTY:
        raise IllegalAction("difficulty is easy, medium or hard")
    return {"automata": list(automata), "difficulty": difficulty}


def setup(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    check_companies(players, seed, 4, "Mobile Markets")
    opts = normalize_options(players, options)
    rng = Rng(initial_state(seed))
    n = len(players)

    # MM-SET-02: 5 random Events form the deck, the rest go back to the box
    events = rng.shuffle(sorted(EVENTS, key=order_key))
    # MM-SET-03: three Customer decks shuffled separately, each with its discard pile
    customers = {
        kind: {"deck": rng.shuffle(sorted((c for c in CUSTOMERS if CUSTOMERS[c]["type"] == kind), key=order_key)), "discard": []}
        for kind in CUSTOMER_TYPES
    }
    # MM-SET-04: Technology, Feature and Marketing decks; 4 / 6 / 4 revealed
    decks = {
        "technology": rng.shuffle(sorted(TECHS, key=order_key)),
        "feature": rng.shuffle(sorted(FEATURE_CARDS, key=order_key)),
        "marketing": rng.shuffle(sorted(CAMPAIGNS, key=order_key)),
    }
    start_techs = rng.shuffle(sorted(STARTING_TECHS, key=order_key))
    start_feats = rng.shuffle(sorted(STARTING_FEATURES, key=order_key))
    state: State = {
        "schema": SCHEMA,
        "rules": RULES,
        "game": "mobile-markets",
        "seed": seed,
        "version": 0,
        "options": opts,
        "seats": list(players),
        "round": 0,
        "phase": "preparation",
        "order": list(players),
        "track": {str(p): [] for p in range(2, 9)},
        "customers": customers,
        "market": {col: [] for col in market.COLUMNS},
        "events": {"deck": events[:EVENTS_IN_GAME], "revealed": [], "box": sorted(events[EVENTS_IN_GAME:], key=order_key)},
        "displays": {d: {"deck": decks[d], "row": [], "discard": []} for d in decks},
        "discounts": [],
        "box": [],
        "players": {},
        "turn": None,
        "queue": [],
        "steve": None,
        "share": {},
        "last_sold": {},
        "log": [],
        "result": None,
        "rng": rng.state,
    }
    for d in decks:
        displays.refill(state, d)
    # MM-SET-05 / MM-SOLO-01: each company (not Steve Jr.) gets a random Starting
    # Technology and Starting Feature; the rest go back to the box
    for i, seat in enumerate(players):
        colour, company = COMPANIES[i]
        steve = seat in opts["automata"]
        tech = None if steve else start_techs.pop(0)
        feat = None if steve else start_feats.pop(0)
        state["players"][seat] = {
            "colour": colour,
            "company": company,
            "steve": steve,
            "start": tech,
            "initiative": STARTING_TECHS[tech]["initiative"] if tech else None,
            "money": 0,
            "gains": [],
            "progress": 0,
            "techs": [tech] if tech else [],
            "features": [feat] if feat else [],
            "campaigns": [],
            "private": [],
            "sales": [],
            "plan": None,
            "outcome": None,
            "price": START_PRICE,
            "goods": 0,
            "net": 0,
            "product": None,
        }
    state["box"] = sorted(start_techs + start_feats, key=order_key)
    if opts["automata"]:
        rng = Rng(state["rng"])
        steve_jr.setup(state, opts["automata"][0], DIFFICULTY[opts["difficulty"]], rng)
        state["rng"] = rng.state
    say(state, f"Mobile Markets for {n} compan{'y' if n == 1 else 'ies'}: 5 rounds.")
    return state


def setup_section(state: State) -> dict[str, int]:
    """The Setup Card section for the number of companies (MM-SET-01, MM-SOLO-01:
    Steve Jr. makes the solo game a 2-player game)."""
    return SETUP[str(len(state["seats"]))]


# --- Phase 1 ------------------------------------------------------------------------------


def initiative_order(state: State) -> list[str]:
    """MM-PREP-02/03, MM-SOLO-03: round 1 by Starting Technology Initiative (lowest
    first); later rounds least money first, ties to the lowest Starting Technology
    number. Steve Jr. has no Starting Technology and wins every initiative tie."""

    def key(seat: str) -> tuple[int, int, int]:
        p = state["players"][seat]
        money = p["money"] if state["round"] > 1 else 0
        return (money, 0 if p["steve"] else 1, p["initiative"] or 0)

    return sorted(state["seats"], key=key)


def reset_price_markers(state: State) -> None:
    """Step 1 (MM-PREP-01): every Price Marker back to the 5 space, in turn order."""
    order = initiative_order(state)
    state["track"] = {col: [] for col in state["track"]}
    state["track"][str(START_PRICE)] = list(order)[:SPOTS]
    for seat in state["seats"]:
        state["players"][seat]["price"] = START_PRICE
    state["order"] = order
    say(state, "Turn order: " + ", ".join(order) + ".")


def customers_to_add(state: State) -> dict[str, int]:
    """Step 4 (MM-PREP-06): the Setup Card + the icons of every revealed Event."""
    counts = dict(setup_section(state))
    counts.pop("source", None)
    for kind, n in events.customer_icons(state).items():
        counts[kind] += n
    return counts


def reveal_event(state: State) -> None:
    """Step 2 (MM-PREP-04): the next Event; its text overrides the rules this round."""
    ev = state["events"]["deck"].pop(0)
    state["events"]["revealed"].append(ev)
    say(state, f"Event {ev} {EVENTS[ev]['name']}: {EVENTS[ev]['text']}")
    if events.event_effects(state, "preparation", "discard_market"):  # E13
        n = market.clear_market(state)
        say(state, f"{n} Customers left on the market are discarded.")
    progress = events.event_value(state, "preparation", "progress")
    if progress:
        for seat in state["seats"]:
            if not state["players"][seat]["steve"]:
                state["players"][seat]["progress"] += progress
        say(state, f"Every company gets {progress} Progress Token{'s' if progress > 1 else ''}.")


def prepare(state: State) -> None:
    """Phase 1 of a new round, all automatic."""
    state["round"] += 1
    state["phase"] = "preparation"
    say(state, f"Round {state['round']}: Phase 1, Preparation.")
    reset_price_markers(state)
    reveal_event(state)
    if state["round"] > 1:  # step 3 is skipped in round 1 (MM-PREP-05)
        displays.refresh(state)
    else:
        for d in state["displays"]:
            displays.refill(state, d)  # E1/E2 in round 1: 7 cards
    market.add_customers(state, customers_to_add(state))
