"""Live updates: a page waits for its game's next version (long-poll).

The app calls its listeners with a game id after every change (an action from the
table or from Discord, an AI move, an undo): :meth:`Live.changed` wakes every page
waiting on that game, which then fetches its own seat's view again. A waiter also
re-reads the game's version once a second, so a change made by another process (or
one whose listener call was missed) shows within about a second all the same.

When the server stops, :meth:`Live.close` answers every waiter at once: the server's
shutdown does not wait out their long-polls (up to :data:`WAIT` each).

A game's event lives only while someone waits on it (counted; the last one out removes
it), so waiters that come and go leave nothing behind. The server bounds how many wait
and lets nobody wait on a game they may not see (or that does not exist).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

POLL = 1.0  # seconds between two reads of the version while waiting
WAIT = 20.0  # the longest one request waits (then the page asks again)


class Live:
    def __init__(self) -> None:
        self._events: dict[int, asyncio.Event] = {}
        self._waiting: dict[int, int] = {}  # game id -> requests waiting on it
        self.closed = False

    @property
    def waiting(self) -> int:
        """Requests waiting now, all games together."""
        return sum(self._waiting.values())

    @property
    def games(self) -> int:
        """Games someone waits on (each holds one event)."""
        return len(self._events)

    async def changed(self, game_id: int) -> None:
        """An app listener: the game moved on."""
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def close(self) -> None:
        """The server stops: every waiter answers now, and a new one at once."""
        self.closed = True
        for event in self._events.values():
            event.set()

    async def wait(
        self, game_id: int, after: int, version: Callable[[], Awaitable[int]], timeout: float = WAIT
    ) -> int:
        """The game's version once it is past ``after``, or the same one after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._waiting[game_id] = self._waiting.get(game_id, 0) + 1
        try:
            while True:
                event = self._events.setdefault(game_id, asyncio.Event())
                now = await version()
                left = deadline - loop.time()
                if now != after or left <= 0 or self.closed:
                    return now
                try:
                    await asyncio.wait_for(event.wait(), min(POLL, left))
                except TimeoutError:
                    pass
        finally:
            self._waiting[game_id] -= 1
            if not self._waiting[game_id]:
                del self._waiting[game_id]
                self._events.pop(game_id, None)
