-- 0004: the half-built secret decision of each seat (the planner's draft), kept here and
-- not in a message players can see; and which planner message shows it, so that a
-- reminder edits or links that one planner instead of opening a second live one.
-- (Issue 7. If the outbox's migration takes 0004 at the merge, this one becomes 0005.)
CREATE TABLE drafts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    decision   TEXT    NOT NULL,           -- which decision it belongs to: "round 2"
    draft      TEXT    NOT NULL,           -- the builder's own short text
    channel_id INTEGER,                    -- the live planner message (NULL: ephemeral)
    message_id INTEGER,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
