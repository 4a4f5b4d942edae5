"""Upgrade figures (issue 13): how many fixture games load, finish and replay under the
current code, and the time to ``load`` a state saved by the oldest version (upgraded
step by step by the engine's migrations) against one of the current version.

Run: .venv/bin/python benchmarks/bench_upgrade.py [--runs N] [--quick]

Every fixture under tests/fixtures/upgrade/ is copied to a temporary directory (never
touched in place); ``--quick`` skips playing the games to the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.app import App  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine import get_game  # noqa: E402
from engine.rng import SPLITMIX64  # noqa: E402
from engine.versions import setup_as  # noqa: E402
from tests.app_support import replay_exported  # noqa: E402
from tests.fixtures.make_upgrade_fixture import play_to_end  # noqa: E402

UPGRADE = ROOT / "tests" / "fixtures" / "upgrade"


def fixtures() -> list[Path]:
    """vN (Smartphone Inc. rules N, oldest first), then mm<M>-aoa<A> (the other games)."""
    return sorted((p for p in UPGRADE.iterdir() if (p / "manifest.json").is_file()), key=lambda p: (p.name[0] != "v", p.name))


async def load_and_finish(fixture: Path, workdir: Path, play: bool) -> dict[str, int]:
    db = workdir / f"{fixture.name}.db"
    shutil.copyfile(fixture / "games.db", db)
    manifest = json.loads((fixture / "manifest.json").read_text())
    counts = {"games": len(manifest["games"]), "loaded": 0, "finished": 0}
    storage = await Storage.open(db)
    try:
        app = App(storage)
        for entry in manifest["games"]:
            gid = entry["id"]
            try:
                state = await app.state(gid)
            except Exception as exc:  # a figure, not a test: count it and go on
                print(f"{fixture.name}/{entry['name']}: does not load: {exc!r}", file=sys.stderr)
                continue
            counts["loaded"] += (state["round"], state["phase"]) == (entry["round"], entry["phase"])
            if not play:
                continue
            if (await app.info(gid)).status in ("paused", "active"):
                try:
                    await play_to_end(app, gid)
                except RuntimeError as exc:  # a figure, not a test: count it and go on
                    print(f"{fixture.name}/{entry['name']}: {exc}", file=sys.stderr)
            counts["finished"] += (await app.info(gid)).status == "finished"
    finally:
        await storage.close()
    return counts


def replays(fixture: Path) -> int:
    ok = 0
    for path in sorted((fixture / "exports").glob("*.json")):
        game, state = replay_exported(json.loads(path.read_text()))
        then = game.load((fixture / "states" / path.name).read_text())
        ok += game.dump(state) == game.dump(then)
    return ok


def median_us(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1e6, 1)


def load_times(runs: int) -> dict[str, Any]:
    """``game.load`` of every state of the oldest fixture as saved then (schema 1) and
    as saved now (the same state, current schema); medians per state, then their mean."""
    game = get_game("smartphone-inc")
    oldest = next(fx for fx in fixtures() if json.loads((fx / "manifest.json").read_text())["game"] == game.name)
    old_us, new_us, sizes = [], [], []
    for path in sorted((oldest / "states").glob("*.json")):
        old_text = path.read_text()
        new_text = game.dump(game.load(old_text))
        old_us.append(median_us(lambda t=old_text: game.load(t), runs))
        new_us.append(median_us(lambda t=new_text: game.load(t), runs))
        sizes.append(len(old_text))
    finished = json.loads((oldest / "exports" / "finished.json").read_text())
    seats = [s["seat"] for s in sorted(finished["seats"], key=lambda s: s["position"])]

    def replay() -> None:
        state = setup_as(game, seats, finished["seed"], finished["options"], rules=1, rng=SPLITMIX64)
        for row in finished["actions"]:
            state = game.apply(state, row["seat"], row["action"])

    return {
        "oldest_fixture": oldest.name,
        "states": len(old_us),
        "mean_state_bytes": round(statistics.mean(sizes)),
        "load_oldest_version_us": round(statistics.mean(old_us), 1),
        "load_current_version_us": round(statistics.mean(new_us), 1),
        "load_oldest_over_current": round(statistics.mean(old_us) / statistics.mean(new_us), 2),
        "replay_whole_finished_game_from_seed_ms": round(median_us(replay, max(1, runs // 20)) / 1000, 1),
        "setup_splitmix64_us": median_us(lambda: game.setup(seats, 1, {}, rules=1, rng=SPLITMIX64), runs),
        "setup_blake2b_us": median_us(lambda: game.setup(seats, 2**127 + 1, {}), runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed repetitions of each load")
    parser.add_argument("--quick", action="store_true", help="do not play the fixture games to the end")
    args = parser.parse_args()
    out: dict[str, Any] = {"fixtures": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for fx in fixtures():
            counts = asyncio.run(load_and_finish(fx, Path(tmp), play=not args.quick))
            counts["replayed_byte_identical"] = replays(fx)
            out["fixtures"][fx.name] = counts
    out["load"] = load_times(max(1, args.runs))
    fx_counts = out["fixtures"].values()
    out["upgrade_games_not_loaded"] = sum(c["games"] - c["loaded"] for c in fx_counts)
    out["upgrade_games_not_replayed"] = sum(c["games"] - c["replayed_byte_identical"] for c in fx_counts)
    if not args.quick:
        out["upgrade_games_not_finished"] = sum(c["games"] - c["finished"] for c in fx_counts)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
