"""Achievements (AA-ACH-01): "At any time during the game, players can place their own
Achievement tokens on any Achievement cards for which they meet the requirements and gain
the benefits IMMEDIATELY"; the first player(s) to fulfil a card also get 1 credit or 1
resource of any colour.

Rules version 2 (versions.py): the moment a player meets an unclaimed card it is offered
to that player (``state["offers"]``) and the first to fulfil it are noted
(``state["firsts"]``); claiming is the player's decision (``claim``), a free action in
their turn or Donation, and before the final scoring they are asked to claim what is
left. Rules version 1 (games started before): the engine claims every card met at once
(``claim_met``)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import donation, effects, technology
from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import ACHIEVEMENTS, TRACK_IDS
from engine.errors import IllegalAction


def stat(p: dict[str, Any], key: str) -> int:
    if key in ("equipment", "rnd", "sale"):
        return len(p[key])
    if key == "reputation":
        return p["rep"]
    if key == "specialists":
        return len(p["played"])
    if key == "prospect":
        return donation.advanced(p)
    if key == "prospect_height":
        return max(p["prospect"][t] for t in TRACK_IDS)
    if key == "donation":
        return p["donation"]
    if key == "built":
        return technology.built(p)
    raise ValueError(key)


def met(p: dict[str, Any], card: str) -> bool:
    return all(stat(p, k) >= n for k, n in ACHIEVEMENTS[card]["need"].items())


def describe(card: str) -> str:
    """"1 Equipment card → 1 VP": the Achievement's need (singular for 1) and its gain."""
    words = {  # (one, more)
        "equipment": ("Equipment card", "Equipment cards"),
        "rnd": ("R&D card", "R&D cards"),
        "sale": ("Sale Order", "Sale Orders"),
        "reputation": ("reputation", "reputation"),
        "specialists": ("Specialist played", "Specialists played"),
        "prospect": ("Prospect track advanced", "Prospect tracks advanced"),
        "prospect_height": ("space up one Prospect track", "spaces up one Prospect track"),
        "donation": ("Donation space", "Donation spaces"),
        "built": ("automaton on the Technology track", "automatons on the Technology track"),
    }
    need = ", ".join(f"{n} {words[k][n != 1]}" for k, n in ACHIEVEMENTS[card]["need"].items())
    return f"{need} → {effects.describe(ACHIEVEMENTS[card]['gain'])}"


def check(state: State) -> bool:
    """Rules 2: offer every Achievement a player meets now (False: nothing changes that
    needs the loop again). Rules 1: claim them at once (True if any was claimed)."""
    if state.get("rules", 1) >= 2:
        offer_met(state)
        return False
    return claim_met(state)


def offer_met(state: State) -> None:
    """Offer each unclaimed card to every player who meets it now and has not been offered
    it yet; the players meeting a card nobody had met before are its first."""
    offers, firsts = state["offers"], state["firsts"]
    for card, marks in state["achievements"].items():
        if len(marks) == len(state["order"]):
            continue
        now = [
            seat
            for seat in state["order"]
            if seat not in marks and card not in offers[seat] and met(state["players"][seat], card)
        ]
        if not now:
            continue
        if card not in firsts:
            firsts[card] = list(now)
        info = ACHIEVEMENTS[card]
        for seat in now:
            offers[seat].append(card)
            say(state, f"{seat} meets the Achievement {info['name']} and may claim it ({describe(card)}).")


def first(state: State, seat: str, card: str) -> bool:
    """Whether ``seat`` was among the first to fulfil ``card`` (rules 2)."""
    return seat in state["firsts"].get(card, [])


def claim(state: State, seat: str, card: Any) -> None:
    """Place ``seat``'s Achievement marker on an offered card: its benefit at once, and the
    first-fulfilment bonus (1 credit or any 1 resource) if it was among the first."""
    offers = state["offers"][seat]
    if not isinstance(card, str) or card not in ACHIEVEMENTS:
        raise IllegalAction("choose one of the Achievements on the board")
    if card not in offers:
        if seat in state["achievements"].get(card, []):
            raise IllegalAction(f"you already claimed {ACHIEVEMENTS[card]['name']}")
        raise IllegalAction(f"you do not meet {ACHIEVEMENTS[card]['name']} ({describe(card).split(' → ')[0]})")
    offers.remove(card)
    state["achievements"][card].append(seat)
    state["players"][seat]["achievements"].append(card)
    info = ACHIEVEMENTS[card]
    say(state, f"{seat} claims the Achievement {info['name']} ({describe(card)}).")
    atoms = list(info["gain"])
    if first(state, seat, card):
        atoms.append({"any_or_credits": 1, "why": f"first to achieve {info['name']}"})
    effects.queue(state, seat, atoms, why=info["name"])


def claim_met(state: State) -> bool:
    """Rules 1: claim every Achievement met now, in turn order; True if any was claimed."""
    claimed = False
    stats: dict[str, dict[str, int]] = {}
    for card, marks in state["achievements"].items():
        if len(marks) == len(state["order"]):
            continue
        first = not marks
        need = ACHIEVEMENTS[card]["need"]
        for seat in state["order"]:
            if seat in marks:
                continue
            p = state["players"][seat]
            mine = stats.setdefault(seat, {})
            ok = True
            for k, n in need.items():
                if k not in mine:
                    mine[k] = stat(p, k)
                if mine[k] < n:
                    ok = False
                    break
            if not ok:
                continue
            marks.append(seat)
            p["achievements"].append(card)
            info = ACHIEVEMENTS[card]
            say(state, f"{seat} achieves {info['name']} ({describe(card)}).")
            atoms = list(info["gain"])
            if first:
                atoms.append({"any_or_credits": 1, "why": f"first to achieve {info['name']}"})
            effects.queue(state, seat, atoms, why=info["name"])
            claimed = True
    return claimed


__all__ = ["check", "claim", "claim_met", "first", "met", "describe", "offer_met"]
