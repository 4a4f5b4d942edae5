"""Issue 20 §4: junk actions get a polite refusal, never a raw error; the log stores only
what the engine reads (every game's ``canonical_action``, engine/canonical.py).

The fuzz (hypothesis) sends each game, at positions of a real game, actions built from
its legal ones with a field's value replaced by any JSON value, a field added, the type
replaced, or anything at all: ``canonical_action`` then ``apply`` raise only
``IllegalAction`` or succeed, and the canonical action has only the fields of its type.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from fakegame import FakeClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.storage import Storage
from engine import IllegalAction, get_game
from engine.ai import choose
from engine.simulate import module_mix, play_game

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")


def _fields(name: str) -> Any:
    if name == "smartphone-inc":
        from engine.smartphone_inc.actions import FIELDS
    elif name == "mobile-markets":
        from engine.mobile_markets.actions import FIELDS
    else:
        from engine.age_of_automaton.canonical import FIELDS
    return FIELDS


def _setup(name: str, seed: int) -> tuple[list[str], dict[str, Any]]:
    if name == "smartphone-inc":
        n, opts, steve = module_mix(seed, 0)
        seats = [f"p{i}" for i in range(n)]
        return seats, ({**opts, "automata": [seats[-1]]} if steve else opts)
    if name == "mobile-markets":
        return (["p0", "p1"] if seed % 2 else ["p0"]), {}
    return [f"p{i}" for i in range(2 + seed % 3)], {}


@functools.cache
def positions(name: str) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(state, a pending seat, one of its legal actions) along a few random games: every
    kind of decision the games ask for."""
    game = get_game(name)
    out: list[tuple[dict[str, Any], str, dict[str, Any]]] = []
    kinds: set[str] = set()
    for seed in range(3):
        seats, opts = _setup(name, seed)
        state = game.setup(seats, seed, opts)
        step = 0
        while not game.is_over(state):
            seat = sorted(game.pending(state))[0]
            action = choose(name, state, seat, "random")
            if action["type"] not in kinds or step % 17 == 0:
                kinds.add(action["type"])
                out.append((state, seat, action))
            state = game.apply(state, seat, action)
            step += 1
    return out


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=12,
)


@st.composite
def junk(draw: Any, name: str) -> tuple[dict[str, Any], str, Any]:
    state, seat, legal = draw(st.sampled_from(positions(name)))
    action: Any = dict(legal)
    how = draw(st.sampled_from(["field", "add", "type", "anything", "deep"]))
    fields = sorted(_fields(name).get(action["type"], {}))
    if how == "field" and fields:
        action[draw(st.sampled_from(fields))] = draw(json_values)
    elif how == "deep" and fields:  # one level down: a plan's Pad, a region's count
        key = draw(st.sampled_from(fields))
        inner = action.get(key)
        if isinstance(inner, dict) and inner:
            inner = dict(inner)
            inner[draw(st.sampled_from(sorted(inner)))] = draw(json_values)
        elif isinstance(inner, list) and inner:
            inner = [draw(json_values), *inner[1:]]
        else:
            inner = draw(json_values)
        action[key] = inner
    elif how == "add":
        action[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    elif how == "type":
        action["type"] = draw(json_values | st.sampled_from(sorted(_fields(name))))
    else:
        action = draw(json_values)
    return state, seat, action


def _check(name: str, state: dict[str, Any], seat: str, action: Any) -> None:
    game = get_game(name)
    try:
        canon, unknown = game.canonical_action(state, seat, action)
    except IllegalAction as exc:
        assert str(exc)
        return
    known = _fields(name)[canon["type"]]
    assert set(canon) <= {"type", *known}, canon
    assert all(k not in known and k != "type" for k in unknown)
    if unknown:
        return  # the app refuses it, naming the fields
    try:
        game.apply(state, seat, canon)
    except IllegalAction as exc:
        assert str(exc)


@pytest.mark.parametrize("name", GAMES)
def test_junk_actions_get_only_illegal_action(name: str) -> None:
    positions(name)  # (built once, outside hypothesis's deadline)

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(junk(name))
    def run(case: tuple[dict[str, Any], str, Any]) -> None:
        _check(name, *case)

    run()


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_has_only_known_fields_and_plays_the_same(name: str) -> None:
    """Every action the engine asks for is known to its table: never refused as having
    unknown fields, and its canonical form plays the same game, byte for byte."""
    game = get_game(name)
    for seed in range(4):
        seats, opts = _setup(name, seed)
        state, log, _ = play_game(name, seats, seed, opts)
        replay = game.setup(seats, seed, opts)
        for seat, action in log:
            canon, unknown = game.canonical_action(replay, seat, action)
            assert unknown == [], (action, unknown)
            replay = game.apply(replay, seat, canon)
        assert game.dump(replay) == game.dump(state)


# --- through the app: what the issue found ------------------------------------------------


async def _game(tmp_path: Path, name: str) -> tuple[App, int, Storage]:
    storage = await Storage.open(tmp_path / "junk.db")
    app = App(storage, clock=FakeClock())
    info = await app.create_game(name, channel_id=9, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.start(info.id, 1, seed=7)
    return app, info.id, storage


async def _pending(app: App, gid: int) -> tuple[str, int, dict[str, Any], int]:
    info = await app.info(gid)
    state = await app.state(gid)
    seat = sorted(get_game(info.game).pending(state))[0]
    return seat, info.seat_named(seat).user_id, choose(info.game, state, seat, "random"), info.version


@pytest.mark.parametrize("name", GAMES)
async def test_the_app_refuses_junk_politely_and_stores_the_canonical_move(tmp_path: Path, name: str) -> None:
    app, gid, storage = await _game(tmp_path, name)
    try:
        seat, uid, action, version = await _pending(app, gid)
        junks: list[Any] = [
            {**action, "type": [action["type"]]},  # Smartphone Inc.: the type given as a list
            {**action, "type": {"a": 1}},
            {**action, "zz_unknown": "note"},  # Mobile Markets, Age of Automaton: stored as sent
            [action],
            "plan",
        ]
        for key in (k for k in action if k != "type"):
            junks += [{**action, key: {"x": [1]}}, {**action, key: [[{}]]}, {**action, key: 10**30}]
        if name == "mobile-markets":  # plan.bottom given as a dict
            junks.append({"type": "plan", "plan": {"bottom": {"A": 1}, "bottom_side": 0, "top_side": 0, "cover": [0]}})
        for bad in junks:
            out = await app.act(gid, uid, seat, bad, version)
            assert out.status == "illegal" and out.message, (bad, out)
        assert (await app.info(gid)).version == version  # nothing stored
        # a legal move with its fields in another order is stored in the canonical form
        messy = dict(reversed(list(action.items())))
        out = await app.act(gid, uid, seat, messy, version)
        assert out.status == "applied", out.message
        async with storage.read() as q:
            logged = (await q.actions(gid, after=version, upto=version + 1))[0].action
        assert logged == action
        assert set(logged) <= {"type", *_fields(name)[logged["type"]]}
    finally:
        await storage.close()


@pytest.mark.parametrize("name", GAMES)
def test_junk_through_the_app_is_refused_or_stored_canonical(tmp_path: Path, name: str) -> None:
    """The same fuzz through ``App.act`` on a live game: only "illegal" (a message) or
    "applied", never an exception; what the log stores has only the fields of its type,
    in canonical form."""
    import asyncio

    loop = asyncio.new_event_loop()
    app, gid, storage = loop.run_until_complete(_game(tmp_path, name))
    fields = _fields(name)

    async def one(data: Any) -> None:
        seat, uid, legal, version = await _pending(app, gid)
        action: Any = dict(legal)
        how = data.draw(st.sampled_from(["field", "add", "type", "anything", "legal"]))
        keys = sorted(fields.get(action["type"], {}))
        if how == "field" and keys:
            action[data.draw(st.sampled_from(keys))] = data.draw(json_values)
        elif how == "add":
            action[data.draw(st.text(min_size=1, max_size=8))] = data.draw(json_values)
        elif how == "type":
            action["type"] = data.draw(json_values)
        elif how == "anything":
            action = data.draw(json_values)
        out = await app.act(gid, uid, seat, action, version)
        assert out.status in ("illegal", "applied"), (action, out.status, out.message)
        if out.status == "illegal":
            assert out.message
            assert (await app.info(gid)).version == version
            return
        async with storage.read() as q:
            logged = (await q.actions(gid, after=version, upto=version + 1))[0].action
        assert set(logged) <= {"type", *fields[logged["type"]]}, logged
        game = get_game(name)
        assert game.canonical_action(None, seat, logged) == (logged, [])  # already canonical

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.data())
    def run(data: Any) -> None:
        if get_game(name).is_over(loop.run_until_complete(app.state(gid))):
            return
        loop.run_until_complete(one(data))

    try:
        run()
    finally:
        loop.run_until_complete(storage.close())
        loop.close()
