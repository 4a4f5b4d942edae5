"""Who may open a game's table (issue 34 §1): its seated players, and the members of the
game's server who can see the game's channel or thread, as Discord says (the bot asks
through ``can_see``; :func:`bot.cogs.table.discord_can_see` in the bot). Everyone else
is told the game does not exist (404, the very answer for a game id nobody has).

``can_see(user_id, guild_id, place_id)`` answers are kept ``TTL`` seconds (a member who
loses the channel loses the table within that time); an error asking Discord is a "no"
that is not kept. Without ``can_see`` (a local game, the tests of the server alone) only
the seated players see a game.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.records import GameInfo

log = logging.getLogger("boardroom.table")

CanSee = Callable[[int, "int | None", int], Awaitable[bool]]
TTL = 60.0
MAX_KEPT = 20_000


class Access:
    def __init__(self, can_see: CanSee | None = None, *, ttl: float = TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.can_see = can_see
        self.ttl, self.clock = ttl, clock
        self._kept: OrderedDict[tuple[int, int | None, int], tuple[bool, float]] = OrderedDict()
        self.asked = 0  # questions that went to ``can_see`` (not answered from the cache)

    @staticmethod
    def seated(info: GameInfo, user_id: int) -> bool:
        return info.seat_of(user_id) is not None

    async def allows(self, info: GameInfo, user_id: int) -> bool:
        """Whether ``user_id`` may see ``info``'s game at the table."""
        if self.seated(info, user_id):
            return True
        if self.can_see is None:
            return False
        key = (user_id, info.guild_id, info.place_id)
        now = self.clock()
        kept = self._kept.get(key)
        if kept is not None and kept[1] > now:
            return kept[0]
        self.asked += 1
        try:
            answer = bool(await self.can_see(user_id, info.guild_id, info.place_id))
        except Exception:
            log.warning("could not ask Discord who sees game %s's channel; the table answers only its players", info.id)
            return False
        self._kept[key] = (answer, now + self.ttl)
        self._kept.move_to_end(key)
        while len(self._kept) > MAX_KEPT:
            self._kept.popitem(last=False)
        return answer
