-- When a game stops waiting by itself (a round's deadline), in ms since the epoch; the server
-- applies due deadlines in the background and before serving the game.
ALTER TABLE games ADD COLUMN deadline_ms bigint;
CREATE INDEX games_due ON games (deadline_ms) WHERE status = 'active' AND deadline_ms IS NOT NULL;
