"""How many interactions a player needs, measured through the fake Discord (issue 7).

Run: ``.venv/bin/python benchmarks/bench_ux.py [--rounds N] [--pause S --settle T] [--games si,mm,aoa]``.

Interactions per decision of all three games (issue 22), each line first: Mobile Markets
(two players, five rounds, ``tests/test_playtest_mm.py``'s newcomer: planning,
Technology, Marketing, Sales) and Age of Automaton (two players, a whole game,
``tests/test_playtest_aoa.py``'s newcomer: draft pass, Action-phase turn, Donation,
claims) print, per kind, the mean, min, max and count of interactions, and ``one``: the
mean of the decisions that took one card or step. Smartphone Inc. follows (last line).

``--pause S`` waits S seconds after each seal and each turn, and ``--settle T`` sets
the status message's settle time (default: production's ``STATUS_SETTLE``, 30 s):
``--pause 1 --settle 0.3`` plays as players who take their time (each move more than
the settle time after the one before), to see the channel writes of a slow game.

Two players play Smartphone Inc. through the real bot and the fake Discord
(``tests/fake_discord.py``): ann builds her plan by hand (Pads, then every
Improvement she owns placed on them), bob picks a whole decision from the planner's
list; every turn is opened with ``/plan`` and answered with the first option of each
select. Every click, select and slash command is one interaction. Printed (the last
line, one JSON object):

- ``seal_by_goal_interactions``: the most interactions to seal a plan by goal;
- ``seal_by_hand_interactions``: interactions to seal a plan by hand with 2 Pads and
  ``seal_by_hand_improvements`` Improvements placed (2 from the first round where ann
  owns 2);
- ``turn_interactions_mean`` / ``turn_interactions_max``: per turn (opening it included);
- ``channel_posts_per_round``: messages posted in the game's channel per round (mean),
  the round's "Round N results" post included;
- ``results_posts_per_round``: of those, the "Round N results" posts (mean; 1 once every
  round ends with one);
- ``mentions_per_player_per_round``: mentions of one player in the channel per round (mean);
- ``channel_writes_per_phase``: successful posts and edits in the game's channel per phase
  (issue 9; the rounds' results posts counted as writes, not as phases), with the
  production ``STATUS_SETTLE``, and ``channel_writes_max_phase``: the most in one phase
  (the results post not counted: it opens its own part of the tally,
  ``tests/test_channel_posts.channel_tally``); ``channel_writes_max_5s``: the most in any
  5 s.

The driver follows the labels the planner shows, so it measures whichever planner the
code has (the step-by-step one with "Pick from outcomes", or the one opening with goals).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app.core import STATUS_SETTLE  # noqa: E402
from tests.discord_support import PACED, running  # noqa: E402
from tests.fake_discord import FakeDiscord, iter_components, message_text  # noqa: E402
from tests.test_channel_posts import channel_tally  # noqa: E402


class Counter:
    """Counts the interactions each user makes through the fake Discord."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.n = 0

    async def click(self, user: dict[str, Any], msg: dict[str, Any], match: Any, **kw: Any) -> Any:
        self.n += 1
        return await self.fake.click(user, msg, match, **kw)

    async def slash(self, user: dict[str, Any], command: str, options: dict[str, Any] | None = None) -> Any:
        self.n += 1
        return await self.fake.slash(user, command, options or {})


def select_of(msg: dict[str, Any]) -> dict[str, Any] | None:
    return next((c for c in iter_components(msg) if c["type"] == 3 and not c.get("disabled")), None)


def button(msg: dict[str, Any], prefix: str) -> dict[str, Any] | None:
    return next(
        (c for c in iter_components(msg) if c["type"] == 2 and c.get("label", "").startswith(prefix) and not c.get("disabled")),
        None,
    )


async def choose(c: Counter, user: dict[str, Any], msg: dict[str, Any], pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Pick the first option of the message's select for which ``pred`` holds."""
    sel = select_of(msg)
    assert sel is not None, message_text(msg)
    opt = next((o for o in sel["options"] if pred(o)), None)
    assert opt is not None, [o["label"] for o in sel["options"]]
    ix = await c.click(user, msg, sel["custom_id"], values=[opt["value"]])
    assert ix.original is not None, ix.all_text()
    return ix.original


def not_nav(o: dict[str, Any]) -> bool:
    return not o["value"].startswith("@")


async def seal(c: Counter, user: dict[str, Any], msg: dict[str, Any]) -> dict[str, Any]:
    ix = await c.click(user, msg, "Seal")
    msg = ix.original
    confirm = button(msg, "Yes, seal") if msg else None
    if confirm is not None:  # one confirmation
        ix = await c.click(user, msg, "Yes, seal")
        msg = ix.original
    assert "sealed" in ix.all_text().lower(), ix.all_text()
    return msg


async def plan_by_goal(c: Counter, user: dict[str, Any], msg: dict[str, Any]) -> int:
    start = c.n
    if button(msg, "Pick from outcomes") is not None:  # the step-by-step planner
        msg = (await c.click(user, msg, "Pick from outcomes")).original
        for _ in range(3):  # price, goods, outcome
            msg = await choose(c, user, msg, not_nav)
    else:  # the planner opening with goals
        msg = await choose(c, user, msg, lambda o: o["value"].startswith("goal:"))
        msg = await choose(c, user, msg, not_nav)
    await seal(c, user, msg)
    return c.n - start


async def plan_by_hand(c: Counter, user: dict[str, Any], msg: dict[str, Any], owned: int) -> int:
    start = c.n
    if button(msg, "Pick from outcomes") is not None:  # the step-by-step planner
        for _ in range(4):  # bottom, top side, rotation, offset
            msg = await choose(c, user, msg, not_nav)
        for _ in range(owned):
            msg = await choose(c, user, msg, lambda o: o["value"] == "@imp")
            for _ in range(4):  # which, rotation, layer, position
                msg = await choose(c, user, msg, not_nav)
    else:
        msg = await choose(c, user, msg, lambda o: o["value"].startswith("hand:"))  # Pads and sides
        msg = await choose(c, user, msg, not_nav)  # the top Pad's turn and place
        for _ in range(owned):
            msg = await choose(c, user, msg, lambda o: o["value"].startswith("+"))  # which, turned, layer
            msg = await choose(c, user, msg, not_nav)  # where
    await seal(c, user, msg)
    return c.n - start


async def take_turn(c: Counter, user: dict[str, Any]) -> int:
    start = c.n
    ix = await c.slash(user, "plan")
    msg = ix.original or (ix.followups[-1] if ix.followups else None)
    for _ in range(40):
        assert msg is not None
        if button(msg, "Confirm") is not None:
            ix = await c.click(user, msg, "Confirm")
            msg = ix.original
            if msg is None or select_of(msg) is None:
                break
            continue
        msg = await choose(c, user, msg, not_nav)
    return c.n - start


async def measure(
    rounds: int, pause: float = 0.0, status_settle: float = STATUS_SETTLE, per: float = PACED["per"]
) -> dict[str, Any]:
    """``per``: the seconds per 5 writes in a channel (the bot's own by default; the
    channel-write figures mean something only with it)."""
    by_goal: list[int] = []
    by_hand: int | None = None
    hand_imps = 0
    turns: list[int] = []
    posts: list[int] = []
    results: list[int] = []
    mentions: list[float] = []
    async with FakeDiscord() as fake:
        users = [fake.add_member("ann"), fake.add_member("bob")]
        ann, bob = users
        c = Counter(fake)
        with tempfile.TemporaryDirectory() as tmp:
            settle = {"status_settle": status_settle}  # production's by default (the tests' is 0)
            async with running(fake, str(Path(tmp) / "ux.db"), renderer=None, delivery={**settle, "per": per}) as bot:
                app = bot.app
                ix = await fake.slash(ann, "game new", {"game": "smartphone-inc"})
                await fake.click(bob, ix.original, "Join")
                await fake.click(ann, ix.original, "Start")
                for rnd in range(1, rounds + 1):
                    since = len(fake.public_messages())

                    def planner(u: dict[str, Any], rnd: int = rnd) -> Any:
                        return next(
                            (m for m in reversed(fake.dm_messages(u)) if f"round {rnd} " in message_text(m)), None
                        )

                    await fake.wait_for(lambda: planner(ann) and planner(bob), 30, what="the planners")
                    owned = min(2, len((await app.prompt(1, "ann"))["improvements"]))
                    n = await plan_by_hand(c, ann, planner(ann), owned)
                    await asyncio.sleep(pause)
                    if by_hand is None or owned > hand_imps:
                        by_hand, hand_imps = n, owned
                    by_goal.append(await plan_by_goal(c, bob, planner(bob)))
                    for _ in range(200):
                        await asyncio.sleep(0.05)
                        view = await app.view(1, None)
                        if view["round"] != rnd or view["over"]:
                            break
                        who = [u for u in users if (p := await app.prompt(1, u["username"])) and p["type"] != "plan"]
                        if who:
                            turns.append(await take_turn(c, who[0]))
                            await asyncio.sleep(pause)
                    await fake.wait_for(  # the last post of the round: its results
                        lambda rnd=rnd, since=since: any(
                            f"**Round {rnd} results**" in message_text(m) for m in fake.public_messages()[since:]
                        ),
                        30,
                        what=f"the round {rnd} results",
                    )
                    public = fake.public_messages()[since:]
                    posts.append(len(public))
                    results.append(sum(bool(re.search(r"\*\*Round \d+ results\*\*", message_text(m))) for m in public))
                    text = "\n".join(message_text(m) for m in public)
                    mentions.append(sum(len(re.findall(f"<@{u['id']}>", text)) for u in users) / len(users))
                await fake.idle()
        tally = channel_tally(fake, fake.channel_id)
        phases = {k: v for k, v in tally.items() if not k.endswith(" results") and k != "lobby"}
        writes = sum(v["writes"] for k, v in tally.items() if k != "lobby")
        window = fake.writes_per_window(fake.channel_id, 5.0)
    return {
        "seal_by_goal_interactions": max(by_goal),
        "seal_by_hand_interactions": by_hand,
        "seal_by_hand_improvements": hand_imps,
        "turn_interactions_mean": round(sum(turns) / len(turns), 2) if turns else None,
        "turn_interactions_max": max(turns) if turns else None,
        "turns": len(turns),
        "channel_posts_per_round": round(sum(posts) / len(posts), 2),
        "results_posts_per_round": round(sum(results) / len(results), 2),
        "mentions_per_player_per_round": round(sum(mentions) / len(mentions), 2),
        "channel_writes_per_phase": round(writes / len(phases), 2),
        "channel_writes_max_phase": max(v["writes"] for v in phases.values()),
        "channel_writes_max_5s": window,
        "rounds": rounds,
    }


def _per_kind(log: list[tuple[str, int, int]]) -> dict[str, Any]:
    """Interactions per decision of each kind: mean, min, max, count, and the mean of the
    decisions that took exactly one card or step (``one``)."""
    out: dict[str, Any] = {}
    for kind in sorted({k for k, _c, _a in log}):
        clicks = [c for k, c, _a in log if k == kind]
        one = [c for k, c, a in log if k == kind and a == 1]
        out[kind] = {
            "mean": round(sum(clicks) / len(clicks), 2), "min": min(clicks), "max": max(clicks), "n": len(clicks),
            "one": round(sum(one) / len(one), 2) if one else None,
        }
    return out


async def measure_mm(seed: int = 12) -> dict[str, Any]:
    """Mobile Markets, two players, five rounds through the fake Discord, each turn
    opened from its "Open my turn" button (tests/test_playtest_mm.py's newcomer)."""
    from tests.test_playtest_mm import play_whole_game

    async with FakeDiscord() as fake:
        with tempfile.TemporaryDirectory() as tmp:
            played = await play_whole_game(fake, Path(tmp), 2, False, seed)
    return _per_kind(played["log"])


async def measure_aoa(seed: int = 3) -> dict[str, Any]:
    """Age of Automaton, two players, a whole game through the fake Discord
    (tests/test_playtest_aoa.py's newcomer: the draft from its DMs, each turn opened from
    its "Open my turn" button, Confirm after each step)."""
    import random

    from tests import playtest_support as ps
    from tests.test_playtest_aoa import GAME, _start_and_draft, _turn

    rnd = random.Random(seed)
    log: list[tuple[str, int, int]] = []
    async with FakeDiscord() as fake:
        users = [fake.add_member(n) for n in ("ann", "bob")]
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, str(Path(tmp) / "aoa.db"), renderer=None, delivery=PACED) as bot:
                log.extend(("draft", clicks, steps) for clicks, steps in await _start_and_draft(fake, users, rnd, pictures=False))
                used: set[str] = set()

                def ready() -> Any:
                    if any("Game over" in message_text(m) for m in fake.public_messages()):
                        return "done"
                    used.update(m["id"] for u in users for m in fake.dm_messages(u) if "You are the last one" in message_text(m))
                    return ps.turn_prompt(fake, users, used, 0, 0)

                for _ in range(400):
                    found = await fake.wait_for(ready, 20, what="a turn or the end")
                    if found == "done":
                        break
                    m, u = found
                    used.add(m["id"])
                    state = await bot.app.state(1)
                    pending = bot.app.engine(GAME).pending(state)
                    ix = await fake.click(u, m, "Open my turn")
                    opened = ix.followups[-1] if ix.followups else ix.original
                    if u["username"] not in pending:
                        continue
                    kind = state["phase"] + (f" ({state['asks'][0]['kind']})" if state.get("asks") else "")
                    clicks, steps = await _turn(fake, u, opened, rnd)
                    log.append((kind, clicks + 1, steps))
                await fake.idle()
    return _per_kind(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds to play (by hand with 2 Improvements needs a second one)")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds to wait after each seal and turn")
    parser.add_argument("--settle", type=float, default=STATUS_SETTLE, help="the status message's settle time (s)")
    parser.add_argument("--games", default="si,mm,aoa", help="which games: si, mm, aoa (comma-separated)")
    args = parser.parse_args(argv)
    games = set(args.games.split(","))
    if "mm" in games:  # interactions per decision (issue 22): Technology / Marketing / Sales / plan
        print("mobile-markets interactions per decision:", json.dumps(asyncio.run(measure_mm())))
    if "aoa" in games:  # an Action-phase turn, Donation, draft pass
        print("age-of-automaton interactions per decision:", json.dumps(asyncio.run(measure_aoa())))
    if "si" not in games:
        return 0
    figures = asyncio.run(measure(max(1, args.rounds), args.pause, args.settle))
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
