"""``boardroom migrate --from boardroom.db --to postgresql://...``: a SQLite database
copied into PostgreSQL (issue 37), both first brought to the newest schema.

Every table's rows are copied as they are, in one PostgreSQL transaction (all or
nothing), parents before children (the foreign keys hold at each row); the ids the
database numbers (games, outbox rows) go on after the greatest copied. A target that
holds games already is refused: the copy never mixes two databases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage import postgres, sqlite
from bot.storage.errors import StorageError

# SQLite's own tables, and the lease and claims of running processes
SKIP = {"schema_version", "sqlite_sequence", "lease", "claims"}
CHUNK = 2000


async def _tables(conn: Any) -> list[str]:
    """The tables of the SQLite database, parents before children."""
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as cur:
        names = [str(r[0]) for r in await cur.fetchall() if str(r[0]) not in SKIP]
    parents: dict[str, set[str]] = {}
    for name in names:
        async with conn.execute(f"PRAGMA foreign_key_list({name})") as cur:
            parents[name] = {str(r[2]) for r in await cur.fetchall()} - {name}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise StorageError(f"the tables' foreign keys go round: {sorted(set(names) - set(ordered))}")
        ordered.extend(ready)
    return ordered


async def copy_sqlite_to_postgres(
    source: str | Path, target: str, *, migrations_dir: Path | None = None
) -> dict[str, int]:
    """Copy every row of the SQLite database ``source`` into the PostgreSQL database
    ``target``; returns the rows copied per table."""
    if not Path(source).is_file():
        raise StorageError(f"there is no SQLite database at {source}")
    src = await sqlite.connect(source)
    try:
        await sqlite.migrate(src, migrations_dir)  # the newest schema on both sides first
        dst = await postgres.connect(target)
        try:
            await postgres.migrate(dst, migrations_dir)
            cur = await dst.execute("SELECT count(*) FROM games")
            row = await cur.fetchone()
            if row and row[0]:
                raise StorageError(
                    f"{postgres.safe_url(target)} holds {row[0]} game(s) already: copy into an empty database"
                )
            tables = await _tables(src)
            copied: dict[str, int] = {}
            numbered: list[str] = []  # the tables with an id column
            async with dst.transaction():
                for name in reversed(tables):  # what a migration wrote (home_todo): the source's instead
                    await dst.execute(f"DELETE FROM {name}")
                for name in tables:
                    async with src.execute(f"SELECT * FROM {name}") as scur:
                        cols = [d[0] for d in scur.description]
                        if "id" in cols:
                            numbered.append(name)
                        sql = postgres.marks(
                            f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
                        )
                        n = 0
                        while rows := await scur.fetchmany(CHUNK):
                            async with dst.cursor() as pcur:
                                await pcur.executemany(sql, [tuple(r) for r in rows])
                            n += len(rows)
                    copied[name] = n
                for name in numbered:  # the numbered ids go on after the greatest copied
                    cur = await dst.execute("SELECT pg_get_serial_sequence(%s, 'id')", (name,))
                    seq = await cur.fetchone()
                    if seq and seq[0]:
                        await dst.execute(
                            f"SELECT setval(%s, coalesce((SELECT max(id) FROM {name}), 0) + 1, false)", (seq[0],)
                        )
            return copied
        finally:
            await dst.close()
    finally:
        await src.close()
