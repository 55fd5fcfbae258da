-- Chains of commitments (docs/fairness.md §4). Format 1 hashed each event plainly, so a
-- hidden event (a card of twenty) could be recovered from the public head by hashing every
-- candidate; format 2 salts each link with HMAC-SHA256 of the game's secret, which is revealed
-- only when the game ends. Games whose chain has begun keep format 1 (their hashes are
-- signed and kept by players); games not yet started, and every game from now on, get 2.
ALTER TABLE game_fairness ADD COLUMN chain_format smallint NOT NULL DEFAULT 1
    CHECK (chain_format IN (1, 2));
ALTER TABLE game_fairness ALTER COLUMN chain_format SET DEFAULT 2;
UPDATE game_fairness f SET chain_format = 2
    FROM games g WHERE g.id = f.game_id AND g.version = 0;

-- An imported game keeps the signed head of the server it came from (`imported.head`) and is
-- never signed again here; `origin_key` is that head's key, which the importing server trusts.
ALTER TABLE game_fairness ADD COLUMN origin_key bytea CHECK (length(origin_key) = 32);
