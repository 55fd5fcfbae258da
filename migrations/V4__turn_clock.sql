-- The turn clock (option `move_minutes`, any kind) and vacations.
--
-- `deadline_ms` stays the one column saying when a game next acts by itself: the earlier of the
-- game's own deadline (`rule_deadline_ms`, a Space Builder round) and the turn clock's earliest
-- seat deadline. The sweep and "apply a due deadline before serving the game" cover both.
ALTER TABLE games ADD COLUMN rule_deadline_ms bigint;
-- Per seat (index seat + 1): when the turn clock makes that seat's default move, NULL while the
-- seat has nothing to do or the game has no clock. Not derivable from the events (it depends on
-- when commands arrived and on vacations), so a rebuild of the projections keeps it.
ALTER TABLE games ADD COLUMN turn_deadlines bigint[];
UPDATE games SET rule_deadline_ms = deadline_ms;

-- Vacations, current and past (the yearly allowance counts the time actually used). One at a
-- time per account; a vacation always starts when it is asked for; ending it early moves
-- `ends_ms` back.
CREATE TABLE vacations (
    account_id bigint NOT NULL REFERENCES accounts (id),
    starts_ms  bigint NOT NULL,
    ends_ms    bigint NOT NULL CHECK (ends_ms >= starts_ms),
    PRIMARY KEY (account_id, starts_ms)
);

-- The new turn deadlines of a game after an append. A seat's clock starts again when the seat
-- becomes one to act, when it acts (and still has to act), and when the game moves on by itself
-- (`acting` NULL: the set-up, a round's deadline); a seat that stays to act while others act
-- keeps its deadline. A seat whose player is on vacation gets its full time after the vacation.
CREATE FUNCTION next_turn_deadlines(
    game bigint, seat_count smallint, options jsonb, old_to_act smallint[], previous bigint[],
    new_to_act smallint[], acting smallint, now_ms bigint
) RETURNS bigint[]
    LANGUAGE sql STABLE
    RETURN (
        SELECT array_agg(
            CASE WHEN (options ->> 'move_minutes') IS NULL OR NOT (s.i = ANY (new_to_act)) THEN NULL
                 WHEN acting IS NOT NULL AND acting <> s.i AND s.i = ANY (old_to_act)
                      AND previous[s.i + 1] IS NOT NULL THEN previous[s.i + 1]
                 ELSE greatest(now_ms, coalesce(
                        (SELECT max(v.ends_ms) FROM seats st JOIN vacations v ON v.account_id = st.account_id
                         WHERE st.game_id = game AND st.seat = s.i
                           AND v.starts_ms <= now_ms AND v.ends_ms > now_ms), now_ms))
                      + (options ->> 'move_minutes')::bigint * 60000
            END ORDER BY s.i)
        FROM generate_series(0, seat_count - 1) AS s(i)
    );

-- The earliest of a game's deadlines (NULLs ignored).
CREATE FUNCTION earliest_deadline(rule bigint, turns bigint[]) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    RETURN least(rule, (SELECT min(t) FROM unnest(turns) AS t));
