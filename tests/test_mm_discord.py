"""Mobile Markets end to end through the fake Discord: the lobby with its options and
Steve Jr. (the house rule), the plan-by-goal planner in DMs every round, Technology and
Marketing by the generic select, the product builder with its live preview, to the
final scores; no internal id in anything a player read."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import EPHEMERAL, FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import pick, public_with
from tests.test_words import assert_plain_words

fake = fake_fixture()


def _labels(msg: dict[str, Any]) -> list[str]:
    return [c.get("label") or "" for c in iter_components(msg)]


def _can(msg: dict[str, Any], label: str) -> bool:
    return any(c.get("label", "").startswith(label) and not c.get("disabled") for c in iter_components(msg))


async def answer_turn(fake: FakeDiscord, user: dict, msg: dict[str, Any], rng: random.Random, seen: dict[str, int]) -> None:
    """Answer one opened decision: the product builder (place a card or two, read the
    preview, build and sell) or the generic select (pick until Confirm)."""
    for _step in range(30):
        if _can(msg, "Build and sell"):
            seen["product"] += 1
            text = message_text(msg)
            assert "Net profit per sale" in text and "Money from sales" in text, text
            for _ in range(rng.randrange(3)):
                sel = [c for c in iter_components(msg) if c["type"] == 3 and not c.get("disabled")]
                if not sel or not any(o["value"].startswith("c") for o in sel[0]["options"]):
                    break
                place = [o for o in sel[0]["options"] if o["value"].startswith("c")]
                ix = await fake.click(user, msg, sel[0]["custom_id"], values=[rng.choice(place)["value"]])
                msg = ix.original
                slots = [o for o in _select_options(msg) if o["value"].startswith("s")]
                assert slots and all("per sale" in (o.get("description") or "") for o in slots)  # live preview
                ix = await fake.click(user, msg, _select(msg)["custom_id"], values=[rng.choice(slots)["value"]])
                msg = ix.original
            ix = await fake.click(user, msg, "Build and sell")  # then one confirmation
            assert "cannot be taken back" in ix.all_text()
            ix = await fake.click(user, ix.original, "Yes: Build and sell")
            done = ix.all_text()
            assert "Product sealed" in done and ("in sale order" in done or "Nobody would buy" in done), done
            return
        for _ in range(12):
            if any(lbl.startswith("Confirm") for lbl in _labels(msg)):
                break
            msg = await pick(fake, user, msg, rng.randrange(25))
        seen["select"] += 1
        ix = await fake.click(user, msg, "Confirm")
        msg = ix.original
        assert "Done:" in message_text(msg)
        if not any(c["type"] == 3 for c in iter_components(msg)):
            return


def _select(msg: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in iter_components(msg) if c["type"] == 3)


def _select_options(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return list(_select(msg).get("options") or [])


async def play_until(
    fake: FakeDiscord, bot: Any, users: list[dict], until: str, since: int, rng: random.Random, seen: dict[str, int]
) -> None:
    """Answer every turn, each opened privately with /plan by whoever must move (the
    channel gets one post per phase; a mover inside a phase is told by DM), until a
    public message contains ``until``."""
    by_name = {u["username"]: u for u in users}
    for _ in range(600):
        await fake.idle()
        if any(until in message_text(m) for m in fake.public_messages()[since:]):
            return
        pending = bot.app.engine("mobile-markets").pending(await bot.app.state(1))
        movers = [s for s in sorted(pending) if s in by_name and not pending[s].get("secret")]
        if not movers:
            await asyncio.sleep(0.05)
            continue
        user = by_name[movers[0]]
        ix = await fake.slash(user, "plan")
        assert ix.callback_data.get("flags", 0) & EPHEMERAL
        await answer_turn(fake, user, ix.followups[-1] if ix.followups else ix.original, rng, seen)
    raise AssertionError(f"never reached {until!r}")


@pytest.mark.parametrize(("players", "difficulty"), [(2, "hard"), (1, "easy")])
async def test_a_whole_mobile_markets_game_with_steve_jr(fake: FakeDiscord, tmp_path: Any, players: int, difficulty: str) -> None:
    """MM-SETUP (bot): two players and Steve Jr. (hard, the house rule), or one player
    and Steve Jr. (easy, the solo game), play five rounds through Discord."""
    rng = random.Random(5 + players)
    seen = {"product": 0, "select": 0}
    humans = [fake.add_member(n) for n in ("ann", "bob")[:players]]
    ann = humans[0]
    spy = SpyRenderer()
    async with running(fake, str(tmp_path / "mm.db"), renderer=spy) as bot:
        ix = await fake.slash(ann, "game new", {"game": "mobile-markets", "options": f"difficulty={difficulty}"})
        lobby = ix.original
        text = message_text(lobby)
        assert "Mobile Markets" in text and difficulty in text and "house rule" in text.lower(), text
        for u in humans[1:]:
            await fake.click(u, lobby, "Join")
        ix = await fake.click(ann, lobby, "Add AI")
        await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")

        def planner_for(u: dict, rnd: int) -> dict[str, Any] | None:
            return next((m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None)

        for rnd in range(1, 6):
            since = len(fake.public_messages())
            for u in humans:
                msg = await fake.wait_for(lambda u=u, rnd=rnd: planner_for(u, rnd), what=f"a round {rnd} planner")
                assert (await bot.app.prompt(1, u["username"]))["type"] == "plan"
                msg = await pick(fake, u, msg, rng.randrange(7))  # the price change
                assert "Now choose" in message_text(msg), (message_text(msg), [(c.get("label"), c.get("custom_id")) for c in iter_components(msg)])
                msg = await pick(fake, u, msg, rng.randrange(25))  # what the plan gives
                assert "Your plan:" in message_text(msg)
                ix = await fake.click(u, msg, "Seal")  # one confirmation, as for every planner
                assert "Seal this plan?" in ix.all_text()
                ix = await fake.click(u, ix.original, "Yes, seal")
                assert "Plan sealed" in ix.all_text()
            until = f"Round {rnd + 1} · Planning" if rnd < 5 else "Game over"
            await play_until(fake, bot, humans, until, since, rng, seen)
        final = await public_with(fake, "Game over")
        assert final["embeds"] and "Final scores" in final["embeds"][0]["title"]
        assert "money" in message_text(final) and "steve" in message_text(final).lower()
        assert (await bot.app.info(1)).status == "finished"
        everything = fake.public_messages() + [m for u in humans for m in fake.dm_messages(u)]
        assert not any("Sorry" in message_text(m) or "went wrong" in message_text(m) for m in everything)
    assert seen["product"] >= 5 * players and seen["select"] >= 5, seen
    # pictures: the plan previews and product previews went through draw_plan
    kinds = {("product" if (p or {}).get("type") == "product" else "plan") for kind, _g, _v, p in spy.calls if kind == "draw_plan"}
    assert kinds == {"plan", "product"}
    # every picture (plan and product previews too) names the players, never by seat id
    assert all(set(view.get("player_names") or ()) == set(view["players"]) for _k, _g, view, _p in spy.calls)
    for kind, _g, view, _p in spy.calls:  # no public picture drawn with a hidden plan
        if kind == "draw" and view.get("you") is None and view.get("phase") == "planning":
            assert all(p.get("plan") is None for p in view["players"].values())
    assert_plain_words(fake)
