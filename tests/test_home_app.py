"""The player's home in the App (issue 36): /games, ratings, profiles, leaderboards."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fakegame import GAME, FakeClock, new_app
from openskill.models import PlackettLuce

from bot.app import App
from bot.records import AppError, Conflict, Forbidden, NotFound
from bot.storage import Storage

NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dee", 5: "Eve"}


@pytest.fixture
async def storage(tmp_path: Path):
    s = await Storage.open(tmp_path / "home.db")
    yield s
    await s.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def app(storage: Storage, clock: FakeClock) -> App:
    return await new_app(storage, clock)


async def started(app: App, users: list[int], *, channel: int, guild: int = 7, bots: int = 0, rounds: int = 1) -> int:
    info = await app.create_game(
        "fake", channel_id=channel, host_id=users[0], host_name=NAMES[users[0]], guild_id=guild,
        options={"rounds": rounds},
    )
    for u in users[1:]:
        await app.join(info.id, u, NAMES[u])
    for _ in range(bots):
        await app.add_ai(info.id, users[0], "bot")
    await app.start(info.id, users[0], seed=1)
    return info.id


async def move(app: App, gid: int, user: int, action: dict[str, Any]) -> None:
    info = await app.info(gid)
    out = await app.act(gid, user, None, action, info.version)
    assert out.status == "applied", out.message


async def play_out(app: App, gid: int, picks: dict[int, int], takes: dict[int, int]) -> None:
    """One round of the fake game: everyone picks, then each takes in seat order."""
    for user, n in picks.items():
        await move(app, gid, user, {"pick": n})
    info = await app.info(gid)
    for s in sorted(info.seats, key=lambda s: s.position):
        if s.user_id is not None and s.user_id in takes and await app.prompt(gid, s.seat):
            await move(app, gid, s.user_id, {"take": takes[s.user_id]})


# --- /games -------------------------------------------------------------------------------


async def test_games_lists_only_the_askers_games_waiting_first(app: App, clock: FakeClock) -> None:
    a = await started(app, [1, 2], channel=100, guild=7)  # both pick first
    b = await started(app, [2, 3], channel=200, guild=8)  # on another server
    c = await started(app, [3, 4], channel=300, guild=8)  # not 2's
    await move(app, a, 2, {"pick": 1})  # in game a, Ann is now awaited, not Bob
    games = await app.home_games(2)
    assert [g.id for g in games] == [b, a]  # b waits on Bob: first
    first, second = games
    assert first.mine and not second.mine
    assert first.guild_id == 8 and first.link == "https://discord.com/channels/8/200"
    assert second.movers == ("Ann",) and second.round == "1" and second.phase is not None
    assert first.deadline is not None  # the AI takeover (default settings)
    assert c not in [g.id for g in await app.home_games(2)]
    assert [g.id for g in await app.home_games(4)] == [c]
    assert await app.home_games(99) == []


async def test_games_shows_finished_games_for_a_week_with_the_result(app: App, clock: FakeClock) -> None:
    gid = await started(app, [1, 2], channel=100)
    await play_out(app, gid, {1: 3, 2: 1}, {1: 2, 2: 0})
    [g] = await app.home_games(2)
    assert g.status == "finished" and g.result is not None and "Ann" in g.result and "2nd" in g.result
    [g] = await app.home_games(1)
    assert g.result == "you won"
    clock.advance(8 * 86400)
    assert await app.home_games(1) == []


async def test_games_query_uses_the_index(storage: Storage) -> None:
    async with storage.read() as q:
        plan = await q._all(
            "EXPLAIN QUERY PLAN SELECT game_id FROM seats INDEXED BY seats_user_game WHERE user_id = ?", (1,)
        )
    assert any("seats_user_game" in str(r[-1]) for r in plan)


# --- ratings -------------------------------------------------------------------------------


async def test_a_finished_three_player_game_updates_three_ratings(app: App, storage: Storage) -> None:
    gid = await started(app, [1, 2, 3], channel=100)
    await play_out(app, gid, {1: 3, 2: 2, 3: 1}, {1: 2, 2: 1, 3: 0})
    info = await app.info(gid)
    assert info.status == "finished"
    ranks = {r["seat"]: r["rank"] for r in info.result["scores"]}
    # openskill by hand, from the places alone
    model = PlackettLuce()
    users = [s.user_id for s in sorted(info.seats, key=lambda s: s.position)]
    seats = {s.user_id: s.seat for s in info.seats}
    expected = model.rate([[model.rating()] for _ in users], ranks=[ranks[seats[u]] for u in users])
    async with storage.read() as q:
        got = await q.ratings("fake")
    assert set(got) == {1, 2, 3}
    for u, [r] in zip(users, expected, strict=True):
        assert got[u][0] == pytest.approx(r.mu) and got[u][1] == pytest.approx(r.sigma) and got[u][2] == 1
    winner = next(u for u in users if ranks[seats[u]] == 1)
    assert max(got, key=lambda u: got[u][0]) == winner
    # counted once: rating it again changes nothing
    async with storage.transaction() as tx:
        assert not await app._rate(tx, info, info.result, 0.0)
    async with storage.read() as q:
        assert await q.ratings("fake") == got


async def test_against_the_ai_alone_no_rating(app: App, storage: Storage) -> None:
    gid = await started(app, [1], channel=100, bots=2)
    await play_out(app, gid, {1: 3}, {1: 2})
    assert (await app.info(gid)).status == "finished"
    async with storage.read() as q:
        assert await q.ratings("fake") == {}


async def test_a_seat_the_ai_mostly_played_counts_for_no_one(app: App, storage: Storage) -> None:
    gid = await started(app, [1, 2, 3], channel=100)
    info = await app.info(gid)
    cid = info.seat_of(3)
    await app.take_over(gid, cid.seat, user_id=None)  # the AI plays Cid's seat from the start
    await play_out(app, gid, {1: 3, 2: 1}, {1: 2, 2: 0})
    assert (await app.info(gid)).status == "finished"
    async with storage.read() as q:
        got = await q.ratings("fake")
    assert set(got) == {1, 2}


async def test_rebuild_rates_games_finished_before(app: App, storage: Storage) -> None:
    gid = await started(app, [1, 2], channel=100)
    await play_out(app, gid, {1: 3, 2: 1}, {1: 2, 2: 0})
    async with storage.transaction() as tx:  # as before migration 0009: nothing rated, asked to rebuild
        await tx._write("DELETE FROM ratings")
        await tx._write("DELETE FROM rated_games")
        await tx._write("INSERT OR IGNORE INTO home_todo (what) VALUES ('rebuild_ratings')")
    assert await app.rebuild_ratings() == 1
    assert await app.rebuild_ratings() == 0  # once
    async with storage.read() as q:
        assert set(await q.ratings("fake")) == {1, 2}


# --- profile and leaderboard ---------------------------------------------------------------


async def test_profile_and_leaderboard(app: App, clock: FakeClock) -> None:
    for n in range(3):
        gid = await started(app, [1, 2, 3], channel=100 + n)
        clock.advance(60)
        await play_out(app, gid, {1: 3, 2: 2, 3: 1}, {1: 2, 2: 1, 3: 0})
    [rec] = await app.profile(1, viewer_id=2)
    assert (rec.played, rec.finished, rec.rated) == (3, 3, 3)
    assert rec.won + 0 <= 3 and rec.average_place is not None and rec.deadlines_met == 1.0
    assert rec.median_move is not None and rec.rating is not None
    board = await app.leaderboard("fake", members=[1, 2, 3])
    assert [u for u, _, _ in board] == sorted([1, 2, 3], key=lambda u: -dict((x, r) for x, r, _ in board)[u])
    assert len(board) == 3
    assert [u for u, _, _ in await app.leaderboard("fake", members=[1, 2])] != []
    await app.set_hidden(1, True)
    with pytest.raises(Forbidden, match="hidden"):
        await app.profile(1, viewer_id=2)
    assert await app.profile(1, viewer_id=1)  # their own
    assert 1 not in [u for u, _, _ in await app.leaderboard("fake")]
    with pytest.raises(NotFound, match="Nobody"):
        await app.leaderboard("fake", members=[4, 5])
    assert {u for u, _, _ in await app.leaderboard("fake", guild_id=7)} == {2, 3}  # the players of its games
    with pytest.raises(NotFound, match="Nobody"):
        await app.leaderboard("fake", guild_id=8)


async def test_no_game_in_the_profile_is_empty(app: App) -> None:
    assert await app.profile(42, viewer_id=42) == []
    assert GAME.name == "fake"


# --- /away -------------------------------------------------------------------------------


async def takeover_due(app: App, gid: int, seat: str) -> float | None:
    return next((d.due_at for d in await app.deadlines(gid) if d.seat == seat and d.kind == "takeover"), None)


async def test_away_one_game_frozen_one_played_by_the_ai(app: App, clock: FakeClock) -> None:
    day = 86400.0
    frozen = await started(app, [1, 2], channel=100)
    by_ai = await started(app, [1, 2], channel=200)
    assert await app.set_vacation_policy(frozen, 1, cap_days=2) == ("freeze", 2)
    await app.set_vacation_policy(by_ai, 1, policy="ai")
    takeover_hours = (await app.info(frozen)).settings.takeover_after_hours
    start = clock()
    until, games = await app.go_away(2, 3)
    assert until == start + 3 * day
    assert {(g.game_id, g.mode, g.ends_at) for g in games} == {(frozen, "freeze", start + 2 * day), (by_ai, "ai", until)}
    # frozen: Bob's deadline counts from the end of his vacation there
    assert await takeover_due(app, frozen, "bob") == start + 2 * day + takeover_hours * 3600
    # the AI plays for him in the other game: his pick is made
    info = await app.info(by_ai)
    assert info.seat_of(2).ai_takeover and await app.prompt(by_ai, "bob") is None
    assert {g.id: g.away_until for g in await app.home_games(2)} == {frozen: start + 2 * day, by_ai: until}
    assert await app.away_in_game(frozen) == {"bob": start + 2 * day}
    # a wait that begins during the vacation is frozen too (his turn to take)
    await move(app, frozen, 2, {"pick": 1})
    await move(app, frozen, 1, {"pick": 3})
    clock.advance(3600)
    await move(app, frozen, 1, {"take": 0})
    assert await app.prompt(frozen, "bob") is not None
    assert await takeover_due(app, frozen, "bob") == start + 2 * day + takeover_hours * 3600
    # bad input changes nothing
    for days in (31, -1):
        with pytest.raises(AppError, match="0 to 30"):
            await app.go_away(3, days)
    assert await app.away_until(3) is None
    with pytest.raises(Conflict, match="already"):
        await app.go_away(2, 5)
    assert await app.away_until(2) == until

    clock.advance(2 * day + 1)  # the cap of the frozen game
    [told] = await app.end_vacations()
    assert told.user_id == 2 and f"#{frozen}" in told.text and f"#{by_ai}" not in told.text
    assert await takeover_due(app, frozen, "bob") == clock() + takeover_hours * 3600
    assert (await app.info(by_ai)).seat_of(2).ai_takeover  # still on vacation there
    clock.advance(day)
    [told] = await app.end_vacations()
    assert f"#{by_ai}" in told.text and "by the AI for you" in told.text
    assert not (await app.info(by_ai)).seat_of(2).ai_takeover  # his seat again, without a command
    assert await app.away_until(2) is None and await app.end_vacations() == []


async def test_away_in_a_paused_game_under_the_ai_policy_the_ai_plays_once_it_resumes(app: App, clock: FakeClock) -> None:
    """The vacation begins while the game is paused: the seat's clock waits (no AI plays a
    paused game); when the host resumes it, the AI plays for the away player until the
    vacation ends, and then the seat is theirs again."""
    day = 86400.0
    gid = await started(app, [1, 2], channel=100)
    await app.set_vacation_policy(gid, 1, policy="ai")
    await app.pause(gid, 1)
    until, [g] = await app.go_away(2, 2)
    assert g.mode == "freeze" and not (await app.info(gid)).seat_of(2).ai_takeover
    clock.advance(3600)
    await app.resume(gid, 1)
    info = await app.info(gid)
    assert info.seat_of(2).ai_takeover and await app.prompt(gid, "bob") is None  # the AI picked for him
    assert not info.seat_of(1).ai_takeover  # the host is not away
    clock.advance(2 * day)
    [told] = await app.end_vacations()
    assert f"#{gid}" in told.text and "by the AI for you" in told.text
    assert not (await app.info(gid)).seat_of(2).ai_takeover and await app.away_until(2) is None


async def test_away_not_allowed_and_coming_back_early(app: App, clock: FakeClock) -> None:
    gid = await started(app, [1, 2], channel=100)
    await app.set_vacation_policy(gid, 1, policy="none")
    before = await takeover_due(app, gid, "bob")
    with pytest.raises(Forbidden):
        await app.set_vacation_policy(gid, 2, policy="ai")  # not the host
    with pytest.raises(AppError, match="1 to 30"):
        await app.set_vacation_policy(gid, 1, cap_days=0)
    _, [g] = await app.go_away(2, 2)
    assert g.mode == "none" and await takeover_due(app, gid, "bob") == before
    with pytest.raises(Conflict, match="not away"):
        await app.come_back(3)
    assert await app.come_back(2) == []  # nothing was changed in any game
    assert await app.away_until(2) is None


# --- notifications and the digest ---------------------------------------------------------


async def turn_rows(storage: Storage, gid: int, after: int) -> list[Any]:
    async with storage.read() as q:
        return [r for r in await q.outbox_rows(gid) if r.id > after]


async def last_id(storage: Storage, gid: int) -> int:
    async with storage.read() as q:
        return max((r.id for r in await q.outbox_rows(gid)), default=0)


async def test_notify_mention_only_and_dm_only(app: App, storage: Storage) -> None:
    gid = await started(app, [1, 2], channel=100)
    await move(app, gid, 1, {"pick": 3})
    await move(app, gid, 2, {"pick": 1})  # the take phase: Ann first, then Bob (a turn inside the phase)
    assert "mention" in await app.set_notify(2, "mention")
    mark = await last_id(storage, gid)
    await move(app, gid, 1, {"take": 0})
    rows = await turn_rows(storage, gid, mark)
    assert not [r for r in rows if r.kind == "dm" and r.target == "2"]  # no DM for Bob's turn
    with pytest.raises(AppError):
        await app.set_notify(2, "pigeon")
    with pytest.raises(AppError):
        await app.set_notify(2, "digest", digest_hour=24)
    gid2 = await started(app, [1, 2], channel=200, rounds=2)
    await app.set_notify(2, "dm")
    await move(app, gid2, 2, {"pick": 1})
    await move(app, gid2, 1, {"pick": 3})
    await move(app, gid2, 1, {"take": 0})
    mark = await last_id(storage, gid2)
    await move(app, gid2, 2, {"take": 0})  # round 2's post asks both to plan
    posts = " ".join(str(r.payload.get("content", "")) for r in await turn_rows(storage, gid2, mark) if r.kind == "post")
    assert "<@1>" in posts and "<@2>" not in posts and "**Bob**" in posts  # his name, no ping


async def test_digest_at_its_hour_in_the_players_time_zone(app: App, storage: Storage, clock: FakeClock) -> None:
    gid = await started(app, [1, 2], channel=100)
    other = await started(app, [2, 3], channel=200)
    await move(app, other, 2, {"pick": 1})  # not waiting on Bob there any more
    words = await app.set_notify(2, "digest", digest_hour=9, tz="Asia/Tokyo")
    assert "09:00 (Asia/Tokyo)" in words
    local = datetime.fromtimestamp(clock(), ZoneInfo("Asia/Tokyo"))
    nine = local.replace(hour=9, minute=0, second=0, microsecond=0)
    due = nine.timestamp() if nine > local else nine.timestamp() + 86400
    clock.now = due - 60
    assert await app.send_digests() == []
    clock.now = due + 1
    [d] = await app.send_digests()
    assert d.user_id == 2 and f"#{gid} Fake Game" in d.text and f"#{other} " not in d.text
    assert await app.send_digests() == []  # once a day
    async with storage.read() as q:
        rows = [r for r in await q.outbox_rows(gid) if r.kind == "dm" and r.target == "2" and "digest" in str(r.payload)]
        assert len(rows) == 1
        assert (await q.user_home(2))[3] == due + 86400
    clock.now = due + 86400 + 1
    assert len(await app.send_digests()) == 1
