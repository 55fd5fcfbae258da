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
-- NULL for a game without the clock. PL/pgSQL, so that its plans are cached per connection: it
-- runs in every append's UPDATE.
CREATE FUNCTION next_turn_deadlines(
    game bigint, seat_count smallint, options jsonb, old_to_act smallint[], previous bigint[],
    new_to_act smallint[], acting smallint, now_ms bigint
) RETURNS bigint[]
    LANGUAGE plpgsql STABLE
AS $$
DECLARE
    move bigint := (options ->> 'move_minutes')::bigint * 60000;
    result bigint[] := '{}';
    away bigint;
BEGIN
    IF move IS NULL THEN
        RETURN NULL;
    END IF;
    FOR i IN 0 .. seat_count - 1 LOOP
        IF NOT (i = ANY (new_to_act)) THEN
            result := array_append(result, NULL::bigint);
        ELSIF acting IS NOT NULL AND acting <> i AND i = ANY (old_to_act)
              AND previous[i + 1] IS NOT NULL THEN
            result := array_append(result, previous[i + 1]);
        ELSE
            SELECT max(v.ends_ms) INTO away
            FROM seats st JOIN vacations v ON v.account_id = st.account_id
            WHERE st.game_id = game AND st.seat = i AND v.starts_ms <= now_ms AND v.ends_ms > now_ms;
            result := array_append(result, greatest(now_ms, coalesce(away, now_ms)) + move);
        END IF;
    END LOOP;
    RETURN result;
END
$$;

-- The earliest of a game's deadlines (NULLs ignored).
CREATE FUNCTION earliest_deadline(rule bigint, turns bigint[]) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    earliest bigint := rule;
    t bigint;
BEGIN
    IF turns IS NOT NULL THEN
        FOREACH t IN ARRAY turns LOOP
            earliest := least(earliest, t);
        END LOOP;
    END IF;
    RETURN earliest;
END
$$;
