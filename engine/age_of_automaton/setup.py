"""Setup and starting resources (AA-SET-01..12)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State
from engine.age_of_automaton.data import (
    ACHIEVEMENTS,
    AUDITS,
    BLOCKED,
    BOARD,
    DRAFTABLE,
    EQUIPMENT,
    IV_SPACE,
    RND,
    SALES,
    SPACES,
    SPONSORSHIP,
    STARTERS,
    TRACK_IDS,
    WORKER_ACTIONS,
)
from engine.age_of_automaton.versions import KNOWN, RULES
from engine.errors import IllegalAction
from engine.rng import Rng, initial_state

SCHEMA = 1
COLOUR_NAMES = ["orange", "purple", "green", "white"]
ROW = 4


def sponsorship_row_size(n: int) -> int:
    return {2: 3, 3: 4}.get(n, 5)


def commons_random(n: int) -> int:
    return {2: 3, 3: 2}.get(n, 1)


def new_player(index: int) -> dict[str, Any]:
    start = BOARD["starting"]
    tech = [0, 0, 0, 0]
    for lvl in start["workers"][index]:
        tech[lvl - 1] += 1
    return {
        "colour": COLOUR_NAMES[index],
        "credits": start["credits"][index],
        "res": dict(start["resources"]),
        "vp": 0,
        "tech": tech,
        "unbuilt": start["dice"] - len(start["workers"][index]),
        "placed": 0,
        "prospect": {t: 0 for t in TRACK_IDS},
        "rep": 0,
        "donation": 0,
        "rel": {"green": 0, "blue": 0, "orange": 0},
        "reliability": 0,
        "equipment": [],
        "rnd": [],
        "sale": [],
        "hand": [],
        "played": [],
        "rotated": [],
        "contracts": start["contracts"],
        "achievements": [],
        "audit_tokens": 0,
        "markers": [],
        "markers_total": BOARD["rounds"]["markers"][0],
        "discarded": 0,
        "passed": False,
    }


def fill_row(rng: Rng, row: list[Any], deck: list[str], discard: list[str], size: int = ROW) -> None:
    """Draw into the rightmost empty spaces, reshuffling the discards when the deck runs out."""
    while len(row) < size:
        if not deck:
            if not discard:
                return
            deck.extend(rng.shuffle(discard))
            discard.clear()
        row.append(deck.pop(0))


def setup(
    players: list[str],
    seed: int,
    options: dict[str, Any] | None,
    rules: int | None = None,
    rng_kind: str | None = None,
) -> State:
    """A new game under the current rules and generator (``rules``/``rng_kind``: the ones
    an older game started with, to replay its log; see versions.py)."""
    options = dict(options or {})
    rules = RULES if rules is None else rules
    if rules not in KNOWN:
        raise IllegalAction(f"this boardroom knows Age of Automaton rules versions {', '.join(map(str, KNOWN))}, not {rules}")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise IllegalAction("Age of Automaton is for 2 to 4 players")
    if len(set(players)) != len(players) or not all(isinstance(s, str) and s for s in players):
        raise IllegalAction("each seat needs its own name")
    if options.pop("automata", None):  # the protocol's engine-played seats: none here
        raise IllegalAction("Age of Automaton has no automaton players of its own (the rulebook has no solo mode)")
    unknown = set(options) - {"limited_common_specialists"}
    if unknown:
        raise IllegalAction(f"unknown option {sorted(unknown)[0]!r}")
    n = len(players)
    rng = Rng(initial_state(seed, rng_kind))
    decks = {
        "equipment": rng.shuffle(sorted(EQUIPMENT)),
        "rnd": rng.shuffle(sorted(RND)),
        "sale": rng.shuffle(sorted(SALES)),
    }
    rows: dict[str, list[str]] = {"equipment": [], "rnd": [], "sale": []}
    discards: dict[str, list[str]] = {"equipment": [], "rnd": [], "sale": []}
    for _ in range(ROW):  # one card per deck at a time (AA-SET-01)
        for kind in ("equipment", "rnd", "sale"):
            rows[kind].append(decks[kind].pop(0))
    early = rng.shuffle(sorted(t for t, v in SPONSORSHIP.items() if v["rounds"] == "R1-R2"))
    late = rng.shuffle(sorted(t for t, v in SPONSORSHIP.items() if v["rounds"] == "R3-R5"))
    spon_row: list[str] = []
    fill_row(rng, spon_row, early, [], sponsorship_row_size(n))
    achievements = []
    for lvl in (1, 2, 3, 4):
        achievements.append(rng.choice(sorted(a for a, v in ACHIEVEMENTS.items() if v["level"] == lvl)))
    audit_a = rng.shuffle(sorted(a for a, v in AUDITS.items() if v["side"] == "A"))[:2]
    audit_b = rng.shuffle(sorted(a for a, v in AUDITS.items() if v["side"] == "B"))[:2]
    specialists = rng.shuffle(list(DRAFTABLE))
    k = commons_random(n)
    commons = list(STARTERS) + specialists[:k]
    specialists = specialists[k:]
    hands = {}
    for s in players:
        hands[s] = specialists[:4]
        specialists = specialists[4:]
    tokens = BOARD["vp_tokens"]["two_players"] if n == 2 else BOARD["vp_tokens"]["stack"]
    spaces = {a: [None] * SPACES for a in WORKER_ACTIONS}
    if n == 2:  # AA-SET-08: one space of each worker action is blocked for the game
        for a in WORKER_ACTIONS:
            spaces[a][0] = "blocked"
    state: State = {
        "game": "age-of-automaton",
        "schema": SCHEMA,
        "rules": rules,
        "seed": seed,
        "version": 0,
        "options": options,
        "seats": list(players),
        "players": {s: new_player(i) for i, s in enumerate(players)},
        "round": 1,
        "phase": "draft",
        "order": list(players),
        "next_order": [None] * n,
        "turn": None,
        "donors": [],
        "asks": [],
        "queue": [],
        "log": [],
        "rows": rows,
        "decks": decks,
        "discards": discards,
        "sponsorship": {"row": spon_row, "deck": early, "late": late, "discard": []},
        "achievements": {a: [] for a in achievements},
        "audit": {"cards": audit_a + audit_b, "flipped": [False] * 4, "pos": 0},
        "commons": commons,
        "contracts_on": {c: [] for c in commons},
        "box": specialists,
        "removed": [],
        "market": [],
        "dice": None,
        "spaces": spaces,
        "blocked": {"deck": rng.shuffle(sorted(BLOCKED)) if n == 3 else [], "discard": [], "now": None},
        "vp_tokens": {str(sp): list(tokens) for sp in BOARD["reputation"]["token_spaces"]},
        "draft": {"hands": hands, "kept": {s: [] for s in players}, "picks": {s: None for s in players}, "pass": 1},
        "result": None,
        "rng": rng.state,
    }
    if rules >= 2:  # Achievements are offered, then claimed by the player (versions.py)
        state["offers"] = {s: [] for s in players}
        state["firsts"] = {}
    if rules >= 4:  # the VP each player scored this round, by source (versions.py)
        state["round_vp"] = {"round": 1, "vp": {}}
    if IV_SPACE != SPACES - 1:
        raise ValueError("the Level IV space is the rightmost")
    return state
