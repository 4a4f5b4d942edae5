"""The player's home across games (issue 36): ``/games``, ``/profile``, ``/leaderboard``.

A player's view of every game they sit in, read by user through the index
``seats_user_game`` (migration 0009), never by a scan of the games. Ratings are
OpenSkill's Plackett-Luce model, one per player and game, updated once when a game
ends, in the transaction of its last move (:meth:`HomeOps._stage_changed`, the hook of
:meth:`bot.app.core.Core._commit`):

- the places come from the engine's result (``scores``: ``seat`` and ``rank``; ties
  share a rank);
- a seat the AI played for more than half of its turns counts for no one; a game with
  fewer than two counted human seats is not rated (AI seats never are);
- the result counts for the player who held the seat at the end (a substitute).

The shown rating is conservative: mu - 3 sigma. Games finished before migration 0009
are rated by :meth:`HomeOps.rebuild_ratings` at the first start after it.
"""

from __future__ import annotations

import asyncio
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot import jsontext
from bot.app.core import Core
from bot.records import AppError, Forbidden, GameInfo, NotFound
from bot.storage import Tx

RECENT_DAYS = 7  # finished games shown in /games
LEADERBOARD_MIN = 3  # rated games of a game to be on its leaderboard
MODEL = PlackettLuce()


@dataclass(frozen=True)
class HomeGame:
    """One line of ``/games``."""

    id: int
    game: str
    title: str
    status: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    round: str | None
    phase: str | None
    movers: tuple[str, ...]  # whose move (display names)
    mine: bool  # waiting on the asker
    deadline: float | None  # when the AI takes the seat over (the asker's, else the first)
    result: str | None  # a finished game's result, for the asker
    away_until: float | None  # the asker's vacation in this game
    version: int

    @property
    def link(self) -> str:
        guild = self.guild_id if self.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.thread_id or self.channel_id}"

    @property
    def rank(self) -> int:
        return 0 if self.mine else (1 if self.status != "finished" else 2)


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game (``/profile``)."""

    game: str
    title: str
    played: int
    finished: int
    won: int
    average_place: float | None
    median_move: float | None  # seconds
    deadlines_met: float | None  # share of their turns they played themselves
    rating: float | None  # mu - 3 sigma
    rated: int


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(old: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each entrant, each a team of one, from their places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in old]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=ranks)]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def places(result: Any) -> dict[str, int]:
    """{seat: rank} of an engine result (``scores``: seat and rank)."""
    rows = result.get("scores") if isinstance(result, dict) else None
    out: dict[str, int] = {}
    for r in rows or []:
        if isinstance(r, dict) and isinstance(r.get("seat"), str) and isinstance(r.get("rank"), int):
            out[r["seat"]] = r["rank"]
    return out


def holders(history: Iterable[Any], info: GameInfo) -> dict[str, list[tuple[int, int]]]:
    """{seat: [(from seq, user), ...]} of a game: who played each seat from which move."""
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for _, seat, from_seq, user_id, _ in history:
        out[seat].append((int(from_seq), int(user_id)))
    for s in info.seats:
        if s.seat not in out and s.user_id is not None:
            out[s.seat] = [(0, s.user_id)]
    return out


def holder_at(seq_holders: list[tuple[int, int]], seq: int) -> int | None:
    who = None
    for start, user in seq_holders:
        if start <= seq:
            who = user
    return who


class HomeOps(Core):
    """``/games``, profiles and ratings (see the module docstring)."""

    # -- /games --------------------------------------------------------------------------

    async def home_games(self, user_id: int) -> list[HomeGame]:
        """Every game ``user_id`` sits in: those waiting on them, then the running ones,
        then those finished in the last 7 days; oldest first within each."""
        since = self.clock() - RECENT_DAYS * 86400
        async with self.storage.read() as q:
            games, seats, waiting, reminders, stages, _ = await q.home_rows(user_id, since)
            away = await q.away_of([user_id])
            away_seats = {int(r[1]): float(r[4]) for r in await q.away_seats(user_id)} if away else {}
        seats_of: dict[int, list[Any]] = defaultdict(list)
        for r in seats:
            seats_of[int(r[0])].append(r)
        waits: dict[int, set[str]] = defaultdict(set)
        for r in waiting:
            waits[int(r[0])].add(str(r[1]))
        due: dict[tuple[int, str], float] = {}
        for gid, seat, kind, at in reminders:
            if kind == "takeover":
                due[(int(gid), str(seat))] = float(at)
        stage = {int(r[0]): (r[1], r[2]) for r in stages}
        out = []
        for g in games:
            gid, game, status = int(g[0]), str(g[1]), str(g[8])
            mine_seat = next(str(r[1]) for r in seats_of[gid] if r[3] == user_id)
            names = {str(r[1]): str(r[5]) for r in seats_of[gid]}
            pending = sorted(waits[gid])
            mine = status == "active" and mine_seat in pending
            round_, phase = stage.get(gid, (None, None))
            if gid not in stage and status in ("active", "paused"):
                round_, phase = await self._stage_of(gid)
            presenter = self.presenter(game)
            deadlines = [due[(gid, s)] for s in ([mine_seat] if mine else pending) if (gid, s) in due]
            out.append(HomeGame(
                id=gid, game=game, title=presenter.title, status=status,
                guild_id=g[4], channel_id=int(g[5]), thread_id=g[6],
                round=None if round_ is None else str(round_),
                phase=("lobby" if status == "lobby" else presenter.phase_title(phase) if phase is not None else None),
                movers=tuple(names.get(s, s) for s in pending) if status == "active" else (),
                mine=mine, deadline=min(deadlines) if deadlines else None,
                result=self._result_line(g[10], mine_seat, names) if status == "finished" else None,
                away_until=away_seats.get(gid), version=int(g[9]),
            ))
        return sorted(out, key=lambda h: (h.rank, h.id))

    async def _stage_of(self, game_id: int) -> tuple[Any, Any]:
        """(round, phase) of a game with no stored stage (started before migration 0009)."""
        info = await self.info(game_id)
        try:
            return self.reads.stage(self.engine(info.game), await self._state(info))
        except AppError:
            return None, None

    @staticmethod
    def _result_line(result_text: Any, seat: str, names: dict[str, str]) -> str:
        result = jsontext.loads(result_text) if isinstance(result_text, str) else result_text
        ranks = places(result)
        if seat not in ranks:
            return "finished"
        firsts = [names.get(s, s) for s, r in sorted(ranks.items(), key=lambda x: x[1]) if r == 1]
        mine = ranks[seat]
        head = "you won" if mine == 1 and len(firsts) == 1 else f"you were {ordinal(mine)} of {len(ranks)}"
        if mine == 1 and len(firsts) > 1:
            head = f"you shared 1st of {len(ranks)}"
        return head if mine == 1 else f"{head} (won by {', '.join(firsts)})"

    # -- ratings -------------------------------------------------------------------------

    async def _stage_changed(self, tx: Tx, info: GameInfo, stage: tuple[Any, Any], result: Any, now: float) -> None:
        await tx.put_stage(info.id, *stage)
        if result is not None:
            await self._rate(tx, info, result, now)

    async def _rate(self, tx: Tx, info: GameInfo, result: Any, now: float) -> bool:
        """Count a finished game's places once (False: counted before, or not rated)."""
        if not await tx.mark_rated(info.id, now):
            return False
        turns: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # seat -> [by the player, by the AI]
        for _, seat, actor, _, _ in await tx.seat_turns([info.id]):
            turns[str(seat)][actor != "player"] += 1
        ranks = places(result)
        entrants = [
            (s.user_id, ranks[s.seat]) for s in info.seats
            if s.user_id is not None and s.seat in ranks and 2 * turns[s.seat][1] <= sum(turns[s.seat])
        ]
        if len(entrants) < 2:
            return False
        old = await tx.ratings(info.game, [u for u, _ in entrants])
        start = (MODEL.mu, MODEL.sigma)
        new = rate([old.get(u, (*start, 0))[:2] for u, _ in entrants], [r for _, r in entrants])
        for (user, _), (mu, sigma) in zip(entrants, new, strict=True):
            await tx.put_rating(user, info.game, mu, sigma)
        return True

    async def rebuild_ratings(self, chunk: int = 100) -> int:
        """Rate the games finished before ratings existed (migration 0009 asks for it
        once), in the order they ended, ``chunk`` games a transaction (moves go on in
        between; a game is counted once, so a rebuild cut short goes on at the next
        start). Returns how many were rated."""
        async with self.storage.read() as q:
            if not await q.home_todo("rebuild_ratings"):
                return 0
            finished = sorted(await q.games_with_status("finished"), key=lambda g: (g.updated_at, g.id))
        n = 0
        for i in range(0, len(finished), chunk):
            async with self.storage.transaction() as tx:
                for row in finished[i:i + chunk]:
                    if row.result is not None:
                        n += await self._rate(tx, await self._info_q(tx, row.id), row.result, row.updated_at)
            await asyncio.sleep(0)
        async with self.storage.transaction() as tx:
            await tx.home_todo("rebuild_ratings", done=True)
        return n

    # -- /profile, /leaderboard ----------------------------------------------------------

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        async with self.storage.transaction() as tx:
            await tx.put_user_home(user_id, hidden=int(hidden))

    async def profile(self, user_id: int, viewer_id: int) -> list[GameRecord]:
        """``user_id``'s record per game, as ``viewer_id`` may see it (a hidden profile
        only to its owner)."""
        async with self.storage.read() as q:
            hidden, *_ = await q.user_home(user_id)
            if hidden and viewer_id != user_id:
                raise Forbidden("That player keeps their profile hidden.")
            games = await q.profile_games(user_id)
            ids = [g.id for g in games]
            infos = {g.id: await self._info_q(q, g.id) for g in games}
            history = await q.seat_history(ids)
            turns = await q.seat_turns(ids)
            ratings = await q.ratings_of_user(user_id)
            vacations = await q.away_log(user_id)
        hist: dict[int, list[Any]] = defaultdict(list)
        for r in history:
            hist[int(r[0])].append(r)
        who = {gid: holders(hist[gid], infos[gid]) for gid in ids}
        per: dict[str, dict[str, Any]] = defaultdict(lambda: {"played": 0, "finished": 0, "won": 0, "places": [],
                                                               "moves": [], "mine": 0, "missed": 0})
        for g in games:
            p = per[g.game]
            p["played"] += 1
            me = infos[g.id].seat_of(user_id)
            if g.status == "finished" and me is not None:
                rank = places(g.result).get(me.seat)
                if rank is not None:
                    p["finished"] += 1
                    p["won"] += rank == 1
                    p["places"].append(rank)
        for gid, seat, actor, seq, gap in turns:
            seats = who[int(gid)].get(str(seat))
            if not seats or holder_at(seats, int(seq)) != user_id:
                continue
            p = per[infos[int(gid)].game]
            if actor == "player":
                p["mine"] += 1
                if gap is not None:
                    p["moves"].append(float(gap))
            elif actor == "takeover" and not any(
                int(g) == int(gid) and s == seat and a <= int(seq) <= b for g, s, a, b in vacations
            ):  # the AI's moves for them while on vacation miss no deadline
                p["missed"] += 1
        out = []
        for game in sorted(set(per) | set(ratings)):
            p = per[game]
            mu_sigma = ratings.get(game)
            turns_ = p["mine"] + p["missed"]
            out.append(GameRecord(
                game=game, title=self.presenter(game).title, played=p["played"], finished=p["finished"], won=p["won"],
                average_place=statistics.fmean(p["places"]) if p["places"] else None,
                median_move=statistics.median(p["moves"]) if p["moves"] else None,
                deadlines_met=p["mine"] / turns_ if turns_ else None,
                rating=conservative(*mu_sigma[:2]) if mu_sigma else None,
                rated=mu_sigma[2] if mu_sigma else 0,
            ))
        return out

    async def leaderboard(
        self, game: str, members: Iterable[int] | None = None, *, guild_id: int | None = None
    ) -> list[tuple[int, float, int]]:
        """(user, conservative rating, rated games), best first, of the players with at
        least 3 rated games of ``game``, hidden profiles left out: among ``members``, or
        the players of the games of server ``guild_id``."""
        if game not in self.offered_games():
            raise NotFound("I don't know that game.")
        async with self.storage.read() as q:
            rows = {u: r for u, r in (await q.ratings(game)).items() if r[2] >= LEADERBOARD_MIN}
            hidden = await q.hidden_users(list(rows))
            if guild_id is not None:
                members = await q.guild_players(guild_id)
        among = None if members is None else set(members)
        board = [
            (u, conservative(mu, sg), n) for u, (mu, sg, n) in rows.items()
            if u not in hidden and (among is None or u in among)
        ]
        if not board:
            title = self.presenter(game).title
            raise NotFound(
                f"Nobody here has finished {LEADERBOARD_MIN} rated games of {title} yet"
                " (a rated game has at least two players who played their own seats)."
            )
        return sorted(board, key=lambda r: (-r[1], r[0]))
