-- 0001 on PostgreSQL: 0001_initial.sql with the append-only trigger in PL/pgSQL (the one
-- statement PostgreSQL writes otherwise). The types are SQLite's, mapped as for every
-- migration (bot/storage/postgres.py, ddl: INTEGER -> BIGINT, REAL -> DOUBLE PRECISION,
-- a table's own id -> an identity column).
-- 0001: the first schema.
-- Applied by bot/storage.py inside one transaction together with its
-- schema_version row (so a file must not BEGIN/COMMIT itself). Times are seconds
-- since the epoch (REAL); Discord ids are INTEGER (snowflakes fit in 63 bits);
-- JSON is stored as TEXT. Never edit an applied file: add the next NNNN_name.sql.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,                 -- engine name, e.g. "smartphone-inc"
    options     TEXT    NOT NULL DEFAULT '{}',    -- JSON given to game.setup()
    seed        INTEGER,                          -- set at start
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    thread_id   INTEGER,                          -- the game's thread, if it has one
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'paused', 'finished', 'abandoned')),
    version     INTEGER NOT NULL DEFAULT 0,       -- committed actions (= newest log seq)
    result      TEXT,                             -- JSON of game.result() once finished
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- One live game per place (the thread if there is one, else the channel).
CREATE UNIQUE INDEX games_one_live_per_place
    ON games (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'active', 'paused');
CREATE INDEX games_status ON games (status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         TEXT    NOT NULL,                -- the seat id the engine knows
    position     INTEGER NOT NULL,
    user_id      INTEGER,                         -- Discord user; NULL for AI seats
    ai_kind      TEXT CHECK (ai_kind IN ('steve', 'bot', 'random')),
    display_name TEXT    NOT NULL,
    ai_takeover  INTEGER NOT NULL DEFAULT 0 CHECK (ai_takeover IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, position),
    CHECK ((user_id IS NULL) <> (ai_kind IS NULL))
) WITHOUT ROWID;
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- The record: one row per applied action, append-only. seq = state version after it.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       TEXT    NOT NULL,
    action     TEXT    NOT NULL,                  -- JSON
    actor      TEXT    NOT NULL DEFAULT 'player'
               CHECK (actor IN ('player', 'bot', 'takeover')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)                    -- UNIQUE(game, seq)
) WITHOUT ROWID;

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the action log is append-only'; END
$$;
CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

-- A cache of states; the log is the record. state = game.dump(state).
CREATE TABLE snapshots (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    state      TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;

-- Messages the bot may edit later (the lobby card, the board picture, ...).
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
CREATE INDEX messages_by_id ON messages (message_id);

-- Who holds the game up, since when (a pending human seat).
CREATE TABLE waiting (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          TEXT    NOT NULL,
    since_version INTEGER NOT NULL,
    since_at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;

-- Scheduled nudges and AI takeovers for a waiting seat. sent_at/count: last send.
CREATE TABLE reminders (
    game_id  INTEGER NOT NULL,
    seat     TEXT    NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('nudge', 'takeover')),
    due_at   REAL    NOT NULL,
    sent_at  REAL,
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat, kind),
    FOREIGN KEY (game_id, seat) REFERENCES waiting (game_id, seat) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX reminders_due ON reminders (due_at);

CREATE TABLE game_settings (
    game_id              INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    remind_after_hours   REAL    NOT NULL DEFAULT 12 CHECK (remind_after_hours > 0),
    repeat_hours         REAL    NOT NULL DEFAULT 12 CHECK (repeat_hours > 0),
    takeover             INTEGER NOT NULL DEFAULT 0 CHECK (takeover IN (0, 1)),
    takeover_after_hours REAL    NOT NULL DEFAULT 48 CHECK (takeover_after_hours > 0)
);

-- Quiet hours are the player's, for all their games: local "HH:MM" in an IANA zone.
CREATE TABLE user_settings (
    user_id     INTEGER PRIMARY KEY,
    quiet_start TEXT,
    quiet_end   TEXT,
    tz          TEXT NOT NULL DEFAULT 'UTC'
);
