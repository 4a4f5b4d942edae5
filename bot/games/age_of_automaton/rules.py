"""Age of Automaton's ``/rules`` topics: the rulebook in short, and which topic each phase
shows. The Achievements sentence depends on the rules version the game started under
(engine/age_of_automaton/versions.py): :func:`topics` gives the topics of one version, or
of both when there is no game to ask."""

from __future__ import annotations

from collections.abc import Mapping

# the Achievements rule of each rules version (the end of the "tracks" topic)
ACHIEVEMENTS: dict[int, str] = {
    1: (
        "**Achievements**: claimed for you automatically the moment you meet one (in turn "
        "order); the first to claim one also get 1 credit or 1 resource."
    ),
    2: (
        "**Achievements**: the moment you meet one it is offered to you (\"Claim Achievement …\" "
        "in your turn or Donation, a free action; it stays offered even if you stop meeting it, "
        "and you are asked before the final scoring); the first to meet one also get 1 credit "
        "or 1 resource."
    ),
    3: (
        "**Achievements**: the moment you meet one it is offered to you (\"Claim Achievement …\" "
        "in your turn or Donation, a free action; it stays offered even if you stop meeting it, "
        "and you are asked to claim it before each Audit and before the final scoring, so "
        "what it gives counts in the Audit); the first to meet one also get 1 credit or 1 "
        "resource."
    ),
}
OFFERED_SINCE = 2  # the first rules version where Achievements are offered
BEFORE_AUDIT_SINCE = 3  # the first rules version asking for the claims before each Audit
BOTH = ACHIEVEMENTS[3] + (
    f" (Games started before rules version {OFFERED_SINCE} claim them for you automatically "
    f"the moment you meet one; games started before rules version {BEFORE_AUDIT_SINCE} ask "
    "only before the final scoring.)"
)

RULES: dict[str, str] = {
    "overview": (
        "**Age of Automaton** (2-4 players, 5 rounds): each round has a Market phase, an Action "
        "phase, a Donation phase, an Audit phase (from round 2) and a Clean-up phase. You build "
        "and upgrade automatons (worker dice, Levels I-IV on your Technology track) and send them "
        "to main actions. Most VP after round 5 wins; ties: higher Reputation, then higher "
        "Reliability, then a shared victory. The rulebook has no solo mode: AI seats are "
        "boardroom's own bots."
    ),
    "draft": (
        "**Specialist draft** (secret, simultaneous, in your DMs): you get 4 Specialists; keep 1 "
        "and pass 3 to the left, keep 1 and pass 2, keep 1 and pass 1, then take the last card: "
        "each player ends with 4. The common Specialists (2 Starters + 1 random, 2 with 3 players, "
        "3 with 2) can be used by everyone with Contract tokens."
    ),
    "market": (
        "**Market phase**: the first player rolls the 3 Resource dice; the Market holds those "
        "tokens for the Purchasing action this round."
    ),
    "actions": (
        "**Action phase**: in turn order, one main action per turn, with special and free actions "
        "before or after it. Each main action once per round per player, and only one action per "
        "column (Prospect/Funding, Equipment/Assembling, R&D/Sponsorship, Sale/Purchasing) unless "
        "you play Overtime. 3 Action markers in rounds 1-3, 4 from round 4. Prospect, Equipment, "
        "R&D and Sale need an automaton: the leftmost free space; the rightmost space takes "
        "Level IV only. Pass when you cannot or do not want to act."
    ),
    "prospect": (
        "**Prospect**: roll 3 Level dice; each die at or below your automaton's level is a pass. "
        "Move up one space per pass while you meet each space's requirement (credits, R&D or "
        "Sale Order cards); passes left when a requirement fails are lost. You gain a space's "
        "benefits on entering it; only one player on the top space. Bonus: resources equal to "
        "the automaton's level in the track's colours. Overdrive (1 credit + 1 Reliability) after "
        "the roll lowers every die by 1 (never below I) and may be repeated."
    ),
    "equipment": (
        "**Equipment**: a Level I automaton takes the leftmost card, higher levels reach further "
        "(Level IV any card). Pay its cost less the discounts of your Equipment (never below 0); "
        "the row is refilled at once. Its one-time extra action is played at once with another "
        "automaton (a nested Equipment action gets no second extra). Put it in a column (2 at "
        "most; it never moves); its ability works once you place an Action marker in that "
        "column. Bonus: VP equal to the automaton's level."
    ),
    "rnd": (
        "**R&D**: take an R&D card: its upgrades and relationship logos apply at once. Bonus: "
        "credits equal to the level in round 1, any resources or credits equal to the level from "
        "round 2. End game: sets of different parts score 2/5/8/12/16."
    ),
    "sale": (
        "**Sale**: pay a Sale Order's resources, improve the relationships of its logos, gain 1 "
        "Reputation. Bonus: credits equal to the level. Sale Orders score their VP at the end."
    ),
    "other": (
        "**Funding**: 3 credits + 1 per engineer. **Assembling**: level up your first automaton "
        "by your Sale Orders (at most IV), plus one Level I automaton per engineer while unbuilt "
        "ones last. **Sponsorship**: take a tile (not refilled), gain it, and take the topmost "
        "free Next Turn Order spot (the first player cannot take first). **Purchasing**: the 3 "
        "Market tokens plus one Resource die per engineer."
    ),
    "special": (
        "**Special actions** cost 1 Reliability plus credits: Overtime 2 (a second action in a "
        "used column, played right before it), Overbuilt 3 (add a Level I automaton), Overclock "
        "2 (upgrade one automaton one level), Overdrive 1 (after a Prospect roll, every die -1). "
        "Reliability benefits are gained when the marker reaches them; below 0 the first time "
        "costs a further step and 2 credits, after that every loss costs 2 credits. Reliability "
        "is never gained back."
    ),
    "free": (
        "**Free actions**: play a Specialist when you hold its resources (you keep them); use a "
        "played Specialist once per round (it rotates); discard a Specialist for its resources "
        "plus a free Overtime, Overbuilt or Overclock (the Reliability is still lost); place a "
        "Contract token on a common Specialist to use it (once per player per round, 6 tokens, "
        "removed at Clean-up). You hold at most 10 resources: above that you discard at once."
    ),
    "donation": (
        "**Donation phase**, in reverse turn order: donate up to (advanced Prospect tracks + 2) "
        "resources and/or credits. The Donation marker moves one space each; a Reputation icon "
        "gives +1 Reputation (not when moved by a Donation-icon ability)."
    ),
    "audit": (
        "**Audit phase** (from round 2): roll the Audit die and move the marker. Each Audit card "
        "reached or passed is resolved: each requirement you fail gives a -3 VP token. The card "
        "is flipped."
    ),
    "cleanup": (
        "**Clean-up**: Reliability section 4 scores 1 VP. The Market empties, automatons and "
        "Equipment return, the leftmost card of each row is discarded and the rows refilled, the "
        "Sponsorship row is refilled (R1-R2 tiles leave after round 2), Contracts are removed, "
        "the turn order follows the Next Turn Order track, Specialists are unrotated."
    ),
    "tracks": (
        "**Tracks**: Relationships (green/yellow, blue rocket, orange planet companies) move only "
        "by Prospect, R&D and Sale, one space per logo; their values multiply your Achievements, "
        "played Specialists and Reliability section at the end. Reputation gives engineers and "
        "the VP tokens at spaces 5 and 10. "
    ),
    "scoring": (
        "**End of the game**, after round 5: in-game VP + Prospect VP + Equipment (1/2/3/5/7/9) + "
        "R&D sets + Sale Orders + Reputation + Donation + Relationship multipliers + Specialists "
        "- 3 per Audit token + workers' total level / 2 (rounded up) + 1 per 3 credits or "
        "resources. Ties: Reputation, then Reliability."
    ),
    "variant": (
        "**Limited Common Specialists** (a lobby option): only a player's first discarded "
        "Specialist goes to the common Specialists; any later discard of theirs leaves the game."
    ),
}

PHASE_TOPIC = {
    "draft": "draft",
    "market": "market",
    "action": "actions",
    "donation": "donation",
    "audit": "audit",
    "cleanup": "cleanup",
    "over": "scoring",
}


def topics(rules: int | None = None) -> Mapping[str, str]:
    """The topics for a game of rules version ``rules`` (None: no game here, so the
    Achievements rule of both versions is said)."""
    if rules is None:
        achievements = BOTH
    else:
        achievements = ACHIEVEMENTS[1 if rules < OFFERED_SINCE else max(v for v in ACHIEVEMENTS if v <= rules)]
    return {**RULES, "tracks": RULES["tracks"] + achievements}
