"""Colours, letters and short words of Mobile Markets pictures (the company tokens and
cards come from the Smartphone Inc. kit: the same look in both games)."""

from __future__ import annotations

from pathlib import Path

from render import kit
from render.smartphone_inc import kit as si_kit
from render.smartphone_inc import theme as t

BG, PANEL, PANEL_EDGE, INK, MUTED, FAINT = t.BG, t.PANEL, t.PANEL_EDGE, t.INK, t.MUTED, t.FAINT
ACCENT, HEADER, HEADER_INK, GOOD, BAD = t.ACCENT, t.HEADER, t.HEADER_INK, t.GOOD, t.BAD
COMPANY_FILL, COMPANY_INK, COMPANY_LETTER = t.COMPANY_FILL, t.COMPANY_INK, t.COMPANY_LETTER

# Customer types: colour AND letter (colour-blind safe)
TYPE_FILL = {"regular": "#dfeedd", "complex": "#f6dcd6", "variety": "#d9e6f6"}
TYPE_EDGE = {"regular": "#2e7d32", "complex": "#b3261e", "variety": "#1f63c6"}
TYPE_LETTER = {"regular": "R", "complex": "C", "variety": "V"}
TYPE_WORD = {"regular": "Regular", "complex": "Complex", "variety": "Variety"}

FEATURE_SHORT = {"camera": "Cam", "5g": "5G", "nfc": "NFC", "8k": "8K", "flex": "Flex"}

# Pad symbols: colour AND word
SYMBOL_FILL = {"up": "#1e8449", "down": "#c0392b", "tech": "#7d3c98", "mkt": "#1f618d", "prod": "#4d4d4d"}
SYMBOL_WORD = {"up": "▲Up", "down": "▼Dn", "tech": "Tech", "mkt": "Mkt", "prod": "Prod"}

DISPLAY_TITLE = {"technology": "Technology", "feature": "Features", "marketing": "Marketing"}
PHASE_SHORT = ("Prep", "Plan", "Price", "Tech", "Mkt", "Prod", "Sales", "Profit")


def player_name(view: dict, seat: str) -> str:
    """Who plays a company, as the channel's texts name them (render.kit.player_name; the
    engine's own views: the seat, or Steve Jr.)."""
    return kit.player_name(view, seat, "Steve Jr." if view["players"].get(seat, {}).get("steve") else "")


def needs_text(needs: list[list[str]], stars: int) -> str:
    parts = ["/".join("+".join(FEATURE_SHORT.get(f, f) for f in alt) for alt in needs)] if needs else []
    if stars:
        parts.append(f"{stars}★")
    return " ".join(parts)


def feature_text(f: dict) -> str:
    """A Feature card by the engine's one name of it ("Feature (Multi-Camera, 1 Star)"),
    the words of the select; the short form only for a card the view names not."""
    if f.get("text"):
        return str(f["text"])
    s = "+".join(FEATURE_SHORT.get(i, i) for i in f.get("icons", [])) or "blank"
    if f.get("stars"):
        s += f" {f['stars']}★"
    if f.get("cost_icons"):
        s += " " + "$" * int(f["cost_icons"])
    return s


class Canvas(si_kit.Canvas):
    """The Smartphone Inc. canvas on the Mobile Markets palette: the colours of its
    modules and of the shared look, and text on its backgrounds and customer cards."""

    PALETTE = kit.Palette(
        [*si_kit.SI_PALETTE.flat, *kit.colours_written_in(Path(__file__).parent)],
        [
            *[(ink, back) for ink in (INK, MUTED, "#ffffff", GOOD, BAD, ACCENT, "#303030")
              for back in (PANEL, BG, FAINT, HEADER, "#f1efe9", "#e7f1e7", "#fbfaf6",
                           *TYPE_FILL.values(), *TYPE_EDGE.values(), *SYMBOL_FILL.values(), "#3c5068")],
            *si_kit.SI_PALETTE.pairs,
        ],
    )
