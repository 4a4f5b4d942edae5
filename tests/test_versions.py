"""Rules versions, generator kinds and state migrations (issue 13), and seeds players
cannot predict (issue 8 §3): what a game records, what load does with an old or a
too-new state, and that no view, picture input or running export holds the seed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fakegame import GAME as FAKE
from fakegame import FakeClock

from bot import cli
from bot.app import App, replay_export
from bot.storage import Storage
from engine import IllegalAction
from engine.ai import choose
from engine.errors import StateTooNew
from engine.jsonstate import dumps
from engine.rng import BLAKE2B, SPLITMIX64, kind_of
from engine.smartphone_inc import migrations, versions
from engine.smartphone_inc.game import GAME
from engine.versions import edition, export_edition, rules_version, setup_as
from tests.app_support import started_game

V1 = Path(__file__).parent / "fixtures" / "upgrade" / "v1"


def v1_state(name: str = "finished") -> dict[str, Any]:
    return json.loads((V1 / "states" / f"{name}.json").read_text())


# --- what a game records -------------------------------------------------------------


def test_a_new_game_records_the_current_rules_schema_and_generator() -> None:
    state = GAME.setup(["ann", "bob"], 5)
    assert state["rules"] == versions.RULES == GAME.rules_version == rules_version(GAME)
    assert state["schema"] == versions.SCHEMA
    assert kind_of(state["rng"]) == BLAKE2B
    assert edition(state) == (versions.RULES, BLAKE2B)


def test_an_old_game_is_set_up_under_the_rules_and_generator_it_started_with() -> None:
    """The v1 fixture's finished game replays under rules 1 and splitmix64; under the
    new generator the same seed deals another pile."""
    data = json.loads((V1 / "exports" / "finished.json").read_text())
    seats = [s["seat"] for s in sorted(data["seats"], key=lambda s: s["position"])]
    old = GAME.setup(seats, data["seed"], data["options"], rules=1, rng=SPLITMIX64)
    assert edition(old) == (1, SPLITMIX64) and isinstance(old["rng"], int)
    new = GAME.setup(seats, data["seed"], data["options"])
    assert old["block"] + old["pile"] != new["block"] + new["pile"]
    assert export_edition(data) == (1, SPLITMIX64)  # export format 1 predates both


def test_setup_refuses_rules_it_does_not_know() -> None:
    with pytest.raises(StateTooNew, match="upgrade boardroom"):
        GAME.setup(["ann", "bob"], 5, rules=versions.RULES + 1)
    for bad in (0, -1, "1", True):
        with pytest.raises(IllegalAction):
            GAME.setup(["ann", "bob"], 5, rules=bad)
    with pytest.raises(IllegalAction, match="unknown random generator"):
        GAME.setup(["ann", "bob"], 5, rng="mersenne")


def test_setup_as_calls_a_game_that_keeps_no_versions_plainly() -> None:
    """engine.versions.setup_as: a package whose setup takes no rules/rng keywords is set
    up as before, and refused if that is not what the game recorded."""
    state = setup_as(FAKE, ["ann", "bob"], 3, {}, rules=1, rng=SPLITMIX64)
    assert edition(state) == (1, SPLITMIX64)
    with pytest.raises(IllegalAction, match="rules version 2"):
        setup_as(FAKE, ["ann", "bob"], 3, {}, rules=2, rng=SPLITMIX64)
    with pytest.raises(IllegalAction, match="blake2b"):
        setup_as(FAKE, ["ann", "bob"], 3, {}, rules=1, rng=BLAKE2B)


# --- state migrations -------------------------------------------------------------------


def test_step_1_to_2_is_pure_and_records_rules_version_1() -> None:
    old = v1_state()
    before = dumps(old)
    assert old["schema"] == 1 and "rules" not in old
    new = migrations.STEPS[1](old)
    assert dumps(old) == before  # the input is untouched
    assert new["schema"] == 2 and new["rules"] == 1
    assert {k: v for k, v in new.items() if k not in ("schema", "rules")} == {
        k: v for k, v in old.items() if k != "schema"
    }


def test_load_upgrades_every_v1_state_step_by_step() -> None:
    for path in sorted((V1 / "states").glob("*.json")):
        state = GAME.load(path.read_text())
        assert state["schema"] == versions.SCHEMA and state["rules"] == 1, path.name
        assert isinstance(state["rng"], int)  # the generator it started with
        assert GAME.load(GAME.dump(state)) == state  # a current state loads as it is


def test_load_refuses_a_state_newer_than_the_code_with_a_clear_message() -> None:
    state = GAME.setup(["ann", "bob"], 5)
    newer = dict(state, schema=versions.SCHEMA + 1)
    with pytest.raises(StateTooNew, match=r"saved by a newer boardroom \(state schema 3; this one reads up to 2\)"):
        GAME.load(dumps(newer))
    with pytest.raises(StateTooNew, match=f"rules version {versions.RULES + 1}, but .* up to version {versions.RULES}"):
        GAME.load(dumps(dict(state, rules=versions.RULES + 1)))
    for junk in ("[]", '{"game": "chess", "schema": 1}', '{"game": "smartphone-inc"}',
                 '{"game": "smartphone-inc", "schema": "1"}'):
        with pytest.raises(ValueError, match="not a Smartphone Inc. state"):
            GAME.load(junk)


async def test_the_app_refuses_a_game_saved_by_a_newer_boardroom_politely(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "new.db")
    try:
        app = App(storage, clock=FakeClock())
        info, _out = await started_game(app, "smartphone-inc", seed=9, channel_id=5)
        state = dict(await app.state(info.id), schema=versions.SCHEMA + 1)
        async with storage.transaction() as tx:
            await tx.put_snapshot(info.id, int(state["version"]), dumps(state), 0.0)
            await tx.update_game(info.id, 0.0, rules=versions.RULES + 1)
        fresh = App(storage, clock=FakeClock())  # a restarted bot: nothing cached
        from bot.records import Conflict

        with pytest.raises(Conflict, match="newer boardroom"):
            await fresh.state(info.id)
        async with storage.transaction() as tx:  # and without a snapshot: the row's rules
            await tx.conn.execute("DELETE FROM snapshots")
        with pytest.raises(Conflict, match="rules only up to version"):
            await App(storage, clock=FakeClock()).state(info.id)
    finally:
        await storage.close()


# --- seeds players cannot predict (issue 8 §3) ----------------------------------------------


def _secrets(state: dict[str, Any]) -> list[str]:
    return [str(state["seed"]), state["rng"]["key"]]


async def test_seeds_have_128_bits_differ_and_never_show(tmp_path: Path) -> None:
    """Two games started without a seed: 128-bit seeds from the OS, kept in the state and
    the games row (TEXT), different; the views of every seat and the public view at every
    step (what the pictures are drawn from) and every prompt hold neither the seed nor the
    generator key; a running game's export withholds the seed; the finished game's export
    gives it and replays to the recorded result, also through `boardroom replay`."""
    storage = await Storage.open(tmp_path / "seeds.db")
    try:
        app = App(storage, clock=FakeClock())  # the real seed source
        games = []
        for channel in (1, 2):
            info = await app.create_game("smartphone-inc", channel_id=channel, host_id=1, host_name="Ann")
            await app.join(info.id, 2, "Bob")
            await app.add_ai(info.id, 1, "random")
            await app.start(info.id, 1)
            games.append(info.id)
        s1, s2 = [await app.state(g) for g in games]
        assert s1["seed"] != s2["seed"] and s1["rng"]["key"] != s2["rng"]["key"]
        assert 64 < s1["seed"].bit_length() <= 128 and 64 < s2["seed"].bit_length() <= 128
        info = await app.info(games[0])
        assert info.seed == s1["seed"] and (info.rules, info.rng) == (versions.RULES, BLAKE2B)
        with sqlite3.connect(tmp_path / "seeds.db") as conn:
            kinds = conn.execute("SELECT typeof(seed), seed, rules, rng FROM games ORDER BY id").fetchall()
        conn.close()
        assert kinds[0] == ("text", str(s1["seed"]), versions.RULES, BLAKE2B)

        gid = games[0]
        secret = _secrets(s1)
        users = {"ann": 1, "bob": 2}
        seen = 0

        def check(obj: Any) -> None:
            nonlocal seen
            text = json.dumps(obj, default=str)
            assert not any(s in text for s in secret)
            seen += 1

        out = await app.run_ai(gid)
        for _ in range(3000):
            if out.over:
                break
            for seat in (None, "ann", "bob", "bot1"):
                check(await app.view(gid, seat))
            running = await app.export(gid)
            assert running["seed"] is None and running["seed_withheld"]
            seat = sorted(out.pending)[0]
            state = await app.state(gid)
            out = await app.act(gid, users[seat], seat, choose("smartphone-inc", state, seat, "random"),
                                int(state["version"]))
            assert out.status == "applied", out.message
            check([out.public_view, out.phase_views, out.new_prompts, out.prompt, out.events, out.result])
        assert out.over and seen > 100
        data = await app.export(gid)
        assert data["seed"] == s1["seed"] and data["rules"] == versions.RULES and data["rng"] == BLAKE2B
        assert replay_export(json.loads(json.dumps(data))) == out.result
        path = tmp_path / "export.json"
        path.write_text(json.dumps(data))
        assert cli.main(["replay", str(path)]) == 0

        # replay from the stored seed is byte-identical to the state the game reached
        final = await app.state(gid)
        async with storage.transaction() as tx:
            await tx.conn.execute("DELETE FROM snapshots WHERE game_id = ?", (gid,))
        again = await App(storage, clock=FakeClock()).state(gid)
        assert dumps(again) == dumps(final)
    finally:
        await storage.close()


def test_no_view_of_any_seat_holds_the_seed_or_the_key_in_any_phase() -> None:
    """Engine level, a whole game of every size with Steve: the seed's digits, the
    generator's key and its "rng" entry appear in no view."""
    for n, steve in ((1, True), (3, False), (4, True), (5, False)):
        seats = [f"p{i}" for i in range(n)] + (["steve"] if steve else [])
        state = GAME.setup(seats, 2**127 + 977 * n, {"automata": ["steve"] if steve else []})
        secret = _secrets(state)
        for _ in range(3000):
            for seat in [None, *seats]:
                view = GAME.view(state, seat)
                text = dumps(view)
                assert "rng" not in view and not any(s in text for s in secret)
            if GAME.is_over(state):
                break
            seat = sorted(GAME.pending(state))[0]
            state = GAME.apply(state, seat, choose("smartphone-inc", state, seat, "random"))
        assert GAME.is_over(state)


def test_the_migrate_report_counts_games_per_rules_version_and_generator() -> None:
    rows = [
        ("smartphone-inc", None, None, "lobby", 2),
        ("smartphone-inc", 1, "blake2b", "active", 3),
        ("smartphone-inc", 1, "blake2b", "paused", 1),
        ("smartphone-inc", 1, "splitmix64", "abandoned", 1),
        ("smartphone-inc", 1, "splitmix64", "active", 4),
        ("smartphone-inc", 1, "splitmix64", "finished", 5),
        ("smartphone-inc", 2, "blake2b", "active", 1),
    ]
    assert cli.edition_report(rows) == [
        "  smartphone-inc: 2 in the lobby (rules set at the start)",
        "  smartphone-inc rules version 1, generator blake2b: 4 running, 0 ended",
        "  smartphone-inc rules version 1, generator splitmix64: 4 running, 6 ended",
        "  smartphone-inc rules version 2, generator blake2b: 1 running, 0 ended",
    ]


async def test_migration_0002_keeps_every_seed_exactly_and_marks_started_games_rules_1(tmp_path: Path) -> None:
    """A database at schema 1: the largest INTEGER seed survives as its decimal digits,
    started games get rules version 1 and splitmix64, a lobby gets neither (yet)."""
    from bot.storage import connect, migrate

    conn = await connect(tmp_path / "old.db")
    try:
        assert await migrate(conn, target=1) == [1]
        for gid, seed, status in ((1, 2**63 - 1, "active"), (2, None, "lobby"), (3, 0, "finished")):
            await conn.execute(
                "INSERT INTO games (id, game, seed, channel_id, host_id, status, created_at, updated_at)"
                " VALUES (?, 'smartphone-inc', ?, ?, 1, ?, 0, 0)",
                (gid, seed, 10 + gid, status),
            )
        assert await migrate(conn, target=2) == [2]
    finally:
        await conn.close()
    storage = await Storage.open(tmp_path / "old.db")
    try:
        rows = [await storage.game_row(g) for g in (1, 2, 3)]
    finally:
        await storage.close()
    assert [(r.seed, r.rules, r.rng) for r in rows] == [
        (2**63 - 1, 1, SPLITMIX64), (None, None, None), (0, 1, SPLITMIX64)
    ]
