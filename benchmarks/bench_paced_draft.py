"""Age of Automaton's draft at Discord's real pace, many times over (issue 34 §2).

Run: ``.venv/bin/python benchmarks/bench_paced_draft.py [--runs 100] [--load 2] [--seed 1]``.

Each run is ``_start_and_draft`` of ``tests/test_playtest_aoa.py`` (two players open a
game and answer the 3 draft passes from their DMs) through the real bot and the fake
Discord, with the bot's own pacing (``PACED`` of ``tests/discord_support.py``: 5 writes
per 5 s per channel), a fresh database and a newcomer seeded ``seed + run``.
``--load N`` starts N busy processes (``while 1: pass``) for the whole measure, to
keep the cores busy as on a loaded server, and ends them (by their process id) after.

A run ends one of four ways:

- ``ok``: the three passes answered;
- ``dead``: the player pressed the prompt the bot showed last and was told the turn is
  done ("That turn is done", "Already done", "moved to a newer message" with nothing
  newer): a prompt that died under them;
- ``stuck``: the next pass's prompt never came (a wait of ``--wait`` s, 60 by default,
  timed out);
- ``other``: anything else (its error is printed).

Printed: one line per run that did not end ``ok`` (with ``-v``: every run), then one
JSON object: ``runs``, ``ok``, ``dead_prompts``, ``stuck_drafts``, ``other_failures``,
``load`` and ``run_s`` (seconds per run, mean).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.discord_support import PACED, running  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.test_playtest_aoa import _start_and_draft  # noqa: E402

DEAD_WORDS = ("That turn is done", "Already done", "a newer message", "Nothing to decide")


def verdict(exc: BaseException | None) -> str:
    if exc is None:
        return "ok"
    why = str(exc)
    if "timed out waiting for" in why:
        return "stuck"
    if any(w in why for w in DEAD_WORDS):
        return "dead"
    return "other"


async def one_run(seed: int, db: str, pictures: bool, wait: float) -> tuple[str, str]:
    async with FakeDiscord() as fake:
        users = [fake.add_member(n) for n in ("ann", "bob")]
        kw = {} if pictures else {"renderer": None}
        async with running(fake, db, delivery=dict(PACED), **kw):
            try:
                await _start_and_draft(fake, users, random.Random(seed), pictures=pictures, wait=wait)
            except AssertionError as exc:
                return verdict(exc), str(exc).splitlines()[0][:300] if str(exc) else repr(exc)
    return "ok", ""


# a core kept busy until the process that started it is gone (even if it is killed)
BUSY = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"


def busy(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes that keep a core busy each (ended by :func:`stop`)."""
    return [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(n)]


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--load", type=int, default=0, help="busy processes to start (default 0)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pictures", dest="pictures", action="store_false", help="no renderer (quicker)")
    ap.add_argument("--quick", action="store_true", help="3 runs, no load (make bench)")
    ap.add_argument("--wait", type=float, default=60.0,
                    help="seconds a player waits for the next prompt before the run counts as stuck (default 60: "
                         "a slow machine is not a stuck draft)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    runs, load = (3, 0) if args.quick else (args.runs, args.load)
    counts = {"ok": 0, "dead": 0, "stuck": 0, "other": 0}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the busy processes are ended on a kill too
    procs = busy(load)
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(runs):
                t0 = time.perf_counter()
                what, why = asyncio.run(one_run(args.seed + i, str(Path(tmp) / f"draft{i}.db"), args.pictures, args.wait))
                counts[what] += 1
                if what != "ok" or args.verbose:
                    print(f"run {i} (seed {args.seed + i}): {what} {time.perf_counter() - t0:.1f} s {why}", flush=True)
    finally:
        stop(procs)
    print(json.dumps({
        "runs": runs,
        "ok": counts["ok"],
        "dead_prompts": counts["dead"],
        "stuck_drafts": counts["stuck"],
        "other_failures": counts["other"],
        "load": load,
        "run_s": round((time.perf_counter() - started) / max(1, runs), 2),
    }))


if __name__ == "__main__":
    main()
