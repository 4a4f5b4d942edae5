-- 0003: snapshot checksums and the process lease.

-- A snapshot is trusted only if sha256("<game_id>:<version>:" || state) matches
-- (bot/storage.py, snapshot_checksum). Older rows have none: they are rebuilt from
-- the log the first time they are read, as for a damaged one.
ALTER TABLE snapshots ADD COLUMN checksum TEXT;

-- One live bot process per database: the holder renews heartbeat_at; another process
-- refuses to start until the heartbeat is older than the lease time.
CREATE TABLE lease (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    owner        TEXT    NOT NULL,
    heartbeat_at REAL    NOT NULL
);
