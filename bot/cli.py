"""The ``boardroom`` command.

::

    boardroom migrate --db PATH|URL      apply missing migrations (refuses a newer database);
                                         report how many games run under each rules version
    boardroom export --db PATH GAME_ID   print a game as JSON (for replay or a bug report)
    boardroom replay FILE                replay an export ("-" = stdin); print the result JSON
    boardroom run                        run the Discord bot (DISCORD_TOKEN, BOARDROOM_DB, ...;
                                         a ./.env file is read first if there is one)
    boardroom demo --game smartphone-inc|mobile-markets|age-of-automaton --players N --seed S [--db PATH] [--out DIR] [--pace S]
    boardroom --version                  boardroom's version and its libraries' (and Python's)

Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.config import Config, ConfigError, load_env_file, shards_for
from bot.version import VersionAction

log = logging.getLogger("boardroom")


def _fail(message: str, code: int = 1) -> int:
    print(f"boardroom: {message}", file=sys.stderr)
    return code


async def _migrate(db: str) -> tuple[int, list[int], list[tuple[str, int | None, str | None, str, int]]]:
    from bot.storage import backend_of, postgres, sqlite

    backend: Any = postgres if backend_of(db) == "postgresql" else sqlite
    conn = await backend.connect(db)
    try:
        applied = await backend.migrate(conn)
        return await backend.schema_version(conn), applied, await backend.games_by_edition(conn)
    finally:
        await conn.close()


def edition_report(rows: list[tuple[str, int | None, str | None, str, int]]) -> list[str]:
    """One line per game and rules version (and generator kind): how many games run
    under it (active or paused) and how many ended; lobbies get theirs at the start."""
    groups: dict[tuple[str, int | None, str | None], dict[str, int]] = {}
    for game, rules, rng, status, n in rows:
        key = (game, None, None) if status == "lobby" else (game, rules, rng)
        bucket = "running" if status in ("active", "paused") else status
        groups.setdefault(key, {}).setdefault(bucket, 0)
        groups[key][bucket] += n
    lines = []
    for (game, rules, rng), counts in groups.items():
        if "lobby" in counts:
            lines.append(f"  {game}: {counts['lobby']} in the lobby (rules set at the start)")
            continue
        ended = counts.get("finished", 0) + counts.get("abandoned", 0)
        lines.append(
            f"  {game} rules version {rules}, generator {rng}: {counts.get('running', 0)} running, {ended} ended"
        )
    return lines


def cmd_migrate(args: argparse.Namespace) -> int:
    from bot.storage import StorageError, safe_url

    if args.source or args.target:
        return _copy(args)
    if not args.db:
        return _fail("migrate needs --db (a SQLite path or a postgresql:// URL), or --from and --to", 2)
    try:
        version, applied, editions = asyncio.run(_migrate(args.db))
    except StorageError as exc:
        return _fail(str(exc))
    except (sqlite3.Error, OSError) as exc:
        return _fail(f"cannot open {safe_url(args.db)}: {exc}")
    done = ", ".join(f"{v:04d}" for v in applied) if applied else "nothing to do"
    print(f"{safe_url(args.db)}: schema version {version} (applied: {done})")
    lines = edition_report(editions)
    print("games by rules version:" if lines else "no games yet")
    for line in lines:
        print(line)
    return 0


def _copy(args: argparse.Namespace) -> int:
    """``migrate --from boardroom.db --to postgresql://...``: a SQLite database into PostgreSQL."""
    from bot.storage import StorageError, backend_of, safe_url
    from bot.storage.copy import copy_sqlite_to_postgres

    if not (args.source and args.target):
        return _fail("migrate --from needs --to, and --to needs --from", 2)
    if backend_of(args.source) != "sqlite" or backend_of(args.target) != "postgresql":
        return _fail("migrate --from takes a SQLite database and --to a postgresql:// URL", 2)
    try:
        copied = asyncio.run(copy_sqlite_to_postgres(args.source, args.target))
    except StorageError as exc:
        return _fail(str(exc))
    except (sqlite3.Error, OSError) as exc:
        return _fail(f"cannot copy {args.source}: {exc}")
    print(f"copied {args.source} into {safe_url(args.target)}: {copied.get('games', 0)} game(s),"
          f" {sum(copied.values())} row(s) in {len(copied)} table(s)")
    return 0


async def _export(db: str, game_id: int) -> dict[str, Any]:
    from bot.app import App
    from bot.storage import Storage

    storage = await Storage.open(db)
    try:
        return await App(storage).export(game_id, with_seed=True)  # the operator's tool
    finally:
        await storage.close()


def cmd_export(args: argparse.Namespace) -> int:
    from bot.records import AppError
    from bot.storage import StorageError, safe_url

    try:
        data = asyncio.run(_export(args.db, args.game_id))
    except (AppError, StorageError) as exc:
        return _fail(str(exc))
    except (sqlite3.Error, OSError) as exc:
        return _fail(f"cannot open {safe_url(args.db)}: {exc}")
    print(json.dumps(data, sort_keys=True, indent=1 if args.pretty else None))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from bot.app import replay_export
    from bot.exports import NotAnExport, read_export
    from bot.records import AppError
    from engine import IllegalAction

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {args.file}: {exc}", 2)
    try:
        data = read_export(text)
    except NotAnExport as exc:
        return _fail(str(exc), 2)
    try:
        result = replay_export(data)
    except (AppError, IllegalAction, KeyError, TypeError, ValueError) as exc:
        return _fail(f"replay failed: {exc}")
    print(json.dumps(result, sort_keys=True, separators=(",", ":")))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from bot.table.config import TableConfig, TableConfigError

    try:
        from_file = load_env_file(".env")
        env = dict(os.environ)  # the command line's flags win over the environment
        for flag, name in (("db", "BOARDROOM_DB"), ("shard_count", "BOARDROOM_SHARDS"), ("shards", "BOARDROOM_SHARD_IDS")):
            if getattr(args, flag, None):
                env[name] = getattr(args, flag)
        config = Config.from_env(env)
        table = TableConfig.from_env()
    except (ConfigError, TableConfigError) as exc:
        return _fail(str(exc), 2)
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if from_file:
        log.info("read %s from ./.env", ", ".join(sorted(from_file)))  # names, never values
    from bot.discord_bot import approximate_guild_count, create_bot  # lazily: discord here only
    from bot.storage import LeaseHeld, safe_url

    # sharded when BOARDROOM_SHARDS says so, else when the bot is in more than 2,000 servers
    guilds = None if config.shards is not None else asyncio.run(approximate_guild_count(config.token))
    shards = shards_for(config.shards, guilds)
    kw: dict[str, Any] = {} if shards is None else {"shards": shards}
    if config.shard_ids is not None:
        kw["shard_ids"] = config.shard_ids
    if table is not None:
        kw["table"] = table  # the live table, served by this process on the same App
    from bot.runtime import Collector, event_loop, tune_gc

    # the garbage collector run from the event loop, in short passes (bot/runtime.py)
    client = create_bot(db_path=config.db_path, sync_guild_id=config.sync_guild_id, collector=Collector(), **kw)
    log.info(
        "starting boardroom with database %s (%s)", safe_url(config.db_path),
        "one gateway connection" if shards is None else f"sharded: {shards} shard(s)"
        + ("" if config.shard_ids is None else f", here {config.shard_ids[0]}-{config.shard_ids[-1]}"),
    )
    tune_gc()  # what start-up left alive is never walked again (bot/runtime.py)
    try:
        with event_loop() as loop_name:  # uvloop's where installed (bot/runtime.py)
            log.info("event loop: %s", loop_name)
            client.run(config.token, log_handler=None)
    except LeaseHeld as exc:
        return _fail(str(exc), 2)
    except Exception as exc:  # never echo the token: report the type and a safe message
        text = str(exc).replace(config.token, "<token>")
        return _fail(f"the bot stopped: {type(exc).__name__}: {text}")
    finally:
        from bot import pictures

        pictures.PAINTER.close()  # its worker processes end with the bot, not at exit
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import run_demo
    from bot.records import AppError

    if not 1 <= args.players <= 5:
        return _fail("--players must be between 1 and 5", 2)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from bot.runtime import event_loop

    try:
        with event_loop():  # the bot's own loop: the demo is the real stack
            asyncio.run(
                run_demo(
                    game=args.game, players=args.players, seed=args.seed, db=args.db,
                    out=args.out, pace=args.pace, ai=args.ai,
                )
            )
    except AppError as exc:
        return _fail(f"demo failed: {exc}")
    except Exception as exc:
        log.exception("demo failed")
        return _fail(f"demo failed: {exc}")
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    import tempfile

    from bot.records import AppError
    from bot.runtime import event_loop
    from bot.table.local import serve_local

    if not 1 <= args.players <= 5:
        return _fail("--players must be between 1 and 5", 2)
    if not 0 <= args.port <= 65535:
        return _fail("--port must be a port number", 2)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="boardroom-table-") as tmp:
        db = args.db or str(Path(tmp) / "table.db")
        try:
            with event_loop():  # the bot's own loop (bot/runtime.py)
                asyncio.run(serve_local(args.game, args.port, players=args.players, seed=args.seed, db=db))
        except KeyboardInterrupt:
            return 0
        except AppError as exc:
            return _fail(f"table failed: {exc}")
        except OSError as exc:
            return _fail(f"cannot serve the table on port {args.port}: {exc.strerror or exc}")
    return 0


DB_HELP = "a SQLite database path, or a postgresql://user:password@host:port/name URL"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardroom", description="Asynchronous board games on Discord")
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("migrate", help="apply missing database migrations, or copy SQLite into PostgreSQL")
    p.add_argument("--db", help=DB_HELP)
    p.add_argument("--from", dest="source", help="copy this SQLite database ...")
    p.add_argument("--to", dest="target", help="... into this (empty) postgresql:// database")
    p.set_defaults(fn=cmd_migrate)

    p = sub.add_parser("export", help="print a stored game as JSON")
    p.add_argument("--db", required=True, help=DB_HELP)
    p.add_argument("game_id", type=int)
    p.add_argument("--pretty", action="store_true")
    p.set_defaults(fn=cmd_export)

    p = sub.add_parser("replay", help="replay an exported game; print the result JSON")
    p.add_argument("file", help="export JSON file, or - for stdin")
    p.set_defaults(fn=cmd_replay)

    p = sub.add_parser("run", help="run the Discord bot (reads DISCORD_TOKEN, BOARDROOM_DB)")
    p.add_argument("--db", help=DB_HELP + " (default: BOARDROOM_DB)")
    p.add_argument("--shard-count", help="the number of shards in all (BOARDROOM_SHARDS): a number or auto")
    p.add_argument("--shards", help="the shards this process runs, A-B or 0,2,5 (BOARDROOM_SHARD_IDS)")
    p.set_defaults(fn=cmd_run)

    p = sub.add_parser("demo", help="play a whole game with AI seats (resumable)")
    p.add_argument("--game", default="smartphone-inc")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", default="demo.db", help=DB_HELP)
    p.add_argument("--out", default=None, help="folder for the public picture of each phase (in a folder per game)")
    p.add_argument("--pace", type=float, default=0.0, help="seconds to wait between actions")
    p.add_argument("--ai", choices=["bot", "random"], default="bot", help="bot = greedy rule bot")
    p.set_defaults(fn=cmd_demo)

    p = sub.add_parser("table", help="play a local game at the table in a browser (you + AI seats)")
    p.add_argument("--game", default="smartphone-inc")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--players", type=int, default=2, help="seats in all, yours included")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--db", default=None, help="keep the game in this database, a SQLite path or a postgresql:// URL"
                   " (default: a temporary one)")
    p.set_defaults(fn=cmd_table)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.fn(args))


if __name__ == "__main__":
    sys.exit(main())
