"""The application layer, tested against a small fake game (tests/fakegame.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fakegame import GAME, FakeClock, lobby, new_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App, replay_export
from bot.records import AppError, Conflict, Forbidden, NotFound, ReplayMismatch
from bot.storage import Storage, Tx
from tests.app_support import storage_fixture

storage = storage_fixture("app.db")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def app(storage: Storage, clock: FakeClock) -> App:
    return await new_app(storage, clock)


# --- lobby ------------------------------------------------------------------------------


async def test_create_join_leave_and_one_game_per_channel(app: App) -> None:
    info = await lobby(app, humans=2)
    assert [s.seat for s in info.seats] == ["ann", "bob"]
    assert info.status == "lobby" and info.host_id == 1
    assert (await app.game_in_channel(100)).id == info.id
    with pytest.raises(Conflict, match="already"):
        await app.create_game("fake", channel_id=100, host_id=9, host_name="Zed")
    # a thread of that channel is another place
    other = await app.create_game("fake", channel_id=100, thread_id=101, host_id=9, host_name="Zed")
    assert other.place_id == 101
    with pytest.raises(Conflict, match="already in"):
        await app.join(info.id, 2, "Bob")
    info = await app.leave(info.id, 2)
    assert [s.seat for s in info.seats] == ["ann"]
    with pytest.raises(Conflict, match="not in"):
        await app.leave(info.id, 2)
    with pytest.raises(NotFound):
        await app.create_game("chess", channel_id=1, host_id=1, host_name="x")


async def test_seat_ids_are_unique_slugs(app: App) -> None:
    info = await app.create_game("fake", channel_id=1, host_id=1, host_name="Ann Lee")
    info = await app.join(info.id, 2, "ann lee!")
    info = await app.join(info.id, 3, "\U0001f600")
    assert [s.seat for s in info.seats] == ["annlee", "annlee2", "player"]


async def test_host_leaving_passes_the_lobby_on_or_ends_it(app: App) -> None:
    info = await lobby(app, humans=2)
    info = await app.leave(info.id, 1)
    assert info.host_id == 2 and info.status == "lobby"
    info = await app.leave(info.id, 2)
    assert info.status == "abandoned"
    assert await app.game_in_channel(100) is None


async def test_lobby_permissions(app: App) -> None:
    info = await lobby(app, humans=2)
    for call in (
        app.add_ai(info.id, 2, "bot"),
        app.set_options(info.id, 2, {"rounds": 1}),
        app.start(info.id, 2),
        app.remove_seat(info.id, 2, "ann"),
    ):
        with pytest.raises(Forbidden):
            await call
    info = await app.add_ai(info.id, 2, "bot", is_admin=7)  # Manage Server in the game's guild (7)
    assert info.seats[-1].ai_kind == "bot"
    with pytest.raises(AppError):
        await app.add_ai(info.id, 1, "alien")
    with pytest.raises(Conflict, match="host"):
        await app.remove_seat(info.id, 1, "ann")
    info = await app.remove_seat(info.id, 1, "bot1")
    assert [s.seat for s in info.seats] == ["ann", "bob"]
    with pytest.raises(AppError, match="automata"):
        await app.set_options(info.id, 1, {"automata": ["ann"]})


async def test_game_full(app: App) -> None:
    info = await lobby(app, humans=4)
    with pytest.raises(Conflict, match="full"):
        await app.add_ai(info.id, 1, "bot")


async def test_start_failures_are_polite(app: App) -> None:
    info = await app.create_game("fake", channel_id=6, host_id=3, host_name="Cid", join=False)
    with pytest.raises(Conflict, match="Nobody"):
        await app.start(info.id, 3)
    await app.add_ai(info.id, 3, "steve")
    with pytest.raises(AppError, match="cannot start.*automaton"):
        await app.start(info.id, 3)
    assert (await app.info(info.id)).status == "lobby"


async def test_join_and_leave_only_in_the_lobby(app: App) -> None:
    info = await lobby(app, humans=2)
    await app.start(info.id, 1, seed=1)
    with pytest.raises(Conflict):
        await app.join(info.id, 3, "Cid")
    with pytest.raises(Conflict):
        await app.leave(info.id, 2)


# --- play -------------------------------------------------------------------------------


async def test_start_posts_picture_and_opens_secret_decisions(app: App, clock: FakeClock) -> None:
    info = await lobby(app, humans=2, bots=1, steves=1)
    out = await app.start(info.id, 1, seed=5)
    assert out.status == "started"
    # the bot already picked; the humans decide in secret
    assert [a.seat for a in out.applied] == ["bot1"]
    assert out.pending == {"ann": 1, "bob": 2}
    assert sorted(out.mentions) == [1, 2]
    assert out.secret_started and out.secret_seats == ["ann", "bob"]
    assert out.phase_changed and out.phase == "choose" and out.round == 1
    assert out.public_view is not None and "my_pick" not in out.public_view
    info = await app.info(info.id)
    assert info.status == "active" and info.seed == 5 and info.version == 1
    assert info.options["automata"] == ["steve"]
    holdups = await app.holdups(info.id)
    assert [(h.seat, h.since_at, h.since_version) for h in holdups] == [
        ("ann", clock.now, 0), ("bob", clock.now, 0),
    ]


async def test_a_whole_game(app: App) -> None:
    info = await lobby(app, humans=2, bots=1, steves=1)
    await app.start(info.id, 1, seed=5)
    gid = info.id
    out = await app.act(gid, 1, None, {"pick": 3}, 1)
    assert out.status == "applied" and out.events == [] and out.pending == {"bob": 2}
    assert not out.phase_changed and out.mentions == [] and not out.secret_started
    assert await app.view(gid, "ann") == {**(await app.view(gid, None)), "my_pick": 3}
    # bob's prompt showed version 1; only ann acted since: still valid
    out = await app.act(gid, 2, "bob", {"pick": 1}, 1)
    assert out.status == "applied"
    assert out.phase_changed and out.phase == "take"
    assert "ann picked 3" in out.events and "bob picked 1" in out.events
    assert out.pending == {"ann": 1} and out.mentions == [1] and not out.secret_started
    versions = []
    while (info := await app.info(gid)).status == "active":
        h = (await app.holdups(gid))[0]
        kind = (await app.prompt(gid, h.seat))["kind"]
        action = {"pick": 2} if kind == "pick" else {"take": 2}
        out = await app.act(gid, h.user_id, h.seat, action, info.version)
        assert out.status == "applied"
        versions.append(out.version)
    assert out.over and out.result is not None and out.result["scores"][0]["rank"] == 1
    assert info.status == "finished" and info.result == out.result
    assert await app.holdups(gid) == []
    assert await app.game_in_channel(100) is None
    with pytest.raises(Conflict, match="finished"):
        await app.act(gid, 1, None, {"take": 1}, info.version)
    # export -> replay gives the same result
    data = json.loads(json.dumps(await app.export(gid)))
    assert replay_export(data, games={"fake": GAME}) == out.result
    assert all("user" not in json.dumps(s) for s in data["seats"])
    data["actions"][-1]["action"] = {"take": 0}
    with pytest.raises(ReplayMismatch):
        replay_export(data, games={"fake": GAME})


async def test_double_click_and_stale_prompts(app: App) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    first = await app.act(gid, 1, None, {"pick": 2}, 0)
    assert first.status == "applied" and first.version == 1
    again = await app.act(gid, 1, None, {"pick": 2}, 0)
    assert again.status == "already" and "Already done" in again.message
    other = await app.act(gid, 1, None, {"pick": 3}, 0)
    assert other.status == "stale"
    future = await app.act(gid, 2, None, {"pick": 3}, 99)
    assert future.status == "stale" and future.prompt == {"kind": "pick", "secret": True, "round": 1}
    await app.act(gid, 2, None, {"pick": 1}, 1)  # reveal; ann to take
    # an old button of a finished phase
    old = await app.act(gid, 1, None, {"take": 1}, 1)
    assert old.status == "stale" and old.prompt == {"kind": "take", "secret": False, "round": 1}
    async with app.storage.read() as q:
        assert [r.seq for r in await q.actions(gid)] == [1, 2]


async def test_concurrent_double_clicks_apply_once(app: App) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    outs = await asyncio.gather(*(app.act(gid, 1, None, {"pick": 2}, 0) for _ in range(5)))
    assert sorted(o.status for o in outs) == ["already"] * 4 + ["applied"]
    async with app.storage.read() as q:
        assert len(await q.actions(gid)) == 1


async def test_illegal_action_changes_nothing(app: App) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    out = await app.act(gid, 1, None, {"pick": 7}, 0)
    assert out.status == "illegal" and out.message == "pick 1, 2 or 3" and not out.ok
    assert (await app.info(gid)).version == 0
    await app.act(gid, 1, None, {"pick": 1}, 0)
    out = await app.act(gid, 1, None, {"pick": 1}, 1)  # already sealed, same version
    assert out.status == "illegal" and "nothing to decide" in out.message


async def test_only_a_seated_player_acts_for_their_seat(app: App) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    with pytest.raises(Forbidden):
        await app.act(gid, 1, "bob", {"pick": 1}, 0)
    with pytest.raises(Forbidden):
        await app.act(gid, 99, None, {"pick": 1}, 0)
    with pytest.raises(Forbidden):
        await app.act(gid, 99, "bob", {"pick": 1}, 0)


async def test_pause_resume_abandon(app: App, clock: FakeClock) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    with pytest.raises(Forbidden):
        await app.pause(gid, 2)
    await app.pause(gid, 2, is_admin=7)
    assert await app.storage.reminders_of(gid) == []
    with pytest.raises(Conflict, match="paused"):
        await app.act(gid, 1, None, {"pick": 1}, 0)
    clock.advance(3600)
    out = await app.resume(gid, 1)
    assert out.status == "resumed" and sorted(out.new_prompts) == ["ann", "bob"]
    assert all(h.since_at == clock.now for h in await app.holdups(gid))
    # a nudge and (on by default) an AI-takeover deadline for each seat
    assert sorted((r.seat, r.kind) for r in await app.storage.reminders_of(gid)) == [
        ("ann", "nudge"), ("ann", "takeover"), ("bob", "nudge"), ("bob", "takeover"),
    ]
    with pytest.raises(Conflict):
        await app.resume(gid, 1)
    with pytest.raises(Forbidden):
        await app.abandon(gid, 2)
    info = await app.abandon(gid, 1)
    assert info.status == "abandoned" and await app.holdups(gid) == []
    with pytest.raises(Conflict):
        await app.abandon(gid, 1)
    # the channel is free again
    await app.create_game("fake", channel_id=100, host_id=2, host_name="Bob")


async def test_settings_permissions_and_validation(app: App) -> None:
    info = await lobby(app, humans=2)
    with pytest.raises(Forbidden):
        await app.update_settings(info.id, 2, remind_after_hours=1)
    info = await app.update_settings(info.id, 2, is_admin=7, remind_after_hours=1, takeover=True)
    assert info.settings.remind_after_hours == 1 and info.settings.takeover
    with pytest.raises(AppError, match="between"):
        await app.update_settings(info.id, 1, repeat_hours=0)
    with pytest.raises(AppError, match="time zone"):
        await app.set_quiet_hours(1, "22:00", "07:00", "Mars/Olympus")
    with pytest.raises(AppError, match="both"):
        await app.set_quiet_hours(1, "22:00", None)


async def test_reminder_rows_follow_who_holds_the_game_up(app: App, clock: FakeClock) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.update_settings(gid, 1, remind_after_hours=2, takeover=True, takeover_after_hours=10)
    start = clock.now
    await app.start(gid, 1, seed=3)
    rows = {(r.seat, r.kind): r.due_at for r in await app.storage.reminders_of(gid)}
    assert rows == {
        ("ann", "nudge"): start + 2 * 3600, ("bob", "nudge"): start + 2 * 3600,
        ("ann", "takeover"): start + 10 * 3600, ("bob", "takeover"): start + 10 * 3600,
    }
    clock.advance(60)
    await app.act(gid, 1, None, {"pick": 1}, 0)
    assert {r.seat for r in await app.storage.reminders_of(gid)} == {"bob"}
    await app.update_settings(gid, 1, takeover=False)
    assert {(r.seat, r.kind) for r in await app.storage.reminders_of(gid)} == {("bob", "nudge")}


async def test_take_over_and_reclaim(app: App) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)
    await app.act(gid, 1, None, {"pick": 1}, 0)
    with pytest.raises(Forbidden):
        await app.take_over(gid, "bob", user_id=2)
    out = await app.take_over(gid, "bob")  # the deadline (system)
    assert out.status == "takeover" and "Bob" in out.message
    # the AI picked for bob; ann is to take
    assert [(a.seat, a.actor) for a in out.applied] == [("bob", "takeover")]
    assert out.pending == {"ann": 1} and out.phase_changed
    info = await app.info(gid)
    assert info.seat_named("bob").ai_takeover
    # ann takes; the AI takes for bob; next round ann picks, the AI picks for bob
    out = await app.act(gid, 1, None, {"take": 1}, out.version)
    assert [a.seat for a in out.applied] == ["ann", "bob", "bob"]
    out2 = await app.act(gid, 2, None, {"pick": 1}, out.version)
    assert out2.status == "illegal"
    r = await app.reclaim(gid, 2)
    assert r.status == "reclaimed" and r.pending == {"ann": 1}
    with pytest.raises(Conflict):
        await app.reclaim(gid, 2)


async def test_load_is_snapshot_plus_replay(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock, snapshot_every=3)
    info = await lobby(app, humans=2, bots=1)
    gid = info.id
    await app.start(gid, 1, seed=11)
    for _ in range(5):
        info = await app.info(gid)
        h = (await app.holdups(gid))[0]
        kind = (await app.prompt(gid, h.seat))["kind"]
        await app.act(gid, h.user_id, h.seat, {"pick": 1} if kind == "pick" else {"take": 2}, info.version)
    want = await app.state(gid)
    # a fresh app (empty cache) loads the same state
    assert await (await new_app(storage, clock)).state(gid) == want
    async with storage.read() as q:
        cur = await q.conn.execute("SELECT count(*) FROM snapshots WHERE game_id = ?", (gid,))
        assert 1 <= (await cur.fetchone())[0] <= 2  # pruned
    # snapshots are a cache: corrupt or delete them and the log still gives the state
    async with storage.transaction() as tx:
        await tx.conn.execute("UPDATE snapshots SET state = 'garbage'")
    assert await (await new_app(storage, clock)).state(gid) == want
    async with storage.transaction() as tx:
        await tx.conn.execute("DELETE FROM snapshots")
    assert await (await new_app(storage, clock)).state(gid) == want


async def test_a_failed_commit_leaves_no_trace(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    info = await lobby(app, humans=2)
    gid = info.id
    await app.start(gid, 1, seed=3)

    async def broken(self: Tx, *args: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as m:
        m.setattr(Tx, "append_action", broken)
        with pytest.raises(OSError):
            await app.act(gid, 1, None, {"pick": 2}, 0)
    assert (await app.info(gid)).version == 0
    assert (await app.state(gid))["version"] == 0
    out = await app.act(gid, 1, None, {"pick": 2}, 0)
    assert out.status == "applied" and out.version == 1


async def test_advance_all_catches_up_ai_seats_after_a_crash(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=1, bots=1)
    gid = info.id

    async def no_ai(*args: object) -> None:
        return None

    app._run_ai = no_ai  # type: ignore[method-assign]  # "crash" before the AI moves
    await app.start(gid, 1, seed=3)
    assert (await app.info(gid)).version == 0
    fresh = await new_app(storage, clock)
    outs = await fresh.advance_all()
    assert [o.game_id for o in outs] == [gid]
    assert [a.seat for a in outs[0].applied] == ["bot1"]
    assert await fresh.advance_all() == []


async def test_messages_are_remembered(app: App) -> None:
    info = await lobby(app, humans=1)
    await app.remember_message(info.id, "board", 100, 555)
    await app.remember_message(info.id, "board", 100, 556)
    ref = await app.message(info.id, "board")
    assert ref is not None and ref.message_id == 556
    assert await app.game_of_message(556) == info.id
    assert await app.game_of_message(555) is None


async def test_games_of_user(app: App) -> None:
    a = await lobby(app, humans=2, channel=1)
    b = await lobby(app, humans=1, channel=2)
    assert [g.id for g in await app.games_of_user(1)] == [a.id, b.id]
    assert [g.id for g in await app.games_of_user(2)] == [a.id]


# --- crash safety: a player is told only after the commit ------------------------------

CRASHER = textwrap.dedent(
    """
    import asyncio, sys
    sys.path.insert(0, {tests!r})
    from fakegame import lobby, new_app
    from bot.storage import Storage

    async def main():
        s = await Storage.open({db!r})
        app = await new_app(s)
        info = await lobby(app, humans=1, bots=1)
        await app.start(info.id, 1, seed=2)
        print("GAME", info.id, flush=True)
        while True:
            info = await app.info(info.id)
            if info.status != "active":
                # keep going with new games until killed
                info = await lobby(app, humans=1, bots=1, channel=info.id + 1000)
                await app.start(info.id, 1, seed=2)
                continue
            prompt = await app.prompt(info.id, "ann")
            action = {{"pick": 1}} if prompt["kind"] == "pick" else {{"take": 1}}
            out = await app.act(info.id, 1, "ann", action, info.version)
            print("ACK", info.id, out.version, flush=True)

    asyncio.run(main())
    """
)


def test_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    script = tmp_path / "crasher.py"
    script.write_text(CRASHER.format(tests=str(Path(__file__).parent), db=str(db)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    acked: dict[int, int] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ACK"):
            _, gid, version = line.split()
            acked[int(gid)] = int(version)
            if sum(acked.values()) >= 60:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert acked

    async def check() -> None:
        s = await Storage.open(db)
        try:
            app = await new_app(s)
            for gid, version in acked.items():
                info = await app.info(gid)
                assert info.version >= version
                assert (await app.state(gid))["version"] == info.version
        finally:
            await s.close()

    asyncio.run(check())


# --- the real engine through the app -----------------------------------------------------


async def test_smartphone_inc_with_humans_steve_and_a_bot(storage: Storage, clock: FakeClock) -> None:
    from engine.ai import choose

    app = App(storage, clock=clock)
    info = await app.create_game("smartphone-inc", channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.add_ai(info.id, 1, "steve")
    await app.add_ai(info.id, 1, "bot")
    out = await app.start(info.id, 1, seed=21)
    gid = info.id
    assert out.phase == "planning" and out.secret_started
    assert sorted(out.secret_seats) == ["ann", "bob"] and sorted(out.mentions) == [1, 2]
    users = {"ann": 1, "bob": 2}
    secret_phases = 0
    for _ in range(2000):
        if out.over:
            break
        seat = sorted(out.pending)[0]
        state = await app.state(gid)
        action = choose("smartphone-inc", state, seat, "random")
        # the prompt's version: a double click of the same action is "already done"
        version = (await app.view(gid, seat))["version"]
        out = await app.act(gid, users[seat], seat, action, version)
        assert out.status == "applied", out.message
        again = await app.act(gid, users[seat], seat, action, version)
        assert again.status == "already"
        secret_phases += out.secret_started
        assert out.public_view is not None and set(out.public_view) >= {"round", "phase", "version", "over"}
    assert out.over and out.result is not None
    assert secret_phases >= 4  # a planning phase each round
    info = await app.info(gid)
    assert info.status == "finished"
    data = await app.export(gid)
    assert {a["seat"] for a in data["actions"]} >= {"ann", "bob", "bot1"}
    assert "steve" not in {a["seat"] for a in data["actions"]}  # the engine plays Steve
    assert replay_export(data) == info.result


async def test_export_leaves_out_the_sealed_plans_until_the_reveal(
    storage: Storage, clock: FakeClock
) -> None:
    """An export during Planning (App.export: the bot's /game export and the CLI's) holds
    no plan of a seat whose plan is sealed; after the reveal the plans are there, and
    the export of the finished game replays to the recorded result."""
    from engine.ai import choose

    app = App(storage, clock=clock)
    info = await app.create_game("smartphone-inc", channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.add_ai(info.id, 1, "steve")
    await app.add_ai(info.id, 1, "bot")
    gid = info.id
    out = await app.start(gid, 1, seed=33)
    users = {"ann": 1, "bob": 2}

    def plans(data: dict) -> list[tuple[str, int]]:
        return [
            (a["seat"], a["seq"]) for a in data["actions"] if a["action"].get("type") == "plan" and not a.get("hidden")
        ]

    def hidden(data: dict) -> list[dict]:
        return [a["action"] for a in data["actions"] if a.get("hidden")]

    # the rule bot sealed at once: its plan is shown by its kind only
    data = await app.export(gid)
    assert (await app.info(gid)).version == 1 and data["version"] == 1
    assert [a["action"] for a in data["actions"]] == [{"type": "plan", "hidden": True}] and data["redacted"] == 1
    assert "until it is public" in data["note"]
    # the seed fixes the Improvement pile's order: withheld while the game runs
    assert data["seed"] is None and data["seed_withheld"] and "seed" in data["note"]
    with pytest.raises(AppError, match="no seed"):
        replay_export(data)
    data = await app.export(gid, with_seed=True)
    assert data["seed"] == 33 and hidden(data) == [{"type": "plan", "hidden": True}]
    assert replay_export(data) == {"over": False, "version": 0}

    async def act(seat: str) -> None:
        nonlocal out
        state = await app.state(gid)
        action = choose("smartphone-inc", state, seat, "random")
        out = await app.act(gid, users[seat], seat, action, int(state["version"]))
        assert out.status == "applied", out.message

    await act("ann")
    data = await app.export(gid)
    assert plans(data) == [] and data["redacted"] == 2
    await act("bob")  # the last plan: the reveal
    data = await app.export(gid)
    assert data["redacted"] == 0 and "until it is public" not in data["note"]
    assert sorted(s for s, _ in plans(data)) == ["ann", "bob", "bot1"]
    round1 = plans(data)
    # on to round 2's Planning; Ann seals, Bob does not yet
    while not (out.phase == "planning" and out.round == 2):
        await act(sorted(out.pending)[0])
    await act("ann")
    data = await app.export(gid, with_seed=True)
    assert plans(data) == round1  # round 1's revealed plans only
    assert data["redacted"] == 2 and len(hidden(data)) == 2  # ann's and the bot's round-2 plans
    assert len(data["actions"]) == data["version"]
    state = await app.state(gid)
    replayed = replay_export(json.loads(json.dumps(data)))
    assert replayed == {"over": False, "version": state["version"] - 2}
    # a paused game is exported the same way
    await app.pause(gid, 1)
    assert (await app.export(gid))["actions"] == data["actions"]
    await app.resume(gid, 1)
    for _ in range(3000):
        if out.over:
            break
        await act(sorted(out.pending)[0])
    assert out.over
    data = json.loads(json.dumps(await app.export(gid)))
    assert data["redacted"] == 0 and data["status"] == "finished"
    assert data["seed"] == 33 and "note" not in data  # over: the seed is given
    assert len(data["actions"]) == data["version"]
    assert replay_export(data) == (await app.info(gid)).result == out.result


async def test_export_redaction_with_the_fake_game(app: App) -> None:
    """The open secret decision is the tail of picks at the current stage; picks of
    an earlier round were revealed and stay."""
    info = await lobby(app, humans=3)
    gid = info.id
    await app.start(gid, 1, seed=4)
    ver = (await app.info(gid)).version
    await app.act(gid, 2, None, {"pick": 3}, ver)
    data = await app.export(gid)
    assert [a["action"] for a in data["actions"]] == [{"hidden": True}] and data["redacted"] == 1
    await app.act(gid, 1, None, {"pick": 1}, ver + 1)
    await app.act(gid, 3, None, {"pick": 2}, ver + 2)  # the reveal
    data = await app.export(gid)
    assert [a["action"] for a in data["actions"]] == [{"pick": 3}, {"pick": 1}, {"pick": 2}]
    for uid in (1, 2, 3):  # the take turns, in seat order
        await app.act(gid, uid, None, {"take": 1}, (await app.info(gid)).version)
    await app.act(gid, 3, None, {"pick": 1}, (await app.info(gid)).version)  # round 2
    await app.act(gid, 1, None, {"pick": 2}, (await app.info(gid)).version)
    data = await app.export(gid, with_seed=True)
    assert data["redacted"] == 2 and len(data["actions"]) == 8
    assert replay_export(data, games={"fake": GAME}) == {"over": False, "version": 6}
    # the app's deadlines: Bob is the one waited for
    await app.update_settings(gid, 1, takeover=False)
    assert {(d.seat, d.kind) for d in await app.deadlines(gid)} == {("bob", "nudge")}
    await app.update_settings(gid, 1, takeover=True, takeover_after_hours=48)
    deadlines = await app.deadlines(gid)
    assert [d.kind for d in deadlines] == ["nudge", "takeover"]  # soonest first
    assert deadlines[0].user_id == 2 and deadlines[0].display_name == "Bob"
    await app.pause(gid, 1)
    assert await app.deadlines(gid) == []


# --- property: whatever the clicks, each action counts once and the log is the record ---


CLICKS = st.lists(
    st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(-3, 1)), min_size=1, max_size=40
)


_DB_NUMBERS = itertools.count()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clicks=CLICKS)
def test_random_clicks_never_apply_twice(tmp_path: Path, clicks: list[tuple[int, int, int]]) -> None:
    async def run() -> None:
        db = tmp_path / f"h{next(_DB_NUMBERS)}.db"  # a fresh database per example
        s = await Storage.open(db)
        try:
            app = await new_app(s, snapshot_every=4)
            info = await lobby(app, humans=3, bots=1, channel=hash(db) % 10_000)
            await app.start(info.id, 1, seed=len(clicks))
            applied = 0
            for user, choice, offset in clicks:
                info = await app.info(info.id)
                if info.status != "active":
                    break
                prompt = await app.prompt(info.id, info.seat_of(user).seat)
                kind = (prompt or {}).get("kind", "pick")
                action = {"pick": choice % 3 + 1} if kind == "pick" else {"take": choice % 3}
                outs = await asyncio.gather(
                    app.act(info.id, user, None, action, info.version + offset),
                    app.act(info.id, user, None, action, info.version + offset),
                )
                statuses = sorted(o.status for o in outs)
                assert statuses.count("applied") <= 1
                if "applied" in statuses:
                    assert statuses == ["already", "applied"]
                applied += statuses.count("applied")
            async with s.read() as q:
                rows = await q.actions(info.id)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            assert sum(r.actor == "player" for r in rows) == applied
            fresh = await new_app(s)
            assert await fresh.state(info.id) == await app.state(info.id)
        finally:
            await s.close()

    asyncio.run(run())


async def test_a_turn_that_goes_on_keeps_the_seat_pending(storage: Storage, clock: FakeClock) -> None:
    """Research, Logistics and Selling go step by step: after a partial step the same
    seat is still pending (the bot shows its next step at once), with no new mention."""
    from engine.ai import choose

    app = App(storage, clock=clock)
    info = await app.create_game("smartphone-inc", channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    gid = info.id
    out = await app.start(gid, 1, seed=5)
    users = {"ann": 1, "bob": 2}
    for _ in range(400):
        state = await app.state(gid)
        prompts = {s: await app.prompt(gid, s) for s in users}
        seat, prompt = next((s, p) for s, p in sorted(prompts.items()) if p)
        if prompt["type"] in ("research", "logistics") and prompt["markers"] >= 2:
            one = next(a for a in await app.legal_actions(gid, seat) if a["place"] and sum(
                a["place"].values() if isinstance(a["place"], dict) else [n for _, n in a["place"]]) == 1)
            out = await app.act(gid, users[seat], seat, one, int(state["version"]))
            assert out.status == "applied" and seat in out.pending
            assert users[seat] not in out.mentions  # not a new decision: no second ping
            assert (await app.prompt(gid, seat))["markers"] == prompt["markers"] - 1
            return
        out = await app.act(gid, users[seat], seat, choose("smartphone-inc", state, seat, "greedy"), int(state["version"]))
        assert out.status == "applied"
    raise AssertionError("no Research or Logistics turn with 2 markers came up")


async def test_manage_server_counts_only_in_the_games_own_guild(app: App) -> None:
    """Issue 8 §5: an outsider with Manage Server in another guild cannot manage a game;
    a manager of the game's own guild can; a bare ``True`` does not pass for a guild game."""
    info = await app.create_game("fake", guild_id=500, channel_id=50, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    for outsider in (600, True):
        with pytest.raises(Forbidden):
            await app.add_ai(info.id, 3, "bot", is_admin=outsider)
        with pytest.raises(Forbidden):
            await app.abandon(info.id, 3, is_admin=outsider)
    assert not (await app.info(info.id)).can_manage(3, 600)
    info = await app.add_ai(info.id, 3, "bot", is_admin=500)
    assert info.seats[-1].ai_kind == "bot"
    assert (await app.abandon(info.id, 3, is_admin=500)).status == "abandoned"
