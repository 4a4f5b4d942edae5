"""Which rules, state shape and random generator this code plays Smartphone Inc. under.

A game keeps the rules and the generator it started with until it ends, across every
upgrade of the bot; new games get the current ones. Where a rule changes, the code
keeps the old behaviour reachable by branching on ``state.get("rules", 1)``.

``RULES``: the rules version a new game starts under, kept in ``state["rules"]`` (a
state without it is version 1). History:

1. the rulebook as first built: base game, Steve, the Update 1.1 Hardcore Mode option.
2. two corrections from an independent rule check: each colour starts on its space of
   the VP Scoreboard (``START_VP``, FAQ on Priority ties), and bottom cells under an
   "under" Improvement make no covered-cell Goods (Phase 3, read literally). The
   Update 1.1 modules (Directives, New Technologies, the 2-3 player board) are options
   and need no version.

``SCHEMA``: the shape of a saved state (``state["schema"]``); ``migrations.py``
upgrades an older one step by step when it is loaded. History:

1. the first shape;
2. ``"rules"`` is always there (``1`` for a game set up before).

The generator: ``state["rng"]`` tells its own kind (``engine.rng.kind_of``): an
integer is the splitmix64 generator of the games set up before the seeds became
unpredictable, ``{"kind": "blake2b", ...}`` the keyed BLAKE2b generator every new game
gets (``engine.rng.CURRENT``). It is recorded apart from the rules version, which did
not move for it.

Add a new upgrade fixture (tests/fixtures/make_upgrade_fixture.py) each time one of
these moves.
"""

RULES = 2
SCHEMA = 2
