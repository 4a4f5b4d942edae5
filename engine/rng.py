"""A tiny PRNG whose whole state is one JSON integer (splitmix64).

All chance in a game comes from here, with the state kept in the game state, so
the same seed and the same actions always give the same bytes.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def initial_state(seed: int) -> Any:
    """The generator state a new game starts from (treat it as opaque JSON)."""
    return seed_state(seed)


def next_u64(rng: int) -> tuple[int, int]:
    """Return (new_rng_state, random 64-bit value)."""
    rng = (rng + 0x9E3779B97F4A7C15) & _MASK
    z = rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return rng, z ^ (z >> 31)


def randbelow(rng: int, n: int) -> tuple[int, int]:
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        rng, v = next_u64(rng)
        if v < limit:
            return rng, v % n


def shuffled(rng: int, items: list[T]) -> tuple[int, list[T]]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        rng, j = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return rng, out


class Rng:
    """Mutable wrapper used inside one ``apply``; write ``.state`` back when done."""

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        self.state, v = randbelow(self.state, n)
        return v

    def shuffle(self, items: list[Any]) -> list[Any]:
        self.state, out = shuffled(self.state, items)
        return out

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
