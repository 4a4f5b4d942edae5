-- 0006: the delivery outbox (issue 8 §1).

-- Everything an action must tell Discord, in order per game: channel posts, edits of the
-- game's remembered messages (the sealed counter, the lobby card), DMs. A row is written
-- when the action's outcome is known and delivered by bot/delivery.py: pending until
-- Discord took it (delivered, with its message id); attempts/next_try_at pace retries.
-- payload is JSON: the text, the pictures as (renderer function, view JSON) drawn at
-- delivery time (rendering is deterministic), the buttons by name. nonce goes with the
-- post (Discord's enforce_nonce), so a send repeated after a crash is not doubled.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    batch        INTEGER NOT NULL,            -- rows written together (one outcome)
    kind         TEXT    NOT NULL,            -- post | edit | dm
    target       TEXT    NOT NULL,            -- post: 'place'; edit: a message kind; dm: a user id
    payload      TEXT    NOT NULL,
    nonce        TEXT    NOT NULL,
    ordered      INTEGER NOT NULL DEFAULT 1,  -- 0: a notice that must not hold up later rows
    state        TEXT    NOT NULL DEFAULT 'pending',  -- pending | delivered | closed | failed
    message_id   INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  REAL    NOT NULL DEFAULT 0,
    created_at   REAL    NOT NULL
);
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE state = 'pending';

-- A game whose place the bot cannot write to (50013 Missing Permissions, 10003 the
-- channel is gone): its rows wait; the host and players were told once (told_at).
CREATE TABLE delivery_blocks (
    game_id   INTEGER PRIMARY KEY REFERENCES games(id),
    code      INTEGER NOT NULL,
    since     REAL    NOT NULL,
    told_at   REAL
);
