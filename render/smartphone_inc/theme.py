"""Colours, fonts, company markings and short labels shared by every Smartphone Inc. picture.

Sizes are in pixels of a picture :data:`WIDTH` wide (phones scale it down to fit the
screen, so nothing smaller than :data:`SMALL` is used for text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.smartphone_inc.data import SYMBOLS as SYMBOLS  # re-exported for the drawing modules
from render.kit import font as font  # re-exported for the drawing modules

WIDTH = 1200
MARGIN = 16
SMALL = 15  # the smallest text size used anywhere
BODY = 17
LARGE = 21
TITLE = 28

# --- palette ---------------------------------------------------------------------------
BG = "#f3f0e8"
PANEL = "#ffffff"
PANEL_EDGE = "#c9c2b2"
INK = "#1f2328"
MUTED = "#5d636b"
FAINT = "#e7e2d6"
ACCENT = "#d98e04"  # the current round/phase, the Office paying control
HEADER = "#263a4f"
HEADER_INK = "#ffffff"
LINK = "#8c96a8"
REGION = "#fbfaf6"
REGION_HOME = "#eef4ea"
BUYER_PRICE = "#c8412f"
BUYER_TECH = "#6b3fa0"
RETAILER = "#2d6cb5"
RETAILER_FILL = "#e3eefa"
SLOT = "#eceae3"
PAD_BOTTOM = "#e4e9ef"
PAD_TOP = "#a9bdd8"
IMPROVEMENT = "#f6e7bf"
IMPROVEMENT_EDGE = "#9a7a2e"
MINI = "#d3efe9"  # a Mini-upgrade (Update 1.1), its open half says "Mini" too
MINI_EDGE = "#1d6b5e"
GOOD = "#2e7d32"
BAD = "#b3261e"

# --- companies: colour AND letter (colour-blind safe) -----------------------------------
COMPANY_FILL = {
    "green": "#2f9e44",
    "blue": "#1f63c6",
    "black": "#2b2b2b",
    "yellow": "#f2c200",
    "red": "#d6336c",
}
COMPANY_INK = {
    "green": "#ffffff",
    "blue": "#ffffff",
    "black": "#ffffff",
    "yellow": "#1f2328",
    "red": "#ffffff",
}
COMPANY_LETTER = {"green": "G", "blue": "B", "black": "K", "yellow": "Y", "red": "R"}

# --- symbols on Pads and Improvements (the engine's names) -------------------------------

SYMBOL_FILL = {
    "down": "#c0392b",
    "up": "#1e8449",
    "prod": "#d35400",
    "improve": "#7d5a3c",
    "research": "#7d3c98",
    "logistics": "#1f618d",
}
SYMBOL_LABEL = {
    "down": "Price Down",
    "up": "Price Up",
    "prod": "Production",
    "improve": "Improve",
    "research": "Research",
    "logistics": "Logistics",
}
SYMBOL_SHORT = {
    "down": "Price-",
    "up": "Price+",
    "prod": "Prod",
    "improve": "Impr",
    "research": "Res",
    "logistics": "Log",
}

# --- technologies --------------------------------------------------------------------------
TECH_SHORT = {
    "gps": "GPS",
    "wi-fi": "Wi-Fi",
    "gamepad": "Pad",
    "nfc": "NFC",
    "li-ion": "Li-Ion",
    "4g": "4G",
}
EFFECT_SHORT = {
    "improve_gives_2_goods": "Phase 3: each Improve symbol +2 Goods",
    "produce_5": "Once: produce 5 Goods",
    "second_office": "Phase 6: +1 Office where you have one",
    "keep_unsold": "Unsold Goods are kept",
    "research_discount": "Technologies cost you 1 less",
    "small_region_office": "Once: an Office in a small region",
    "sell_3": "Phase 6: sell 0-3 Goods off the map",
    "price_up": "Price +1 now and every Phase 2",
    "price_as_logistics": "Phase 6: Price symbols count as Logistics",
    "goods_per_2_techs": "Phase 3: +1 Goods per 2 Technologies",
    "improvements_off_edge": "Phase 1: Improvements may overhang",
    "sell_without_office": "Phase 7: sell 1 where you have no Office",
    # Update 1.1: the New Technologies
    "spatial_vp": "Phase 8: +2 VP per Goods sold this round in 1 region",
    "spatial_goods": "Phase 8: 1 Goods per region you control, for next round",
    "ceo_sales": "Phase 6: sell in 1 region with your Office and CEO",
    "blitz_progress": "Phase 3: up to 2 Goods on your Pads, +1 Progress each",
    "ceo_any_buyer": "Phase 7: with Office and CEO, any free Buyer there buys",
    "patent_second_goods": "Phase 7: a 2nd Goods on Buyers of your Patents",
    "marketing_token": "Phase 5: 1 Research marker puts your Marketing Token",
    "patent_goods": "Phase 3: 2 Goods per Patent you hold (and at once)",
    "mini_upgrade": "Once: take 1 Mini-upgrade for your Pads",
    "place_retailer": "Once: place a Retailer where you have an Office",
}
PHASE_SHORT = ("Plan", "Prices", "Produce", "Improve", "Research", "Logistics", "Sell", "VP")

# A Retailer's bonus in words: the one wording of the map, the pictures of the decision
# and the bot's labels (bot/games/smartphone_inc/words.py)
BONUS_WORDS = {
    "goods": "produce {n} Goods",
    "progress": "{n} Progress on Technologies",
    "price": "price +1 or -1",
    "second_office": "a 2nd Office where you have one",
    "move_office": "move 1 of your Offices",
}


def bonus_words(bonus: Mapping[str, Any] | None) -> str:
    """What a Retailer's bonus gives: "produce 2 Goods"; "no bonus" for none."""
    kind = str((bonus or {}).get("kind", "none"))
    words = BONUS_WORDS.get(kind)
    return words.format(n=(bonus or {}).get("n", 1)) if words else "no bonus"


def bonus_text(bonus: Mapping[str, Any] | None) -> str:
    """A Retailer's bonus as the pictures label it: "bonus: produce 2 Goods", "no bonus"."""
    words = bonus_words(bonus)
    return words if words == "no bonus" else f"bonus: {words}"


def ordered(d: dict[str, Any], order: list[str]) -> list[tuple[str, Any]]:
    """Items of ``d`` in a fixed order (board order), whatever order the dict has."""
    rank = {k: i for i, k in enumerate(order)}
    return sorted(d.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))
