"""How Smartphone Inc.'s choices are labelled: Improvements, Technologies, regions and
Pad symbols by their names, prompts and actions in words, what a plan yields."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot import text
from engine.smartphone_inc.data import IMPROVEMENTS, PHASE_TITLES, REGIONS, TECHS, improvement_name
from engine.smartphone_inc.data import SYMBOL_NAMES as SYMBOL_NAMES

# the names of the phases, the symbols and the Improvements are the engine's (the
# rulebook's): its log lines and these labels say the same

SYMBOL_SHORT = {
    "down": "▼price",
    "up": "▲price",
    "prod": "prod",
    "improve": "improve",
    "research": "research",
    "logistics": "logistics",
}


def phase_title(phase: str | None) -> str:
    if not phase:
        return "?"
    return PHASE_TITLES.get(phase, phase.replace("_", " ").title())


def region_name(rid: str) -> str:
    return str(REGIONS[rid]["name"]) if rid in REGIONS else rid


def tech_name(tid: str) -> str:
    return str(TECHS[tid]["name"]) if tid in TECHS else tid


def tech_side_name(tid: str, side: int) -> str:
    """A Technology with the side in play, as the board picture says it: "GPS face up"
    (the printed starting side), "GPS face down"; a New Technology of the Update 1.1 by
    its own name."""
    if tid in TECHS and 0 <= side < len(TECHS[tid]["sides"]) and "name" in TECHS[tid]["sides"][side]:
        return str(TECHS[tid]["sides"][side]["name"])
    return f"{tech_name(tid)} {'face up' if side == 0 else 'face down'}"


def improvement_label(imp: str) -> str:
    """An Improvement by what it shows, in the engine's words (its log lines name them
    the same way): "Improvement (Price Up + Logistics)", "Mini-upgrade (Research)"."""
    return improvement_name(imp)


def describe_action(action: Mapping[str, Any]) -> str:
    """A short label for an engine action (falls back to compact JSON)."""
    kind = action.get("type")
    try:
        if kind == "improvement" and "id" in action:
            return f"Take {improvement_label(action['id'])}"
        if kind == "research":
            place = action.get("place") or {}
            if not place:
                return "Stop researching (unspent markers are lost)"
            return "Research " + ", ".join(f"{tech_name(t)} +{n}" for t, n in place.items())
        if kind == "logistics":
            place = action.get("place") or []
            if not place:
                return "Stop here (the markers left are lost)"
            return "Markers: " + ", ".join(f"{region_name(r)} {n}" for r, n in place)
        if kind == "sell":
            parts = [f"{region_name(r)} {n}" for r, n in (action.get("regions") or {}).items() if n]
            parts += [f"{region_name(r)} {n} (4G)" for r, n in (action.get("extra") or {}).items() if n]
            return "Sell: " + (", ".join(parts) if parts else "nothing")
        if kind == "retailer_bonus" or "use" in action:
            if action.get("use") is False:
                return "Decline the bonus"
            bits = []
            if "delta" in action:
                bits.append(f"price {int(action['delta']):+d}")
            if "region" in action:
                bits.append(f"second Office in {region_name(action['region'])}")
            if "from" in action:
                bits.append(f"move Office {region_name(action['from'])} → {region_name(action['to'])}")
            if "place" in action:
                bits.append(", ".join(f"{tech_name(t)} +{n}" for t, n in action["place"].items()))
            return "Use the bonus" + (": " + "; ".join(bits) if bits else "")
        if kind in ("wifi", "second_office") and "region" in action:
            return f"Second Office in {region_name(action['region'])}"
        if kind == "nfc" and "n" in action:
            return f"Sell {action['n']} Goods with NFC"
    except (TypeError, ValueError, KeyError, AttributeError):
        pass
    return plain_action(action)


def plain_words(key: str) -> str:
    """An engine key in words, Technologies by their names: "gamepad_office" ->
    "Gamepad office" (what a decision without words of its own is called)."""
    out = text.words(key)
    for tid in TECHS:
        out = re.sub(rf"\b{re.escape(text.words(tid))}\b", tech_name(tid), out)
    return out[:1].upper() + out[1:]


def plain_action(action: Mapping[str, Any]) -> str:
    """Any action in words, its values named (Improvements, regions, Technologies):
    "Mini upgrade: Mini-upgrade (Research)"; never an id."""
    if not isinstance(action, Mapping):
        return text.describe_action(action)
    head = plain_words(action["type"]) if isinstance(action.get("type"), str) else ""
    rest = [
        describe_value(k, v) if k in ("id", "region", "tech") else f"{describe_key(k)} {describe_value(k, v)}"
        for k, v in action.items()
        if k != "type"
    ]
    if head and rest:
        return f"{head}: " + ", ".join(rest)
    return head or ", ".join(rest) or "pass"


def describe_value(key: str, value: Any) -> str:
    """A label for one step of a step-by-step action (``key`` is a dotted path)."""
    if isinstance(value, str):
        for fn in (region_name, tech_name):
            name = fn(value)
            if name != value:
                return name
        if value in IMPROVEMENTS:
            return improvement_label(value)
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return str(value)
    return text.describe_value(key, value)


KEY_WORDS = {"place": "markers on", "regions": "Goods sold in", "extra": "4G Goods in", "use": "use the bonus"}


def describe_key(key: str) -> str:
    parts = [p for p in key.split(".") if p]
    if len(parts) >= 2 and parts[0] in KEY_WORDS and not parts[1].isdigit():
        return f"{KEY_WORDS[parts[0]]} {describe_key('.'.join(parts[1:]))}"
    if parts and parts[0] in KEY_WORDS and len(parts) == 1:
        return KEY_WORDS[parts[0]]
    words = []
    for p in parts:
        if p.isdigit():
            words.append(f"#{int(p) + 1}")
        else:
            name = region_name(p)
            if name == p:
                name = tech_name(p)
            words.append(name if name != p else p.replace("_", " "))
    return " ".join(words) or "choice"


def describe_prompt(prompt: Mapping[str, Any] | None) -> str:
    """One line for what a seat must decide now."""
    if not prompt:
        return "nothing to decide"
    kind = prompt.get("type")
    if kind == "plan":
        return "plan this round's decision (secret)"
    if kind == "improvement":
        return "choose an Improvement from the Block"
    if kind == "research":
        return f"spend {prompt.get('markers', '?')} Research Progress marker(s), one Technology at a time"
    if kind == "logistics":
        return f"place {prompt.get('markers', '?')} Logistics Progress marker(s), one region at a time"
    if kind == "sell":
        return f"sell {prompt.get('sell', '?')} Goods, region by region"
    if kind == "retailer_bonus":
        return f"use or decline the Retailer bonus in {region_name(str(prompt.get('region', '')))}"
    return plain_words(str(kind)) if kind else "decide"


def outcome_summary(ev: Mapping[str, Any] | None) -> str:
    """What a plan does: ``ev["yields"]`` (the engine's ``planning.yields``: price, Goods
    and where they come from, Improve, Research, Logistics)."""
    if not ev or "yields" not in ev:
        return ""
    y = ev["yields"]
    parts = " + ".join(f"{n} {what}" for what, n in y["goods_parts"]) or "none"
    bits = [
        f"price **{y['price']}**",
        f"Goods **{y['goods']}** ({parts})",
        f"improve **{'yes' if y['improve'] else 'no (a Goods token)'}**",
        f"research **{y['research']}**",
        f"logistics **{y['logistics']}**",
    ]
    return ", ".join(bits)


def describe_option(action: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any], seat: str) -> str:
    """A turn's option with its numbers, read from the seat's views before and after the
    engine applied it: "GPS +2 → 5/5, claims the Patent (+4 VP)", "China +2 → 2 markers,
    founds an Office", "Sell 3 in China at price 4 (+3 VP)"."""
    base = describe_action(action)
    try:
        b = before["players"][seat]
        a = after["players"][seat]
        bits: list[str] = []
        kind = action.get("type")
        if kind == "research":
            for t, n in (action.get("place") or {}).items():
                cost = b.get("costs", {}).get(t)
                have = int((b.get("research") or {}).get(t, 0)) + int(n)
                bit = f"{tech_name(t)} +{n} → {have}/{cost}" if cost else f"{tech_name(t)} +{n}"
                if t in a.get("techs", []) and t not in b.get("techs", []):
                    bit += ", gains it"
                if (after.get("techs") or {}).get(t, {}).get("patent") == seat and (before.get("techs") or {}).get(t, {}).get("patent") != seat:
                    bit += ", claims the Patent"
                bits.append(bit)
        elif kind == "logistics":
            needed = ((before.get("prompt") or {}).get("needed") or {})
            for r, n in action.get("place") or []:
                have = int((b.get("logistics") or {}).get(r, 0))
                bit = f"{region_name(r)} +{n}"
                if r in needed:
                    bit += f" → {have + int(n)}/{have + int(needed[r])}"
                if r in a.get("offices", []) and r not in b.get("offices", []):
                    bit += ", founds an Office"
                bits.append(bit)
        elif kind == "sell":
            price = b.get("price")
            for r, n in {**(action.get("regions") or {}), **(action.get("extra") or {})}.items():
                if n:
                    bits.append(f"Sell {n} in {region_name(r)} at price {price}")
        if not bits:
            bits.append(base)
        vp = int(a.get("vp", 0)) - int(b.get("vp", 0))
        out = "; ".join(bits)
        if vp and (after.get("round"), after.get("phase")) != (before.get("round"), before.get("phase")):
            out += f" → {vp:+d} VP once the round is scored"
        elif vp:
            out += f" ({vp:+d} VP)"
        return out
    except (KeyError, TypeError, ValueError, AttributeError):
        return base
