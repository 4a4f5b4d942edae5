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
    "directives": (
        "**Directives** (Update 1.1, option `directives=true`): common goals everyone chases, "
        "but only one company gets each. 5/6/7/8 are drawn for 2/3/4/5 players, all public. As "
        "soon as you meet a goal you may take that Directive, unless you took one earlier this "
        "round; the bot asks \"take Directive 7 (12 VP)?\" at that moment. You may decline it "
        "and take it in a later round if you meet the goal again then. Several meeting it at "
        "once: the active player takes it; with no active player, the lowest price. Taken "
        "Directives are flipped at the end of the round and score at the end of the game "
        "(under Hardcore: when flipped). Steve takes every Directive he may."
    ),
    "small-board": (
        "**2-3 player board** (Update 1.1, option `board=small`, 1-3 seats): a random first "
        "player picks a company, then the others clockwise. Then the last player chooses a "
        "starting region among the 3 medium (M) regions and places an Office there, then the "
        "others backwards. With 2 players or solo, 1 small and 1 medium Retailer are drawn and "
        "the last player places them in free regions of their size. Only 3 Improvements a "
        "round. Mixed Buyers buy if you meet either demand (price or Technology), still only "
        "1 Goods each, left to right, never skipping one you can sell to."
    ),
    "new-technologies": (
        "**New Technologies** (Update 1.1, option `technologies=`): 10 Technologies on the same "
        "6 symbol spaces: CEO (Wi-Fi: sell in your CEO's region in Phase 6; Gamepad: in Phase 7 "
        "the region with your Office and CEO buys whatever its free Buyers want), Patent "
        "(Gamepad: a second Goods to Buyers of a Technology you hold the Patent for; Li-Ion: 2 "
        "Goods per Patent at once and each round), World changing (4G: place a Retailer in a "
        "region with your Office, gain its bonus; NFC: Marketing Token), Spatial (GPS: +2 VP per "
        "Goods sold in 1 region; or 1 Goods per region you control in Phase 8) and Blitz "
        "(Wi-Fi: Goods on your Pads as Progress markers; Li-Ion: a Mini-upgrade). Sets: "
        "`first-add-on-game`, `overproduction`, `i-want-some-space`, or 6 of your choice joined "
        "by +. See also `/rules ceo`, `/rules marketing`, `/rules mini-upgrade`, `/rules blitz`."
    ),
    "ceo": (
        "**CEO** (Update 1.1): with a CEO Technology in play, every company's CEO starts in "
        "its starting region. In Logistics you may spend 1 Progress marker to move your CEO "
        "to any region (the option \"Move your CEO to ...\"). It only helps where you can sell: "
        "a region with your Office. Wi-Fi CEO: at the end of your Logistics turn you may sell "
        "Goods there. Gamepad CEO: in Selling Goods the Buyers there nobody sold to this round "
        "buy from you whatever they want (still left to right)."
    ),
    "marketing": (
        "**Marketing Token** (NFC Marketing, Update 1.1): once per round, in Research, spend 1 "
        "Research Progress marker to put your Marketing Token on the leftmost or rightmost "
        "empty Buyer of a region where you have an Office and no Token yet. From then on only "
        "you sell to that Buyer, whatever your price and Technologies (except the Gamepad "
        "CEO, which sells to every Buyer). Tokens stay for the game."
    ),
    "mini-upgrade": (
        "**Mini-upgrade** (Li-Ion Blitz, Update 1.1): when you gain the Technology, take 1 of "
        "the remaining Mini-upgrade tokens (one symbol and an open half). Place it in Planning "
        "like an Improvement (the planner offers it with your Improvements). Unplaced, it "
        "gives nothing (no Goods face down)."
    ),
    "blitz": (
        "**Blitz** (Update 1.1): Wi-Fi Blitz: in Production, after producing, you may put up to "
        "2 Goods on your active Research and/or Logistics symbols (1 each); each is 1 more "
        "Progress marker of that kind this round. Li-Ion Blitz: take a Mini-upgrade at once "
        "(`/rules mini-upgrade`). Blitz trades early scoring for speed."
    ),
}

PHASE_TOPIC = {
    "start": "small-board",
    "planning": "planning",
    "prices": "prices",
    "production": "production",
    "improve": "improve",
    "research": "research",
    "logistics": "logistics",
    "selling": "selling",
    "vp": "vp",
}
