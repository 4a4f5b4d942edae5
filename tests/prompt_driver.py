"""A generic player of whole games through the fake Discord, for all three games, that
counts what issue 21 ("every button works, every prompt is the only one") and issue 20
part 2 ("a click never applies twice") are about:

- the DMs each player gets per round (new messages in their DM channel: the bot's posts,
  and the replies to their own clicks there);
- the live prompts of every seat after every step: messages the seat can see (its DMs,
  its ephemeral replies) with an enabled control of a decision (a turn's select or
  buttons, a planner's, "Open my turn" in a DM);
- every "↩ Undo" the bot offers (pressed once each; the redo right after an undo is not
  undone again), and how many were accepted;
- every Confirm (and "Yes, seal") clicked twice: the second click on the message as it
  was before the first must apply nothing.

The player answers the decision it finds in its newest live prompt (or opens its turn
with the newest "Open my turn" that names it, else ``/plan``): a Seal when it can, else
a choice in the select (a goal in Smartphone Inc.'s planner), then Confirm. Each click
is one step; after each step the deliverer is let finish (``fake.idle``) and the live
prompts are counted.
"""

from __future__ import annotations

import copy
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.fake_discord import FakeDiscord, iter_components, message_text

PROMPT_IDS = ("br:as:", "br:ab:", "br:ps:", "br:pb:", "br:open:")
ROUNDS = {"smartphone-inc": 5, "mobile-markets": 5, "age-of-automaton": 5}


def live_controls(msg: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        c for c in iter_components(msg)
        if str(c.get("custom_id", "")).startswith(PROMPT_IDS) and not c.get("disabled")
    ]


def seat_messages(fake: FakeDiscord, user: dict[str, Any]) -> list[dict[str, Any]]:
    """What ``user`` sees of the bot's private messages: their DMs and their ephemeral
    replies (in any channel)."""
    out = list(fake.dm_messages(user))
    for ch, msgs in fake.messages.items():
        if fake.channels.get(ch, {}).get("type") == 1:
            continue
        out += [m for m in msgs if m.get("_ephemeral_for") == user["id"]]
    return out


def live_prompts(fake: FakeDiscord, user: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in seat_messages(fake, user) if live_controls(m)]


def _op(custom_id: str) -> str:
    return custom_id.rsplit(":", 1)[-1]


def _ver(custom_id: str) -> int:
    parts = custom_id.split(":")
    return int(parts[4]) if len(parts) > 4 and parts[4].isdigit() else -1


@dataclass
class Stats:
    game: str
    steps: int = 0
    rounds: int = 0
    dm_posts: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    dm_messages: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    most_live: int = 0  # the most live prompts one seat had at once
    over_one: int = 0  # (step, seat) pairs with more than one live prompt
    seat_steps: int = 0
    undo_offered: int = 0
    undo_pressed: int = 0
    undo_accepted: int = 0
    undo_refusals: list[str] = field(default_factory=list)
    repeats: int = 0  # second clicks on a Confirm / Yes, seal
    repeats_applied: int = 0
    repeat_applied_what: list[str] = field(default_factory=list)
    unseals: int = 0
    turns: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    repeated_kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    dm_per_turn: dict[tuple[str, int], int] = field(default_factory=lambda: defaultdict(int))

    @property
    def dm_posts_max_per_turn(self) -> int:
        """The most DMs the bot posted to one player for one turn (from one turn's start
        to the next's)."""
        return max((n for (_who, turn), n in self.dm_per_turn.items() if turn > 0), default=0)
    trouble: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        players = len(self.dm_posts) or 1
        rounds = max(1, self.rounds)
        posts = [n for per in self.dm_posts.values() for n in per.values()]
        msgs = [n for per in self.dm_messages.values() for n in per.values()]
        return {
            "game": self.game,
            "steps": self.steps,
            "dm_posts_per_player_per_round": round(sum(posts) / players / rounds, 2),
            "dm_posts_max_player_round": max(posts, default=0),
            "dm_messages_per_player_per_round": round(sum(msgs) / players / rounds, 2),
            "dm_messages_max_player_round": max(msgs, default=0),
            "turns_per_player": round(sum(self.turns.values()) / players, 1),
            "dm_posts_per_turn": round(sum(posts) / max(1, sum(self.turns.values())), 2),
            "dm_posts_max_per_turn": self.dm_posts_max_per_turn,
            "live_prompts_max_per_seat": self.most_live,
            "seat_steps_with_more_than_one_live_prompt": f"{self.over_one}/{self.seat_steps}",
            "undo_offered": self.undo_offered,
            "undo_pressed": self.undo_pressed,
            "undo_accepted": self.undo_accepted,
            "repeated_confirms": self.repeats,
            "repeated_confirms_applied": self.repeats_applied,
        }


class Driver:
    def __init__(self, fake: FakeDiscord, bot: Any, game: str, users: list[dict[str, Any]], seed: int,
                 *, repeat: bool = True, undo: bool = True, unseal: bool = True, prefer: tuple[str, ...] = ()) -> None:
        self.fake, self.bot, self.game, self.users = fake, bot, game, users
        self.rng = random.Random(seed)
        self.stats = Stats(game)
        self.repeat, self.undo, self.unseal, self.prefer = repeat, undo, unseal, prefer
        self.by_seat = {u["username"]: u for u in users}
        self.pressed: set[str] = set()  # undo custom ids pressed
        self.undone_at: dict[str, int] = {}  # seat -> version after its last undo
        self.unsealed: set[str] = set()
        self._seen_undo: set[tuple[str, str]] = set()
        self._req_mark = 0
        self._dm_seen: set[str] = set()
        self._was_pending: dict[str, bool] = {}
        self._turn_stage: dict[str, Any] = {}
        self.gid = 1

    # ---------------------------------------------------------------- bookkeeping
    async def state(self) -> dict[str, Any]:
        return await self.bot.app.state(self.gid)

    async def version(self) -> int:
        return int((await self.bot.app.info(self.gid)).version)

    async def settle(self) -> None:
        """Until the bot is done with what the last click set off (no handler, sender or
        sweep running, and no request for a few turns of the loop), then count."""
        await self.fake.idle()
        await self.account()

    async def account(self) -> None:
        info = await self.bot.app.info(self.gid)
        rnd = 0
        if info.status in ("active", "paused"):
            rnd = int((await self.bot.app.view(self.gid, None)).get("round") or 0)
        else:
            rnd = self.stats.rounds
        self.stats.rounds = max(self.stats.rounds, rnd)
        # turns: a seat asked to decide anew (it was not pending at the last count, or a new
        # phase began: the steps of one turn in one phase are one turn)
        if info.status == "active":
            state = await self.state()
            pending = self.bot.app.engine(self.game).pending(state)
            stage = (state.get("round"), state.get("phase"))
            for u in self.users:
                who = u["username"]
                now = who in pending
                if now and (not self._was_pending.get(who) or self._turn_stage.get(who) != stage):
                    self.stats.turns[who] += 1
                    self._turn_stage[who] = stage
                self._was_pending[who] = now
        dm_of = {fake_ch: uid for uid, fake_ch in self.fake.dm_channels.items()}
        name_of = {u["id"]: u["username"] for u in self.users}
        for rec in self.fake.requests[self._req_mark:]:
            if rec.status >= 300 or rec.method != "POST":
                continue
            m = re.fullmatch(r"/channels/(\d+)/messages", rec.path)
            if m and m.group(1) in dm_of:
                who = name_of.get(dm_of[m.group(1)])
                if who:
                    self.stats.dm_posts[who][rnd] += 1
                    self.stats.dm_per_turn[(who, self.stats.turns[who])] += 1
        self._req_mark = len(self.fake.requests)
        for u in self.users:  # new messages in the DM channel (posts and replies to clicks there)
            for m in self.fake.dm_messages(u):
                if m["id"] not in self._dm_seen:
                    self._dm_seen.add(m["id"])
                    self.stats.dm_messages[u["username"]][rnd] += 1
        # live prompts of every seat
        for u in self.users:
            live = live_prompts(self.fake, u)
            self.stats.seat_steps += 1
            self.stats.most_live = max(self.stats.most_live, len(live))
            if len(live) > 1:
                self.stats.over_one += 1
                if len(self.stats.examples) < 6:
                    self.stats.examples.append(
                        f"{u['username']} at step {self.stats.steps}: "
                        + " | ".join(message_text(m)[:70].replace("\n", " ") for m in live)
                    )
            for m in live:
                for c in live_controls(m):
                    if _op(c["custom_id"]) == "undo" and (m["id"], c["custom_id"]) not in self._seen_undo:
                        self._seen_undo.add((m["id"], c["custom_id"]))
                        self.stats.undo_offered += 1

    async def click(self, user: dict[str, Any], msg: dict[str, Any], match: Any, **kw: Any) -> Any:
        kw.setdefault("timeout", 90)
        ix = await self.fake.click(user, msg, match, **kw)
        self.stats.steps += 1
        bad = [t[:160] for t in ix.texts() if any(w in t for w in ("Sorry", "went wrong", "Traceback"))]
        self.stats.trouble += bad
        return ix

    # --------------------------------------------------------------------- play
    def newest_prompt(self, user: dict[str, Any]) -> dict[str, Any] | None:
        live = [m for m in live_prompts(self.fake, user) if any(_op(c["custom_id"]) != "undo" for c in live_controls(m))]
        real = [m for m in live if any(not c["custom_id"].startswith("br:open:") for c in live_controls(m))]
        pool = real or live
        return max(pool, key=lambda m: int(m["id"])) if pool else None

    def open_post(self, user: dict[str, Any]) -> dict[str, Any] | None:
        posts = [
            m for m in self.fake.public_messages()
            if f"<@{user['id']}>" in m.get("content", "") and any(c.get("custom_id", "").startswith("br:open:") for c in iter_components(m))
        ]
        return posts[-1] if posts else None

    async def press_undos(self) -> bool:
        """Press each Undo the bot offers (once; not the one right after a redo)."""
        if not self.undo:
            return False
        for u in self.users:
            seat = u["username"]
            for m in sorted(live_prompts(self.fake, u), key=lambda m: int(m["id"])):
                for c in live_controls(m):
                    cid = c["custom_id"]
                    if _op(cid) != "undo" or cid in self.pressed:
                        continue
                    if seat in self.undone_at and _ver(cid) <= self.undone_at[seat] + 1:
                        continue  # the redo right after an undo: not undone again
                    self.pressed.add(cid)
                    before = await self.version()
                    ix = await self.click(u, m, cid)
                    self.stats.undo_pressed += 1
                    await self.settle()
                    after = await self.version()
                    rows = await self._last_row()
                    if after == before + 1 and rows is not None and rows.action.get("type") == "undo":
                        self.stats.undo_accepted += 1
                        self.undone_at[seat] = after
                    else:
                        self.stats.undo_refusals.append(ix.all_text()[:160])
                    return True
        return False

    async def _last_row(self) -> Any:
        version = await self.version()
        async with self.bot.app.storage.read() as q:
            rows = await q.actions(self.gid, after=version - 1, upto=version)
        return rows[-1] if rows else None

    async def _rows_after(self, version: int) -> list[Any]:
        """The log's rows written since the game was at ``version`` (a row's ``seq`` is the
        version it made: :meth:`play` checks that over the whole log at the end)."""
        async with self.bot.app.storage.read() as q:
            return await q.actions(self.gid, after=version)

    async def repeat_click(self, user: dict[str, Any], snapshot: dict[str, Any], cid: str, what: str, **kw: Any) -> None:
        """The same Confirm (or the same option of a select that applies at once, ``values``)
        clicked again on the message as it was before the first click."""
        if not self.repeat:
            return
        await self.settle()
        before = await self.version()
        info = await self.bot.app.info(self.gid)
        if info.status != "active":
            return
        self.stats.repeats += 1
        ix = await self.fake.click(user, snapshot, cid, timeout=90, **kw)  # the message as it was when clicked
        self.stats.steps += 1
        self._dm_seen.update(m["id"] for m in ix.followups if m["id"] != snapshot["id"])
        if not any("lready" in t for t in ix.texts()):
            self.stats.trouble.append(f"a repeated {what} said: {ix.all_text()[:120]}")
        await self.settle()
        mine = [r for r in await self._rows_after(before) if r.seat == user["username"] and r.actor == "player"]
        if mine:
            self.stats.repeats_applied += 1
            self.stats.repeat_applied_what.append(f"{what} (v{before})")
        self.stats.repeated_kinds[what.split(" ")[0].rstrip(":,")] += 1

    def choose(self, options: list[dict[str, Any]]) -> dict[str, Any]:
        labels = [o["label"] for o in options]
        for wanted in self.prefer:  # e.g. the moves that leave a decision as it was (Overbuilt)
            hits = [o for o in options if o["label"].startswith(wanted)]
            if hits and self.rng.random() < 0.6:
                return self.rng.choice(hits)
        if self.rng.random() < 0.25:  # now and then anything (a free action, an Overbuilt)
            return self.rng.choice(options)
        for wanted in ("Claim Achievement", "Kind: Claim", "Move with these dice", "End the turn", "Kind: End the turn",
                       "Kind: Main action"):
            for i, lab in enumerate(labels):
                if lab.startswith(wanted):
                    return options[i]
        goals = [o for o in options if o["value"].startswith("goal:")]
        if goals:
            return goals[0]
        return self.rng.choice(options)

    async def act(self, seat: str) -> None:
        """One click for ``seat`` (its decision is pending)."""
        user = self.by_seat[seat]
        msg = self.newest_prompt(user)
        if msg is None or all(c["custom_id"].startswith("br:open:") for c in live_controls(msg)):
            target = msg or self.open_post(user)
            if target is not None:
                await self.click(user, target, "br:open:")
            else:
                await self.fake.slash(user, "plan", timeout=90)
                self.stats.steps += 1
            return
        controls = {(_op(c["custom_id"]) if not c["custom_id"].startswith(("br:ps:", "br:as:")) else "select"): c
                    for c in live_controls(msg)}
        if "sealok" in controls:
            snap = copy.deepcopy(msg)
            cid = controls["sealok"]["custom_id"]
            await self.click(user, msg, cid)
            await self.repeat_click(user, snap, cid, "seal")
            return
        if "unseal" in controls:
            if self.unseal and seat not in self.unsealed:
                self.unsealed.add(seat)
                self.stats.unseals += 1
                await self.click(user, msg, controls["unseal"]["custom_id"])
            return
        if "seal" in controls:
            await self.click(user, msg, controls["seal"]["custom_id"])
            return
        if "confirm" in controls:
            snap = copy.deepcopy(msg)
            cid = controls["confirm"]["custom_id"]
            what = re.search(r"You chose: \*\*(.*?)\*\*", message_text(msg))
            await self.click(user, msg, cid)
            await self.settle()
            await self.press_undos()
            await self.repeat_click(user, snap, cid, what.group(1) if what else "?")
            return
        if "select" in controls:
            sel = controls["select"]
            opts = [o for o in sel.get("options", []) if not o["value"].startswith("@")] or sel.get("options", [])
            chosen = self.choose(opts)
            snap = copy.deepcopy(msg)
            before = await self.version()
            await self.click(user, msg, sel["custom_id"], values=[chosen["value"]])
            await self.settle()
            mine = [r for r in await self._rows_after(before) if r.seat == seat and r.actor == "player"]
            if mine:  # the option applied at once (an Overbuilt, a Keep): the same option again
                await self.press_undos()
                await self.repeat_click(user, snap, sel["custom_id"], chosen["label"], values=[chosen["value"]])
            return
        raise AssertionError(f"nothing to click for {seat}: {message_text(msg)[:200]} {list(controls)}")

    async def play(self, limit: int = 6000) -> Stats:
        engine = self.bot.app.engine(self.game)
        await self.settle()
        for _ in range(limit):
            info = await self.bot.app.info(self.gid)
            if info.status == "finished":
                await self.settle()
                async with self.bot.app.storage.read() as q:
                    seqs = [r.seq for r in await q.actions(self.gid)]
                assert seqs == list(range(1, await self.version() + 1)), "the log's rows are not its versions"
                return self.stats
            if await self.press_undos():
                continue
            pending = engine.pending(await self.state())
            movers = [s for s in sorted(pending) if s in self.by_seat]
            sealed_movers = [u["username"] for u in self.users if u["username"] not in pending
                             and self.unseal and u["username"] not in self.unsealed
                             and any("unseal" in c["custom_id"] for m in live_prompts(self.fake, u) for c in live_controls(m))]
            if sealed_movers:
                await self.act(sealed_movers[0])
            elif movers:
                await self.act(movers[0])
            await self.settle()
        raise AssertionError(f"{self.game}: the game did not end in {limit} clicks")


async def start_game(fake: FakeDiscord, game: str, users: list[dict[str, Any]], options: str | None = None,
                     ai: list[str] | None = None) -> None:
    args = {"game": game}
    if options:
        args["options"] = options
    ix = await fake.slash(users[0], "game new", args)
    lobby = ix.original
    for u in users[1:]:
        await fake.click(u, lobby, "Join")
    for kind in ai or []:
        ix = await fake.click(users[0], lobby, "Add AI")
        await fake.click(users[0], ix.original, "br:ai:", values=[kind])
    await fake.click(users[0], lobby, "Start")


GAMES: dict[str, dict[str, Any]] = {
    "smartphone-inc": {"players": ("ann", "bob"), "options": None, "ai": []},
    "mobile-markets": {"players": ("ann", "bob"), "options": "difficulty=medium", "ai": ["steve"]},
    # the special actions that leave the turn's decision as it was (issue 20 part 2) now and then
    "age-of-automaton": {"players": ("ann", "bob"), "options": None, "ai": [],
                         "prefer": ("Special actions", "Overbuilt", "Overclock")},
}


async def play_whole_game(fake: FakeDiscord, db_path: str, game: str, seed: int = 1, **kw: Any) -> Stats:
    from tests.discord_support import running

    spec = GAMES[game]
    users = [fake.add_member(n) for n in spec["players"]]
    async with running(fake, db_path, renderer=None) as bot:
        await start_game(fake, game, users, spec["options"], spec["ai"])
        kw.setdefault("prefer", spec.get("prefer", ()))
        driver = Driver(fake, bot, game, users, seed, **kw)
        return await driver.play()
