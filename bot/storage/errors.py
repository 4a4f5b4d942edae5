"""The errors of the storage layer (both backends)."""

from __future__ import annotations

import sqlite3

import psycopg

# a constraint refused a row (a unique key: another process logged that move first), on
# either backend
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, psycopg.IntegrityError)

class StorageError(RuntimeError):
    pass


class StorageUnavailable(StorageError):
    """The database cannot take writes now (disk full, read-only, I/O error). Nothing
    was recorded; writes work again once the operator fixes the cause."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"the database cannot save right now: {cause}")
        self.cause = cause


class DatabaseDown(StorageError):
    """The database server does not answer (down, starting up, unreachable): unlike a
    wrong password or database name, trying again later may work."""


class DamagedRecord(StorageError):
    """A row of a game's record that cannot be read (bad JSON written by hand or a
    damaged file). The message is for players; the app pauses the game."""

    def __init__(self, game_id: int, seq: int) -> None:
        super().__init__(
            f"This game's record is damaged (move {seq} cannot be read), so the game is paused."
            " An operator can restore the database from a backup."
        )
        self.game_id = game_id
        self.seq = seq



class LeaseHeld(StorageError):
    """Another live boardroom process uses this database."""


class SchemaTooNew(StorageError):
    """The database was written by a newer boardroom: refuse to touch it."""


class MigrationError(StorageError):
    pass

