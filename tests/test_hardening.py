"""Issue 8 §4-5: what the storage layer does with bad ids, damaged snapshots, a full or
read-only disk, a second process, and DEBUG logging."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path

import pytest
from fakegame import FakeClock, lobby, new_app

from bot.errors import CANNOT_SAVE, expected_message
from bot.records import NotFound
from bot.storage import LeaseHeld, Storage, StorageUnavailable, Tx
from tests.app_support import storage_fixture

storage = storage_fixture("h.db")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def play_some(app, gid: int, steps: int) -> None:
    for _ in range(steps):
        info = await app.info(gid)
        h = (await app.holdups(gid))[0]
        kind = (await app.prompt(gid, h.seat))["kind"]
        await app.act(gid, h.user_id, h.seat, {"pick": 1} if kind == "pick" else {"take": 2}, info.version)


@pytest.mark.parametrize("big", [2**63, 2**70, -(2**63) - 1, 99999999999999999999999])
async def test_ids_too_large_for_sqlite_are_simply_not_found(storage: Storage, clock: FakeClock, big: int) -> None:
    app = await new_app(storage, clock)
    with pytest.raises(NotFound):
        await app.info(big)
    assert await app.game_in_channel(big) is None
    assert await app.games_of_user(big) == []


async def test_an_edited_snapshot_is_not_trusted(storage: Storage, clock: FakeClock, caplog) -> None:
    """A snapshot edited in the database (here: a field changed) fails its checksum and
    the state is rebuilt from the log, with a warning."""
    app = await new_app(storage, clock, snapshot_every=2)
    info = await lobby(app, humans=2, bots=1)
    gid = info.id
    await app.start(gid, 1, seed=11)
    await play_some(app, gid, 4)
    want = await app.state(gid)
    async with storage.read() as q:
        cur = await q.conn.execute("SELECT version, state FROM snapshots WHERE game_id = ? ORDER BY version DESC", (gid,))
        version, text = await cur.fetchone()
    state = json.loads(text)
    state["version"] = state["version"]  # same version, different content below
    state.setdefault("picks", {})
    state["tampered"] = 50
    async with storage.transaction() as tx:
        await tx.conn.execute(
            "UPDATE snapshots SET state = ? WHERE game_id = ? AND version = ?",
            (json.dumps(state), gid, version),
        )
    with caplog.at_level(logging.WARNING, logger="boardroom.storage"):
        fresh = await new_app(storage, clock)
        assert await fresh.state(gid) == want
    assert any("fails its checksum" in r.getMessage() for r in caplog.records)


async def test_an_untouched_snapshot_is_used(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock, snapshot_every=2)
    info = await lobby(app, humans=2, bots=1)
    await app.start(info.id, 1, seed=11)
    await play_some(app, info.id, 4)
    async with storage.read() as q:
        snap = await q.latest_snapshot(info.id, 10**6)
    assert snap is not None and json.loads(snap[1])["version"] == snap[0]


async def test_a_really_full_disk_is_reported_as_unavailable(storage: Storage) -> None:
    """SQLite's own "database or disk is full" (no page may be added) becomes
    StorageUnavailable, and the connection works again once there is room."""
    async with storage.transaction() as tx:
        await tx.conn.execute("CREATE TABLE filler (x TEXT)")
    async with storage.read() as q:
        pages = (await (await q.conn.execute("PRAGMA page_count")).fetchone())[0]
        await (await q.conn.execute(f"PRAGMA max_page_count = {pages + 2}")).close()
    with pytest.raises(StorageUnavailable) as err:
        for _ in range(100):
            async with storage.transaction() as tx:
                await tx.conn.execute("INSERT INTO filler VALUES (?)", ("x" * 2000,))
    assert expected_message(err.value) == CANNOT_SAVE
    async with storage.read() as q:
        await (await q.conn.execute("PRAGMA max_page_count = 1073741823")).close()
    async with storage.transaction() as tx:
        await tx.conn.execute("INSERT INTO filler VALUES ('room again')")


async def test_a_full_disk_refuses_the_move_clearly_and_recovers(
    storage: Storage, clock: FakeClock, caplog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the disk is full (every write raises SQLite's error), each move is refused
    with the "cannot save" message, the operator gets one log line, nothing is half
    written; when space returns the same move goes through."""
    app = await new_app(storage, clock)
    info = await lobby(app, humans=2, bots=1)
    gid = info.id
    await app.start(gid, 1, seed=3)
    before = await app.info(gid)
    h = (await app.holdups(gid))[0]
    real = Tx.append_action

    async def disk_full(self, *args, **kwargs):
        await real(self, *args, **kwargs)  # the row goes in, then the commit cannot
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Tx, "append_action", disk_full)
    with caplog.at_level(logging.ERROR, logger="boardroom.storage"):
        for _ in range(3):  # three tries: each refused, the operator reads one line
            with pytest.raises(StorageUnavailable) as err:
                await app.act(gid, h.user_id, h.seat, {"pick": 1}, before.version)
    assert expected_message(err.value) == CANNOT_SAVE
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "cannot take writes" in errors[0].getMessage()
    assert (await app.info(gid)).version == before.version  # nothing half-written
    async with storage.read() as q:
        assert await q.actions(gid, after=before.version) == []
    monkeypatch.setattr(Tx, "append_action", real)  # space comes back
    out = await app.act(gid, h.user_id, h.seat, {"pick": 1}, before.version)
    assert out.status == "applied"


async def test_a_read_only_database_refuses_moves_with_the_same_message(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=2, bots=1)
    await app.start(info.id, 1, seed=3)
    h = (await app.holdups(info.id))[0]
    version = (await app.info(info.id)).version
    async with storage.read() as q:
        await q.conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StorageUnavailable) as err:
        await app.act(info.id, h.user_id, h.seat, {"pick": 1}, version)
    assert "your move was not recorded" in expected_message(err.value)
    async with storage.read() as q:
        await q.conn.execute("PRAGMA query_only = OFF")
    assert (await app.info(info.id)).version == version  # nothing recorded
    out = await app.act(info.id, h.user_id, h.seat, {"pick": 1}, version)
    assert out.status == "applied"


async def test_a_second_process_is_refused_until_the_lease_expires(tmp_path: Path) -> None:
    now = [1000.0]
    first = await Storage.open(tmp_path / "l.db")
    second = await Storage.open(tmp_path / "l.db")
    try:
        await first.take_lease("host-a:1", ttl=60, clock=lambda: now[0])
        now[0] += 30
        with pytest.raises(LeaseHeld, match="another boardroom process"):
            await second.take_lease("host-b:2", ttl=60, clock=lambda: now[0])
        await first.take_lease("host-a:1", ttl=60, clock=lambda: now[0])  # heartbeat
        now[0] += 59
        with pytest.raises(LeaseHeld):
            await second.take_lease("host-b:2", ttl=60, clock=lambda: now[0])
        now[0] += 2  # the first process died: its lease expired
        await second.take_lease("host-b:2", ttl=60, clock=lambda: now[0])
        with pytest.raises(LeaseHeld):
            await first.take_lease("host-a:1", ttl=60, clock=lambda: now[0])
        await second.release_lease("host-b:2")  # a clean stop frees it at once
        await first.take_lease("host-a:1", ttl=60, clock=lambda: now[0])
    finally:
        await first.close()
        await second.close()


async def test_no_log_line_at_debug_holds_a_sealed_decision_or_the_seed(
    storage: Storage, clock: FakeClock, caplog
) -> None:
    """Plays a Smartphone Inc. round with every logger at DEBUG: no record (aiosqlite's
    statement log included) contains a sealed plan or the seed of the running game."""
    from bot.app import App
    from engine.ai import choose

    caplog.set_level(logging.DEBUG)
    app = App(storage, clock=clock)
    info = await app.create_game("smartphone-inc", channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    seed = 987654321987
    out = await app.start(info.id, 1, seed=seed)
    plans = []
    for seat, user in (("ann", 1), ("bob", 2)):
        state = await app.state(info.id)
        action = choose("smartphone-inc", state, seat, "random")
        plans.append(json.dumps(action["plan"], sort_keys=True, separators=(",", ":")))
        out = await app.act(info.id, user, seat, action, (await app.info(info.id)).version)
        assert out.status == "applied"
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "aiosqlite" in {r.name for r in caplog.records}  # the statement log was on
    assert str(seed) not in text
    for plan in plans:
        assert plan not in text
        assert '"bottom"' not in text


async def test_a_second_bot_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    """Two `boardroom run` on one database: the second stops at start-up with a clear
    message (LeaseHeld) instead of fighting the first over every write."""
    import asyncio

    from bot.discord_bot import create_bot
    from tests.discord_support import TOKEN, running
    from tests.fake_discord import FakeDiscord

    db = str(tmp_path / "bot.db")
    async with FakeDiscord() as fake, running(fake, db) as first:
        second = create_bot(db_path=db, guild_ready_timeout=0.05)
        with pytest.raises(LeaseHeld, match="another boardroom process"):
            await asyncio.wait_for(second.start(TOKEN), 20)
        await second.close()
        assert first.storage is not None  # the first one runs on
    # the first stopped cleanly and released the database: a new one starts at once
    async with FakeDiscord() as fake, running(fake, db) as again:
        assert again.storage is not None


VALID_EXPORT = {
    "format": "boardroom-game", "format_version": 1, "id": 1, "game": "smartphone-inc",
    "status": "active", "options": {}, "seed": 5, "version": 0, "result": None,
    "seats": [{"seat": "ann", "position": 0, "name": "Ann", "kind": "human", "ai_takeover": False}],
    "actions": [],
}


def _junk_exports() -> dict[str, str]:
    deep = "[" * 100_000 + "]" * 100_000
    return {
        "a top-level list": json.dumps([VALID_EXPORT]),
        "a seed that is not a number": json.dumps({**VALID_EXPORT, "seed": "abc"}),
        "options that are not an object": json.dumps({**VALID_EXPORT, "options": "zzz"}),
        "nesting 100k deep": '{"format":"boardroom-game","options":' + deep + "}",
        "a 5,000-digit integer": json.dumps({**VALID_EXPORT})[:-1] + ',"x":' + "9" * 5000 + "}",
        "deep nesting inside an action": json.dumps(
            {**VALID_EXPORT, "actions": [{"seq": 1, "seat": "ann", "action": {"a": json.loads("[" * 200 + "]" * 200)}}]}
        ),
        "a seat without a position": json.dumps({**VALID_EXPORT, "seats": [{"seat": "ann"}]}),
        "not JSON": "{format: boardroom",
    }


@pytest.mark.parametrize("kind", sorted(_junk_exports()))
def test_replay_refuses_junk_with_a_sentence_and_exit_2(kind: str, tmp_path: Path, capsys) -> None:
    from bot import cli

    path = tmp_path / "junk.json"
    path.write_text(_junk_exports()[kind], encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardroom: not a boardroom export: ") and "Traceback" not in err
    assert len(err) < 300


def test_a_valid_export_still_replays(tmp_path: Path, capsys) -> None:
    from bot import cli

    path = tmp_path / "ok.json"
    path.write_text(json.dumps(VALID_EXPORT), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"over": False, "version": 0}


async def _si_game(storage: Storage, clock: FakeClock):
    from bot.app import App

    app = App(storage, clock=clock)
    info = await app.create_game("smartphone-inc", channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.start(info.id, 1, seed=12345)
    return app, info.id


async def test_the_log_stores_the_canonical_action_and_refuses_unknown_fields(
    storage: Storage, clock: FakeClock
) -> None:
    from bot.records import AppError
    from engine.ai import choose

    app, gid = await _si_game(storage, clock)
    version = (await app.info(gid)).version
    action = choose("smartphone-inc", await app.state(gid), "ann", "random")
    # an extra 5 MB field: refused before the engine sees it, nothing stored
    out = await app.act(gid, 1, "ann", {**action, "junk": "x" * 5_000_000}, version)
    assert out.status == "illegal" and "too large" in out.message
    # a small unknown field: refused and named
    out = await app.act(gid, 1, "ann", {**action, "note": 1}, version)
    assert out.status == "illegal" and "note" in out.message
    # nesting 1,000 deep: refused without a RecursionError
    deep: dict = {}
    for _ in range(1000):
        deep = {"a": deep}
    out = await app.act(gid, 1, "ann", {"type": "plan", "plan": deep}, version)
    assert out.status == "illegal"
    # not a number where the prompt's version goes
    for bad in (None, "3", 1.0, True):
        with pytest.raises(AppError, match="out of date"):
            await app.act(gid, 1, "ann", action, bad)  # type: ignore[arg-type]
    assert (await app.info(gid)).version == version
    # the plan, written with its fields in another order and the Improvements' layer
    # left out, is stored in the engine's canonical form
    plan = action["plan"]
    messy = {"type": "plan", "plan": {"top": plan["top"], "bottom": plan["bottom"]}}
    out = await app.act(gid, 1, "ann", messy, version)
    assert out.status == "applied"
    async with storage.read() as q:
        logged = (await q.actions(gid, after=version))[0].action
    game = app.engine("smartphone-inc")
    assert logged == game.canonical_action(await app.state(gid), "ann", messy)[0]
    assert logged["plan"]["improvements"] == []
    # the same move again with junk is "already done", not "stale"
    again = await app.act(gid, 1, "ann", {**messy, "junk": 1}, version)
    assert again.status == "already"


@pytest.mark.parametrize(
    "change",
    [
        {"takeover": "yes"}, {"takeover": 1}, {"remind_after_hours": "4"},
        {"repeat_hours": float("nan")}, {"takeover_after_hours": True}, {"remind_after_hours": 10**400},
    ],
)
async def test_settings_of_the_wrong_type_are_refused_politely(
    storage: Storage, clock: FakeClock, change: dict
) -> None:
    from bot.records import AppError

    app = await new_app(storage, clock)
    info = await lobby(app, humans=2)
    with pytest.raises(AppError):
        await app.update_settings(info.id, 1, **change)
    assert (await app.info(info.id)).settings == info.settings


async def test_a_private_reply_never_exceeds_discords_limit() -> None:
    from bot import errors

    sent: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, ephemeral: bool) -> None:
            sent.append(text)

    class Interaction:
        response = Response()

    await errors.reply_private(Interaction(), "Unknown game " + "x" * 2_537)  # type: ignore[arg-type]
    assert len(sent[0]) == 2000 and sent[0].endswith("…")


def test_quoted_input_in_settings_errors_is_short() -> None:
    from bot.reminders import parse_hhmm, zone

    for call in (lambda: parse_hhmm("9" * 3000), lambda: zone("Z" * 3000)):
        with pytest.raises(ValueError) as err:
            call()
        assert len(str(err.value)) < 120


async def test_a_takeover_firing_as_the_player_moves_never_takes_the_seat(storage: Storage) -> None:
    """The deadline job and the player's move race 24 times with every interleaving the
    event loop allows: either the move counts and the seat stays the player's, or the
    AI took over first and the move is refused; never a takeover after the move."""
    from bot.reminders import ReminderScheduler

    hours = 3600.0
    outcomes = set()
    for delay_steps in range(24):
        clock = FakeClock(1_700_000_000.0)
        app = await new_app(storage, clock)
        info = await lobby(app, humans=2)
        await app.update_settings(info.id, 1, remind_after_hours=100, takeover=True, takeover_after_hours=1)
        await app.start(info.id, 1, seed=3)
        await app.act(info.id, 1, None, {"pick": 1}, 0)  # ann moved; bob holds the game up
        sent = []

        async def send(n, sent=sent):
            sent.append(n)

        sched = ReminderScheduler(app, send, clock=clock)
        clock.advance(hours)
        version = (await app.info(info.id)).version

        async def player(steps=delay_steps, gid=info.id, version=version, app=app):
            for _ in range(steps):
                await asyncio.sleep(0)
            return await app.act(gid, 2, None, {"pick": 2}, version)

        move, _ = await asyncio.gather(player(), sched.fire(info.id, "bob", "takeover"))
        bob = (await app.info(info.id)).seat_named("bob")
        took = [n for n in sent if n.kind == "takeover"]
        if move.status == "applied":
            assert not bob.ai_takeover and took == []
            outcomes.add("moved")
        else:
            assert bob.ai_takeover and len(took) == 1
            outcomes.add("taken")
        sched.shutdown()
        async with storage.transaction() as tx:  # the next round uses a new game
            await tx.update_game(info.id, clock(), status="abandoned")
    assert "moved" in outcomes


def test_every_smartphone_action_the_engine_asks_for_has_only_known_fields() -> None:
    """The canonical-action table (engine/smartphone_inc/actions.py) knows every field of
    every decision the engine can ask for, modules included: a legal action is never
    refused as having unknown fields, and its canonical form plays the same."""
    from engine import get_game
    from engine.simulate import module_mix, play_game

    game = get_game("smartphone-inc")
    seen: set[str] = set()
    for seed in range(12):
        n, opts, steve = module_mix(seed, 0)
        seats = [f"p{i}" for i in range(n)]
        if steve:
            opts = {**opts, "automata": [seats[-1]]}
        state, log, _ = play_game("smartphone-inc", seats, seed, opts)
        replay = game.setup(seats, seed, opts)
        for seat, action in log:
            canon, unknown = game.canonical_action(replay, seat, action)
            assert unknown == [], (action, unknown)
            seen.add(action["type"])
            replay = game.apply(replay, seat, canon)
        assert game.dump(replay) == game.dump(state)
    assert {"plan", "research", "logistics", "improvement", "directive", "company"} <= seen, seen


def test_options_nested_a_thousand_levels_are_refused_politely() -> None:
    """Issue 8 §4: ``/game new options:{"a":{"a":...`` 1,000 levels deep is refused with a
    message (checked on the text before the JSON parser recurses), not a RecursionError."""
    from bot.games import find

    presenter = find("smartphone-inc")
    assert presenter is not None
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    with pytest.raises(ValueError, match="nested too deeply"):
        presenter.parse_options(deep)
    deep_list = '{"a":' + "[" * 1000 + "]" * 1000 + "}"
    with pytest.raises(ValueError, match="nested too deeply"):
        presenter.parse_options(deep_list)
    assert presenter.parse_options('{"tech_sides": "random"}') == {"tech_sides": "random"}
    from bot.limits import text_too_deep

    assert not text_too_deep('{"a": "' + "[{" * 500 + '\\" ]"}')  # brackets inside a string do not nest
    assert text_too_deep("[" * 65) and not text_too_deep("[" * 64)
