-- 0011: the live table's half-built decision of a seat (issue 35): a plan laid by hand
-- survives a reload and a switch between phone and desktop. One row per seat, for one
-- decision ("3:planning:plan": round, phase, prompt); a row of another decision is stale
-- and never shown. Dropped when the seat's move is made at the table; at most
-- bot.table.drafts.MAX_CHARS characters of JSON that only the seat itself reads.
CREATE TABLE table_drafts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    decision   TEXT    NOT NULL,
    draft      TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
