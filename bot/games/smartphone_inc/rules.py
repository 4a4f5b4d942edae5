"""Smartphone Inc.'s ``/rules`` topics: the rules in short, and which topic each phase shows."""

from __future__ import annotations

RULES: dict[str, str] = {
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
