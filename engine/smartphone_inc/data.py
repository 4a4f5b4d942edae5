"""Component data of Smartphone Inc., loaded from ``data/*.json`` and validated at import.

Every item carries ``source: rulebook | reconstructed``; see DATA.md for what was
reconstructed and why.  Modules read the constants below, never the files.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine.jsonstate import game_data

PHASES = (
    "planning",
    "prices",
    "production",
    "improve",
    "research",
    "logistics",
    "selling",
    "vp",
)
PHASE_TITLES = {
    "planning": "Planning",
    "prices": "Set Prices",
    "production": "Production",
    "improve": "Improve Production",
    "research": "Research Technology",
    "logistics": "Logistics",
    "selling": "Selling Goods",
    "vp": "Receive VP",
}
ROUNDS = 5
START_PRICE = 5
GOODS_MARKERS = 20  # per colour; 2 stay on the Price Block and the VP Scoreboard
GOODS_SUPPLY = GOODS_MARKERS - 2
OFFICE_MARKERS = 18
SIZE_RANK = {"S": 1, "M": 2, "L": 3}


_load = partial(game_data, "engine.smartphone_inc")


_map = _load("map.json")
_small = _load("map_small.json")  # Update 1.1: the 2-3 player board
_tech = _load("technologies.json")
_ret = _load("retailers.json")
_imp = _load("improvements.json")
_comp = _load("companies.json")
_pads = _load("pads.json")
_dir = _load("directives.json")
STEVE_PAD: dict[str, Any] = _load("steve.json")

# REGIONS holds the regions of both boards (their ids differ); a game plays on the
# regions of its board (``state["regions"]``, BOARD_REGIONS).
REGIONS: dict[str, dict[str, Any]] = {r["id"]: r for r in _map["regions"] + _small["regions"]}
REGION_ORDER: list[str] = [r["id"] for r in _map["regions"]]
ALPHABETICAL: list[str] = list(_map["alphabetical"])
BOARD_REGIONS: dict[str, list[str]] = {"big": REGION_ORDER, "small": [r["id"] for r in _small["regions"]]}
BOARD_ALPHABETICAL: dict[str, list[str]] = {"big": ALPHABETICAL, "small": list(_small["alphabetical"])}
TECHS: dict[str, dict[str, Any]] = {t["id"]: t for t in _tech["technologies"]}
TECH_ORDER: list[str] = [t["id"] for t in _tech["technologies"]]
RETAILERS: dict[str, dict[str, Any]] = {r["id"]: r for r in _ret["retailers"]}
SYMBOLS = ("down", "up", "prod", "improve", "research", "logistics")  # None = open cell
IMPROVEMENTS: dict[str, tuple[str | None, str | None]] = {
    i["id"]: tuple(i["cells"]) for i in _imp["improvements"] + _imp["starting"] + _imp["mini_upgrades"]  # type: ignore[misc]
}
MINI_UPGRADES: list[str] = [i["id"] for i in _imp["mini_upgrades"]]  # Update 1.1 (Blitz Li-Ion)
# What players call the symbols (the rulebook's words); the one source of the names the
# log lines and the bot's labels use
SYMBOL_NAMES: dict[str | None, str] = {
    "down": "Price Down",
    "up": "Price Up",
    "prod": "Production",
    "improve": "Improve Production",
    "research": "Research",
    "logistics": "Logistics",
    None: "open",
}
# PADS[pad][side] = 2 rows of 3 symbols, as printed (row 0 on top)
PADS: dict[str, tuple[tuple[tuple[str | None, ...], ...], ...]] = {
    p["id"]: tuple(tuple(tuple(row) for row in side) for side in p["sides"]) for p in _pads["pads"]
}
DECK: list[str] = [i["id"] for i in _imp["improvements"]]
STARTING: dict[str, str] = {i["colour"]: i["id"] for i in _imp["starting"]}


def improvement_name(imp: str) -> str:
    """An Improvement by what it shows (the rulebook gives them no names, and their ids
    are not for players): "Improvement (Price Up + Logistics)"; a company's starting
    Improvement says so, a Mini-upgrade (one symbol beside an open half) is
    "Mini-upgrade (Research)"."""
    cells = IMPROVEMENTS.get(imp)
    if not cells:
        return "an Improvement"
    if imp in MINI_UPGRADES:
        return "Mini-upgrade (" + " + ".join(SYMBOL_NAMES[c] for c in cells if c is not None) + ")"
    symbols = " + ".join(SYMBOL_NAMES.get(c, str(c)) for c in cells)
    return f"{'starting ' if imp in STARTING.values() else ''}Improvement ({symbols})"

# Update 1.1 Directives: number -> {"vp", "goal": {"kind", "n"}, "text"}
DIRECTIVES: dict[int, dict[str, Any]] = {d["number"]: d for d in _dir["directives"]}
DIRECTIVE_KINDS = (
    "offices", "regions", "large_regions", "small_regions", "retailers", "second_offices", "technologies",
    "patents", "sold", "sold_in_one_region", "sold_regions", "control", "price_at_most", "vp",
)
COLOURS: list[str] = [c["id"] for c in _comp["colours"]]
HOME: dict[str, str] = {c["id"]: c["home"] for c in _comp["colours"]}
START_VP: dict[str, int] = {c["id"]: int(c["start_vp"]) for c in _comp["colours"]}

# Retailer placement per number of companies (rulebook, "Placement of Retailers"):
# the fixed regions, plus every medium region without a starting Office (SI-SET-07..10).
RETAILER_FIXED: dict[int, list[str]] = {
    1: ["china", "canada", "caribbean"],
    2: ["china", "canada", "caribbean"],
    3: ["europe", "rsa"],
    4: ["canada"],
    5: [],
}


def tech_effect(tech: str, side: int) -> str:
    return TECHS[tech]["sides"][side]["effect"]


def _tech_side(tech: str, side: int) -> dict[str, Any]:
    s = TECHS[tech]["sides"][side]
    return {
        "name": s.get("name", TECHS[tech]["name"]),
        "cost": int(s.get("cost", TECHS[tech]["cost"])),
        "patent_vp": int(s.get("patent_vp", TECHS[tech]["patent_vp"])),
        "text": s["text"],
        "effect": s["effect"],
        "new": "module" in s,
    }


# Every side of every symbol space, built once (read on every view and prompt)
TECH_SIDES: dict[tuple[str, int], dict[str, Any]] = {
    (t, i): _tech_side(t, i) for t in TECHS for i in range(len(TECHS[t]["sides"]))
}
# (symbol space, side) -> the Technology's effect and printed cost
TECH_EFFECTS: dict[tuple[str, int], str] = {k: v["effect"] for k, v in TECH_SIDES.items()}
TECH_COSTS: dict[tuple[str, int], int] = {k: v["cost"] for k, v in TECH_SIDES.items()}


def tech_side(tech: str, side: int) -> dict[str, Any]:
    """The Technology in play on ``tech``'s symbol space: a base side (0, 1) or a New
    Technology of the Update 1.1 (2, 3), with its name, cost and Patent VP (a fresh
    dict: the caller may change it)."""
    got = TECH_SIDES.get((tech, side))
    return dict(got) if got is not None else _tech_side(tech, side)


# Update 1.1 New Technologies: option names -> (symbol space, side); the recommended sets
NEW_TECHS: dict[str, tuple[str, int]] = {
    s["option"]: (t["id"], i) for t in _tech["technologies"] for i, s in enumerate(t["sides"]) if "option" in s
}
TECH_SETS: dict[str, dict[str, int]] = {k: dict(v) for k, v in _tech["sets"].items() if k not in ("about", "source")}


def _validate() -> None:
    problems: list[str] = []
    if len(REGION_ORDER) != 12:
        problems.append("the map must have 12 regions")
    for board, ids in BOARD_REGIONS.items():
        if sorted(BOARD_ALPHABETICAL[board]) != sorted(ids):
            problems.append(f"alphabetical order must list every region of the {board} board")
    if [REGIONS[r]["size"] for r in BOARD_REGIONS["small"]].count("M") != 3:
        problems.append("the 2-3 player board has 3 medium regions to start in")
    if set(BOARD_REGIONS["big"]) & set(BOARD_REGIONS["small"]):
        problems.append("the two boards use different region ids")
    for rid, r in REGIONS.items():
        for link in r["links"]:
            if link not in REGIONS or rid not in REGIONS[link]["links"]:
                problems.append(f"link {rid}-{link} is not symmetric")
        if r["source"] not in ("rulebook", "reconstructed"):
            problems.append(f"{rid}: bad source")
        for b in r["buyers"]:
            if "tech" in b and b["tech"] not in TECHS:
                problems.append(f"{rid}: unknown tech buyer {b}")
    homes = sorted(HOME.values())
    mediums = sorted(r for r in REGION_ORDER if REGIONS[r]["size"] == "M")
    if homes != mediums:
        problems.append("home regions must be the medium regions")
    if [START_VP[c] for c in COLOURS] != sorted(set(START_VP.values())):
        problems.append("starting VP must rise strictly in scoreboard order (FAQ tie-break)")
    if sorted(DIRECTIVES) != list(range(1, 25)) or len(_dir["directives"]) != 24:
        problems.append("there must be 24 Directives numbered 1-24")
    if sum(sorted((d["vp"] for d in DIRECTIVES.values()), reverse=True)[:5]) > 60:
        problems.append("the best 5 Directives are worth at most 60 VP")
    for d in DIRECTIVES.values():
        if d["goal"]["kind"] not in DIRECTIVE_KINDS or d["source"] not in ("rulebook", "reconstructed"):
            problems.append(f"Directive {d['number']}: unknown goal or source")
    if sorted(PADS) != ["A", "B"]:
        problems.append("pads.json must define Pads A and B")
    for pid, sides in PADS.items():
        if len(sides) != 2 or any(len(side) != 2 or any(len(row) != 3 for row in side) for side in sides):
            problems.append(f"Pad {pid}: 2 sides of 2 rows x 3 columns")
        for side in sides:
            for row in side:
                problems += [f"Pad {pid}: unknown symbol {c!r}" for c in row if c is not None and c not in SYMBOLS]
    if len(MINI_UPGRADES) != 5:
        problems.append("there must be 5 Mini-upgrades")
    if len(IMPROVEMENTS) != len(_imp["improvements"]) + len(_imp["starting"]) + len(MINI_UPGRADES):
        problems.append("Improvement ids must be unique")
    for iid, cells in IMPROVEMENTS.items():
        if len(cells) != 2 or any(c is not None and c not in SYMBOLS for c in cells):
            problems.append(f"Improvement {iid}: 2 cells of known symbols")
    if len(DECK) != 27:
        problems.append("there must be 27 Improvements")
    if len(STARTING) != 5:
        problems.append("there must be 5 starting Improvements")
    if len(RETAILERS) != 7:
        problems.append("there must be 7 Retailers")
    if len(TECHS) != 6:
        problems.append("there must be 6 Technologies")
    if len(NEW_TECHS) != 10:
        problems.append("there must be 10 New Technologies")
    for name, chosen in TECH_SETS.items():
        if sorted(chosen) != sorted(TECHS) or any(not 0 <= s < len(TECHS[t]["sides"]) for t, s in chosen.items()):
            problems.append(f"set {name}: one side for each of the 6 symbols")
    for n, fixed in RETAILER_FIXED.items():
        if n == 1:
            continue  # solo: as for 2 players, while medium Retailers last (DATA.md)
        need = [REGIONS[r]["size"] for r in fixed] + ["M"] * (5 - n)
        for size in "SML":
            have = sum(1 for x in RETAILERS.values() if x["size"] == size)
            if need.count(size) > have:
                problems.append(f"{n} players need {need.count(size)} {size} Retailers")
    if problems:
        raise RuntimeError("invalid Smartphone Inc. data: " + "; ".join(problems))


_validate()
