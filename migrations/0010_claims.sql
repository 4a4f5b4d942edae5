-- 0010: claims on work that one process at a time may do (issue 37): several processes on
-- one PostgreSQL database deliver a game's outbox, fire a reminder or a deadline, each
-- claimed by one process until expires_at. token grows by one at each change of owner: a
-- fencing token, checked in the transaction that records the work done (a process that
-- lost its claim while paused records nothing). On SQLite one process holds the whole
-- database (the lease of 0003), and the table stays empty.
CREATE TABLE claims (
    kind       TEXT    NOT NULL,            -- outbox | reminder
    key        TEXT    NOT NULL,            -- outbox: the game id; reminder: game:seat:kind
    owner      TEXT    NOT NULL,            -- host:pid:random of the process
    token      INTEGER NOT NULL,
    expires_at REAL    NOT NULL,
    PRIMARY KEY (kind, key)
);
