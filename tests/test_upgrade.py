"""An upgrade never breaks a game in progress (issue 13).

Every fixture under tests/fixtures/upgrade/ is a database (and the exports) that an
older boardroom made with games in flight (tests/fixtures/make_upgrade_fixture.py;
manifest.json says what is in it). Under the current code:

- the database migrates, and every game loads (its snapshot upgraded by the engine's
  state migrations) to exactly the state a replay of its log gives, under the rules
  version and generator it started with;
- each game is played to the end by the random player through the app layer;
- each export replays byte for byte to the state the old code computed;
- where the fixture says how the old code ended its games in flight (``ends/``), the
  whole log up to the final scoring replays to the very bytes the old code reached;
- ``boardroom migrate`` reports how many games run under each rules version.

A new fixture is added each time a rules version (or generator kind, or state schema)
moves; the old ones stay.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.app import App, replay_export
from bot.storage import Storage
from engine import IllegalAction, get_game
from engine.jsonstate import dumps
from engine.versions import edition, setup_as
from tests.app_support import TickingClock, replay_exported
from tests.fixtures.make_upgrade_fixture import play_to_end

UPGRADE = Path(__file__).parent / "fixtures" / "upgrade"
FIXTURES = sorted(p for p in UPGRADE.iterdir() if (p / "manifest.json").is_file())
GAMES = [
    (fx, g) for fx in FIXTURES for g in json.loads((fx / "manifest.json").read_text())["games"]
]
IDS = [f"{fx.name}-{g['name']}" for fx, g in GAMES]
ENDED = [(fx, g) for fx, g in GAMES if (fx / "ends" / f"{g['name']}.json").is_file()]
SEALED = [(fx, g) for fx, g in GAMES if g["name"].endswith("planning-sealed")]
DRAFTS = [(fx, g) for fx, g in GAMES if g["phase"] == "draft"]
OTHER_GAMES = UPGRADE / "mm1-aoa1"  # Mobile Markets and Age of Automaton rules 1, made by c41c9f7
AOA2 = UPGRADE / "aoa2"  # Age of Automaton rules 2: Achievements offered, not yet claimed
AOA3 = UPGRADE / "aoa3"  # Age of Automaton rules 3 (claims before the Audit), before rules 4


Clock = partial(TickingClock, 1_800_000_000.0, 30.0)


def test_there_is_a_fixture_of_the_first_version() -> None:
    assert UPGRADE / "v1" in FIXTURES
    manifest = json.loads((UPGRADE / "v1" / "manifest.json").read_text())
    names = {g["name"] for g in manifest["games"]}
    assert {"planning-sealed", "research", "selling", "last-round", "steve", "finished"} <= names
    assert any(s["kind"] == "steve" for g in manifest["games"] for s in g["seats"])
    assert {g["phase"] for g in manifest["games"]} >= {"planning", "research", "selling", "over"}
    assert (UPGRADE / "v1" / "games.db").stat().st_size < 400_000


def test_there_is_a_fixture_of_mobile_markets_and_age_of_automaton_rules_1() -> None:
    """Made by the last code of Age of Automaton rules version 1 (Achievements claimed by
    the engine the moment they are met), before rules version 2 offered them."""
    manifest = json.loads((OTHER_GAMES / "manifest.json").read_text())
    assert manifest["made_by_commit"].startswith("c41c9f7")
    games = manifest["games"]
    mm = [g for g in games if g["game"] == "mobile-markets"]
    aoa = [g for g in games if g["game"] == "age-of-automaton"]
    assert {(g["rules"], g["rng"]) for g in games} == {(1, "blake2b")}
    assert {len(g["seats"]) for g in mm} >= {2, 3, 4}
    assert any([s["kind"] for s in g["seats"]] == ["human", "steve"] for g in mm)  # Steve Jr. solo
    assert {g["phase"] for g in mm} >= {"planning", "technology", "marketing", "sales", "over"}
    assert {len(g["seats"]) for g in aoa} >= {2, 3, 4}
    assert {bool(g["options"].get("limited_common_specialists")) for g in aoa} == {True, False}
    assert {g["phase"] for g in aoa} >= {"draft", "action", "donation", "over"}
    assert any(g["round"] == 5 and g["status"] != "finished" for g in aoa)
    assert {g["status"] for g in games} == {"active", "paused", "finished"}
    states = {g["name"]: json.loads((OTHER_GAMES / "states" / f"{g['name']}.json").read_text()) for g in aoa}
    claimed = states["aoa-achievement"]["achievements"]  # claimed by the engine, no offer kept
    assert any(claimed.values()) and "offers" not in states["aoa-achievement"]
    assert all(len(list((OTHER_GAMES / sub).glob("*.json"))) for sub in ("exports", "states", "ends"))
    size = sum(f.stat().st_size for f in OTHER_GAMES.rglob("*") if f.is_file())
    assert size < 400 * 1024  # small: it is in the repository for good


def test_there_is_a_fixture_of_age_of_automaton_rules_2_with_offers_in_flight() -> None:
    """Made while Age of Automaton rules version 2 is current (Achievements offered when
    met, claimed by the player): games rest with an offer not yet claimed, mid-Action
    and mid-Donation, besides the draft and a finished game."""
    assert AOA2 in FIXTURES
    manifest = json.loads((AOA2 / "manifest.json").read_text())
    games = manifest["games"]
    assert {(g["game"], g["rules"], g["rng"]) for g in games} == {("age-of-automaton", 2, "blake2b")}
    assert {g["phase"] for g in games} >= {"draft", "action", "donation", "over"}
    assert {g["status"] for g in games} == {"active", "finished"}
    states = {g["name"]: json.loads((AOA2 / "states" / f"{g['name']}.json").read_text()) for g in games}
    for name, phase in (("aoa2-offer", "action"), ("aoa2-donation-offer", "donation")):
        s = states[name]
        offered = {(seat, card) for seat, cards in s["offers"].items() for card in cards}
        assert s["phase"] == phase and offered, name
        assert all(seat not in s["achievements"][card] for seat, card in offered), name  # not claimed
    donation = states["aoa2-donation-offer"]
    assert any(donation["offers"][seat] for seat in donation["donors"])  # a donor still to decide can claim
    assert all(len(list((AOA2 / sub).glob("*.json"))) for sub in ("exports", "states", "ends"))
    size = sum(f.stat().st_size for f in AOA2.rglob("*") if f.is_file())
    assert size <= 200 * 1024


def test_there_is_a_fixture_of_age_of_automaton_rules_3_before_rules_4() -> None:
    """Made by the last code of Age of Automaton rules version 3 (b13fe43), before rules 4
    (issue 22: Reliability benefits gained IMMEDIATELY, a main action may end the turn,
    the dice asked only when Overdrive can be played): the draft, a Prospect's Overdrive
    question open, a claim before the Audit, a paused game, a finished game."""
    assert AOA3 in FIXTURES
    manifest = json.loads((AOA3 / "manifest.json").read_text())
    assert manifest["made_by_commit"].startswith("b13fe43")
    games = manifest["games"]
    assert {(g["game"], g["rules"], g["rng"]) for g in games} == {("age-of-automaton", 3, "blake2b")}
    assert {g["phase"] for g in games} >= {"draft", "action", "audit", "over"}
    assert {g["status"] for g in games} == {"active", "paused", "finished"}
    states = {g["name"]: json.loads((AOA3 / "states" / f"{g['name']}.json").read_text()) for g in games}
    assert states["aoa3-dice"]["asks"][0]["kind"] == "dice"
    assert states["aoa3-audit-claim"]["asks"][0] == {"before": "audit", "kind": "achievement", "seat": "bob"}
    assert all(len(list((AOA3 / sub).glob("*.json"))) for sub in ("exports", "states", "ends"))
    size = sum(f.stat().st_size for f in AOA3.rglob("*") if f.is_file())
    assert size <= 280 * 1024


async def test_age_of_automaton_rules_3_games_keep_their_rules_after_rules_4(tmp_path: Path) -> None:
    """Under the rules-4 code the rules-3 games in flight keep rules 3: no "end" option on
    a main action (refused if sent, the turn prompt does not offer it), and the Overdrive
    question stays open as the old code left it."""
    storage = await open_copy(AOA3, tmp_path)
    try:
        app = App(storage, clock=Clock())
        for entry in json.loads((AOA3 / "manifest.json").read_text())["games"]:
            info = await app.info(entry["id"])
            state = await app.state(entry["id"])
            assert info.rules == 3 and state["rules"] == 3, entry["name"]
            if entry["name"] == "aoa3-dice":
                seat = state["asks"][0]["seat"]
                assert {"type": "dice", "overdrive": False} in await app.legal_actions(entry["id"], seat)
            if entry["name"] == "aoa3-round-4":  # on to the next turn with main actions
                game = get_game(info.game)
                for _ in range(50):
                    (seat,) = game.pending(state)
                    acts = game.legal_actions(state, seat)
                    main = next((a for a in acts if a["type"] == "main"), None)
                    if main is not None:
                        break
                    state = game.apply(state, seat, acts[0])
                assert main is not None and state["rules"] == 3
                assert "can_end" not in game.view(state, seat)["prompt"] and "end" not in main
                with pytest.raises(IllegalAction, match="rules version"):
                    game.apply(state, seat, {**main, "end": True})
    finally:
        await storage.close()


async def open_copy(fixture: Path, tmp_path: Path) -> Storage:
    """The fixture's database, copied (never touched in place) and migrated."""
    db = tmp_path / "games.db"
    shutil.copyfile(fixture / "games.db", db)
    return await Storage.open(db)


RESOURCES = re.compile(r"\d+ (?:red|blue|yellow)(?:, \d+ (?:red|blue|yellow))+")


def same_but_listed(replayed: dict[str, Any], snapshot: dict[str, Any]) -> bool:
    """Age of Automaton before the fix of the key order (tests/test_aoa_action_key_order.py)
    logged the resources of a Donation, pick or discard in the order the live action
    object listed them, the replay of the stored (canonical) action in sorted order: a
    snapshot written live by that code differs from the replay only there, in the log
    lines of its last action ("donates 1 red, 2 blue" / "donates 2 blue, 1 red")."""
    def canonical(line: str) -> str:
        return RESOURCES.sub(lambda m: ", ".join(sorted(m.group(0).split(", "))), line)

    rest = {k: v for k, v in replayed.items() if k != "log"}
    if snapshot.get("game") != "age-of-automaton" or dumps(rest) != dumps({k: v for k, v in snapshot.items() if k != "log"}):
        return False
    return [canonical(x) for x in replayed["log"]] == [canonical(x) for x in snapshot["log"]]


def replay_log(info: Any, rows: list[Any]) -> dict[str, Any]:
    game = get_game(info.game)
    state = setup_as(game, [s.seat for s in info.seats], info.seed, info.options, rules=info.rules, rng=info.rng)
    for r in rows:
        state = game.apply(state, r.seat, r.action)
    return state


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
async def test_every_fixture_game_loads_as_a_replay_of_its_log(fixture: Path, tmp_path: Path) -> None:
    manifest = json.loads((fixture / "manifest.json").read_text())
    storage = await open_copy(fixture, tmp_path)
    try:
        app = App(storage, clock=Clock())
        for entry in manifest["games"]:
            info = await app.info(entry["id"])
            assert (info.status, info.version) == (entry["status"], entry["version"]), entry["name"]
            assert (info.rules, info.rng) == (entry["rules"], entry["rng"]), entry["name"]
            state = await app.state(entry["id"])  # newest snapshot, upgraded, + later rows
            assert (state["round"], state["phase"]) == (entry["round"], entry["phase"]), entry["name"]
            assert edition(state) == (entry["rules"], entry["rng"])
            async with storage.read() as q:
                rows = await q.actions(entry["id"])
            replayed = replay_log(info, rows)
            if dumps(replayed) != dumps(state):  # only a snapshot made live by old code, see same_but_listed
                assert same_but_listed(replayed, state), entry["name"]
    finally:
        await storage.close()
    with sqlite3.connect(tmp_path / "games.db") as conn:  # 0002: seeds are decimal TEXT now
        seeds = dict(conn.execute("SELECT id, seed FROM games WHERE typeof(seed) = 'text'").fetchall())
    conn.close()
    for entry in manifest["games"]:
        data = json.loads((fixture / "exports" / f"{entry['name']}.json").read_text())
        assert int(seeds[entry["id"]]) == data["seed"]


@pytest.mark.parametrize(("fixture", "entry"), GAMES, ids=IDS)
async def test_every_fixture_game_plays_to_the_end(fixture: Path, entry: dict[str, Any], tmp_path: Path) -> None:
    """The random player plays the human seats through the app layer (the AI seats play
    themselves); the game ends under the rules and generator it started with."""
    storage = await open_copy(fixture, tmp_path)
    try:
        app = App(storage, clock=Clock())
        gid = entry["id"]
        info = await app.info(gid)
        if info.status == "finished":
            assert info.result is not None and (await app.state(gid))["phase"] == "over"
            return
        await play_to_end(app, gid)  # raises if a move is refused or the game does not end
        info = await app.info(gid)
        assert info.status == "finished" and info.result is not None
        assert (info.rules, info.rng) == (entry["rules"], entry["rng"])
        assert edition(await app.state(gid)) == (entry["rules"], entry["rng"])
        data = await app.export(gid)
        assert (data["rules"], data["rng"]) == (entry["rules"], entry["rng"])
        assert replay_export(json.loads(json.dumps(data))) == info.result
    finally:
        await storage.close()


@pytest.mark.parametrize(("fixture", "entry"), GAMES, ids=IDS)
def test_every_export_replays_byte_identical(
    fixture: Path, entry: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """The export (with its seed) replays under the current code to the very bytes the
    old code computed, once the engine's migrations have brought those to today's shape."""
    path = fixture / "exports" / f"{entry['name']}.json"
    data = json.loads(path.read_text())
    game, state = replay_exported(data)
    then = game.load((fixture / "states" / f"{entry['name']}.json").read_text())
    assert game.dump(state) == game.dump(then)
    assert int(state["version"]) == entry["export_version"]
    want = data["result"] if data["result"] is not None else {"over": False, "version": entry["export_version"]}
    assert replay_export(data) == want
    assert cli.main(["replay", str(path)]) == 0  # the operator's command too
    assert json.loads(capsys.readouterr().out) == want


@pytest.mark.parametrize(("fixture", "entry"), SEALED, ids=[f"{fx.name}-{g['name']}" for fx, g in SEALED])
async def test_hidden_plans_stay_hidden_after_the_upgrade(fixture: Path, entry: dict[str, Any], tmp_path: Path) -> None:
    """The game stopped in Planning with plans sealed: after the upgrade the other seats
    and the public still see no sealed plan, and the export still hides them."""
    storage = await open_copy(fixture, tmp_path)
    try:
        app = App(storage, clock=Clock())
        state = await app.state(entry["id"])
        sealed = [s for s in state["seats"] if state["players"][s]["plan"] is not None]
        assert len(sealed) == entry.get("sealed", 2)
        for viewer in [None, *state["seats"]]:
            view = await app.view(entry["id"], viewer)
            for s in sealed:
                assert view["players"][s]["sealed"]
                if s != viewer:
                    assert view["players"][s]["plan"] is None
        data = await app.export(entry["id"], with_seed=True)
        hidden = [a for a in data["actions"] if a.get("hidden")]
        assert len(hidden) == data["redacted"] == len(sealed)  # the open decision's plans, by their kind only
        assert all(a["action"] == {"type": "plan", "hidden": True} for a in hidden)
    finally:
        await storage.close()


@pytest.mark.parametrize(("fixture", "entry"), DRAFTS, ids=[f"{fx.name}-{g['name']}" for fx, g in DRAFTS])
async def test_the_specialist_draft_stays_hidden_after_the_upgrade(
    fixture: Path, entry: dict[str, Any], tmp_path: Path
) -> None:
    """Age of Automaton stopped in the Specialist draft with picks sealed: after the upgrade
    nobody sees another seat's draft hand, kept cards or pick, and the export shows no
    pick (a drafted Specialist is secret until played)."""
    storage = await open_copy(fixture, tmp_path)
    try:
        app = App(storage, clock=Clock())
        state = await app.state(entry["id"])
        draft = state["draft"]
        picked = [s for s in state["seats"] if draft["picks"][s] is not None]
        assert picked and len(picked) < len(state["seats"]) and draft["pass"] >= 2
        for viewer in [None, *state["seats"]]:
            text = json.dumps(await app.view(entry["id"], viewer))
            for s in state["seats"]:
                if s == viewer:
                    continue
                secret = [*draft["kept"][s], *draft["hands"][s], *([draft["picks"][s]] if draft["picks"][s] else [])]
                mine = [*draft["kept"][viewer], *draft["hands"][viewer]] if viewer else []
                for card in set(secret) - set(mine):
                    assert f'"{card}"' not in text, (viewer, s, card)
        data = await app.export(entry["id"], with_seed=True)
        drafts = [a for a in data["actions"] if a["action"].get("type") == "draft"]
        assert len(drafts) >= len(picked) and all(a.get("hidden") for a in drafts)  # no pick is played yet
        text = json.dumps(data["actions"])
        for s in state["seats"]:
            for card in [*draft["kept"][s], *draft["hands"][s], *([draft["picks"][s]] if draft["picks"][s] else [])]:
                assert f'"{card}"' not in text, (s, card)
    finally:
        await storage.close()


@pytest.mark.parametrize(("fixture", "entry"), ENDED, ids=[f"{fx.name}-{g['name']}" for fx, g in ENDED])
def test_every_game_in_flight_ends_as_the_old_code_ended_it(fixture: Path, entry: dict[str, Any]) -> None:
    """The old code played each game in flight on to its end (ends/<name>.json: the
    actions after the export's, the result, the end state's SHA-256). The current code
    replays that whole log under the game's rules version to the very same bytes: the
    old rules (e.g. Age of Automaton's Achievements claimed by the engine at once) hold
    up to the final scoring, not only up to where the fixture stopped."""
    data = json.loads((fixture / "exports" / f"{entry['name']}.json").read_text())
    end = json.loads((fixture / "ends" / f"{entry['name']}.json").read_text())
    assert end["after"] == len(data["actions"])
    game, state = replay_exported(data, [(seat, action) for seat, action in end["actions"]])
    assert state["phase"] == "over" and state["result"] == end["result"]
    assert int(state["version"]) == end["version"]
    assert hashlib.sha256(game.dump(state).encode()).hexdigest() == end["sha256"]


def test_boardroom_migrate_reports_the_games_by_rules_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = UPGRADE / "v1"
    manifest = json.loads((fixture / "manifest.json").read_text())
    db = tmp_path / "games.db"
    shutil.copyfile(fixture / "games.db", db)
    assert cli.main(["migrate", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "applied: 0002" in out
    running = sum(g["status"] in ("active", "paused") for g in manifest["games"])
    ended = sum(g["status"] in ("finished", "abandoned") for g in manifest["games"])
    assert f"smartphone-inc rules version 1, generator splitmix64: {running} running, {ended} ended" in out


def test_boardroom_migrate_reports_the_other_games_by_rules_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = json.loads((OTHER_GAMES / "manifest.json").read_text())["games"]
    db = tmp_path / "games.db"
    shutil.copyfile(OTHER_GAMES / "games.db", db)
    assert cli.main(["migrate", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    for name in ("mobile-markets", "age-of-automaton"):
        mine = [g for g in games if g["game"] == name]
        running = sum(g["status"] in ("active", "paused") for g in mine)
        ended = sum(g["status"] in ("finished", "abandoned") for g in mine)
        assert f"{name} rules version 1, generator blake2b: {running} running, {ended} ended" in out
