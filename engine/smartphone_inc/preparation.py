"""Preparing for the Game and Player Preparation (SI-SET-01..12, SI-STEVE-02)."""

from __future__ import annotations

from typing import Any

from engine import rng as generators
from engine.errors import IllegalAction, StateTooNew
from engine.rng import Rng
from engine.smartphone_inc import directives, new_technologies, small_board
from engine.smartphone_inc.data import (
    BOARD_REGIONS,
    COLOURS,
    DECK,
    GOODS_SUPPLY,
    HOME,
    NEW_TECHS,
    OFFICE_MARKERS,
    REGIONS,
    RETAILER_FIXED,
    RETAILERS,
    START_VP,
    STARTING,
    TECH_ORDER,
    TECH_SETS,
)
from engine.smartphone_inc.migrations import check_rules
from engine.smartphone_inc.versions import RULES, SCHEMA
from engine.standard import check_companies, options_and_automaton

KNOWN_OPTIONS = {"automata", "tech_sides", "colours", "block_size", "hardcore", "directives", "technologies", "board"}


def normalize_options(seats: list[str], options: dict[str, Any] | None) -> dict[str, Any]:
    options, automata = options_and_automaton(seats, options, KNOWN_OPTIONS, "Steve")
    if automata and len(seats) - len(automata) > 4:
        raise IllegalAction("Steve plays in games of 1 to 4 players")
    sides = options.get("tech_sides", "up")
    if isinstance(sides, dict):
        if set(sides) - set(TECH_ORDER) or any(v not in (0, 1) for v in sides.values()):
            raise IllegalAction("tech_sides maps Technologies to side 0 or 1")
        sides = {t: int(sides.get(t, 0)) for t in TECH_ORDER}
    elif sides not in ("up", "random"):
        raise IllegalAction("tech_sides is 'up', 'random' or a map of Technology to side")
    colours = options.get("colours")
    if colours is not None:
        if (
            not isinstance(colours, dict)
            or sorted(colours) != sorted(seats)
            or len(set(colours.values())) != len(seats)
            or any(c not in COLOURS for c in colours.values())
        ):
            raise IllegalAction("colours gives every seat a different colour")
    board = options.get("board", "big")
    if board not in ("big", "small"):
        raise IllegalAction("board is 'big' or 'small' (the 2-3 player board of the Update 1.1)")
    if board == "small":
        if len(seats) > 3:
            raise IllegalAction("the 2-3 player board is for 1 to 3 companies")
        if options.get("colours") is not None:
            raise IllegalAction("on the 2-3 player board the companies are picked at the table")
    block = options.get("block_size", 3 if board == "small" else 5)  # SU-BRD-03
    if block not in (3, 5):
        raise IllegalAction("block_size is 5 (big board) or 3 (2-3 player board rule)")
    hardcore = options.get("hardcore", False)
    if not isinstance(hardcore, bool):
        raise IllegalAction("hardcore is true or false (Update 1.1 Hardcore Mode)")
    out: dict[str, Any] = {
        "hardcore": hardcore,
        "automata": list(automata),
        "tech_sides": sides,
        "colours": colours,
        "block_size": block,
    }
    # Update 1.1 modules: written only when chosen, so the options of other games keep their bytes
    directives = options.get("directives", False)
    if not isinstance(directives, bool):
        raise IllegalAction("directives is true or false (Update 1.1 Directives)")
    if directives:
        out["directives"] = True
    if board == "small":
        out["board"] = "small"
    techs = options.get("technologies", "base")
    if techs != "base":
        if "tech_sides" in options and options["tech_sides"] != "up":
            raise IllegalAction("choose the Technologies either with tech_sides or with technologies, not both")
        out["tech_sides"] = technology_sides(techs)
        out["technologies"] = techs
    return out


def technology_sides(choice: Any) -> dict[str, int]:
    """The side in play on each symbol space for the option ``technologies``: a
    recommended set by name, or a list of 6 Technologies, one per symbol: a New
    Technology by name or a base side as "gps:0" / "gps:1" (SU-TEC-12)."""
    if isinstance(choice, str):
        if choice not in TECH_SETS:
            names = ", ".join(["base", *sorted(TECH_SETS)])
            raise IllegalAction(f"technologies is one of {names}, or a list of 6 Technologies")
        return dict(TECH_SETS[choice])
    if not isinstance(choice, list) or len(choice) != 6 or not all(isinstance(c, str) for c in choice):
        raise IllegalAction("a custom mix lists 6 Technologies, one for each symbol")
    sides: dict[str, int] = {}
    for name in choice:
        if name in NEW_TECHS:
            tech, side = NEW_TECHS[name]
        else:
            tech, _, side_text = name.partition(":")
            if tech not in TECH_ORDER or side_text not in ("0", "1"):
                raise IllegalAction(f"unknown Technology {name!r} (New Technologies: {', '.join(sorted(NEW_TECHS))}; base sides: gps:0, gps:1, ...)")
            side = int(side_text)
        if tech in sides:
            raise IllegalAction(f"two Technologies for the {tech} symbol: one each")
        sides[tech] = side
    return {t: sides[t] for t in TECH_ORDER}


def setup(
    players: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    rules: int | None = None,
    rng: str | None = None,
) -> dict[str, Any]:
    """A new game (``rules``/``rng`` None: the current rules version and generator kind),
    or the set-up of a game started under older ones (a replay of its log)."""
    check_companies(players, seed, 5, "Smartphone Inc.")
    try:
        rules = RULES if rules is None else check_rules(rules)
        draws = Rng(generators.initial_state(seed, rng))
    except StateTooNew:
        raise
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    opts = normalize_options(players, options)

    small = opts.get("board") == "small"
    colours = opts["colours"] or {s: COLOURS[i] for i, s in enumerate(players)}
    board = BOARD_REGIONS["small" if small else "big"]
    state: dict[str, Any] = {
        "schema": SCHEMA,
        "rules": rules,
        "game": "smartphone-inc",
        "seed": seed,
        "version": 0,
        "options": opts,
        "seats": list(players),
        "round": 1,
        "phase": "planning",
        "office_markers": OFFICE_MARKERS,
        "players": {},
        "regions": {r: {"offices": [], "retailer": None, "sold": [None] * len(REGIONS[r]["buyers"])} for r in board},
        "techs": {},
        "block": [],
        "pile": [],
        "turn": None,
        "queue": [],
        "steve": None,
        "log": [],
        "result": None,
        "last_round": None,
    }
    for i, seat in enumerate(players):
        colour = None if small else colours[seat]  # the 2-3 player board: picked at the start
        steve = seat in opts["automata"]
        state["players"][seat] = {
            "colour": colour,
            "start": i if colour is None else COLOURS.index(colour),
            "steve": steve,
            "vp": START_VP[colour] if rules >= 2 and colour else 0,  # the FAQ's starting position
            "price": 5,
            "goods": 0,
            "supply": GOODS_SUPPLY,
            "tokens": 0,
            "improvements": [] if steve or colour is None else [STARTING[colour]],
            "techs": [],
            "patents": [],
            "research": {},
            "logistics": {},
            "plan": None,
            "outcome": None,
            "nfc_sold": 0,
        }
        if colour is not None:
            state["regions"][HOME[colour]]["offices"].append(seat)  # SI-SET-02
        if steve:  # SI-STEVE-02
            delayed = STARTING[colour] if colour else None
            state["steve"] = {"seat": seat, "marker": None, "delayed": delayed, "slots": {}, "bonus": 0}

    # Technologies and Patents (SI-SET-06)
    sides = opts["tech_sides"]
    for tech in TECH_ORDER:
        if sides == "up":
            side = 0
        elif sides == "random":
            side = draws.below(2)
        else:
            side = sides[tech]
        state["techs"][tech] = {"side": side, "patent": None}
    if small:
        small_board.setup(state, draws)  # SU-BRD-01/02: the start is decided in the game
    else:
        new_technologies.setup(state)  # CEOs, Mini-upgrades, Marketing Tokens (Update 1.1)

    # Retailers (SI-SET-07..11): shuffled, random side, matching sizes
    occupied = {HOME[colours[s]] for s in players}
    n = len(players)
    targets = [] if small else list(RETAILER_FIXED[n]) + sorted(
        r for r in board if REGIONS[r]["size"] == "M" and r not in occupied
    )
    pool = draws.shuffle(sorted(RETAILERS))
    for rid in targets:
        size = REGIONS[rid]["size"]
        match = next((x for x in pool if RETAILERS[x]["size"] == size), None)
        if match is None:
            continue  # solo: medium Retailers run out (DATA.md)
        pool.remove(match)
        state["regions"][rid]["retailer"] = {"id": match, "side": draws.below(2)}

    # Improvements (SI-SET-05)
    deck = draws.shuffle(list(DECK))
    size = opts["block_size"]
    state["block"], state["pile"] = deck[:size], deck[size:]
    if opts.get("directives"):  # SU-DIR-01, drawn after everything else
        directives.setup(state, draws)
    state["rng"] = draws.state
    return state
