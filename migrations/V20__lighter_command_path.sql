-- PostgreSQL's CPU per command (issue 24): what every command paid for and did not need.
-- Measured by counting the instructions of a PostgreSQL backend (callgrind on `postgres
-- --single`) replaying the append statement, and with pg_stat_statements under the benchmark;
-- see README "Performance" for the numbers.

-- 1. The bot sweep (`storage/src/bots.rs`) runs after every change of any game (a person's move
--    wakes it, so that a bot answers within its think time) and read every running game with
--    its seats to find the few that wait for a bot: with 40 running games that cost more of
--    PostgreSQL's CPU per command than the append itself, and it grows with the running games.
--    A game's bot seats never change once taken (seats are never given up), so they are kept
--    on the game's row, and the sweep reads only the running games that seat a bot (a partial
--    index, on columns an append does not change, so the lobby row's updates stay HOT) and
--    those with a move handed to the clock's bot (`seats_clock_bot_due`, V19).
ALTER TABLE games ADD COLUMN bot_seats smallint[];

UPDATE games g SET bot_seats = b.seats
FROM (SELECT s.game_id, array_agg(s.seat ORDER BY s.seat) AS seats
      FROM seats s JOIN accounts a ON a.id = s.account_id
      WHERE a.bot GROUP BY s.game_id) b
WHERE b.game_id = g.id;

-- Kept by the database on every path that seats anybody (joining, a bot invited, rematches).
CREATE FUNCTION seats_bot_seats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET bot_seats = array_append(coalesce(bot_seats, '{}'), NEW.seat)
    WHERE id = NEW.game_id AND EXISTS (SELECT 1 FROM accounts WHERE id = NEW.account_id AND bot);
    RETURN NULL;
END $$;

CREATE TRIGGER seats_bot_seats AFTER INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_bot_seats();

CREATE INDEX games_with_bots ON games (id) WHERE status = 'active' AND bot_seats IS NOT NULL;

-- 2. Foreign keys of the append-only log to the games and accounts. Each inserted row ran a
--    check (a query locking the referenced row FOR KEY SHARE, which writes WAL and, for an
--    account playing several games at once, a multixact): three to five per command, 11 % of
--    the append's instructions. Integrity does not depend on them: commands and events are
--    written only by the append statement (`storage/src/append.rs`), which inserts the command
--    only FROM the lobby row it has just moved (so the game exists) and the events only FROM
--    that command, and by an import, which writes them inside the transaction that creates the
--    game. A command's account is its seat's (the seat is read with the account, and seats
--    keep their foreign keys) or none (the server's own commands). Games and accounts are
--    never deleted. `tests/tests/e2e/log_integrity.rs` holds every row of a played log to that.
ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
ALTER TABLE commands DROP CONSTRAINT commands_game_id_fkey;
ALTER TABLE commands DROP CONSTRAINT commands_account_id_fkey;

-- 3. No query reads the events in global order (`position` stays, numbered as before): its
--    index was one more entry written per event.
DROP INDEX events_position;

-- 4. A person's own command takes their seat back from the turn clock's bot (V19). That was an
--    AFTER INSERT trigger on commands running an UPDATE of the seat for every command of every
--    game (6 % of the append's instructions), where only games with the option `clock_bot` can
--    have a seat to take back. The game's row now names the seats handed to the clock's bot
--    (`clock_bot_seats`, NULL when none: the same seats as `seats.clock_bot`, which stays what
--    every read shows). The append's UPDATE of the lobby row removes the acting person's seat
--    from it, which costs nothing when it is NULL, and a trigger on that change (a WHEN clause,
--    evaluated without running any function when nothing changed) clears the seat as before.
--    The bot's own move still ends the hand-over by a trigger on commands, now conditional on
--    being the clock's bot's move.
ALTER TABLE games ADD COLUMN clock_bot_seats smallint[];

UPDATE games g SET clock_bot_seats = h.seats
FROM (SELECT game_id, array_agg(seat ORDER BY seat) AS seats
      FROM seats WHERE clock_bot IS NOT NULL GROUP BY game_id) h
WHERE h.game_id = g.id;

CREATE FUNCTION games_clock_bot_taken_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET clock_bot = NULL, clock_bot_due = false
    WHERE game_id = NEW.id AND clock_bot IS NOT NULL
      AND NOT (seat = ANY (coalesce(NEW.clock_bot_seats, '{}')));
    RETURN NULL;
END $$;

CREATE TRIGGER games_clock_bot_taken_back AFTER UPDATE OF clock_bot_seats ON games
    FOR EACH ROW WHEN (OLD.clock_bot_seats IS DISTINCT FROM NEW.clock_bot_seats)
    EXECUTE FUNCTION games_clock_bot_taken_back();

DROP TRIGGER seats_clock_bot ON commands;

CREATE OR REPLACE FUNCTION seats_clock_bot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET clock_bot_due = false
    WHERE game_id = NEW.game_id AND seat = NEW.seat AND clock_bot_due;
    RETURN NULL;
END $$;

CREATE TRIGGER seats_clock_bot AFTER INSERT ON commands
    FOR EACH ROW WHEN (NEW.account_id IS NULL AND NEW.seat IS NOT NULL AND NEW.bot_level IS NOT NULL)
    EXECUTE FUNCTION seats_clock_bot();

-- 5. The webhook deliveries and the notices by email and push that an append causes (V6, V17)
--    were four more CTEs of the append statement, two of them INSERTs: their start-up (opening
--    the outbox tables and their indexes, locking them) cost every append 22 % of its
--    instructions even where no seat's account has a webhook or chose a notice, which is most
--    games. They are this function now, called by the append only once its guard let it
--    through (in the same statement, so the same transaction: a crash after the commit still
--    loses none). It looks first whether any seat's account has a webhook or notice settings
--    (an index probe per seat) and queues nothing else when none has; otherwise it queues as
--    the CTEs did: `game_started` at the set-up (`p_base` 0), `game_finished`, `your_turn` for
--    each seat the game now waits for and did not before (`p_waited`, the lobby row as the
--    statement found it). Answers how many it queued (the live notice says whether to wake the
--    outbox workers). PL/pgSQL, so that its plans are cached per connection.
CREATE FUNCTION queue_notices(p_game bigint, p_kind text, p_version bigint, p_base bigint,
                              p_to_act smallint[], p_waited smallint[], p_finished boolean,
                              p_created_at text, p_now_ms bigint)
    RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM seats s
                   WHERE s.game_id = p_game
                     AND (EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = s.account_id)
                          OR EXISTS (SELECT 1 FROM notice_settings n WHERE n.account_id = s.account_id))) THEN
        RETURN 0;
    END IF;
    WITH fired AS (
        SELECT s.seat, s.account_id, k.kind
        FROM seats s,
             LATERAL (VALUES ('game_started', p_base = 0),
                             ('game_finished', p_finished),
                             ('your_turn', NOT p_finished AND s.seat = ANY (p_to_act)
                                           AND NOT s.seat = ANY (p_waited))) AS k(kind, fires)
        WHERE s.game_id = p_game AND k.fires),
      told AS (
        SELECT f.account_id, f.kind,
               jsonb_build_object('kind', f.kind, 'created_at', p_created_at, 'seat', f.seat,
                   'game', jsonb_build_object('id', p_game, 'kind', p_kind, 'version', p_version,
                                              'to_act', to_jsonb(p_to_act), 'finished', p_finished)) AS body
        FROM fired f),
      queued AS (
        INSERT INTO webhook_deliveries (delivery_id, webhook_id, kind, body, next_attempt_ms)
        SELECT gen_random_uuid(), w.id, t.kind, t.body, p_now_ms
        FROM told t JOIN webhooks w ON w.account_id = t.account_id AND t.kind = ANY (w.kinds)
        RETURNING 1),
      noticed AS (
        INSERT INTO notice_deliveries (account_id, channel, subscription_id, kind, game_id, body, next_attempt_ms)
        SELECT t.account_id, c.channel, c.subscription_id, t.kind, p_game, t.body, p_now_ms
        FROM told t JOIN notice_settings n ON n.account_id = t.account_id,
             LATERAL (SELECT 'email', NULL::bigint
                      WHERE n.email_confirmed_at IS NOT NULL AND t.kind = ANY (n.email_kinds)
                      UNION ALL
                      SELECT 'push', p.id FROM push_subscriptions p
                      WHERE p.account_id = t.account_id AND t.kind = ANY (n.push_kinds)) AS c (channel, subscription_id)
        RETURNING 1)
    SELECT (SELECT count(*) FROM queued) + (SELECT count(*) FROM noticed) INTO total;
    RETURN total;
END $$;
