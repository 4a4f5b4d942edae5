"""The engine's read functions give the very same bytes after a speed-up (issue 9).

Seeded games of every module combination (``engine.simulate.module_mix``) are played
by the random and the greedy player; for every state reached, the digests below cover
the state itself, every seat's view and the public view, ``pending``, the legal
actions of each pending seat, ``events``, ``is_over``, ``result`` and the ``trace``
of every move. JSON is written
without sorting keys, so the order of keys counts too.

The expected digests were computed on the code before the speed-up of ``view``,
``pending`` and ``apply`` (commit d6f71b0) with ``python tests/test_si_read_identity.py``,
over all the games at once. Since issue 38 they are kept per part of the games (so that
the parts run side by side): the parts' digests were computed on a commit whose code
still gave the whole run's old digests, byte for byte;
any change of an output byte changes them. A deliberate change of what the engine
shows is recorded here by computing them again (and saying so in the commit).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.simulate import module_mix, play_game
from engine.smartphone_inc.game import GAME

# (player kind, first seed, seed past the last): five parts of the same games, so that
# pytest-xdist's workers share them (the whole took 10 s of CPU in one test)
CHUNKS = [("random", 0, 13), ("random", 13, 27), ("random", 27, 40), ("greedy", 0, 4), ("greedy", 4, 8)]

EXPECTED = {
    ("random", 0, 13): {
        "states": "c313c64c2e0c6a42ad7350d4e3fe3918e04cecb3e26ed6647e96a38fd8ae6d97",
        "views": "04dd6676fecb5a23f241e6de1ea8712cb992797b9f52146ac2ee630eee07079a",
        "pending": "961f146b0408829927c84d915bf6c7b68104c2bab5a8f4813f854d32096e8360",
        "legal_actions": "1cf0345c6962052b550eb70dcaacde1f149529886ed1e8f524224314f6d2c184",
        "events": "c46a03571794f3e79d715caed222cbea2a01996a7a436c52f7e5500c4e20f81e",
        "traces": "68f3755e3236fbe3c2121dc1296b8a31e16cc82211f01df51a961a62c45553e7",
    },
    ("random", 13, 27): {
        "states": "7c6d6fb162c32870bc803bee6886a6c23c110c4532a68d2ea90018d2aa622afd",
        "views": "b1f5ae09353bb88519d02faf3d741075d2a4142c766db7ccfb9d8e062ea774d9",
        "pending": "89ffaa33343f344a8e272866170b008014c01f68f1f7650a1bf8f1f4436c0365",
        "legal_actions": "2efa0767c6ade4710e3aeda6b9633789942395398c56a52125577affa58afa4a",
        "events": "bbd4950a311119ac2d34d9de1d3b74f3309f6628e4cfa720f4d6ed7dc2722286",
        "traces": "55652c9631a1cc1b654a463daf8a93a6a96502109876cb31bde7af4f3a182ff2",
    },
    ("random", 27, 40): {
        "states": "1a10420306e55e5aacb4d39657a8e692a9d377b8b23f00703a8f01b0366278a3",
        "views": "fa91397380db0c7ba43ed92c8f7c99f59f810d3b548f5d3b01796337fd923bde",
        "pending": "af102739d93aaff3f73f520dfa36cfe4ee8fa34e2a53cc049e88089c72da59a6",
        "legal_actions": "250aac4a0070bf7679856ac0cd1045a86f944cd54b6136c231768156691c7008",
        "events": "d508b7b4c8cf55dad9ccdc8385437183b5caee1c2a8b1fbc3635e095191e66c6",
        "traces": "a394554d7ba8b03f35e5c0651e6ce1baf473ec132c42407f1e25a4b24774d9b0",
    },
    ("greedy", 0, 4): {
        "states": "545d99a387a87eca8f0c459738fb0b071e71f2238f1f78c1681dc146a7885004",
        "views": "c5c3c6715c6b7ab92ddb855ab5adb84afd90eaac3c9d461a4d631b607e7b3503",
        "pending": "717b99213ac338be7d72977f5f833131a6d166e31a8b546b5856af7c9c9f2313",
        "legal_actions": "123fb283278f1b5e6c9437f67e17bd902674f4d6b4e244cace985aafb61a046a",
        "events": "78cbad77eb3cbe0ab2a40bd23e5d54b4bcb69494f89315364b7bbb0607b1835b",
        "traces": "a35a08bcbcc05a89c26166c9afa834b74eacd73c0d2d9db18c1ab9ae064aa019",
    },
    ("greedy", 4, 8): {
        "states": "c7ef024c971418dda9b0d0c7bb6d4269126d59e2dfa1bde83e3f00a5416b7a7b",
        "views": "f8b09a5fee2f91a520af0b490ce72951dca8819e5e7cac1093a779236d1f0716",
        "pending": "389701771fc38da5d327facfa18332579b9f987f32ec30660a810fde19353e0b",
        "legal_actions": "23344449ac280697be65d4578be13bc3dd870b98f3b870551d4a7e4931c8b240",
        "events": "f8b2eb88392893b8db046abf50a36f59274c3bce5513deb101395c1bc8cdf0de",
        "traces": "f59775ba4063216078f49fed6bd824e464daf5f780922018c1e2a769d1372a1b",
    },
}


KINDS = ("states", "views", "pending", "legal_actions", "events", "traces")


def _text(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def digests(kind: str, first: int, past: int) -> dict[str, str]:
    h = {k: hashlib.sha256() for k in KINDS}
    for seed in range(first, past):
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


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_views_prompts_actions_and_states_are_unchanged(chunk: tuple[str, int, int]) -> None:
    assert digests(*chunk) == EXPECTED[chunk]


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
    print(json.dumps({"/".join(map(str, c)): digests(*c) for c in CHUNKS}, indent=1))
