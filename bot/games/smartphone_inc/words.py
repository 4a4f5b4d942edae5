"""How Smartphone Inc.'s choices are labelled: Improvements, Technologies, regions and
Pad symbols by their names, prompts and actions in words, what a plan yields."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot import text
from engine.smartphone_inc.common import plural_markers
from engine.smartphone_inc.data import (
    IMPROVEMENTS,
    PHASE_TITLES,
    REGIONS,
    START_VP,
    STARTING,
    TECHS,
    improvement_name,
)
from engine.smartphone_inc.data import SYMBOL_NAMES as SYMBOL_NAMES
from render.smartphone_inc.prompts import SIZE_WORDS as SIZE_WORDS
from render.smartphone_inc.prompts import module_headline
from render.smartphone_inc.prompts import retailer_text as retailer_text
from render.smartphone_inc.theme import bonus_words

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
    return plural_markers(improvement_name(imp))  # (an open half: "blank half")


def colour_name(colour: str) -> str:
    return str(colour).capitalize()


def company_label(colour: str, *, start_vp: bool = False) -> str:
    """A company to pick at the 2-3 player board's start: "Green company (starting
    Improvement: Production + Research)", with its starting VP where they count."""
    imp = STARTING.get(colour)
    cells = " + ".join(SYMBOL_NAMES.get(c, str(c)) for c in IMPROVEMENTS.get(imp or "", ()))
    bits = [f"starting Improvement: {cells}"] if cells else []
    if start_vp and colour in START_VP:
        bits.append(f"starts with {START_VP[colour]} VP")
    return f"{colour_name(colour)} company" + (f" ({', '.join(bits)})" if bits else "")


def buyer_text(rid: str, index: int) -> str:
    """A Buyer by its place and demand: "Buyer 2 (pays up to 3, or wants GPS)"."""
    buyers = REGIONS.get(rid, {}).get("buyers") or []
    b = buyers[index] if 0 <= index < len(buyers) else {}
    wants = []
    if "price" in b:
        wants.append(f"pays up to {b['price']}")
    if "tech" in b:
        wants.append(f"wants {tech_name(str(b['tech']))}")
    return f"Buyer {index + 1}" + (f" ({', or '.join(wants)})" if wants else "")


def region_links(rid: str) -> str:
    links = REGIONS.get(rid, {}).get("links") or []
    return ", ".join(region_name(r) for r in links)


def describe_action(action: Mapping[str, Any]) -> str:
    """A short label for an engine action (falls back to compact JSON)."""
    kind = action.get("type")
    try:
        if kind == "directive":
            return "Take the Directive" if action.get("take") else "Not now (you may take it in a later round)"
        if kind == "company" and "colour" in action:
            return f"Take the {company_label(str(action['colour']))}"
        if kind == "start_region" and "region" in action:
            rid = str(action["region"])
            return f"Start in {region_name(rid)} (next to {region_links(rid)})"
        if kind == "start_retailer" and "region" in action:
            return f"Place the Retailer in {region_name(str(action['region']))}"
        if kind == "logistics" and action.get("ceo") is not None:
            return f"Move your CEO to {region_name(str(action['ceo']))} (1 Logistics marker)"
        if kind == "research" and action.get("token") is not None:
            rid, index = action["token"]
            return (
                f"Put your Marketing Token on {buyer_text(str(rid), int(index))} in {region_name(str(rid))} "
                "(1 Research marker; only you sell to that Buyer)"
            )
        if kind == "mini_upgrade" and "id" in action:
            return f"Take the {improvement_label(str(action['id']))}"
        if kind == "place_retailer" and "region" in action:
            return (
                f"Place a {retailer_text(str(action.get('retailer')), int(action.get('side', 0)))} "
                f"in {region_name(str(action['region']))}"
            )
        if kind == "blitz":
            on = [SYMBOL_NAMES[k] for k in ("research", "logistics") if action.get(k)]
            if not on:
                return "Put no Goods on your Pads"
            return "Put 1 Goods on your " + " and 1 on your ".join(on) + " symbol (+1 Progress marker each, this round)"
        if kind == "ceo_sell" and "sell" in action:
            n = int(action["sell"])
            return f"Sell {n} Goods with your CEO" if n else "Sell nothing with your CEO"
        if kind == "second_sell":
            regions = {r: n for r, n in (action.get("regions") or {}).items() if n}
            if not regions:
                return "Sell no second Goods"
            return "Sell a second Goods (Patent) in " + ", ".join(
                f"{region_name(r)}" + (f" ×{n}" if int(n) > 1 else "") for r, n in regions.items()
            )
        if kind == "gamepad_office" and "region" in action:
            return f"Place your Gamepad Office in {region_name(str(action['region']))}"
        if kind == "nfc" and "sell" in action:
            n = int(action["sell"])
            return f"Sell {n} Goods with NFC (scored at once)" if n else "Sell nothing with NFC"
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
    if key in ("place.#", "place.0.#") and (value is None or isinstance(value, int)):  # Logistics: placements, or not
        return "place markers in a region" if value else "no markers: move your CEO, or stop"
    if key == "token.#":
        return "place it" if value else "do not place it"
    if key == "token.1" and isinstance(value, int):
        return f"Buyer {value + 1}"
    if key == "ceo" and value is None:
        return "stays"
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
STEP_KEYS = {  # the fields a long list of options is narrowed by (bot.choices.action_step)
    "place.#": "what to do",
    "place.0.#": "what to do",
    "place.0.0": "region",
    "place.0.1": "markers",
    "token.#": "Marketing Token",
    "token.0": "Marketing Token region",
    "token.1": "Marketing Token Buyer",
    "ceo": "CEO",
}


def describe_key(key: str) -> str:
    if key in STEP_KEYS:
        return STEP_KEYS[key]
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


def _markers(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_prompt(prompt: Mapping[str, Any]) -> str:
    """One line for what a seat must decide now (the presenter words a seat without a
    prompt)."""
    kind = prompt.get("type")
    if kind == "plan":
        return "plan this round's decision (secret)"
    if kind == "improvement":
        return "choose an Improvement from the Block"
    if kind == "research":
        token = " (or 1 on your Marketing Token)" if prompt.get("token") else ""
        return f"spend {_markers(prompt.get('markers', 0), 'Research Progress marker')}, one Technology at a time{token}"
    if kind == "logistics":
        ceo = f" (or 1 to move your CEO, now in {region_name(str(prompt['ceo']))})" if prompt.get("ceo") else ""
        return f"place {_markers(prompt.get('markers', 0), 'Logistics Progress marker')}, one region at a time{ceo}"
    if kind == "sell":
        return f"sell {prompt.get('sell', '?')} Goods, region by region"
    if kind == "retailer_bonus":
        return f"use or decline the Retailer bonus in {region_name(str(prompt.get('region', '')))}"
    module = module_headline(dict(prompt))  # Update 1.1's decisions: worded as in the picture
    if module is not None:
        return module
    if kind == "gamepad_office":
        return "place your Gamepad Office in a small region"
    if kind == "wifi":
        return "add a second Office with Wi-Fi, or not"
    if kind == "nfc":
        return f"sell up to {prompt.get('max', '?')} Goods with NFC at price {prompt.get('price', '?')}"
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
        prompt = before.get("prompt") or {}
        if kind in ("directive", "company", "start_retailer", "ceo_sell"):
            return _start_and_module_option(action, before, prompt)
        if kind == "retailer_bonus" and action.get("use") and base == "Use the bonus" and prompt.get("bonus"):
            return f"Use the bonus: {bonus_words(prompt['bonus'])}"
        if kind == "research":
            for t, n in (action.get("place") or {}).items():
                cost = b.get("costs", {}).get(t)
                have = int((b.get("research") or {}).get(t, 0)) + int(n)
                name = in_play_name(before, t)
                bit = f"{name} +{n} → {have}/{cost}" if cost else f"{name} +{n}"
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
        moved_on = (after.get("round"), after.get("phase")) != (before.get("round"), before.get("phase"))
        if vp and moved_on and (after.get("round") != before.get("round") or after.get("phase") in ("vp", "over")):
            out += f"; then the round is scored: you {vp:+d} VP"  # (not this option's VP: "Stop here → +7 VP" misled)
        elif vp and not moved_on:  # (VP of later automatic steps, e.g. Hardcore interest, are not this option's)
            out += f" ({vp:+d} VP)"
        return out
    except (KeyError, TypeError, ValueError, AttributeError):
        return base


def in_play_name(view: Mapping[str, Any], tech: str) -> str:
    """The name of the Technology on ``tech``'s symbol space in this game (a New
    Technology of Update 1.1 has its own: "NFC Marketing")."""
    name = ((view.get("techs") or {}).get(tech) or {}).get("name")
    return str(name) if name else tech_name(tech)


def _start_and_module_option(action: Mapping[str, Any], before: Mapping[str, Any], prompt: Mapping[str, Any]) -> str:
    """The options of the Update 1.1 decisions that need the prompt's numbers."""
    kind = action.get("type")
    if kind == "directive":
        number, vp, goal = prompt.get("number", "?"), prompt.get("vp", "?"), prompt.get("goal", "")
        if not action.get("take"):
            return f"Not now: leave Directive {number} (you may take it in a later round if you meet it then)"
        hardcore = bool((before.get("options") or {}).get("hardcore"))
        when = "when this round ends (Hardcore)" if hardcore else "at the end of the game"
        return f"Take Directive {number}: +{vp} VP {when} ({goal.rstrip('.')})"
    if kind == "company":
        return f"Take the {company_label(str(action.get('colour')), start_vp=int(before.get('rules', 1)) >= 2)}"
    if kind == "start_retailer":
        ret = retailer_text(str(prompt.get("retailer")), int(prompt.get("side", 0)))
        return f"Place the {ret} in {region_name(str(action.get('region')))}"
    n = int(action.get("sell", 0))
    if not n:
        return "Sell nothing with your CEO"
    return f"Sell {n} Goods in {region_name(str(prompt.get('region')))} with your CEO at price {prompt.get('price', '?')}"
