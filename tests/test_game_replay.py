"""``/game replay`` (issue 21, "Replay, move by move"): a private stepper over a whole
game of each game, through the fake Discord. Each step is one logged action with its
log lines and the board after it (replayed from the log, drawn on demand); ◀ ▶ ⏮ ⏭ and
"Round N" edit the stepper's own message; a running game shows only what is public,
a finished one every private decision."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.text import with_player_names
from engine import get_game
from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, png_size, running
from tests.fake_discord import EPHEMERAL, FakeDiscord, iter_components, message_text
from tests.test_words import assert_plain_words

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")
STEP = re.compile(r"step (\d+) of (\d+)")


fake = fake_fixture(FakeDiscord.assert_no_unknown)


def _stub_renderer() -> SpyRenderer:
    spy = SpyRenderer()
    spy.real = None  # a small stand-in picture per view: the steps, not the drawing, are tested here
    return spy


async def _play_to_the_end(bot: Any, fake: FakeDiscord, name: str, users: dict[str, dict[str, Any]]) -> int:
    """A game of ann and bob set up and played to its end through the app (random legal
    moves); the bot posts as it goes."""
    app = bot.app
    ann, bob = users["ann"], users["bob"]
    info = await app.create_game(
        name, guild_id=int(fake.guild_id), channel_id=int(fake.channel_id), host_id=int(ann["id"]), host_name="ann"
    )
    await app.join(info.id, int(bob["id"]), "bob")
    await app.start(info.id, int(ann["id"]), seed=5)
    game = get_game(name)
    rng = random.Random(1)
    ids = {"ann": int(ann["id"]), "bob": int(bob["id"])}
    for _ in range(3000):
        state = await app.state(info.id)
        if game.is_over(state):
            break
        seat = sorted(game.pending(state))[0]
        action = rng.choice(game.legal_actions(state, seat))
        out = await app.act(info.id, ids[seat], seat, action, int(state["version"]))
        assert out.status == "applied", out.message
    assert game.is_over(await app.state(info.id))
    return info.id


def _the_stepper(fake: FakeDiscord, user: dict[str, Any]) -> dict[str, Any]:
    mine = [m for m in fake.channel_messages(for_user=user["id"]) if m.get("_ephemeral_for") == user["id"]]
    steppers = [m for m in mine if "Replay of game" in (m.get("content") or "")]
    assert len(steppers) == 1, [m.get("content") for m in mine]  # every click edits the one message
    return steppers[0]


@pytest.mark.parametrize("name", GAMES)
async def test_replay_steps_through_a_whole_game(fake: FakeDiscord, tmp_path: Any, name: str) -> None:
    users = {"ann": fake.add_member("ann"), "bob": fake.add_member("bob")}
    carl = fake.add_member("carl")  # a bystander
    async with running(fake, str(tmp_path / "replay.db"), renderer=_stub_renderer()) as bot:
        gid = await _play_to_the_end(bot, fake, name, users)
        info = await bot.app.info(gid)
        rec = await bot.app.record(gid)
        total = len(rec.steps)
        assert rec.over and total == info.version

        ix = await fake.slash(carl, "game replay")
        (msg,) = {m["id"]: m for m in ix.messages()}.values()
        assert msg["flags"] & EPHEMERAL and msg.get("_ephemeral_for") == carl["id"]
        assert STEP.search(msg["content"]).groups() == (str(total), str(total))  # the newest step first
        assert msg["_files"]

        await fake.click(carl, msg, lambda c: c.get("label") == "⏮")
        msg = _the_stepper(fake, carl)
        assert STEP.search(msg["content"]).group(1) == "0" and "The game begins." in msg["content"]
        prev = {c["label"]: c for c in iter_components(msg) if c.get("label") in ("⏮", "◀")}
        assert all(c.get("disabled") for c in prev.values())  # offered only where it works

        shown: list[str] = []
        pictures: set[bytes] = set()
        for i in range(1, total + 1):
            await fake.click(carl, msg, lambda c: c.get("label") == "▶")
            msg = _the_stepper(fake, carl)
            assert STEP.search(msg["content"]).groups() == (str(i), str(total)), msg["content"]
            assert len(msg["_files"]) == 1, msg["content"]
            pictures.add(bytes(msg["_files"][0][2]))
            step = rec.steps[i - 1]
            body = msg["content"]
            if step.lines and "… and" not in body:
                for line in with_player_names(list(step.lines), info):
                    assert f"• {line}" in body
            if step.detail:  # a finished game: every private decision (plans, draft picks)
                assert "private decision" in body
            shown.append(body)
        assert not any("secret decision" in b for b in shown)  # the game is over: nothing hidden
        nxt = next(c for c in iter_components(msg) if c.get("label") == "▶")
        assert nxt.get("disabled")
        assert len(pictures) > 1  # the board after each step, not one picture

        rounds = rec.rounds()
        assert rounds[:2] == [1, 2]
        await fake.click(carl, msg, lambda c: c.get("label") == "Round 2")
        msg = _the_stepper(fake, carl)
        first = rec.first_step_of_round(2)
        assert STEP.search(msg["content"]).group(1) == str(first + 1) and "Round 2" in msg["content"]
        await fake.click(carl, msg, lambda c: c.get("label") == "⏭")
        assert STEP.search(_the_stepper(fake, carl)["content"]).group(1) == str(total)
        assert not [m for m in fake.public_messages() if "Replay of game" in (m.get("content") or "")]
    assert_plain_words(fake)


async def test_a_running_age_of_automaton_replay_hides_the_draft(fake: FakeDiscord, tmp_path: Any) -> None:
    """During the draft each pick is "a secret decision"; nothing names a drafted card."""
    from engine.age_of_automaton.data import SPECIALISTS

    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "replay-aoa.db"), renderer=_stub_renderer()) as bot:
        app = bot.app
        info = await app.create_game("age-of-automaton", guild_id=int(fake.guild_id),
                                     channel_id=int(fake.channel_id), host_id=int(ann["id"]), host_name="ann")
        await app.join(info.id, int(bob["id"]), "bob")
        await app.start(info.id, int(ann["id"]), seed=5)
        game = get_game("age-of-automaton")
        for uid, seat in ((int(ann["id"]), "ann"), (int(bob["id"]), "bob"), (int(ann["id"]), "ann")):
            state = await app.state(info.id)
            action = game.legal_actions(state, seat)[0]
            assert (await app.act(info.id, uid, seat, action, int(state["version"]))).status == "applied"
        ix = await fake.slash(bob, "game replay")
        (msg,) = {m["id"]: m for m in ix.messages()}.values()
        texts = [msg["content"]]
        await fake.click(bob, msg, lambda c: c.get("label") == "⏮")
        for _ in range(3):
            await fake.click(bob, _the_stepper(fake, bob), lambda c: c.get("label") == "▶")
            texts.append(_the_stepper(fake, bob)["content"])
        assert sum("made a secret decision" in t for t in texts[1:]) == 3
        names = {s["name"] for s in SPECIALISTS.values()}
        for t in texts:
            assert not any(n in t for n in names), t
            assert "only what is public" in t
        assert png_size(_the_stepper(fake, bob)["_files"][0][2])[0] > 0
    assert_plain_words(fake)
    assert all(message_text(m) for m in fake.dm_messages(bob))
