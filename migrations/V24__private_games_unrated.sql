-- A private game is not rated (issue 41): a rating is public, and its change after a game tells
-- strangers that the game was played, and how it went. The games created private so far are
-- flagged unrated (those finished and rated keep their `rating_changes` as history: profiles
-- list a private game only to those who may watch it), and no game is created private and rated
-- from now on. `POST /v1/games` refuses `rated: true` with `visibility: private` before it gets
-- here; a rematch copies both flags from a game that obeys this.
UPDATE games SET rated = false WHERE visibility = 'private' AND rated;

-- Checked at creation, as V21's `games_checked` checks the other creation-only columns: neither
-- `visibility` nor `rated` is ever updated, and a CHECK constraint would be evaluated again by
-- every append's UPDATE of the row (what V21 took out of the command path). The same function,
-- with one check more.
CREATE OR REPLACE FUNCTION games_checked() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF NEW.visibility = 'private' AND NEW.rated THEN
        RAISE check_violation USING CONSTRAINT = 'games_private_unrated', TABLE = 'games',
            MESSAGE = 'new row for relation "games" violates check constraint "games_private_unrated"';
    END IF;
    RETURN NEW;
END $$;
