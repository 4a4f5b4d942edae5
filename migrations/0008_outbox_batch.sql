-- 0008: the outbox's batches found by an index (issue 9).
--
-- Every committed action asks for the next batch number (max(batch) + 1) and rewrites
-- its own batch (by game and batch); without an index each of these read the whole
-- outbox, which keeps a day of delivered rows: an action got slower as the bot ran.
CREATE INDEX outbox_batch ON outbox (batch);
