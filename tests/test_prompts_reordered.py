"""Issue 34 §2: no prompt dies when the outbox is delivered late and out of order.

At Discord's real pace on a busy server, a DM written by one move arrives after the
next move: a "You are the last one" DM of Age of Automaton's first draft pass took the
place of the live pass-2 select, and a press on that select answered "That turn is
done". Here every game's multi-step decisions (Age of Automaton's draft passes and its
turns of several steps, Smartphone Inc.'s and Mobile Markets' planning) are played
through the real bot and the fake Discord while the outbox is shuffled, each seed its
own shuffle (``Shuffler``): a row goes at once, or is parked until the test lets it go
(at a random later moment, in a random order among the parked ones: between two
clicks, or inside a click, right after the move is recorded and before the bot shows
its answer, which is the race of the issue), or (a notice: a row that holds up nothing)
is put back for a moment so that the rows after it overtake it.

The player (``Player``) always presses its live prompt: its newest message with a live
control of a decision (a DM, or a private reply), else the "Open my turn" of the
game's post. Counted:

- a dead prompt: a press on the live prompt answered that the turn is done, already
  done, moved on or moved to another message;
- a stuck decision: a seat the game waits for has no live prompt once every parked row
  is delivered and the bot is quiet.

Both must be 0 for every seed. ``python tests/test_prompts_reordered.py [seeds]``
prints the counts of more seeds per game.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.delivery import Retry
from bot.prompts import OPEN, TURN, PromptBoard, Shown
from bot.storage import OutboxRow
from tests.discord_support import running
from tests.fake_discord import TURNS, FakeDiscord, iter_components, message_text

PROMPTS = ("br:as:", "br:ab:", "br:ps:", "br:pb:", "br:open:")
DEAD = (
    "That turn is done", "Already done", "Nothing to decide", "moved on", "newer message", "another message",
    "as it is now",
)
PARK = 0.8  # share of the rows parked until the test lets them go
BOUNCE = 0.3  # share of the notices put back once (the rows after them overtake them)
RELEASE_IN_ACT = 0.3  # share of the moves inside which parked rows are delivered
RELEASE_IN_SHOW = 0.4  # share of the prompts shown by a click before which parked rows are
# delivered (and the same share: while it is shown)
RELEASE_BETWEEN = 0.15  # share of the clicks before which parked rows are delivered
SEEDS = {"age-of-automaton": 24, "smartphone-inc": 12, "mobile-markets": 14}  # 50 in all
STEPS = {"age-of-automaton": 20, "smartphone-inc": 16, "mobile-markets": 16}  # clicks per seed
OPTIONS = {"mobile-markets": "difficulty=medium"}


class Shuffler:
    """The bot's sender (``bot.posting.DiscordSender``), with each row's delivery shuffled
    by a seeded draw: sent at once, parked until :meth:`release`, or a notice put back."""

    def __init__(self, real: Any, rng: random.Random) -> None:
        self.real = real
        self.rng = rng
        self.parked: list[tuple[OutboxRow, asyncio.Future[None], asyncio.Future[None], asyncio.Task[Any]]] = []
        self.bounced: set[int] = set()
        self.releasing = False  # a release inside the bot's showing of a prompt is under way

    def __getattr__(self, name: str) -> Any:  # prepare, pictures, dm_channel...
        return getattr(self.real, name)

    async def channel_key(self, row: OutboxRow) -> str | None:
        return await self.real.channel_key(row)  # type: ignore[no-any-return]

    async def tell_blocked(self, game_id: int, code: int) -> None:
        await self.real.tell_blocked(game_id, code)

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        if not row.ordered and row.id not in self.bounced and self.rng.random() < BOUNCE:
            self.bounced.add(row.id)
            raise Retry("put back by the test", after=0.0)
        if self.rng.random() < PARK:
            loop = asyncio.get_running_loop()
            go, done = loop.create_future(), loop.create_future()
            task = asyncio.current_task()
            assert task is not None
            self.parked.append((row, go, done, task))
            await go
            try:
                return await self.real.deliver(row, merged)  # type: ignore[no-any-return]
            finally:
                done.set_result(None)
        return await self.real.deliver(row, merged)  # type: ignore[no-any-return]

    def parked_tasks(self) -> set[asyncio.Task[Any]]:
        return {p[3] for p in self.parked}

    async def release(self, share: float = 1.0) -> None:
        """Deliver a random ``share`` of the parked rows, one by one in a random order."""
        picks = [p for p in self.parked if self.rng.random() < share]
        self.rng.shuffle(picks)
        for p in picks:
            if p not in self.parked:  # (let go meanwhile by another release)
                continue
            self.parked.remove(p)
            p[1].set_result(None)
            await p[2]


def live_controls(msg: dict[str, Any], gid: int) -> list[dict[str, Any]]:
    """The enabled controls of a decision of game ``gid`` on ``msg`` (not an Undo)."""
    out = []
    for c in iter_components(msg):
        cid = str(c.get("custom_id", ""))
        if c.get("disabled") or not cid.startswith(PROMPTS) or cid.split(":")[2] != str(gid):
            continue
        if cid.endswith((":undo", ":unseal")):
            continue
        out.append(c)
    return out


class Player:
    """Two players of one game, each pressing its live prompt; counts dead prompts and
    stuck decisions."""

    def __init__(self, fake: FakeDiscord, bot: Any, shuffler: Shuffler, game: str, users: list[dict[str, Any]],
                 channel_id: str, rng: random.Random) -> None:
        self.fake, self.bot, self.shuffler, self.game = fake, bot, shuffler, game
        self.users, self.channel_id, self.rng = users, channel_id, rng
        self.by_seat = {u["username"]: u for u in users}
        self.gid = 0
        self.dead: list[str] = []
        self.stuck: list[str] = []

    def _busy(self) -> list[asyncio.Task[Any]]:
        """The bot's work in flight but the parked sends and the senders' loops."""
        play = self.bot.get_cog("Play")
        mine = set(getattr(play, "_tasks", ()))
        parked = self.shuffler.parked_tasks()
        me = asyncio.current_task()
        out = []
        for t in asyncio.all_tasks():
            if t.done() or t is me or t in parked:
                continue
            name = t.get_name()
            sending = name.startswith("boardroom-deliver-") and name.count("-") == 3
            if t in mine or sending or name.startswith(("discord-ui-", "CommandTree-invoker")):
                out.append(t)
        return out

    async def settle(self) -> None:
        """Until the bot is done with what the last click set off (parked rows aside)."""
        for _ in range(20_000):
            busy = self._busy()
            if busy:  # (looked at again often: a send may park meanwhile)
                await asyncio.wait(busy, timeout=0.05, return_when=asyncio.FIRST_COMPLETED)
                continue
            n = len(self.fake.requests)
            for _ in range(TURNS):  # a put-back notice comes back, the sender reads new rows
                await asyncio.sleep(0)
            if n == len(self.fake.requests) and not self._busy():
                return

    async def drain(self) -> None:
        """Every parked row goes, and the game's outbox is empty (the player who has no
        prompt waits for what is on its way: a paced post, a put-back notice)."""
        for _ in range(500):
            await self.shuffler.release()
            await self.settle()
            async with self.bot.app.storage.read() as q:
                waiting = await q.pending_outbox(self.gid, held=False)
            if not waiting and not self.shuffler.parked:
                return
            await asyncio.sleep(0.02)

    def prompt(self, user: dict[str, Any]) -> dict[str, Any] | None:
        """The player's live prompt: the newest of its messages with a live control of a
        decision (one that is not "Open my turn" first), else the "Open my turn" of a
        post of the game newer than all its messages (a phase that began since: its post
        is where the turn is announced). None: the player has nothing to press."""
        mine = list(self.fake.dm_messages(user)) + [
            m for m in self.fake.messages.get(self.channel_id, []) if m.get("_ephemeral_for") == user["id"]
        ]
        live = [m for m in mine if live_controls(m, self.gid)]
        real = [m for m in live if any(not c["custom_id"].startswith("br:open:") for c in live_controls(m, self.gid))]
        if real or live:
            return max(real or live, key=lambda m: int(m["id"]))
        newest = max((int(m["id"]) for m in mine), default=0)
        posts = [
            m for m in self.fake.public_messages(self.channel_id) if live_controls(m, self.gid) and int(m["id"]) > newest
        ]
        return posts[-1] if posts else None

    async def start(self) -> None:
        args = {"game": self.game}
        if self.game in OPTIONS:
            args["options"] = OPTIONS[self.game]
        ix = await self.fake.slash(self.users[0], "game new", args, channel_id=self.channel_id)
        lobby = ix.original
        await self.fake.click(self.users[1], lobby, "Join")
        await self.fake.click(self.users[0], lobby, "Start")
        self.gid = next(g.id for g in await self.bot.app.games_of_user(int(self.users[0]["id"])))

    async def pending(self) -> list[str]:
        info = await self.bot.app.info(self.gid)
        if info.status != "active":
            return []
        state = await self.bot.app.state(self.gid)
        return [s for s in sorted(self.bot.app.engine(self.game).pending(state)) if s in self.by_seat]

    def choose(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        labels = [o["label"] for o in options]
        for wanted in ("Claim Achievement", "Move with these dice", "End the turn", "Kind: Main action"):
            for i, lab in enumerate(labels):
                if lab.startswith(wanted):
                    return options[i]
        goals = [o for o in options if o["value"].startswith("goal:")]
        return goals[0] if goals else self.rng.choice(options)

    async def press(self, seat: str) -> None:
        """One press of ``seat``'s live prompt (it is pending)."""
        user = self.by_seat[seat]
        msg = self.prompt(user)
        if msg is None:
            self.stuck.append(f"{self.game} #{self.gid}: {seat} has no prompt")
            await self.fake.slash(user, "plan", channel_id=self.channel_id)  # goes on from there
            return
        controls = live_controls(msg, self.gid)
        by_op = {("select" if c["custom_id"].startswith(("br:ps:", "br:as:")) else c["custom_id"].rsplit(":", 1)[-1]): c
                 for c in controls}
        seen = message_text(msg)[:120].replace("\n", " ")
        if "select" not in by_op and all(c["custom_id"].startswith("br:open:") for c in controls):
            ix = await self.fake.click(user, msg, controls[0]["custom_id"])
        else:
            for op in ("sealok", "seal", "finish", "confirm"):
                if op in by_op:
                    ix = await self.fake.click(user, msg, by_op[op]["custom_id"])
                    break
            else:
                sel = by_op.get("select")
                assert sel is not None, f"nothing to press for {seat}: {seen} {list(by_op)}"
                opts = [o for o in sel.get("options", []) if not o["value"].startswith("@")] or sel["options"]
                ix = await self.fake.click(user, msg, sel["custom_id"], values=[self.choose(opts)["value"]])
        answer = ix.all_text()
        shown = [m for m in [ix.original, *ix.followups] if m is not None and live_controls(m, self.gid)]
        if any(w in answer for w in DEAD) and not shown:
            self.dead.append(f"{self.game} #{self.gid}: {seat} pressed {seen!r}: {answer[:200]!r}")

    async def play(self, steps: int) -> None:
        await self.settle()
        for _ in range(steps):
            if self.rng.random() < RELEASE_BETWEEN:  # parked rows go now and then between clicks
                await self.shuffler.release(self.rng.random())
                await self.settle()
            movers = await self.pending()
            if not movers:
                await self.drain()
                if not await self.pending():
                    return  # the game is over (or only the AI moves)
                continue
            seat = self.rng.choice(movers)
            if self.prompt(self.by_seat[seat]) is None:  # the player waits for its DM: all comes
                await self.drain()
            await self.press(seat)
            await self.settle()
        await self.drain()  # what is still parked goes (and what it sets off)


async def play_seeds(fake: FakeDiscord, db: str, game: str, seeds: range) -> tuple[list[str], list[str]]:
    """Play ``seeds`` games of ``game`` in one bot (each in its own channel, with its own two
    players and its own shuffle); the dead prompts and the stuck decisions."""
    places = {s: fake.add_channel(f"table-{s}")["id"] for s in seeds}
    people = {s: [fake.add_member(f"ann{s}"), fake.add_member(f"bob{s}")] for s in seeds}
    dead: list[str] = []
    stuck: list[str] = []
    async with running(fake, db, renderer=None, delivery={"backoff": 0.02}) as bot:
        real_sender = bot.delivery.sender
        real_act = bot.app.act
        shuffler = Shuffler(real_sender, random.Random(0))
        bot.delivery.sender = shuffler

        async def act(*args: Any, **kw: Any) -> Any:
            out = await real_act(*args, **kw)
            if shuffler.rng.random() < RELEASE_IN_ACT:  # the move is recorded; the bot has not answered yet
                await shuffler.release(shuffler.rng.random())
            return out

        bot.app.act = act
        play = bot.get_cog("Play")
        real_show = play.show

        async def show(entry: Any, **kw: Any) -> None:
            """A player's message made its live prompt (after the move's answer is shown):
            parked rows go before it, or go while it is done."""
            draw = shuffler.rng.random()
            if kw.get("late") or shuffler.releasing or draw >= 2 * RELEASE_IN_SHOW:
                await real_show(entry, **kw)
                return
            shuffler.releasing = True
            try:
                going = asyncio.ensure_future(shuffler.release(shuffler.rng.random()))
                if draw < RELEASE_IN_SHOW:
                    await going  # all delivered before
                await real_show(entry, **kw)
                await going
            finally:
                shuffler.releasing = False

        play.show = show
        for seed in seeds:
            rng = shuffler.rng = random.Random(seed)
            player = Player(fake, bot, shuffler, game, people[seed], places[seed], rng)
            await player.start()
            await player.play(STEPS[game])
            dead += player.dead
            stuck += player.stuck
        bot.delivery.sender = real_sender
        play.show = real_show
    return dead, stuck


@pytest.mark.parametrize("game", list(SEEDS))
async def test_no_prompt_dies_when_the_outbox_is_late_and_out_of_order(tmp_path: Path, game: str) -> None:
    async with FakeDiscord() as fake:
        dead, stuck = await play_seeds(fake, str(tmp_path / "g.db"), game, range(1, SEEDS[game] + 1))
        fake.assert_clean()
    assert not dead, f"{len(dead)} dead prompts: {dead[:3]}"
    assert not stuck, f"{len(stuck)} stuck decisions: {stuck[:3]}"


def test_a_late_dm_never_takes_the_place_of_a_newer_prompt() -> None:
    """The bookkeeping under it (bot.prompts): a DM written at an older version than the
    seat's live prompt, shown late, does not retire that prompt: it is the one that does
    not stand. A newer one does; a player's click always makes its message the live one."""
    board = PromptBoard()
    live = Shown(1, "ann", TURN, 5, channel_id=10, message_id=100)
    assert board.show(live) == []
    late = Shown(1, "ann", OPEN, 4, channel_id=10, message_id=101)
    assert board.show(late, late=True) == [late]
    assert board.of_seat(1, "ann") == [live]
    newer = Shown(1, "ann", OPEN, 6, channel_id=10, message_id=102)
    assert board.show(newer, late=True) == [live]
    assert board.of_seat(1, "ann") == [newer]
    clicked = Shown(1, "ann", TURN, 3, channel_id=10, message_id=100)  # a click on the older message
    assert board.show(clicked) == [newer]
    assert board.of_seat(1, "ann") == [clicked]


async def _count(n: int) -> None:  # python tests/test_prompts_reordered.py [seeds per game]
    import tempfile

    for game in SEEDS:
        with tempfile.TemporaryDirectory() as tmp:
            async with FakeDiscord() as fake:
                dead, stuck = await play_seeds(fake, str(Path(tmp) / "g.db"), game, range(1, n + 1))
        print(f"{game}: {len(dead)} dead prompts, {len(stuck)} stuck decisions in {n} seeds")
        for line in (dead + stuck)[:5]:
            print("   ", line)


if __name__ == "__main__":
    asyncio.run(_count(int(sys.argv[1]) if len(sys.argv) > 1 else 50))
