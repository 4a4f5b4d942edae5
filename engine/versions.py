"""The rules version and the random generator a game runs under, for any game package.

A game keeps the rules version and the generator kind it started with until it ends
(see ``engine/smartphone_inc/versions.py``); the app records both in the games row and
in every export, and sets a game up again under them to replay its log::

    rules, kind = edition(state)                      # (1, "blake2b"): from a state
    state = setup_as(game, players, seed, options, rules=rules, rng=kind)

A game package that versions its rules takes ``rules=``/``rng=`` keywords in ``setup``
(None: the current ones) and says its current version in ``game.rules_version``. A
package that does not is called as before; its set-up must then match what the game
recorded, else the game is refused with a clear message instead of replaying under
other rules.
"""

from __future__ import annotations

import inspect
from typing import Any

from engine import rng as generators
from engine.errors import IllegalAction


def rules_version(game: Any) -> int:
    """The rules version a new game of ``game`` starts under (1 if it keeps none)."""
    return int(getattr(game, "rules_version", 1))


def edition(state: dict[str, Any]) -> tuple[int, str | None]:
    """(rules version, generator kind) of a game state; the kind is None when the state
    keeps no generator."""
    rules = state.get("rules", 1)
    raw = state.get("rng")
    try:
        kind: str | None = generators.kind_of(raw)
    except ValueError:
        kind = None
    return int(rules), kind


def export_edition(data: Any) -> tuple[int | None, str | None]:
    """(rules version, generator kind) the game of a boardroom export (``App.export``)
    runs under. An export of format 1 predates both: every such game ran under rules
    version 1 and the splitmix64 generator."""
    if data.get("format_version", 1) == 1:
        return data.get("rules") or 1, data.get("rng") or generators.SPLITMIX64
    return data.get("rules"), data.get("rng")


def _takes_edition(setup: Any) -> bool:
    try:
        params = inspect.signature(setup).parameters
    except (TypeError, ValueError):
        return False
    return ("rules" in params and "rng" in params) or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()
    )


def setup_as(
    game: Any,
    players: list[str],
    seed: int,
    options: dict[str, Any] | None,
    *,
    rules: int | None = None,
    rng: str | None = None,
) -> dict[str, Any]:
    """``game.setup`` under the recorded rules version and generator kind (None: the
    current ones, as for a new game)."""
    if rules is None and rng is None:
        return game.setup(players, seed, options)
    if _takes_edition(game.setup):
        return game.setup(players, seed, options, rules=rules, rng=rng)
    state = game.setup(players, seed, options)
    got_rules, got_rng = edition(state)
    if (rules is not None and rules != got_rules) or (rng is not None and got_rng is not None and rng != got_rng):
        raise IllegalAction(
            f"this game started under rules version {rules} with the {rng} generator, which"
            f" this boardroom cannot set up for {getattr(game, 'name', 'this game')}"
        )
    return state
