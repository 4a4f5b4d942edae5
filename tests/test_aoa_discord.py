"""Age of Automaton through the fake Discord (issue 11): the lobby with its option and
AI note, the Specialist draft in DMs (secret, simultaneous, with the private picture),
every turn through the buttons with the engine's labels, to the final scores; no
internal id in anything a player read, no other seat's hand in any picture."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import (
    EPHEMERAL,
    HANG,
    FakeDiscord,
    iter_components,
    message_text,
    select_menu,
)
from tests.test_words import assert_plain_words

GAME = "age-of-automaton"


fake = fake_fixture()


def _options(msg: dict[str, Any]) -> list[dict[str, Any]]:
    sel = select_menu(msg)
    return [o for o in (sel or {}).get("options", []) if not o["value"].startswith("@")]


def _choose(options: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """A player who mostly plays: a main action first, the dice as rolled, ends the turn
    once the main action is done; otherwise a seeded random option."""
    labels = [o["label"] for o in options]
    for wanted in ("Kind: Main action", "Move with these dice", "End the turn", "Kind: End the turn"):
        for i, lab in enumerate(labels):
            if lab.startswith(wanted):
                return options[i]
    return options[rnd.randrange(len(options))]


async def decide(fake: FakeDiscord, user: dict, msg: dict, rnd: random.Random, limit: int = 60) -> int:
    """Answer a decision message (select, then Confirm; a pick that applies at once, such
    as "End the turn" or a question inside an action, needs no Confirm) until nothing is
    left to choose; returns the number of actions applied."""
    done = 0
    for _ in range(limit):
        for _ in range(10):
            if any(c.get("label", "").startswith("Confirm") for c in iter_components(msg)):
                ix = await fake.click(user, msg, "Confirm")
                break
            options = _options(msg)
            assert options, message_text(msg)
            ix = await fake.click(user, msg, select_menu(msg)["custom_id"], values=[_choose(options, rnd)["value"]])
            msg = ix.original
            if "Done:" in message_text(msg):
                break
        msg = ix.original
        text_ = message_text(msg)
        assert "Done:" in text_, text_
        done += 1
        if select_menu(msg) is None or done == limit:
            return done
    raise AssertionError("a decision that never ends")


async def test_a_whole_game_through_discord(fake: FakeDiscord, tmp_path: Any) -> None:
    rnd = random.Random(4)
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    spy = SpyRenderer()
    async with running(fake, str(tmp_path / "aoa.db"), renderer=spy) as bot:
        ix = await fake.slash(ann, "game new", {"game": GAME, "options": "limited_common_specialists=true"})
        lobby = ix.original
        shown = message_text(lobby)
        assert "Age of Automaton" in shown and "Limited Common Specialists: on" in shown
        assert "boardroom's own" in shown and "no solo mode" in shown
        await fake.click(bob, lobby, "Join")
        await fake.click(ann, lobby, "Start")

        # the draft: three passes, each a DM per player with the private picture; the
        # status message counts the Specialists picked in the pass (no "plans" here)
        def status_with(needle: str) -> dict[str, Any] | None:
            return next((m for m in reversed(fake.public_messages()) if needle in message_text(m)), None)

        counter = await fake.wait_for(lambda: status_with("Specialists picked 0/2"), HANG, what="the draft counter")
        assert "🔒 Draft pass 1 of 3 · Specialists picked 0/2 — waiting for" in message_text(counter)
        for k in (1, 2, 3):
            if k > 1:
                await fake.wait_for(
                    lambda k=k: f"Draft pass {k} of 3 · Specialists picked 0/2" in message_text(counter),
                    15, what=f"the counter of pass {k}",
                )
            for u in (ann, bob):
                if k == 2 and u is bob:  # ann has chosen, bob not yet: nothing of ann's pick shows
                    ix = await fake.slash(bob, "game status")
                    assert "🔒 chosen" in ix.all_text() and "choosing…" in ix.all_text()
                    ix = await fake.slash(bob, "game export")
                    data = json.loads(ix.original["_files"][0][2])
                    drafts = [a for a in data["actions"] if a["action"]["type"] == "draft"]  # secret until played
                    assert drafts and all(a["action"] == {"type": "draft", "hidden": True} for a in drafts)
                    ix = await fake.slash(bob, "rules")
                    assert "Specialist draft" in ix.all_text()

                def dm(u: dict = u, k: int = k) -> dict[str, Any] | None:
                    return next(
                        (m for m in reversed(fake.dm_messages(u)) if f"Draft pass {k} of 3" in message_text(m)), None
                    )

                msg = await fake.wait_for(dm, HANG, what=f"draft pass {k} for {u['username']}")
                assert msg.get("attachments"), "the draft DM shows the hand picture"
                labels = [o["label"] for o in _options(msg)]
                assert len(labels) == 5 - k and all(lab.startswith("Keep ") and " VP): " in lab for lab in labels)
                assert await decide(fake, u, msg, rnd, limit=1) == 1
                if u is ann:
                    await fake.wait_for(
                        lambda k=k: f"Draft pass {k} of 3 · Specialists picked 1/2" in message_text(counter),
                        15, what=f"1/2 in pass {k}",
                    )
        await fake.wait_for(lambda: "Specialist draft over" in message_text(counter), HANG, what="the end of the draft")
        state = await bot.app.state(1)
        assert state["phase"] != "draft"
        assert all(len(state["players"][s]["hand"]) == 4 for s in ("ann", "bob"))

        # every turn, each opened privately with /plan by whoever must move (the channel
        # gets one post per phase; a mover inside a phase is told by DM), to the end
        users = {"ann": ann, "bob": bob}
        actions = 0
        checked = False
        for _ in range(600):
            await fake.idle()
            if (await bot.app.info(1)).status == "finished":
                break
            pending = bot.app.engine(GAME).pending(await bot.app.state(1))
            if not pending:
                await asyncio.sleep(0.05)
                continue
            mover = users[sorted(pending)[0]]
            ix = await fake.slash(mover, "plan")
            assert ix.callback_data.get("flags", 0) & EPHEMERAL
            msg = ix.followups[-1] if ix.followups else ix.original
            actions += await decide(fake, mover, msg, rnd)
            if not checked and (await bot.app.state(1))["round"] >= 2:
                checked = True
                ix = await fake.slash(bob, "game history", {"round": 1})
                assert "Round 1" in ix.all_text() and ix.followups[0]["_files"]
                ix = await fake.slash(bob, "rules", {"topic": "special"})
                assert "Overdrive 1" in ix.all_text()
                ix = await fake.slash(bob, "game export")
                data = json.loads(ix.original["_files"][0][2])
                assert data["format"] == "boardroom-game" and data["game"] == GAME
        assert (await bot.app.info(1)).status == "finished" and checked
        assert actions > 40
        final = await fake.wait_for(
            lambda: next((m for m in fake.public_messages() if "Game over" in message_text(m)), None),
            15, what="the final scores",
        )
        assert final["embeds"] and "Final scores" in final["embeds"][0]["title"]
        everything = fake.public_messages() + fake.dm_messages(ann) + fake.dm_messages(bob)
        assert not any("plans sealed" in message_text(m).lower() for m in everything)
        assert not any("Sorry" in message_text(m) or "went wrong" in message_text(m) for m in everything)
        # an Overdrive offer or the dice were shown in words at least once
        seen = " ".join(message_text(m) for m in everything)
        assert "Level dice" in seen or "Prospect" in seen

    # no picture drawn from a view with another seat's hand or draft
    for kind, _g, view, _p in spy.calls:
        assert kind == "draw"
        assert set(view.get("player_names") or ()) == set(view["players"])  # (players by name)
        for seat, p in view["players"].items():
            if seat != view.get("you"):
                assert "hand" not in p and not isinstance(p.get("rnd"), list)
        if view.get("you") is None:
            assert "draft" not in view and "prompt" not in view
    assert_plain_words(fake)


async def _drive_until(bot: Any, users: dict[str, dict], stop: Any, limit: int = 400) -> dict[str, Any]:
    """Play the rule-following bot's choices for every seat through the app until
    ``stop(state)``; returns that state."""
    from engine.ai import choose

    for _ in range(limit):
        state = await bot.app.state(1)
        if stop(state):
            return state
        seat = sorted(bot.app.engine(GAME).pending(state))[0]
        action = choose(GAME, state, seat, "greedy")
        await bot.app.act(1, int(users[seat]["id"]), seat, action, int(state["version"]))
    raise AssertionError("the wanted stop never came")


async def test_overdrive_offer_and_donation_limit_through_discord(fake: FakeDiscord, tmp_path: Any) -> None:
    """Issue 11, "Bot": after a roll the dice come with the Overdrive offer "pay 1 credit + 1
    Reliability to lower all dice by 1 → 2 passes" (in the prompt and on the option), and
    the Donation shows its limit (AA-SPC-05, AA-DON-01)."""
    from engine.age_of_automaton import special

    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    users = {"ann": ann, "bob": bob}
    async with running(fake, str(tmp_path / "aoa2.db"), renderer=None) as bot:
        ix = await fake.slash(ann, "game new", {"game": GAME})
        await fake.click(bob, ix.original, "Join")
        await fake.click(ann, ix.original, "Start")

        def dice_offer(s: dict[str, Any]) -> bool:
            a = s["asks"][0] if s["asks"] else None
            return bool(a and a["kind"] == "dice" and special.can_overdrive(s, a["seat"]))

        state = await _drive_until(bot, users, dice_offer)
        seat = state["asks"][0]["seat"]
        faces, level = state["dice"]["faces"], state["asks"][0]["level"]
        after = sum(1 for d in faces if max(1, d - 1) <= level)
        credits, rel = special.overdrive_cost(state, seat)
        deal = (
            f"pay {credits} credit{'s' if credits != 1 else ''}{' + 1 Reliability' if rel else ''} "
            f"to lower all dice by 1 → {after} pass{'es' if after != 1 else ''}"
        )
        ix = await fake.slash(users[seat], "plan")
        msg = ix.followups[-1] if ix.followups else ix.original
        shown = message_text(msg)
        assert "Level dice " + ", ".join(["I", "II", "III", "IV", "V", "VI"][d - 1] for d in faces) in shown
        assert f"Overdrive: {deal}." in shown, shown
        labels = [o["label"] for o in _options(msg)]
        assert f"Overdrive: {deal}" in labels, labels
        assert any(lab.startswith("Move with these dice: ") and "pass" in lab for lab in labels), labels

        # an Achievement met is offered in the seat's turn: "Claim Achievement …"
        def offered(s: dict[str, Any]) -> bool:
            return bool(s["phase"] == "action" and not s["asks"] and s["turn"] and s["offers"][s["turn"]["seat"]])

        state = await _drive_until(bot, users, offered)
        seat = state["turn"]["seat"]
        ix = await fake.slash(users[seat], "plan")
        msg = ix.followups[-1] if ix.followups else ix.original
        assert "You meet the Achievement" in message_text(msg)
        labels = [o["label"] for o in _options(msg)]
        claim = next(lab for lab in labels if "Claim" in lab)
        if claim.startswith("Kind:"):  # a long list is narrowed by kind first
            ix = await fake.click(users[seat], msg, select_menu(msg)["custom_id"], values=[_options(msg)[labels.index(claim)]["value"]])
            msg = ix.original
            labels = [o["label"] for o in _options(msg)]
            claim = next(lab for lab in labels if lab.startswith("Claim Achievement "))
        assert claim.startswith("Claim Achievement ") and "VP" in claim, labels
        ix = await fake.click(users[seat], msg, select_menu(msg)["custom_id"], values=[_options(msg)[labels.index(claim)]["value"]])
        # a claim in the turn's list applies at once (issue 22: no Confirm for a free action)
        assert "Done:" in message_text(ix.original), message_text(ix.original)
        after = await bot.app.state(1)
        assert len(after["players"][seat]["achievements"]) == len(state["players"][seat]["achievements"]) + 1

        state = await _drive_until(bot, users, lambda s: s["phase"] == "donation" and not s["asks"])
        donor = state["donors"][0]
        p = state["players"][donor]
        tracks = sum(1 for h in p["prospect"].values() if h > 0)
        ix = await fake.slash(users[donor], "plan")
        msg = ix.followups[-1] if ix.followups else ix.original
        shown = message_text(msg)
        said = f"{tracks} Prospect track{'s' if tracks != 1 else ''} advanced + 2"
        assert f"Donate up to {tracks + 2} resources and/or credits ({said})." in shown, shown
        # every option keeps to the limit, down to "Donate nothing"
        labels = [o["label"] for o in _options(msg)]
        assert "Donate nothing" in labels and all(lab.startswith("Donate ") for lab in labels)
        most = max(sum(int(w) for w in lab.split() if w.isdigit()) for lab in labels)
        assert most == min(tracks + 2, p["credits"] + sum(p["res"].values())), labels
    assert_plain_words(fake)
