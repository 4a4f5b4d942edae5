"""``/rules`` topics of Mobile Markets, written from the rulebook (shared/rules/001)."""

from __future__ import annotations

RULES: dict[str, str] = {
    "overview": (
        "**Mobile Markets** — 1-4 companies make and sell smartphones for 5 rounds. Money is the score: "
        "the most money after round 5 wins (a tie goes to the lowest Starting Technology number).\n"
        "Each round: 1 Preparation · 2 Planning · 3 Pricing · 4 Technology · 5 Marketing · "
        "6 Production · 7 Sales · 8 Profit."
    ),
    "preparation": (
        "**Phase 1 — Preparation**\n"
        "• Price markers go back to the 5 space. Turn order: round 1 by Initiative, later rounds least money "
        "first (tie: lowest Starting Technology number).\n"
        "• A new Event is revealed; its text overrides the rules. Its Customer and Goods icons stay visible.\n"
        "• From round 2 the displays are refreshed: cards with a Discount token or costing 1 are discarded, "
        "the others get a Discount token, then Technology and Marketing refill to 4 cards, Features to 6.\n"
        "• Customers are added: the Setup Card's numbers plus every Event's Customer icons. Each goes under "
        "its price, below those already there. An empty deck is rebuilt from its discards."
    ),
    "planning": (
        "**Phase 2 — Planning** (secret, all at once)\n"
        "Lay one Pad on the other: at least 1 cell of the lower Pad covered, at least 1 visible, each cell "
        "wholly hidden or wholly visible.\n"
        "Visible cells: Price Up / Price Down move your price, Technology and Marketing give 1 point each, "
        "Production makes 1 Goods. Every covered cell makes 1 Goods too.\n"
        "Here you choose a plan **by what it gives** (price change, points, Goods); the picture shows the Pads."
    ),
    "pricing": (
        "**Phase 3 — Pricing**\n"
        "In turn order each company moves its marker from the 5 space by its Price Up and Down cells "
        "(prices 2-8). The first to arrive at a space takes its leftmost free spot. The new positions give "
        "the turn order until the next Preparation."
    ),
    "technology": (
        "**Phase 4 — Technology** (turn order)\n"
        "Buy at most 1 Technology card and any number of Feature cards with your Technology Points and "
        "Progress tokens. A Discount token takes 1 off a card's cost. Points left over become Progress tokens."
    ),
    "marketing": (
        "**Phase 5 — Marketing** (reverse turn order)\n"
        "Buy at most 1 Marketing Campaign card. Every point left must be spent on Private Customers, 1 point "
        "each, from the top of the Customer deck you choose (Variety-seeking, Regular or Complex). Points are "
        "never saved. A card bought here works at once."
    ),
    "production": (
        "**Phase 6 — Production**\n"
        "Goods = Goods icons on the Events + visible Production cells + covered cells, plus card effects."
    ),
    "sales": (
        "**Phase 7 — Sales** (turn order)\n"
        "1. Build the product: Feature cards in the 3 board slots (the third costs 1 more) and in "
        "Technology cards' slots.\n"
        "2. Net profit per sale = price − manufacturing cost (base 1 + cost icons, never below 0; it may "
        "be negative).\n"
        "3. Sell: first to your Private Customers (lowest price first), then the market, columns 2 to 8, "
        "bottom to top. You must sell while you can.\n"
        "• Regular: buys at its price or below. • Complex: at its price or below, and only if its needs "
        "are met. • Variety-seeking: at its price or below, or at any price if its needs are met. "
        "A \"/\" in a need: either feature will do. Stars: the product needs at least that many."
    ),
    "profit": (
        "**Phase 8 — Profit**\n"
        "Market share: 8 / 4 / 2 money for the most Goods sold (tied players share their places' sum, "
        "rounded down; 1-2 players: no third place; selling nothing earns nothing). Then end-of-round "
        "cards, then Goods sold × net profit. Sales piles are discarded, Features return to hand."
    ),
    "customers": (
        "**Customers** — three types, each card with a price (2-8), needs and Stars:\n"
        "🟩 **R** Regular: price only. 🟥 **C** Complex: price and needs. 🟦 **V** Variety-seeking: "
        "price, or needs met at any price. The pictures mark each type with its letter too."
    ),
    "end": (
        "**End of the game** — after round 5 (the Event deck is empty) the end-of-game cards are "
        "resolved; the most money wins, a tie goes to the lowest Starting Technology number."
    ),
    "steve": (
        "**Steve Jr.** — the solo opponent (difficulty easy, medium or hard: 0, 1 or 2 of his cards face "
        "up at the start). Each Planning a card of his is revealed and he follows its rows: price, discards "
        "from the displays, Private Customers, Goods, and a product from his cards' features. He wins ties "
        "for initiative and a tied game.\n"
        "_House rule_: Steve Jr. may also fill a seat in a 2-4 player game."
    ),
}

PHASE_TOPIC: dict[str, str] = {
    "preparation": "preparation",
    "planning": "planning",
    "pricing": "pricing",
    "technology": "technology",
    "marketing": "marketing",
    "production": "production",
    "sales": "sales",
    "profit": "profit",
    "over": "end",
}
