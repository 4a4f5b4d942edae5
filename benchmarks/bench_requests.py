"""Discord requests per action that count against the bot's global rate limit (issue 37).

Run: ``.venv/bin/python benchmarks/bench_requests.py [--games smartphone-inc,...] [--seed N]
[--pause S --settle T]`` (``--quick``: Mobile Markets only; ``--pause 0.05 --settle 0.3``:
players quicker than the status message's settle time, about a click every 5 s against
production's 30 s: :class:`tests.request_tally.PacedDriver`).

Discord lets one bot make 50 requests a second, whatever its processes, except the
answers to an interaction: the interaction's callback (``POST /interactions/{id}/{token}/callback``)
and its webhook (``/webhooks/{application}/{token}``: follow-ups, edits of the original
and of follow-ups). Each game (Smartphone Inc., Mobile Markets with Steve Jr., Age of
Automaton; two players) is played to its end through the fake Discord
(:func:`tests.request_tally.play_counted`: every decision answered from the newest live
prompt, the bot let finish after each click, so no edit is folded with the next
player's move; the tests' settings: the status message's settle time 0), and the
requests the bot made from the game's creation to its end are split in two. Printed,
one JSON object (the last line), per game:

- ``<game>_global_requests_per_action``: requests that count against the global limit,
  per action applied (every row of the game's log: players', AIs' and the game's own);
- ``<game>_interaction_answers_per_action``: the interaction answers, per action;
- ``<game>_actions``: actions applied; and, before it, one line per game with the
  counted requests by kind (method and route; ``{dm}``: a DM channel).

Figures (``PYTHONPATH=. .venv/bin/python benchmarks/bench_requests.py``, seed 1; the goal
in run_all.py is half of "before"):

==================  ======  ======  =====  =====
game                before  last    now    goal
==================  ======  ======  =====  =====
Smartphone Inc.     2.585   1.902   1.244  1.29
Mobile Markets      2.145   1.564   1.036  1.07
Age of Automaton    1.109   0.62    0.431  0.555
==================  ======  ======  =====  =====

("last": a DM prompt edited through the open interaction of the click that last updated
it; a DM to a player who clicked in their DM in the last 14 minutes sent as a follow-up of
that click, and edited through its token. "now": also a post in the game's place sent as
a public follow-up of the newest click there whose own answer is sent, while its token
lives (the phase posts, the round results; not the status message, which the game edits
later: it stays the bot's own post); an edit a reader would see nothing new in not sent (a takeover time moved by a
second, a "revealed below" line dropped: ``bot.delivery.Shown``). Age of Automaton's
figure moves by a little from run to run: whether two status edits fold depends on timing.)

The whole game here lasts seconds, so a click is always fresh: every post goes as a
follow-up. In slow play (no click in the channel in the last 14 minutes) the posts go
through the channel again: 1.878, 1.509 and 0.569 with every post so
(``DiscordSender.place_followup`` answering None; the DMs still as follow-ups: with no
fresh click in a DM either, more). With ``--pause 0.05 --settle 0.3``: 1.122,
0.836 and 0.38 in one run, 0.902, 0.709 and 0.372 in another (timing decides how many
status edits fold; main's code: 2.317, 1.909, 1.029).

What is left is the status message: one edit per move that changes what it says (who is
to move, plans sealed n/N, who changed nothing yet) when the players are slower than its
settle time (30 s), as here, and one after each phase's post; and the first DM of each
player.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.prompt_driver import GAMES  # noqa: E402
from tests.request_tally import play_counted  # noqa: E402

SHORT = {"smartphone-inc": "si", "mobile-markets": "mm", "age-of-automaton": "aoa"}


async def one(game: str, seed: int, pause: float | None, settle: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            tally = await play_counted(fake, str(Path(tmp) / "bench.db"), game, seed, pause=pause, settle=settle)
    print(json.dumps({"game": game, "counted": dict(tally.kinds.most_common())}), flush=True)
    short = SHORT[game]
    return {
        f"{short}_global_requests_per_action": round(tally.per_action, 3),
        f"{short}_interaction_answers_per_action": round(len(tally.answers) / max(1, tally.actions), 3),
        f"{short}_actions": tally.actions,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="one game (Mobile Markets)")
    ap.add_argument("--pause", type=float, default=None, help="players click every S seconds (not waiting for settling edits)")
    ap.add_argument("--settle", type=float, default=0.0, help="the status message's settle time (s), with --pause")
    args = ap.parse_args()
    out: dict[str, Any] = {}
    for game in (["mobile-markets"] if args.quick else args.games.split(",")):
        out.update(asyncio.run(one(game, args.seed, args.pause, args.settle)))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
