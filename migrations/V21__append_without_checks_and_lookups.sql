-- PostgreSQL's CPU per command (issue 24), second round: what the append statement still paid
-- for on every command and did not need. Counted as for V20 (callgrind on `postgres --single`
-- replaying the append on a copy of a benchmark database); see README "Performance" for the
-- numbers.

-- 1. CHECK constraints of `games` and `events`. An UPDATE checks every CHECK constraint of its
--    table whichever columns it sets, and each statement first reads the constraints' stored
--    expressions again and plans them: 8 % of the append's instructions, for values that the
--    append never writes or writes only from constants.
--    - `games.status` is written by the creation ('open') and otherwise only from
--      `Lifecycle::as_str` (`storage/src/types.rs`: 'open', 'active', 'finished'), by the append,
--      the rebuild of the projections and the import.
--    - `games.seat_count` and `games.visibility` are written only when a game is created (the
--      lobby, an import, a rematch through the lobby) and never updated.
--    - `events.version` is written by the append as the base version (≥ 0) plus 1, 2, …, and by
--      an import only after `verify_export` found the versions to run 1, 2, … without a gap.
--    Creation keeps its checks (a game is created far less often than it is played), as a
--    trigger on INSERT that raises what the constraints raised, under the same names.
--    `tests/tests/e2e/log_integrity.rs` holds every row of a played database to all four.
ALTER TABLE games DROP CONSTRAINT games_seat_count_check,
                  DROP CONSTRAINT games_status_check,
                  DROP CONSTRAINT games_visibility_check;
ALTER TABLE events DROP CONSTRAINT events_version_check;

CREATE FUNCTION games_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT NEW.seat_count > 0 THEN
        RAISE check_violation USING CONSTRAINT = 'games_seat_count_check', TABLE = 'games',
            MESSAGE = 'new row for relation "games" violates check constraint "games_seat_count_check"';
    END IF;
    IF NOT NEW.status IN ('open', 'active', 'finished') THEN
        RAISE check_violation USING CONSTRAINT = 'games_status_check', TABLE = 'games',
            MESSAGE = 'new row for relation "games" violates check constraint "games_status_check"';
    END IF;
    IF NOT NEW.visibility IN ('open', 'private') THEN
        RAISE check_violation USING CONSTRAINT = 'games_visibility_check', TABLE = 'games',
            MESSAGE = 'new row for relation "games" violates check constraint "games_visibility_check"';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER games_checked BEFORE INSERT ON games
    FOR EACH ROW EXECUTE FUNCTION games_checked();

-- 2. The webhook deliveries and notices an append causes are queued by `queue_notices` (V20),
--    which first looks whether any seat's account has a webhook or notice settings: a PL/pgSQL
--    call and a query of three tables on every append, 13 % of its instructions, for most
--    games to find nobody. The game's row now says whether that look can find anybody
--    (`listeners`), and the append calls `queue_notices` only when it does. It is set, never
--    cleared, by the three ways an account can come to listen at a game: a webhook registered,
--    notice settings made, a seat taken by an account with either. A true that has become
--    stale (a webhook deleted) costs only the look, which stays and decides as before.
--    The append reads the flag from the row its UPDATE wrote, which is the newest committed
--    one (a registration that set it first and committed is seen; one that commits after the
--    append is as if it came after the command, as before).
ALTER TABLE games ADD COLUMN listeners boolean NOT NULL DEFAULT false;

UPDATE games g SET listeners = true
WHERE g.status <> 'finished'
  AND EXISTS (SELECT 1 FROM seats s
              WHERE s.game_id = g.id
                AND (EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = s.account_id)
                     OR EXISTS (SELECT 1 FROM notice_settings n WHERE n.account_id = s.account_id)));

-- An account that starts listening: every unfinished game it sits at, locked in the order of
-- their ids (two players of the same games registering at once cannot deadlock).
CREATE FUNCTION games_listened_by_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET listeners = true
    WHERE id IN (SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id
                 WHERE s.account_id = NEW.account_id AND NOT g.listeners AND g.status <> 'finished'
                 ORDER BY g.id FOR UPDATE OF g);
    RETURN NULL;
END $$;

CREATE TRIGGER webhooks_listeners AFTER INSERT ON webhooks
    FOR EACH ROW EXECUTE FUNCTION games_listened_by_account();
CREATE TRIGGER notice_settings_listeners AFTER INSERT ON notice_settings
    FOR EACH ROW EXECUTE FUNCTION games_listened_by_account();

-- A seat taken by an account that listens.
CREATE FUNCTION seats_listeners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET listeners = true
    WHERE id = NEW.game_id AND NOT listeners
      AND (EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = NEW.account_id)
           OR EXISTS (SELECT 1 FROM notice_settings n WHERE n.account_id = NEW.account_id));
    RETURN NULL;
END $$;

CREATE TRIGGER seats_listeners AFTER INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_listeners();

-- 3. The bot level of a command (V16, V19) was a BEFORE INSERT trigger in PL/pgSQL: a function
--    call and a query of `accounts` for every command, 4 % of the append's instructions. The
--    append statement, the only path that records commands with an account or a clock's bot
--    (an import's commands name their level themselves), now writes the same value itself: the
--    account's level for a command with an account and a seat, the record's `clock_bot` for a
--    command with a seat and no account, none otherwise. `tests/tests/e2e/log_integrity.rs` checks
--    every command's level against its account's.
DROP TRIGGER commands_bot_level ON commands;
DROP FUNCTION commands_bot_level();

-- 4. A command's stored response (about 760 bytes of JSON for Burgbaumeister) exists to be
--    answered again to a request repeating its Idempotency-Key (`storage/src/commands.rs`, the
--    only reader). A person's command sent without a key can never be repeated that way, yet
--    every one was parsed into jsonb, stored and WAL-logged: 17 % of the append's instructions.
--    The append stores it now only where it can be read: commands with a key, and the server's
--    own commands (set-up, default moves, the clock's bot, whose record carries its level).
--    Rows already written keep theirs.
ALTER TABLE commands ALTER COLUMN response DROP NOT NULL;
