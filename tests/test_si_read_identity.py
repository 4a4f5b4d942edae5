"""The engine's read functions give the very same bytes after a speed-up (issue 9).

Seeded games of every module combination (``engine.simulate.module_mix``) are played
by the random and the greedy player; for every state reached, the digests below cover
the state itself, every seat's view and the public view, ``pending``, the legal
actions of each pending seat, ``events``, ``is_over``, ``result`` and the ``trace``
of every move. JSON is written
without sorting keys, so the order of keys counts too.

The expected digests were computed on the code before the speed-up of ``view``,
``pending`` and ``apply`` (commit d6f71b0) with ``python tests/test_si_read_identity.py``;
any change of an output byte changes them. A deliberate change of what the engine
shows is recorded here by computing them again (and saying so in the commit).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.errors import IllegalAction
from engine.simulate import module_mix, play_game
from engine.smartphone_inc.game import GAME

GAMES = {"random": range(40), "greedy": range(8)}

EXPECTED = {
    "states": "e11a1ea0f92c0b7739571ab0f9d218ffe44dbd52685e5f0adba7c1cb4fd0676e",
    "views": "950e55da58d4781c54e0d519d4f53463c0b69ae382f28a5adb1370109c4b30a7",
    "pending": "f43822d78b8a39f92d3da7cfe28e8578c1ec2b9f7a382eba8d36e9fb1aa4e8b2",
    "legal_actions": "ac2a0fc77c207a029597267ed6058ec815a2ff96dcab7ef97cf3868da130b05e",
    "events": "f36ba6a9347058f88905b6659abc82ce97d189f2d8909bd8597828fc7e1833d5",
    "traces": "f64c569d6212312ac232093ab73fa6c2f23bc9efef43b5741f290cfe2d4260b0",
}


def _text(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def digests() -> dict[str, str]:
    h = {k: hashlib.sha256() for k in EXPECTED}
    for kind, seeds in GAMES.items():
        for seed in seeds:
            n, options, steve = module_mix(seed, 0)
            seats = [f"p{i + 1}" for i in range(n)]
            if steve:
                options["automata"] = [seats[-1]]
            states = [GAME.setup(seats, seed, options)]
            _, log, _ = play_game("smartphone-inc", seats, seed, options, kind, on_state=states.append)
            for state, (seat, action) in zip(states, log, strict=False):
                h["traces"].update(_text(GAME.trace(state, seat, action)))
            for state in states:
                h["states"].update(_text(state))
                for seat in (None, *seats):
                    h["views"].update(_text(GAME.view(state, seat)))
                pend = GAME.pending(state)
                h["pending"].update(_text(pend))
                for seat in pend:
                    h["legal_actions"].update(_text(GAME.legal_actions(state, seat)))
                over = GAME.is_over(state)
                h["events"].update(_text([GAME.events(state), over]))
                if over:
                    h["events"].update(_text(GAME.result(state)))
                else:
                    try:
                        GAME.result(state)
                    except IllegalAction as exc:
                        h["events"].update(str(exc).encode())
    return {k: v.hexdigest() for k, v in h.items()}


def test_views_prompts_actions_and_states_are_unchanged():
    assert digests() == EXPECTED


def _containers(obj: Any, out: set[int]) -> set[int]:
    if isinstance(obj, dict | list):
        out.add(id(obj))
        for v in obj.values() if isinstance(obj, dict) else obj:
            _containers(v, out)
    return out


def test_views_prompts_and_actions_share_nothing_with_the_state():
    """A caller may change what it got (the planner adds keys to a view) without
    changing the game's state: no list or dict of the state is handed out."""
    for seed in (3, 5, 7, 12):
        n, options, steve = module_mix(seed, 0)
        seats = [f"p{i + 1}" for i in range(n)]
        if steve:
            options["automata"] = [seats[-1]]
        states = [GAME.setup(seats, seed, options)]
        play_game("smartphone-inc", seats, seed, options, "random", on_state=states.append)
        for state in states:
            mine = _containers(state, set())
            pend = GAME.pending(state)
            out = [GAME.view(state, seat) for seat in (None, *seats)] + [pend, GAME.events(state)]
            out += [GAME.legal_actions(state, seat) for seat in pend]
            if GAME.is_over(state):
                out.append(GAME.result(state))
            assert not _containers(out, set()) & mine


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1))
