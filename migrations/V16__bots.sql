-- Bots: accounts of their own kind that the server plays for. A bot account has no password
-- (its hash is not a hash, so no login can succeed) and a level. A game may seat up to four
-- bots of one level (five seats at most, one for the creator), and a seat holder is one account
-- per game, so each level has four accounts: `bot-greedy`, `bot-greedy-2`, … `bot-greedy-4`.
ALTER TABLE accounts ADD COLUMN bot boolean NOT NULL DEFAULT false;
ALTER TABLE accounts ADD COLUMN bot_level text
    CHECK (bot_level IN ('random', 'greedy', 'strong'));
ALTER TABLE accounts ADD CONSTRAINT accounts_bot_has_level CHECK (bot = (bot_level IS NOT NULL));

INSERT INTO accounts (name, skeleton, password_hash, bot, bot_level)
SELECT n, account_skeleton(n), '!bot', true, level
FROM unnest(ARRAY['random', 'greedy', 'strong']) AS level,
     generate_series(1, 4) AS i,
     LATERAL (SELECT 'bot-' || level || CASE WHEN i = 1 THEN '' ELSE '-' || i END AS n) AS names
ON CONFLICT DO NOTHING;

-- Every command names the bot level that chose it (NULL: a person, or the server itself).
-- Filled from the account in the database, so no path that records a command can forget it.
ALTER TABLE commands ADD COLUMN bot_level text;

CREATE FUNCTION commands_bot_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.account_id IS NOT NULL AND NEW.seat IS NOT NULL THEN
        NEW.bot_level := (SELECT bot_level FROM accounts WHERE id = NEW.account_id);
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER commands_bot_level BEFORE INSERT ON commands
    FOR EACH ROW EXECUTE FUNCTION commands_bot_level();

