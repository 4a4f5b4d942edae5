-- 0007: round results, "you are the last one", and a player's "DM me every turn" (issue 7).

-- Each game's scores when its current round began (presenter.scores of the public view,
-- JSON {seat: points}): the "Round N results" post compares them with the scores at the
-- round's end. Written in the transaction that starts the game or a round.
CREATE TABLE round_starts (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL,
    scores   TEXT    NOT NULL
);

-- Notices a seat gets once per decision ("you are the last one" of a round's plans):
-- what = which notice and which decision, e.g. 'last:round 3'.
CREATE TABLE told (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     TEXT    NOT NULL,
    what     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat, what)
);

-- A player's own preferences in one game (/game settings): dm_every_turn = 1 sends them
-- a DM for every turn of theirs, not only for the turns inside a phase and the planner.
CREATE TABLE seat_prefs (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           TEXT    NOT NULL,
    dm_every_turn  INTEGER NOT NULL DEFAULT 0 CHECK (dm_every_turn IN (0, 1)),
    PRIMARY KEY (game_id, seat)
);
