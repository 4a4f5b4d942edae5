"""Update 1.1 through the real bot and the fake Discord (issue 12, "Pictures and the bot
for each module, checked in the e2e test"): whole games with the modules on, every
decision opened privately with ``/plan`` and answered by clicks, checking that players
can claim a Directive, place a Marketing Token, move the CEO, place a Mini-upgrade in
the planner, and make the 2-3 player board's start decisions; that every option reads
in words; and how many clicks each new decision takes.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from typing import Any

from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import EPHEMERAL, FakeDiscord, iter_components, message_text, select_menu
from tests.test_discord_e2e import pick, pick_value, public_with, seal
from tests.test_words import internal_ids, player_texts

# what the test answers when it is offered (first match wins), per decision kind
WANTED = {
    "directive": [r"^Take Directive \d+: \+\d+ VP"],
    "research": [r"Marketing Token", r"Li-Ion Blitz", r"NFC Marketing", r"."],
    "logistics": [r"^Move your CEO to", r"what to do: no markers: move your CEO", r"."],
}


fake = fake_fixture()


def _has(msg: dict[str, Any], label: str) -> bool:
    return any((c.get("label") or "").startswith(label) for c in iter_components(msg))


class Player:
    """Answers one seat's decisions and counts the clicks of each kind of decision."""

    def __init__(self, fake: FakeDiscord, user: dict, seen: dict[str, list[int]], shown: dict[str, list[str]]) -> None:
        self.fake, self.user, self.seen, self.shown = fake, user, seen, shown
        self.ceo_moves = 0
        self.goals = ("research",)  # the planner's goal, round after round

    async def plan(self, bot: Any, prompt: dict[str, Any]) -> None:
        """In the round's planner DM (it comes by itself): by goal (Most Research), then
        the Mini-upgrade onto the Pads when it is still face down, then seal (one
        confirmation). (The DM, not /plan: a click while the DM is being sent can be
        lost, see the report.)"""
        clicks = 0
        rnd = (await bot.app.state(1))["round"]

        def planner_dm() -> dict[str, Any] | None:
            return next((m for m in reversed(self.fake.dm_messages(self.user)) if f"round {rnd} (game" in message_text(m)), None)

        msg = await self.fake.wait_for(planner_dm, 60, what=f"the round {rnd} planner")
        await self.fake.idle()
        msg = await pick_value(self.fake, self.user, msg, f"goal:{self.goals[(rnd - 1) % len(self.goals)]}")
        listed = next(o["label"] for o in select_menu(msg)["options"] if not o["value"].startswith("@"))
        msg = await pick(self.fake, self.user, msg, 0)
        clicks += 2
        gives = re.search(r"Goods \*\*(\d+)\*\*", message_text(msg))
        # the goal list's Goods against the engine's own evaluation of the chosen plan (issue 12,
        # correction 2: decisions.py, owned by another engineer; reported, not asserted here)
        self.shown["goal_goods"].append(f"listed {listed!r}, the plan gives {gives.group(1) if gives else '?'} Goods")
        minis = [i for i in prompt["improvements"] if i.startswith("M")]
        if minis:
            sel = select_menu(msg)
            offers = [o for o in sel["options"] if o["value"].startswith("+M")] if sel else []
            if offers:  # the Mini-upgrade is face down in the goal's plan: place it like an Improvement
                assert offers[0]["label"].startswith("Place the Mini-upgrade"), offers[0]
                self.shown["mini_upgrade_planner"].append(offers[0]["label"])
                ix = await self.fake.click(self.user, msg, sel["custom_id"], values=[offers[0]["value"]])
                msg = await pick(self.fake, self.user, ix.original, 0)  # where it lies
                clicks += 2
            text = message_text(msg)
            assert "Mini-upgrade (" in text and "Not placed" not in text, text
            self.shown["mini_upgrade_plan"].append(next(ln for ln in text.splitlines() if "Mini-upgrade (" in ln))
            self.seen["mini_upgrade_placed"].append(clicks + 2)
        sealed = await seal(self.fake, self.user, msg)
        assert "Plan sealed" in sealed.all_text()
        self.seen["plan"].append(clicks + 2)

    async def turn(self, prompt: dict[str, Any]) -> None:
        """Open the decision with /plan; choose (preferring what this test checks) until
        Confirm; confirm; go on while the same turn shows a next step."""
        kind = prompt["type"]
        ix = await self.fake.slash(self.user, "plan", timeout=60)
        assert ix.callback_data.get("flags", 0) & EPHEMERAL
        msg = ix.followups[-1] if ix.followups else ix.original
        clicks = 1
        self.shown[f"prompt:{kind}"].append(next((ln for ln in message_text(msg).splitlines() if ln.startswith("**")), ""))
        for _step in range(12):
            if _has(msg, "Confirm"):
                break
            sel = select_menu(msg)
            assert sel is not None, message_text(msg)
            options = [o for o in sel["options"] if not o["value"].startswith("@")]
            self.shown[f"options:{kind}"].extend(o["label"] for o in options)
            choice = self.choose(kind, options)
            ix = await self.fake.click(self.user, msg, sel["custom_id"], values=[choice["value"]])
            msg = ix.original
            clicks += 1
        chosen = re.search(r"You chose: \*\*(.*?)\*\*", message_text(msg))
        assert chosen, message_text(msg)
        ix = await self.fake.click(self.user, msg, "Confirm")
        clicks += 1
        done = message_text(ix.original)
        assert "Done:" in done, done
        self.record(kind, chosen.group(1), clicks)

    def choose(self, kind: str, options: list[dict[str, Any]]) -> dict[str, Any]:
        wanted = list(WANTED.get(kind, [r"."]))
        if kind == "logistics" and self.ceo_moves >= 2:  # move the CEO now and then, not every turn
            wanted = [r"."]
        for pattern in wanted:
            hit = next((o for o in options if re.search(pattern, o["label"])), None)
            if hit is not None:
                return hit
        return options[0]

    def record(self, kind: str, chosen: str, clicks: int) -> None:
        what = kind
        if kind == "logistics" and chosen.startswith("Move your CEO"):
            what, self.ceo_moves = "move_ceo", self.ceo_moves + 1
        elif kind == "research" and "Marketing Token" in chosen:
            what = "marketing_token"
        elif kind == "directive" and chosen.startswith("Take Directive"):
            what = "take_directive"
        self.seen[what].append(clicks)
        self.shown[f"chosen:{what}"].append(chosen)


async def play_game(fake: FakeDiscord, bot: Any, players: dict[str, Player]) -> None:
    """Answer every decision of the human seats until the game is over."""
    engine = bot.app.engine("smartphone-inc")
    for _ in range(900):
        await fake.idle()
        info = await bot.app.info(1)
        if info.status == "finished":
            return
        pending = engine.pending(await bot.app.state(1))
        movers = [s for s in sorted(pending) if s in players]
        if not movers:
            await asyncio.sleep(0.05)
            continue
        seat = movers[0]
        if pending[seat]["type"] == "plan":
            await players[seat].plan(bot, pending[seat])
        else:
            await players[seat].turn(pending[seat])
    raise AssertionError("the game did not end")


OPTIONS = "board=small directives=true technologies=spatial-vp+ceo-wi-fi+gamepad:0+world-nfc+blitz-li-ion+4g:1"


async def test_a_whole_small_board_game_with_every_update_module(fake: FakeDiscord, tmp_path: Any, caplog: Any) -> None:
    """SU-DIR-02, SU-BRD-02, SU-TEC-01, SU-TEC-07, SU-TEC-11 through Discord: two players
    on the 2-3 player board with Directives and a custom mix of New Technologies (CEO,
    Marketing Token, Mini-upgrade) play five rounds."""
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    spy = SpyRenderer()  # the real pictures, the small board's included
    seen: dict[str, list[int]] = defaultdict(list)
    shown: dict[str, list[str]] = defaultdict(list)
    async with running(fake, str(tmp_path / "su.db"), renderer=spy) as bot:
        ix = await fake.slash(ann, "game new", {"game": "smartphone-inc", "options": OPTIONS})
        lobby = ix.original
        text = message_text(lobby)
        for words in ("Directives: on", "Board: the 2-3 player board", "Technologies: your own mix", "NFC Marketing", "Li-Ion Blitz", "Wi-Fi CEO"):
            assert words in text, text
        assert "spatial-vp" not in text and "small" not in text.replace("2-3 player board", ""), text
        ix = await fake.click(bob, lobby, "Join")
        await fake.click(ann, lobby, "Start")
        players = {"ann": Player(fake, ann, seen, shown), "bob": Player(fake, bob, seen, shown)}
        await play_game(fake, bot, players)
        state = await bot.app.state(1)
        everything = fake.public_messages() + [m for u in (ann, bob) for m in fake.dm_messages(u)]
        assert not any("Sorry" in message_text(m) or "went wrong" in message_text(m) for m in everything)
    # the start decisions: 2 companies, 2 starting regions, 2 Retailers (2 players)
    assert len(seen["company"]) == 2 and len(seen["start_region"]) == 2 and len(seen["start_retailer"]) == 2, dict(seen)
    assert all(re.match(r"Take the (Green|Blue|Black|Yellow|Red) company \(starting Improvement: ", c) for c in shown["chosen:company"])
    assert all(c.startswith("Start in ") for c in shown["chosen:start_region"])
    assert all(re.match(r"Place the (small|medium) Retailer \(", c) for c in shown["chosen:start_retailer"])
    # the modules' decisions
    assert seen["take_directive"], dict(seen)
    assert any(c["holder"] in ("ann", "bob") for c in state["directives"]["cards"])
    assert seen["move_ceo"] and seen["marketing_token"], dict(seen)
    assert seen["mini_upgrade_placed"], dict(seen)
    assert state["marketing"], state.get("marketing")
    labels = sorted({o for k, v in shown.items() if k.startswith("options:") for o in v})
    generic = [o for o in labels if not re.match(r"[A-Z0-9]|(what to do|region|markers|CEO|Marketing Token[\w ]*): ", o)]
    assert not generic, generic  # every option is in the game's words, none in the engine's field names
    print("\n".join(labels))
    # the pictures: the small board drawn, with the CEOs and Marketing Tokens, and none failed
    public = [v for kind, _g, v, _p in spy.calls if kind == "draw" and v.get("you") is None]
    assert public and all(v["board"] == "small" for v in public)
    assert any(v.get("marketing") for v in public) and any(v.get("ceo") for v in public)
    assert any(kind == "draw_plan" and any(i["id"].startswith("M") for i in p.get("improvements") or []) for kind, _g, _v, p in spy.calls)
    _assert_no_failure_no_id_right_goods(fake, caplog, seen, shown)
    print("lobby:", text)
    for needle in ("· Start", "Directive", "CEO", "Marketing Token", "Mini-upgrade"):
        m = next((m for m in fake.public_messages() if needle in message_text(m)), None)
        if m is not None:
            print(f"public with {needle!r}:", message_text(m)[:900])


def _assert_no_failure_no_id_right_goods(
    fake: FakeDiscord, caplog: Any, seen: dict[str, list[int]], shown: dict[str, list[str]]
) -> None:
    """What every whole game here ends on: no failure logged, no internal id shown to a
    player, and the goal list's Goods what the chosen plan gives."""
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    found = internal_ids(player_texts(fake))
    assert not found, "internal ids reach players:\n" + "\n".join(found)
    _report(seen, shown)
    # the goal list's Goods are what the chosen plan gives, under the game's rules version
    assert shown.get("goal_goods"), "no plan was sealed by goal"
    assert not goal_goods_differ(shown), "goal list Goods differ:\n" + "\n".join(goal_goods_differ(shown))


def goal_goods_differ(shown: dict[str, list[str]]) -> list[str]:
    """The sealed goals whose listed Goods are not what their plan gives."""
    out = []
    for line in shown.get("goal_goods", []):
        listed = re.search(r"(\d+) Goods", line.split(", the plan gives")[0])
        if listed and f"gives {listed.group(1)} Goods" not in line:
            out.append(line)
    return out


def _report(seen: dict[str, list[int]], shown: dict[str, list[str]]) -> None:
    """What players saw and the clicks per decision (printed with ``pytest -s``)."""
    print("\nclicks per decision (opening /plan included; a plan starts in its DM):")
    for kind, counts in sorted(seen.items()):
        print(f"  {kind}: {len(counts)}× min {min(counts)} max {max(counts)}")
    for key in ("prompt:company", "chosen:company", "prompt:start_region", "chosen:start_region", "prompt:start_retailer",
                "chosen:start_retailer", "prompt:directive", "chosen:take_directive", "prompt:research", "chosen:marketing_token",
                "prompt:logistics", "chosen:move_ceo", "prompt:mini_upgrade", "chosen:mini_upgrade", "mini_upgrade_planner",
                "mini_upgrade_plan"):
        if shown.get(key):
            print(f"  {key}: {shown[key][0]!r}")


async def test_the_standard_board_with_steve_hardcore_directives_and_a_recommended_set(
    fake: FakeDiscord, tmp_path: Any, caplog: Any
) -> None:
    """The modules with Steve and Hardcore on the standard board (SU-HC-07, SU-TEC-01,
    SU-TEC-07): one player and Steve, Directives, the Overproduction set (Gamepad CEO,
    NFC Marketing)."""
    ann = fake.add_member("ann")
    spy = SpyRenderer()
    seen: dict[str, list[int]] = defaultdict(list)
    shown: dict[str, list[str]] = defaultdict(list)
    async with running(fake, str(tmp_path / "su2.db"), renderer=spy) as bot:
        options = "directives=true technologies=overproduction hardcore=true"
        ix = await fake.slash(ann, "game new", {"game": "smartphone-inc", "options": options})
        lobby = ix.original
        text = message_text(lobby)
        assert "Technologies: Overproduction: " in text and "Hardcore Mode: on" in text and "Directives: on" in text, text
        ix = await fake.click(ann, lobby, "Add AI")
        await fake.click(ann, ix.original, "br:ai:", values=["steve"])
        await fake.click(ann, lobby, "Start")
        player = Player(fake, ann, seen, shown)
        player.goals = ("logistics", "research")
        await play_game(fake, bot, {"ann": player})
        state = await bot.app.state(1)
        final = await public_with(fake, "Game over")
    assert state["options"]["hardcore"] and state["directives"] and state["ceo"]
    assert seen["move_ceo"] and seen["marketing_token"], dict(seen)
    assert any(c["holder"] for c in state["directives"]["cards"]), state["directives"]
    assert "Steve" in message_text(final)
    assert all(v["board"] == "big" for kind, _g, v, _p in spy.calls if kind == "draw")
    _assert_no_failure_no_id_right_goods(fake, caplog, seen, shown)
