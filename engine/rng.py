"""All chance in a game, from a generator whose whole state is JSON kept in the game state.

The same seed and the same actions always give the same bytes. Two generator kinds:

- ``"blake2b"`` (every game set up since the seeds became unpredictable): keyed BLAKE2b
  in counter mode. The key is derived from the seed (128 bits or more, drawn by the bot
  from :mod:`secrets`); draw ``n`` is the first 8 bytes of ``BLAKE2b(n, key=key)``. BLAKE2b
  is a pseudorandom function, so its outputs do not reveal the key: seeing every
  shuffle of a game tells nothing about the draws still to come. State:
  ``{"kind": "blake2b", "key": "<64 hex digits>", "n": draws made}``.
- ``"splitmix64"`` (games set up before): a 64-bit integer. Its outputs give its state
  away (and 31-bit seeds could be brute-forced from an opening board), so new games never
  use it; it stays so that games started under it play on and replay byte for byte.

API (the game packages use exactly these two)::

    state["rng"] = initial_state(seed)        # a NEW game: the current kind
    rng = Rng(state["rng"]); rng.below(6); rng.shuffle(items); state["rng"] = rng.state

``initial_state(seed, kind)`` sets up an older kind (a game replayed under the generator
it started with); ``kind_of(state)`` tells which kind a generator state is.
"""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1

SPLITMIX64 = "splitmix64"
BLAKE2B = "blake2b"
KINDS = (SPLITMIX64, BLAKE2B)
CURRENT = BLAKE2B  # the kind a new game gets
_PERSON = b"boardroom.rng"  # BLAKE2 personalisation: keys for nothing else


# --- splitmix64 (games set up before the blake2b generator) --------------------------


def seed_state(seed: int) -> int:
    """The splitmix64 state for ``seed`` (the old kind; also the AI's own sampling)."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


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


# --- keyed BLAKE2b in counter mode (the current kind) ---------------------------------


def _seed_bytes(seed: int) -> bytes:
    return int(seed).to_bytes(max(1, (int(seed).bit_length() + 8) // 8), "big", signed=True)


def blake2b_key(seed: int) -> bytes:
    """The 32-byte generator key of ``seed`` (any integer)."""
    return hashlib.blake2b(_seed_bytes(seed), digest_size=32, person=_PERSON).digest()


def blake2b_u64(key: bytes, n: int) -> int:
    """Draw number ``n``: 64 bits of BLAKE2b keyed with ``key`` over the counter."""
    return int.from_bytes(hashlib.blake2b(n.to_bytes(16, "big"), key=key, digest_size=8).digest(), "big")


# --- the common API ------------------------------------------------------------------


def initial_state(seed: int, kind: str | None = None) -> Any:
    """The generator state a game starts from (treat it as opaque JSON): the current
    kind for a new game, or ``kind`` (one of :data:`KINDS`) for a game set up before."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError("the seed is an integer")
    kind = CURRENT if kind is None else kind
    if kind == BLAKE2B:
        return {"kind": BLAKE2B, "key": blake2b_key(seed).hex(), "n": 0}
    if kind == SPLITMIX64:
        return seed_state(seed)
    raise ValueError(f"unknown random generator {kind!r} (known: {', '.join(KINDS)})")


def kind_of(state: Any) -> str:
    """Which generator kind ``state`` (a generator state) is."""
    if isinstance(state, int) and not isinstance(state, bool):
        return SPLITMIX64
    if isinstance(state, dict) and state.get("kind") in KINDS:
        return str(state["kind"])
    raise ValueError("not a random generator state")


class Rng:
    """Mutable wrapper used inside one ``apply``; write ``.state`` back when done.
    Takes either kind of state and keeps drawing with that kind."""

    def __init__(self, state: Any) -> None:
        self.kind = kind_of(state)
        if self.kind == SPLITMIX64:
            self._sm = int(state) & _MASK
        else:
            key, n = state.get("key"), state.get("n")
            if not isinstance(key, str) or len(key) != 64 or isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError("not a blake2b generator state")
            self._key = bytes.fromhex(key)
            self._n = n

    @property
    def state(self) -> Any:
        """The generator state as JSON (a new object each time)."""
        if self.kind == SPLITMIX64:
            return self._sm
        return {"kind": BLAKE2B, "key": self._key.hex(), "n": self._n}

    def u64(self) -> int:
        """A random 64-bit value."""
        if self.kind == SPLITMIX64:
            self._sm, v = next_u64(self._sm)
            return v
        v = blake2b_u64(self._key, self._n)
        self._n += 1
        return v

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.u64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[Any]) -> list[Any]:
        """A shuffled copy (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
