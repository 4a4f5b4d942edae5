"""Differential secrecy (issue 20 §1): vary one seat's secret and check that every output
another seat or a bystander can obtain is byte-identical, in all three games.

The secret varied: Ann's sealed plan (Smartphone Inc., Mobile Markets; Bob has not
sealed yet), Ann's drafted Specialists (Age of Automaton: her first pick while Bob still
chooses, watched by Bob and a bystander; and her pick of the first pass carried through
the whole draft to the first turn of the Action phase, watched by the bystander, since
Bob is passed what she left), and the order of the decks' hidden cards
(the engine's setup with the tails of its decks reversed, which no one sees in round 1).

The outputs, each compared on its own: the channel's posts (text, embeds, buttons) with
their pictures' bytes; the DMs of the other players; and, asked by each observer,
``/game status``, ``/game log``, ``/game history``, ``/game export`` (its file),
``/game replay`` (every step, with its picture); the DEBUG log (every logger but the
content-free ones, ``CONTENT_FREE``), after the bot's secret filter. In the DEBUG log the fields that differ between
two runs of the very same game are normalised (snowflake ids, interaction tokens,
timestamps, object addresses, heartbeat lines), and the lines are compared as a sorted
list (concurrent tasks may interleave); the pictures and every other output are compared
byte for byte.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot import errors
from engine import get_game
from tests import playtest_support as ps
from tests.discord_support import Clock, running
from tests.fake_discord import HANG, FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import pick, pick_value

Scenario = Callable[[FakeDiscord, Any, dict[str, dict[str, Any]], int], Awaitable[None]]


# --- what an observer can obtain ------------------------------------------------------


def _message(m: dict[str, Any]) -> dict[str, Any]:
    """A message as its reader sees it: words, embeds, controls, pictures (bytes)."""
    return {
        "content": m.get("content") or "",
        "embeds": m.get("embeds") or [],
        "components": [
            {k: c.get(k) for k in ("type", "label", "custom_id", "disabled", "options", "placeholder")}
            for c in iter_components(m)
        ],
        "files": [(name, bytes(data)) for _id, name, data in m.get("_files", [])],
    }


def _public(fake: FakeDiscord) -> list[Any]:
    dms = set(fake.dm_channels.values())
    out = []
    for channel in sorted(fake.messages, key=int):
        if channel in dms:
            continue
        out.append([_message(m) for m in fake.channel_messages(channel)])
    return out


async def _settled(fake: FakeDiscord, bot: Any) -> None:
    """Wait until everything the game owes Discord is sent (no outbox row pending) and
    the bot is quiet."""
    for _ in range(600):
        await fake.idle()
        async with bot.app.storage.read() as q:
            pending = await q.pending_outbox(1)
        if not [r for r in pending if r.kind != "hold"]:
            return
    raise AssertionError("the outbox never emptied")


async def _asked(fake: FakeDiscord, user: dict[str, Any]) -> dict[str, Any]:
    """What ``user`` gets from every reading command, in the game's channel."""
    channel = fake.channel_id
    got: dict[str, Any] = {}

    def answer(ix: Any) -> list[Any]:
        return [_message(m) for m in {m["id"]: m for m in ix.messages()}.values()]

    got["status"] = answer(await fake.slash(user, "game status", channel_id=channel))
    got["log"] = answer(await fake.slash(user, "game log", {"round": 1}, channel_id=channel))
    got["history"] = answer(await fake.slash(user, "game history", {"round": 1}, channel_id=channel))
    ix = await fake.slash(user, "game export", channel_id=channel)
    (exported,) = answer(ix)
    data = json.loads(exported["files"][0][1])
    data.pop("id", None)
    got["export"] = data
    ix = await fake.slash(user, "game replay", channel_id=channel)
    (first,) = {m["id"]: m for m in ix.messages()}.values()
    steps = [_message(first)]
    msg_id = first["id"]

    def stepper() -> dict[str, Any]:
        return next(m for ms in fake.messages.values() for m in ms if m["id"] == msg_id)

    await fake.click(user, stepper(), lambda c: c.get("label") == "⏮")
    for _ in range(400):
        steps.append(_message(stepper()))
        nxt = next(c for c in iter_components(stepper()) if c.get("label") == "▶")
        if nxt.get("disabled"):
            break
        await fake.click(user, stepper(), lambda c: c.get("label") == "▶")
    got["replay"] = steps
    return got


VOLATILE = [
    (re.compile(r"127\.0\.0\.1:\d+"), "<fake discord>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)?"), "<time>"),
    (re.compile(r"0x[0-9a-f]{6,}"), "<addr>"),
    (re.compile(r"[A-Za-z0-9_-]{24,}"), "<token>"),
    (re.compile(r"\d{6,}"), "<id>"),
    (re.compile(r"\d+\.\d+ ?(?:seconds|s)\b"), "<secs>"),
]
# loggers whose lines carry no payload: aiosqlite names each database call (the
# storage's filter drops its parameters), asyncio its loop; how many calls a move takes
# is not a secret of the game's (it is not compared)
CONTENT_FREE = ("aiosqlite", "asyncio", "PIL")
DROPPED = (
    "heartbeat", "Keeping shard", "websocket alive", "latency", "voice will NOT be supported",
    # discord.py's gateway on a busy machine: a late heartbeat and its acknowledgement
    "Can't keep up", "WebSocket Event: {'op': 11,",
)


def _debug_lines(records: list[logging.LogRecord]) -> list[str]:
    out = []
    for r in records:
        text = f"{r.name} {r.getMessage()}"
        if any(d in text for d in DROPPED):
            continue
        for pattern, repl in VOLATILE:
            text = pattern.sub(repl, text)
        out.append(text)
    return sorted(out)


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(CONTENT_FREE):
            self.records.append(record)


async def _observe(
    tmp_path: Any, scenario: Scenario, variant: int, watchers: tuple[str, ...], games: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run ``scenario`` with ``variant`` of the secret; return what each of ``watchers``
    (and the public) can obtain, and the secret-holder's own state (to check it varied)."""
    filt = errors.secret_filter()
    filt.channels.clear()
    filt.tokens.clear()
    capture = Capture()
    loggers = [logging.getLogger()]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.addHandler(capture)
    try:
        async with FakeDiscord() as fake:
            users = {n: fake.add_member(n) for n in ("ann", "bob", "carl")}
            kwargs = {"games": games} if games else {}
            kwargs["clock"] = Clock()  # the same deadlines in both runs
            # no pacing, one send at a time: what is sent, and in which order, is the same every run
            kwargs["delivery"] = {"pace": 10_000, "concurrency": 1}
            async with running(fake, str(tmp_path / f"secrecy-{variant}.db"), **kwargs) as bot:
                await scenario(fake, bot, users, variant)
                await _settled(fake, bot)
                seen: dict[str, Any] = {"public": _public(fake)}
                for w in watchers:
                    seen[f"{w} DMs"] = [_message(m) for m in fake.dm_messages(users[w])]
                for w in watchers:
                    seen[f"{w} asks"] = await _asked(fake, users[w])
                await fake.idle()
                seen["public after"] = _public(fake)
                state = await bot.app.state(1)
                holder = {"ann": state["players"]["ann"], "draft": state.get("draft")}
            fake.assert_no_unknown()
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.removeHandler(capture)
            lg.setLevel(level)
    seen["DEBUG log"] = _debug_lines(capture.records)
    return _plain(seen), holder


SNOWFLAKE = re.compile(r"\d{15,}")  # the fake's ids (time-based): the same place, another number


def _plain(value: Any) -> Any:
    """``value`` with the fake's ids written alike (words, pictures and all else kept)."""
    if isinstance(value, str):
        return SNOWFLAKE.sub("<id>", value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where ``a`` and ``b`` first differ, with both sides (clipped), or None."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}/{k}: only on one side"
            found = first_difference(a[k], b[k], f"{path}/{k}")
            if found:
                return found
        return None
    if path == "DEBUG log" and a != b:
        from collections import Counter

        only_a, only_b = Counter(a) - Counter(b), Counter(b) - Counter(a)
        return f"{path}: lines only in one run {list(only_a.items())[:3]} / in the other {list(only_b.items())[:3]}"
    if isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            extra = (a if len(a) > len(b) else b)[min(len(a), len(b))]
            return f"{path}: {len(a)} != {len(b)} items; first extra: {str(extra)[:300]}"
        return None
    if a != b:
        if isinstance(a, bytes):
            return f"{path}: {len(a)} bytes != {len(b)} bytes"
        return f"{path}: {str(a)[:400]!r} != {str(b)[:400]!r}"
    return None


def assert_same(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Every output equal; the message names the first difference of each that is not."""
    problems = [f for key in sorted(set(a) | set(b)) if (f := first_difference(a.get(key), b.get(key), key))]
    assert not problems, "differs with the other secret:\n" + "\n".join(problems)


# --- the scenarios ----------------------------------------------------------------------


async def _open(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], game: str) -> None:
    ix = await fake.slash(users["ann"], "game new", {"game": game})
    await fake.click(users["bob"], ix.original, "Join")
    await _settled(fake, bot)
    await fake.click(users["ann"], ix.original, "Start")
    await _settled(fake, bot)


def _newest_dm(fake: FakeDiscord, user: dict[str, Any], needle: str) -> Callable[[], Any]:
    return lambda: next((m for m in reversed(fake.dm_messages(user)) if needle in message_text(m)), None)


async def _seal_mm(fake: FakeDiscord, bot: Any, user: dict[str, Any], variant: int) -> None:
    msg = await fake.wait_for(_newest_dm(fake, user, "round 1 (game"), HANG, what="a Mobile Markets planner")
    msg = await pick(fake, user, msg, 1 + variant)  # the price change
    msg = await pick(fake, user, msg, 0)
    ix = await fake.click(user, msg, "Seal")
    await fake.click(user, ix.original, "Yes, seal")
    await _settled(fake, bot)


async def _seal_si(fake: FakeDiscord, bot: Any, user: dict[str, Any], variant: int) -> None:
    from tests.test_discord_e2e import planner_dm, seal

    msg = await fake.wait_for(lambda: fake.dm_messages(user) and planner_dm(fake, user), HANG, what="a planner DM")
    msg = await pick_value(fake, user, msg, "goal:", variant)
    msg = await pick(fake, user, msg, 0)
    await seal(fake, user, msg)
    await _settled(fake, bot)


async def si_plan(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], variant: int) -> None:
    await _open(fake, bot, users, "smartphone-inc")
    await _seal_si(fake, bot, users["ann"], variant)


async def mm_plan(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], variant: int) -> None:
    await _open(fake, bot, users, "mobile-markets")
    await _seal_mm(fake, bot, users["ann"], variant)


async def _draft(fake: FakeDiscord, bot: Any, user: dict[str, Any], k: int, index: int) -> None:
    msg = await fake.wait_for(_newest_dm(fake, user, f"Draft pass {k} of 3"), HANG, what=f"draft pass {k}")
    opts = ps.options(msg)
    ix = await fake.click(user, msg, ps.select(msg)["custom_id"], values=[opts[index % len(opts)]["value"]])
    msg = ix.original
    if not ps.can(msg, "Confirm"):
        msg = ix.followups[-1] if ix.followups else msg
    await fake.click(user, msg, "Confirm")
    await _settled(fake, bot)


async def aoa_draft(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], variant: int) -> None:
    await _open(fake, bot, users, "age-of-automaton")
    for k in (1, 2, 3):
        await _draft(fake, bot, users["ann"], k, variant if k == 1 else 0)
        await _draft(fake, bot, users["bob"], k, 0)
    await fake.wait_for(lambda: "Action" in " ".join(message_text(m) for m in fake.public_messages()[-3:]) or None,
                        15, what="the Action phase")


async def aoa_pick(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], variant: int) -> None:
    """Ann keeps one Specialist or another of her first pass; Bob is still choosing."""
    await _open(fake, bot, users, "age-of-automaton")
    await _draft(fake, bot, users["ann"], 1, variant)


async def both_plan(fake: FakeDiscord, bot: Any, users: dict[str, dict[str, Any]], variant: int) -> None:
    """The deck scenario: the same moves every time (only the decks' hidden order varies)."""
    game = bot.app.engine(_GAME_OF_DECKS[0]).name
    await _open(fake, bot, users, game)
    if game == "smartphone-inc":
        await _seal_si(fake, bot, users["ann"], 0)
        await _seal_si(fake, bot, users["bob"], 0)
    elif game == "mobile-markets":
        await _seal_mm(fake, bot, users["ann"], 0)
        await _seal_mm(fake, bot, users["bob"], 0)
    else:
        for k in (1, 2, 3):
            await _draft(fake, bot, users["ann"], k, 0)
            await _draft(fake, bot, users["bob"], k, 0)


_GAME_OF_DECKS: list[str] = ["smartphone-inc"]


def _decks(name: str, state: dict[str, Any]) -> list[list[Any]]:
    if name == "smartphone-inc":
        return [state["pile"]]
    if name == "mobile-markets":
        return [d["deck"] for d in state["displays"].values()] + [c["deck"] for c in state["customers"].values()]
    return list(state["decks"].values())


def reordered(name: str) -> Any:
    """The game whose setup reverses the last six cards of each deck (drawn from the
    front: nobody sees them in round 1)."""
    base = get_game(name)
    original = type(base).setup

    def _shuffled(state: dict[str, Any]) -> dict[str, Any]:
        for deck in _decks(name, state):
            assert len(deck) > 8
            deck[-6:] = deck[-6:][::-1]
        return state

    if name == "mobile-markets":
        def setup(self: Any, players: list[str], seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
            return _shuffled(original(self, players, seed, options))
    else:
        def setup(  # type: ignore[misc]
            self: Any, players: list[str], seed: int, options: dict[str, Any] | None = None, *,
            rules: int | None = None, rng: str | None = None,
        ) -> dict[str, Any]:
            return _shuffled(original(self, players, seed, options, rules=rules, rng=rng))

    cls = type(f"Reordered{type(base).__name__}", (type(base),), {"setup": setup})
    return cls()


# --- the tests --------------------------------------------------------------------------


CASES = [
    pytest.param(si_plan, ("bob", "carl"), id="smartphone-inc-plan"),
    pytest.param(mm_plan, ("bob", "carl"), id="mobile-markets-plan"),
    pytest.param(aoa_pick, ("bob", "carl"), id="age-of-automaton-pick"),
    pytest.param(aoa_draft, ("carl",), id="age-of-automaton-draft"),  # Bob sees what Ann passed him
]


@pytest.mark.parametrize(("scenario", "watchers"), CASES)
async def test_another_secret_changes_nothing_anyone_else_can_obtain(
    tmp_path: Any, scenario: Scenario, watchers: tuple[str, ...]
) -> None:
    one, ann_one = await _observe(tmp_path, scenario, 0, watchers)
    other, ann_other = await _observe(tmp_path, scenario, 1, watchers)
    assert ann_one != ann_other  # the secret did vary
    assert_same(one, other)


@pytest.mark.parametrize("name", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
async def test_the_decks_hidden_order_changes_nothing_anyone_can_obtain(tmp_path: Any, name: str) -> None:
    _GAME_OF_DECKS[0] = name
    one, _ = await _observe(tmp_path, both_plan, 0, ("ann", "bob", "carl"), games={name: get_game(name)})
    other, _ = await _observe(tmp_path, both_plan, 1, ("ann", "bob", "carl"), games={name: reordered(name)})
    assert_same(one, other)
