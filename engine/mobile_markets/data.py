"""Component data of Mobile Markets, loaded from ``data/*.json`` and validated at import.

Every item carries ``source: rulebook | reconstructed``; DATA.md lists what was
reconstructed and why. Modules read the constants below, never the files.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from engine.jsonstate import game_data

PHASES = ("preparation", "planning", "pricing", "technology", "marketing", "production", "sales", "profit")
PHASE_TITLES = {
    "preparation": "Preparation",
    "planning": "Planning",
    "pricing": "Pricing",
    "technology": "Technology",
    "marketing": "Marketing",
    "production": "Production",
    "sales": "Sales",
    "profit": "Profit",
}
CUSTOMER_TYPES = ("variety", "regular", "complex")
TYPE_NAMES = {"variety": "Variety-seeking", "regular": "Regular", "complex": "Complex"}
DISPLAYS = ("technology", "feature", "marketing")
DISPLAY_NAMES = {"technology": "Technology", "feature": "Feature", "marketing": "Marketing Campaign"}
COMPANIES = (  # colour, company (MM-SET-01)
    ("blue", "Atlantis"),
    ("yellow", "Sun Tech"),
    ("red", "Redberry"),
    ("black", "Shooting Star"),
)
SYMBOLS = ("up", "down", "tech", "mkt", "prod")


_load = partial(game_data, "engine.mobile_markets")


_cust = _load("customers.json")
_setup = _load("setup.json")
_events = _load("events.json")
_tech = _load("technologies.json")
_feat = _load("features.json")
_mkt = _load("marketing.json")
_sj = _load("steve_jr.json")
_pads = _load("pads.json")

FEATURES: dict[str, str] = dict(_cust["features"])  # icon -> name
CUSTOMERS: dict[str, dict[str, Any]] = {c["id"]: c for c in _cust["customers"]}
SETUP: dict[str, dict[str, int]] = {k: v for k, v in _setup["sections"].items()}
PRICE_LOW, PRICE_HIGH = _setup["price_track"]["low"], _setup["price_track"]["high"]
START_PRICE = _setup["price_track"]["start"]
SPOTS = _setup["price_track"]["spots"]
DISPLAY_SIZE: dict[str, int] = {k: _setup["displays"][k] for k in DISPLAYS}
SHARE_BONUS: list[int] = list(_setup["market_share"]["places"])
BASE_COST = _setup["base_cost"]["cost"]
THIRD_SLOT_COST = _setup["base_cost"]["third_slot"]
BOARD_SLOTS = _setup["base_cost"]["board_slots"]
ROUNDS = _setup["rounds"]["rounds"]
EVENTS_IN_GAME = _setup["rounds"]["events"]
EVENTS: dict[str, dict[str, Any]] = {e["id"]: e for e in _events["events"]}
TECHS: dict[str, dict[str, Any]] = {t["id"]: t for t in _tech["technologies"]}
STARTING_TECHS: dict[str, dict[str, Any]] = {t["id"]: t for t in _tech["starting"]}
FEATURE_CARDS: dict[str, dict[str, Any]] = {f["id"]: f for f in _feat["features"]}
STARTING_FEATURES: dict[str, dict[str, Any]] = {f["id"]: f for f in _feat["starting"]}
CAMPAIGNS: dict[str, dict[str, Any]] = {m["id"]: m for m in _mkt["campaigns"]}
STEVE_CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in _sj["cards"]}
PADS: dict[str, list[list[list[str]]]] = {p["id"]: p["sides"] for p in _pads["pads"]}

ALL_TECHS = {**TECHS, **STARTING_TECHS}
ALL_FEATURES = {**FEATURE_CARDS, **STARTING_FEATURES}
# every card by its id (customers, events, technologies, features, campaigns, Steve Jr.)
CARDS: dict[str, dict[str, Any]] = {**CUSTOMERS, **EVENTS, **ALL_TECHS, **ALL_FEATURES, **CAMPAIGNS, **STEVE_CARDS}
DECK_OF = {"technology": TECHS, "feature": FEATURE_CARDS, "marketing": CAMPAIGNS}


def order_key(card_id: str) -> tuple[str, int]:
    """Sort ids by prefix then number (T2 before T10)."""
    head = card_id.rstrip("0123456789")
    return head, int(card_id[len(head) :])


def card_name(card_id: str) -> str:
    """The player-facing name of a card (printed identifier and title)."""
    c = CARDS[card_id]
    if card_id in CUSTOMERS:
        return customer_text(card_id)
    if card_id in ALL_FEATURES:
        return feature_text(card_id)
    if card_id in STEVE_CARDS:
        return f"Steve Jr. card ({c['text']})"
    return f"{card_id} {c['name']}"


def card_title(card_id: str) -> str:
    """A card as players read it: its title alone ("Lean Manufacturing"), Features and
    Customers by what they show. ``card_name`` (printed number and title) stays the log's
    wording, so that old games replay to the same bytes; :func:`plain_line` reads it."""
    c = CARDS[card_id]
    if card_id in CUSTOMERS or card_id in ALL_FEATURES or card_id in STEVE_CARDS:
        return card_name(card_id)
    return str(c["name"])


_NUMBERED = re.compile(r"\b((?:TS|T|M|E)\d{1,2}) ")


def plain_line(line: str) -> str:
    """A log line without the printed card numbers: "ann buys T19 Lean Manufacturing for
    3." -> "ann buys Lean Manufacturing for 3."; "Event E15 Supply Chain Boost: …" ->
    "Event Supply Chain Boost: …" (only a number followed by its own card's title)."""

    def drop(m: re.Match[str]) -> str:
        c = CARDS.get(m.group(1))
        name = c.get("name") if c else None
        return "" if name and line.startswith(str(name), m.end()) else m.group(0)

    return _NUMBERED.sub(drop, line)


def needs_text(needs: list[list[str]], stars: int) -> str:
    parts = [" + ".join(FEATURES[f] for f in alt) for alt in needs]
    text = " / ".join(parts)
    if stars:
        text = (text + " + " if text else "") + f"{stars} Star{'s' if stars > 1 else ''}"
    return text


def customer_text(cid: str) -> str:
    c = CUSTOMERS[cid]
    need = needs_text(c["needs"], c["stars"])
    return f"{TYPE_NAMES[c['type']]} Customer ({c['price']}{', ' + need if need else ''})"


def feature_text(fid: str) -> str:
    f = ALL_FEATURES[fid]
    bits = [FEATURES[i] for i in f["icons"]]
    if f["stars"]:
        bits.append(f"{f['stars']} Star{'s' if f['stars'] > 1 else ''}")
    if f["cost_icons"]:
        bits.append(f"{f['cost_icons']} cost icon{'s' if f['cost_icons'] > 1 else ''}")
    label = "Starting Feature" if fid in STARTING_FEATURES else "Feature"
    return f"{label} ({', '.join(bits) or 'blank'})"  # Feature cards carry no printed number


# --- validation -----------------------------------------------------------------------

EFFECT_AT = {"preparation", "pricing", "technology", "marketing", "production", "after_production", "sales", "profit", "end"}


def _check() -> None:
    def fail(msg: str) -> None:
        raise ValueError(f"Mobile Markets data: {msg}")

    for group in (CUSTOMERS, EVENTS, ALL_TECHS, ALL_FEATURES, CAMPAIGNS, STEVE_CARDS):
        for cid, c in group.items():
            if c.get("source") not in ("rulebook", "reconstructed"):
                fail(f"{cid} has no source")
    for kind in CUSTOMER_TYPES:
        cards = [c for c in CUSTOMERS.values() if c["type"] == kind]
        if len(cards) != 36:
            fail(f"{len(cards)} {kind} customers, not 36")
        for c in cards:
            if not PRICE_LOW <= c["price"] <= PRICE_HIGH:
                fail(f"{c['id']} price {c['price']}")
            if (kind == "regular") != (not c["needs"] and not c["stars"]):
                fail(f"{c['id']}: only Regular Customers have no needs")
            for alt in c["needs"]:
                if not alt or any(f not in FEATURES for f in alt):
                    fail(f"{c['id']} needs {alt}")
    counts = {
        "events": (len(EVENTS), 15),
        "technologies": (len(TECHS), 30),
        "starting technologies": (len(STARTING_TECHS), 6),
        "features": (len(FEATURE_CARDS), 30),
        "starting features": (len(STARTING_FEATURES), 5),
        "campaigns": (len(CAMPAIGNS), 30),
        "Steve Jr. cards": (len(STEVE_CARDS), 16),
    }
    for what, (have, want) in counts.items():
        if have != want:
            fail(f"{have} {what}, not {want}")
    if sorted(SETUP) != ["1", "2", "3", "4"]:
        fail("the Setup Card has sections for 1-4 companies")
    for card in [*ALL_TECHS.values(), *CAMPAIGNS.values(), *EVENTS.values(), *ALL_FEATURES.values()]:
        for e in card.get("effects", []):
            if e["at"] not in EFFECT_AT:
                fail(f"{card['id']}: effect time {e['at']}")
    for pad, sides in PADS.items():
        if len(sides) != 2 or any(len(side) != 5 for side in sides):
            fail(f"Pad {pad} must have 2 sides of 5 cells")
        for side in sides:
            for cell in side:
                if not 1 <= len(cell) <= 2 or any(s not in SYMBOLS for s in cell):
                    fail(f"Pad {pad}: a cell holds one or two symbols")
    for ts in STARTING_TECHS.values():
        if ts["initiative"] != int(ts["id"][2:]):
            fail(f"{ts['id']} initiative")


_check()
