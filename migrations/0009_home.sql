-- 0009: the player's home across games (issue 36): /games, ratings, vacations, substitutes,
-- notifications. Everything here is per user or per game, beside the tables it describes.

-- /games reads a player's seats by user: (user_id, game_id) answers it from the index
-- alone (the games themselves are then read by their key), whatever the number of games.
CREATE INDEX seats_user_game ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

-- The stage a game is at, written with the commit that changes it (bot.app.home): /games
-- shows round and phase without loading a game's state.
CREATE TABLE game_stage (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    round    TEXT,
    phase    TEXT
);

-- A player's rating per game (OpenSkill, Plackett-Luce); rated = rated games counted.
CREATE TABLE ratings (
    user_id  INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    rated    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game)
) WITHOUT ROWID;
CREATE INDEX ratings_game ON ratings (game, user_id);

-- Each finished game counted once (its rated seats, with place and whom it credited);
-- a game with fewer than two counted humans has a row with no seats.
CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rated_at REAL NOT NULL
);

-- Who sat in a seat from which move on (a substitute's part). No row: the seat's player
-- played it all along.
CREATE TABLE seat_history (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    from_seq   INTEGER NOT NULL,          -- the first log seq of theirs
    user_id    INTEGER NOT NULL,
    from_round TEXT,
    PRIMARY KEY (game_id, seat, from_seq)
) WITHOUT ROWID;
CREATE INDEX seat_history_user ON seat_history (user_id);

-- A player's choices for all their games: hidden profile, how they are told of a turn.
-- notify: mention | dm | both | digest (one DM a day at digest_hour, in user_settings.tz);
-- NULL: as every game does by default (a mention, and a DM for a turn inside a phase).
CREATE TABLE user_home (
    user_id     INTEGER PRIMARY KEY,
    hidden      INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    notify      TEXT    CHECK (notify IS NULL OR notify IN ('mention', 'dm', 'both', 'digest')),
    digest_hour INTEGER CHECK (digest_hour IS NULL OR digest_hour BETWEEN 0 AND 23),
    digest_next REAL                      -- when the next digest is due (UTC seconds)
);
CREATE INDEX user_home_digest ON user_home (digest_next) WHERE notify = 'digest';

-- A game's vacation policy (/game new, /game settings): freeze | ai | none; cap in days.
CREATE TABLE game_vacation (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    policy   TEXT    NOT NULL DEFAULT 'freeze' CHECK (policy IN ('freeze', 'ai', 'none')),
    cap_days INTEGER NOT NULL DEFAULT 14 CHECK (cap_days BETWEEN 1 AND 30)
);

-- A player's vacation (/away), and what it does in each of their games until ends_at.
CREATE TABLE away (
    user_id  INTEGER PRIMARY KEY,
    since    REAL NOT NULL,
    until    REAL NOT NULL,
    since_at TEXT NOT NULL DEFAULT '{}'   -- JSON {game id: version when it began}
);
CREATE TABLE away_seats (
    user_id  INTEGER NOT NULL,
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     TEXT    NOT NULL,
    mode     TEXT    NOT NULL CHECK (mode IN ('freeze', 'ai')),
    ends_at  REAL    NOT NULL,
    PRIMARY KEY (user_id, game_id)
) WITHOUT ROWID;
CREATE INDEX away_seats_ends ON away_seats (ends_at);
-- The moves of a vacation past (from_seq..to_seq): the AI's moves for the player then
-- count as no missed deadline in /profile.
CREATE TABLE away_log (
    user_id  INTEGER NOT NULL,
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     TEXT    NOT NULL,
    from_seq INTEGER NOT NULL,
    to_seq   INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id, from_seq)
) WITHOUT ROWID;

-- The history of ratings is rebuilt from the games finished before this migration by
-- the first start after it (bot.app.home, App.rebuild_ratings): a migration is SQL only.
CREATE TABLE home_todo (what TEXT PRIMARY KEY);
INSERT INTO home_todo (what) VALUES ('rebuild_ratings');
