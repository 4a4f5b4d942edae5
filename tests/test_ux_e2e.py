"""Issue 7 through the real bot and the fake Discord: interactions per plan (by goal ≤ 4,
by hand ≤ 8 with 2 Pads and 2 Improvements) and per turn, counted by
``benchmarks/bench_ux.py``; unsealing and the turn's Undo button."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from bot.games.smartphone_inc.presenter import PRESENTER
from engine.smartphone_inc.game import GAME
from tests.app_support import fake_fixture
from tests.discord_support import TEST_PACE, running
from tests.fake_discord import FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import build_plan, new_game, planner_dm, public_with, seal
from tests.test_words import assert_plain_words

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_ux", ROOT / "benchmarks" / "bench_ux.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_ux", mod)
    spec.loader.exec_module(mod)
    return mod


fake = fake_fixture()


async def test_interactions_per_plan_and_per_turn() -> None:
    # the tests' channel pace: the interactions per plan and per turn do not depend on it
    figures = await _bench().measure(3, per=TEST_PACE)
    assert figures["seal_by_goal_interactions"] <= 4, figures
    assert figures["seal_by_hand_improvements"] == 2, figures  # 2 Pads + 2 Improvements
    assert figures["seal_by_hand_interactions"] <= 8, figures
    assert figures["turns"] > 0 and figures["turn_interactions_mean"] <= 5, figures


async def test_unseal_and_seal_again_then_no_unseal_after_the_reveal(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "unseal.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        counter = await public_with(fake, "Plans sealed 0/2")
        await fake.wait_for(lambda: fake.dm_messages(ann) and fake.dm_messages(bob), what="the planners")
        before = GAME.dump(await bot.app.state(1))
        ix = await seal(fake, ann, await build_plan(fake, ann, planner_dm(fake, ann), outcomes=True))
        assert "Plan sealed" in ix.all_text()
        await fake.wait_for(lambda: "Plans sealed 1/2" in counter["content"], what="1/2")
        # the tracker says who changed nothing yet
        assert "nothing changed yet in the planner of Bob" in counter["content"], counter["content"]
        bob_msg = await fake.click(bob, planner_dm(fake, bob), "br:ps:", values=["goal:goods"])
        ix = await fake.click(ann, ix.original, "Change my plan")
        assert "Unsealed" in message_text(ix.original) and "This plan gives" in message_text(ix.original)
        await fake.wait_for(lambda: "Plans sealed 0/2" in counter["content"], what="back to 0/2")
        # the status, edited with the unseal, knows Bob has started his plan
        assert "nothing changed yet in the planner of Bob" not in counter["content"], counter["content"]
        after = await bot.app.state(1)
        assert GAME.dump({**after, "version": 0, "log": []}) == GAME.dump(
            {**GAME.load(before), "version": 0, "log": []}
        )  # exactly the earlier state, but for the action counter
        # nothing of the plan reached the channel
        assert not any("took their plan back" in message_text(m) and "Pad" in message_text(m) for m in fake.public_messages())
        sealed = await seal(fake, ann, ix.original)  # the same planner, sealed again
        assert "Plan sealed" in sealed.all_text()
        bob_plan = await fake.click(bob, bob_msg.original, "br:ps:", values=[
            next(o["value"] for c in iter_components(bob_msg.original) if c["type"] == 3 for o in c["options"])
        ])
        shown = copy.deepcopy(sealed.original)  # as ann still sees it
        await seal(fake, bob, bob_plan.original)
        await public_with(fake, "reveals:")
        await fake.idle()
        # the reveal takes the button away (a button is offered only when pressing it works)
        assert not any(c.get("label") == "Change my plan 🔓" for c in iter_components(sealed.original))
        ix = await fake.click(ann, shown, "Change my plan")  # a click on the screen not yet refreshed
        assert "Too late" in ix.all_text() or "no sealed plan" in ix.all_text()
    assert_plain_words(fake)


async def test_undo_button_takes_the_last_turn_action_back(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "undo.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.dm_messages(ann) and fake.dm_messages(bob), what="the planners")
        for u in (ann, bob):
            await seal(fake, u, await build_plan(fake, u, planner_dm(fake, u), outcomes=True))
        await public_with(fake, "reveals:")
        undone = False
        for _ in range(30):
            state = await bot.app.state(1)
            pending = GAME.pending(state)
            if not pending or state["round"] > 1:
                break
            seat = next(iter(pending))
            user = ann if seat == "ann" else bob
            ix = await fake.slash(user, "plan")
            msg = ix.followups[-1] if ix.followups else ix.original
            while not any(c.get("label", "").startswith("Confirm") for c in iter_components(msg)):
                sel = next(c for c in iter_components(msg) if c["type"] == 3)
                opt = next(o for o in sel["options"] if not o["value"].startswith("@"))
                msg = (await fake.click(user, msg, sel["custom_id"], values=[opt["value"]])).original
            before = GAME.dump({**await bot.app.state(1), "version": 0})
            ix = await fake.click(user, msg, "Confirm")
            if any(c.get("label") == "↩ Undo" for c in iter_components(ix.original)):
                back = await fake.click(user, ix.original, "Undo")
                assert "Taken back" in message_text(back.original), back.all_text()
                assert GAME.dump({**await bot.app.state(1), "version": 0}) == before
                # the log keeps the undone move, marked (its line waits for the phase's post)
                export = await bot.app.export(1, with_seed=True)
                assert any(a["action"].get("type") == "undo" or a.get("undone") for a in export["actions"]) or any(
                    "undo" in json.dumps(a) for a in export["actions"]
                ), export["actions"][-3:]
                undone = True
                break
        assert undone
    assert_plain_words(fake)


def test_the_presenter_labels_an_option_with_numbers() -> None:
    from tests.si_support import new_game as si_game

    state = si_game(2)
    view = GAME.view(state, "p1")
    label = PRESENTER.describe_option({"type": "sell", "regions": {"china": 2}}, view, view, "p1")
    assert label.startswith("Sell 2 in China at price")
