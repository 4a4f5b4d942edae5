"""Message texts, /rules topics, /help, and small parsers for command input.

Nothing here imports ``discord``: every function takes and returns plain data,
so the texts are tested without a client.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from engine.smartphone_inc.data import IMPROVEMENTS, PHASE_TITLES, REGIONS, TECHS

# --------------------------------------------------------------------------- help

HELP = """\
**boardroom** runs asynchronous board games in this channel (first: Smartphone Inc.).

**Starting a game**
`/game new game:smartphone-inc` posts a lobby with **Join**, **Leave**, **Add AI** and **Start**.
Anyone can join; the host (or a member with Manage Server) adds AI players and starts.
`/game join`, `/game leave`, `/game start` do the same as the buttons.

**Playing**
When Planning starts, every player gets a private message with their pads and a planner.
Build your arrangement step by step (pads, sides, rotation, position, Improvements) with a
live preview, or pick from the list of distinct outcomes, then **Seal plan**. Nobody sees a
plan before all plans are sealed; then all decisions are revealed together in one picture.
If your DMs are closed, use `/plan` in the game's channel: it opens the same planner privately.
Other decisions (Improvements, research, logistics, Retailer bonuses, selling) come as a
message with a **Take your turn** button; `/plan` opens whatever you have to decide now.

**Keeping track**
`/game status` phase, whose move, who has sealed, deadlines. `/game history round:<n>` that
round's pictures. `/game export` the game record as JSON. `/rules [topic]` the rules in short.

**Hosting**
`/game settings` reminder hours, AI takeover, quiet hours. `/game pause`, `/game resume`,
`/game abandon`, `/game kick seat:<seat>` (lobby: removes the seat; running game: the AI plays
it) (host or Manage Server only). `/game reclaim` takes your seat back from the AI.
"""

# ------------------------------------------------------------------------- rules

RULES: dict[str, dict[str, str]] = {
    "smartphone-inc": {
        "overview": (
            "**Smartphone Inc.**: 5 rounds of 8 phases: 1 Planning, 2 Set Prices, 3 Production, "
            "4 Improve Production, 5 Research Technology, 6 Logistics, 7 Selling Goods, 8 Receive VP. "
            "From phase 4 on, players act in Priority order: lowest price first, then lowest VP, then "
            "scoreboard order. Most VP after round 5 wins (VP + Patents + Retailer VP; ties: most "
            "Technologies, then most Patents)."
        ),
        "planning": (
            "**Planning** (secret, simultaneous): lay one Pad on the other, either side up, parallel "
            "or perpendicular, covering **1 to 4** cells of the lower Pad. Visible symbols are "
            "active, covered ones inactive. An Improvement goes face up on the Pads covering exactly "
            "2 cells and never beyond the edges (unless you have 4G); it may be partly or fully "
            "under the other Pad; Improvements may overlap but never fully cover another. An "
            "unplaced Improvement lies face down and makes 1 Goods. A sealed plan cannot change; "
            "all plans are revealed together."
        ),
        "prices": (
            "**Set Prices**: every price starts the round at 5. Each active Price Down lowers it "
            "by 1, each active Price Up raises it by 1 (2 Price Down -> price 3)."
        ),
        "production": (
            "**Production**: each active Production symbol makes 1 Goods; each cell of one Pad "
            "covered by the other Pad makes 1 Goods (not cells covered by Improvements); each "
            "face-down Improvement and each Goods token makes 1 Goods. 4 covered + 3 Production = 7."
        ),
        "improve": (
            "**Improve Production**: in Priority order, with an active Improve Production symbol "
            "take one Improvement of your choice from the Block; without it take a Goods token. "
            "New pieces are usable from the next round."
        ),
        "research": (
            "**Research Technology**: 1 Progress marker per active Research symbol. In Priority "
            "order place them on Technologies, split as you wish; unspent markers are lost. A "
            "Technology is yours when its markers reach its cost (1 more until its Patent is "
            "taken, 1 less after). The first to finish takes the Patent. Progress carries over."
        ),
        "logistics": (
            "**Logistics**: 1 Progress marker per active Logistics symbol. In Priority order "
            "place them in regions linked to one where you have an Office. When your markers "
            "equal the region's cost you place an Office on its leftmost empty space. One Office "
            "per region unless a Technology or Retailer allows a second. Unused markers are lost."
        ),
        "selling": (
            "**Selling Goods**: in Priority order sell your Goods where you have an Office, no "
            "Retailer stands, and a willing Buyer is free: a red Buyer buys at its price or "
            "lower, a purple Buyer at any price if you have its Technology. One Goods per Buyer, "
            "placed left to right without skipping a willing Buyer. Unsold Goods are lost "
            "(unless Wi-Fi)."
        ),
        "vp": (
            "**Receive VP**: Goods sold x your price, plus control: whoever sold most in a region "
            "scores the VP above its rightmost Office (ties: the Office further left). Then Goods "
            "leave the board, the Improvement Block is refilled with 5 new ones, prices reset."
        ),
        "retailers": (
            "**Retailers** block a region for selling. An Office there goes on the Retailer's "
            "spaces left to right (end-game VP, earlier = more) and gives a one-time bonus you "
            "may decline: Goods, Progress on Technologies, price +-1, a second Office, or moving "
            "an Office."
        ),
        "technologies": (
            "**Technologies**: GPS, Wi-Fi, Gamepad, NFC, Li-Ion and 4G, each side with its own "
            "bonus (immediate, one-time or every round). You must use every bonus you can. "
            "Use `/game status` for the sides in play."
        ),
        "steve": (
            "**Steve** (AI, 1-4 players): no Pads; Steve's Pad has all cells active and gains an "
            "Improvement section each round. He researches the cheapest Technology with a Patent "
            "left, expands to the largest available region, and sells first where he is alone."
        ),
        "end": (
            "**End of game**: after phase 8 of round 5. Final VP = VP scored + Patents + Retailer "
            "VP. Ties: most Technologies, then most Patents, then a shared victory."
        ),
        "hardcore": (
            "**Hardcore Mode** (option `hardcore=true`): after Set Prices, from the lowest price, "
            "each company pays for its active icons (Research 3, Logistics 2, Price Up 1, "
            "Production 1, Price Down gives 1 back), 2 less per Improve symbol on its decision, "
            "never below 0; each Goods produced costs 1 VP; Patents and Retailer spaces score at "
            "once (a Retailer's VP are lost if the Office moves away); after Research, debt costs "
            "1 per 10 VP and savings earn 1 per 20 VP (rounded up). VP may go negative."
        ),
    }
}

PHASE_TOPIC = {
    "planning": "planning",
    "prices": "prices",
    "production": "production",
    "improve": "improve",
    "research": "research",
    "logistics": "logistics",
    "selling": "selling",
    "vp": "vp",
}


def rules_topics(game: str) -> list[str]:
    return list(RULES.get(game, {}))


def rules_text(game: str, topic: str | None, phase: str | None = None) -> str:
    """The rules in short for ``topic``; without a topic, the current ``phase``'s rules."""
    book = RULES.get(game)
    if book is None:
        return f"I have no rules summary for {game!r}."
    if not topic:
        topic = PHASE_TOPIC.get(phase or "", "overview")
    topic = topic.strip().lower()
    if topic not in book:
        return f"Unknown topic {topic!r}. Topics: " + ", ".join(f"`{t}`" for t in book)
    text = book[topic]
    if phase and topic != PHASE_TOPIC.get(phase):
        text += f"\n_(The game here is in {phase_title(phase)}: `/rules` shows that phase.)_"
    return text


# ----------------------------------------------------------------------- options


def parse_options(text: str | None) -> dict[str, Any]:
    """``"tech_sides=random block_size=3"`` (or JSON) -> ``{"tech_sides": "random", "block_size": 3}``.

    Separators: spaces, commas or semicolons. Values: integers, true/false, or text.
    Raises ValueError with a message for the player.
    """
    if text is None or not text.strip():
        return {}
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"options look like JSON but are not valid: {exc}") from None
        if not isinstance(data, dict):
            raise ValueError("options must be a JSON object")
        return data
    out: dict[str, Any] = {}
    for part in text.replace(",", " ").replace(";", " ").split():
        if "=" not in part:
            raise ValueError(f"option {part!r} should look like name=value")
        key, value = part.split("=", 1)
        key = key.strip().lower().replace("-", "_")
        if not key:
            raise ValueError(f"option {part!r} has no name")
        out[key] = _value(value.strip())
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


# ------------------------------------------------------------------------ labels

# the phase names are the engine's (the rulebook's), PHASE_TITLES imported above

SYMBOL_NAMES = {
    "down": "Price Down",
    "up": "Price Up",
    "prod": "Production",
    "improve": "Improve Production",
    "research": "Research",
    "logistics": "Logistics",
    None: "open",
}

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


def clip(text: str, n: int) -> str:
    """Discord limits: labels 80, select option labels/descriptions 100, content 2000."""
    return text if len(text) <= n else text[: n - 1] + "…"


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else ""


def log_block(lines: Iterable[str], limit: int = 1700) -> str:
    """Log lines for a channel message, cut to fit Discord's 2000 characters."""
    lines = [str(x) for x in lines]
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 3 > limit:
            out.append(f"… and {len(lines) - i} more line(s) (see `/game export`).")
            break
        out.append(f"• {line}")
        size += len(line) + 3
    return "\n".join(out)


def sealed_text(sealed: int, total: int, names_waiting: list[str]) -> str:
    text = f"🔒 Plans sealed {sealed}/{total}"
    if names_waiting:
        text += " — waiting for " + ", ".join(names_waiting)
    return text


def _region_name(rid: str) -> str:
    return str(REGIONS[rid]["name"]) if rid in REGIONS else rid


def _tech_name(tid: str) -> str:
    return str(TECHS[tid]["name"]) if tid in TECHS else tid


def improvement_label(imp: str) -> str:
    cells = IMPROVEMENTS.get(imp)
    if not cells:
        return imp
    return f"{imp} ({' + '.join(SYMBOL_NAMES.get(c, str(c)) for c in cells)})"


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
            return "Research " + ", ".join(f"{_tech_name(t)} +{n}" for t, n in place.items())
        if kind == "logistics":
            place = action.get("place") or []
            if not place:
                return "Stop here (the markers left are lost)"
            return "Markers: " + ", ".join(f"{_region_name(r)} {n}" for r, n in place)
        if kind == "sell":
            parts = [f"{_region_name(r)} {n}" for r, n in (action.get("regions") or {}).items() if n]
            parts += [f"{_region_name(r)} {n} (4G)" for r, n in (action.get("extra") or {}).items() if n]
            return "Sell: " + (", ".join(parts) if parts else "nothing")
        if kind == "retailer_bonus" or "use" in action:
            if action.get("use") is False:
                return "Decline the bonus"
            bits = []
            if "delta" in action:
                bits.append(f"price {int(action['delta']):+d}")
            if "region" in action:
                bits.append(f"second Office in {_region_name(action['region'])}")
            if "from" in action:
                bits.append(f"move Office {_region_name(action['from'])} → {_region_name(action['to'])}")
            if "place" in action:
                bits.append(", ".join(f"{_tech_name(t)} +{n}" for t, n in action["place"].items()))
            return "Use the bonus" + (": " + "; ".join(bits) if bits else "")
        if kind in ("wifi", "second_office") and "region" in action:
            return f"Second Office in {_region_name(action['region'])}"
        if kind == "nfc" and "n" in action:
            return f"Sell {action['n']} Goods with NFC"
    except (TypeError, ValueError, KeyError, AttributeError):
        pass
    return compact_json(action)


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def describe_value(key: str, value: Any) -> str:
    """A label for one step of a step-by-step action (``key`` is a dotted path)."""
    if isinstance(value, str):
        for fn in (_region_name, _tech_name):
            name = fn(value)
            if name != value:
                return name
        if value.startswith("I") and value[1:].isdigit():
            return improvement_label(value)
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return str(value)
    return compact_json(value)


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
            name = _region_name(p)
            if name == p:
                name = _tech_name(p)
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
        return f"use or decline the Retailer bonus in {_region_name(str(prompt.get('region', '')))}"
    return str(kind or "decide").replace("_", " ")


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


def hours(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 48 and value % 24 == 0:
        return f"{int(value // 24)} days"
    return f"{value:g} h"
