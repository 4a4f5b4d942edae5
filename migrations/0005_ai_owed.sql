-- 0005: the games that owe an AI move (issue 9).
--
-- ai_owed = 1 when the committed state may wait for a seat the app plays (a rule bot
-- or a taken-over human): written in the same transaction as every commit, start and
-- takeover (bot/app/core.py, Core._ai_owed). At start-up one indexed query finds the
-- games to catch up (App.advance_all); idle games are not read at all. A flag set
-- without a move owed is harmless: advance_all clears it after finding nothing to do.
ALTER TABLE games ADD COLUMN ai_owed INTEGER NOT NULL DEFAULT 0 CHECK (ai_owed IN (0, 1));

CREATE INDEX games_ai_owed ON games (id) WHERE ai_owed = 1 AND status = 'active';

-- Before this column nobody recorded it: every active game with an app-played seat may
-- owe a move; the first start-up looks at each once and clears the flag.
UPDATE games SET ai_owed = 1
 WHERE status IN ('active', 'paused')
   AND id IN (SELECT game_id FROM seats WHERE ai_kind IN ('bot', 'random') OR ai_takeover = 1);
