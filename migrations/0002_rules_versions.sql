-- 0002: each game records the rules it was set up under; seeds of 128 bits and more.
--
-- rules: the game package's rules version the game started under (it keeps it to the
--        end; see engine/smartphone_inc/versions.py); NULL while in the lobby.
-- rng:   the random generator kind it draws from ('splitmix64' before the seeds became
--        unpredictable, 'blake2b' since; engine/rng.py); NULL while in the lobby.
-- seed:  now TEXT, the decimal digits: a new game's seed has 128 bits, and an INTEGER
--        column holds only 64 (SQLite would even turn the digits into a lossy REAL).
--
-- Every game started before this migration ran under rules version 1 and splitmix64.

ALTER TABLE games ADD COLUMN seed_text TEXT;
UPDATE games SET seed_text = CAST(seed AS TEXT) WHERE seed IS NOT NULL;
ALTER TABLE games DROP COLUMN seed;
ALTER TABLE games RENAME COLUMN seed_text TO seed;

ALTER TABLE games ADD COLUMN rules INTEGER CHECK (rules IS NULL OR rules >= 1);
ALTER TABLE games ADD COLUMN rng TEXT;
UPDATE games SET rules = 1, rng = 'splitmix64' WHERE seed IS NOT NULL;
