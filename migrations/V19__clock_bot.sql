-- The turn clock's bot (option `clock_bot`, see storage/src/clock_bot.rs): when a seat's turn
-- deadline passes in a game with the option, the seat's move is handed to a bot of the option's
-- level instead of the default move. Per seat: the level of the bot playing for its player, from
-- the first move the clock handed over until the player's own next command (NULL: the player
-- plays), and whether the bot is to make the seat's move now.
ALTER TABLE seats ADD COLUMN clock_bot text CHECK (clock_bot IN ('random', 'greedy', 'strong'));
ALTER TABLE seats ADD COLUMN clock_bot_due boolean NOT NULL DEFAULT false;

-- The bot sweep looks for the handed-over moves among the running games' seats.
CREATE INDEX seats_clock_bot_due ON seats (game_id) WHERE clock_bot_due;

-- Every command names the bot level that chose it: a bot account's level (as before), and for a
-- move the turn clock handed to a bot (no account, a seat) the level its record names.
CREATE OR REPLACE FUNCTION commands_bot_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.account_id IS NOT NULL AND NEW.seat IS NOT NULL THEN
        NEW.bot_level := (SELECT bot_level FROM accounts WHERE id = NEW.account_id);
    ELSIF NEW.account_id IS NULL AND NEW.seat IS NOT NULL THEN
        NEW.bot_level := NEW.response ->> 'clock_bot';
    END IF;
    RETURN NEW;
END $$;

-- A player's own command takes the seat back from the clock's bot; the bot's move is made.
-- In the database, so that no path that records a command can forget it.
CREATE FUNCTION seats_clock_bot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.account_id IS NOT NULL AND NEW.seat IS NOT NULL THEN
        UPDATE seats SET clock_bot = NULL, clock_bot_due = false
        WHERE game_id = NEW.game_id AND seat = NEW.seat AND clock_bot IS NOT NULL;
    ELSIF NEW.account_id IS NULL AND NEW.seat IS NOT NULL AND NEW.bot_level IS NOT NULL THEN
        UPDATE seats SET clock_bot_due = false
        WHERE game_id = NEW.game_id AND seat = NEW.seat AND clock_bot_due;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER seats_clock_bot AFTER INSERT ON commands
    FOR EACH ROW EXECUTE FUNCTION seats_clock_bot();
