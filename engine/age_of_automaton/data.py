"""Component data of Age of Automaton, loaded from ``data/*.json`` and checked against
the rulebook's counts at import (see DATA.md for what is reconstructed)."""

from __future__ import annotations

from functools import partial
from typing import Any

from engine.jsonstate import game_data

_load = partial(game_data, "engine.age_of_automaton")


BOARD: dict[str, Any] = _load("board.json")
EQUIPMENT: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("equipment.json")["cards"]}
_RND = _load("rnd.json")
PARTS: list[str] = _RND["parts"]
RND: dict[str, dict[str, Any]] = {c["id"]: c for c in _RND["cards"]}
SALES: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("sales.json")["cards"]}
_SPEC = _load("specialists.json")
SPECIALISTS: dict[str, dict[str, Any]] = {c["id"]: c for c in _SPEC["cards"] + _SPEC["starters"]}
STARTERS: list[str] = [c["id"] for c in _SPEC["starters"]]
DRAFTABLE: list[str] = [c["id"] for c in _SPEC["cards"]]
AUDITS: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("audits.json")["cards"]}
ACHIEVEMENTS: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("achievements.json")["cards"]}
BLOCKED: dict[str, dict[str, Any]] = {c["id"]: c for c in _load("blocked.json")["cards"]}
SPONSORSHIP: dict[str, dict[str, Any]] = {t["id"]: t for t in _load("sponsorship.json")["tiles"]}

COLOURS = ("red", "blue", "yellow")
TRACKS: dict[str, dict[str, Any]] = {t["id"]: t for t in BOARD["prospect_tracks"]}
TRACK_IDS: list[str] = [t["id"] for t in BOARD["prospect_tracks"]]
RELATIONSHIPS: dict[str, dict[str, Any]] = {t["id"]: t for t in BOARD["relationships"]["tracks"]}
REL_IDS: list[str] = [t["id"] for t in BOARD["relationships"]["tracks"]]
COLUMNS: list[list[str]] = BOARD["actions"]["columns"]
COLUMN_OF: dict[str, int] = {a: i for i, col in enumerate(COLUMNS) for a in col}
MAIN_ACTIONS: list[str] = [a for col in zip(*COLUMNS, strict=True) for a in col]
WORKER_ACTIONS: list[str] = BOARD["actions"]["worker_actions"]
SPACES: int = BOARD["actions"]["worker_spaces"]
IV_SPACE: int = BOARD["actions"]["level_iv_space"]
SPECIAL_COST: dict[str, int] = {k: v for k, v in BOARD["special_actions"].items() if k != "source"}
LIMIT: int = BOARD["starting"]["limit"]
ROUNDS: int = BOARD["rounds"]["count"]

ACTION_NAMES = {
    "prospect": "Prospect",
    "equipment": "Equipment",
    "rnd": "R&D",
    "sale": "Sale",
    "funding": "Funding",
    "assembling": "Assembling",
    "sponsorship": "Sponsorship",
    "purchasing": "Purchasing",
}
SPECIAL_NAMES = {"overtime": "Overtime", "overbuilt": "Overbuilt", "overclock": "Overclock", "overdrive": "Overdrive"}
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


def _check() -> None:
    counts = {
        "Equipment": (len(EQUIPMENT), 20),
        "R&D": (len(RND), 20),
        "Sale Order": (len(SALES), 20),
        "Specialist": (len(DRAFTABLE), 19),
        "Starter Specialist": (len(STARTERS), 2),
        "Audit A": (sum(1 for a in AUDITS.values() if a["side"] == "A"), 5),
        "Audit B": (sum(1 for a in AUDITS.values() if a["side"] == "B"), 5),
        "Achievement": (len(ACHIEVEMENTS), 12),
        "Blocked Action": (len(BLOCKED), 6),
        "Sponsorship R1-R2": (sum(1 for t in SPONSORSHIP.values() if t["rounds"] == "R1-R2"), 9),
        "Sponsorship R3-R5": (sum(1 for t in SPONSORSHIP.values() if t["rounds"] == "R3-R5"), 9),
    }
    for what, (have, want) in counts.items():
        if have != want:
            raise ValueError(f"{what} cards: {have}, the rulebook has {want}")
    for lvl in (1, 2, 3, 4):
        if sum(1 for a in ACHIEVEMENTS.values() if a["level"] == lvl) != 3:
            raise ValueError(f"need 3 Achievements of level {lvl}")
    if {a["type"] for a in AUDITS.values()} != {"credits", "resources", "cards", "prospect", "workers"}:
        raise ValueError("Audit cards must cover the five requirement types")
    rel = [t["values"] for t in BOARD["relationships"]["tracks"]]
    if rel != [[0, 1, 1, 2, 2, 3], [0, 1, 1, 2, 2, 3], [0, 1, 1, 2, 3, 4]]:
        raise ValueError("Relationship tracks differ from the rulebook")
    for group in (EQUIPMENT, RND, SALES, SPECIALISTS, AUDITS, ACHIEVEMENTS, BLOCKED, SPONSORSHIP):
        for item in group.values():
            if item.get("source") not in ("rulebook", "reconstructed"):
                raise ValueError(f"{item['id']} has no source")


_check()
