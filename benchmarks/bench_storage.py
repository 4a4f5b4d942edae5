"""One read query's cost: a game's row and its settings, read in a loop (issue 9: a round
end makes a few hundred such reads; each is one trip to aiosqlite's database thread).

Run: ``.venv/bin/python benchmarks/bench_storage.py [--reads N]``. Prints one JSON line:
``read_query_us`` (wall time per query, best of 3 passes) and ``read_query_cpu_us``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Storage  # noqa: E402


async def measure(reads: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "reads.db")
        try:
            async with storage.transaction() as tx:
                gid = await tx.insert_game("smartphone-inc", {}, guild_id=None, channel_id=1, thread_id=None, host_id=1, at=0.0)
            walls, cpus = [], []
            for _ in range(3):
                wall, cpu = time.perf_counter(), time.process_time()
                async with storage.read() as q:
                    for _ in range(reads):
                        await q.game_row(gid)
                        await q.settings(gid)
                walls.append((time.perf_counter() - wall) / (2 * reads) * 1e6)
                cpus.append((time.process_time() - cpu) / (2 * reads) * 1e6)
        finally:
            await storage.close()
    return {"read_query_us": round(min(walls), 1), "read_query_cpu_us": round(min(cpus), 1), "reads": 2 * reads}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=5000, help="loops of two reads per pass")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(max(1, args.reads)))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
