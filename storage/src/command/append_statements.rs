//! The append statements: one statement writes the command, its events and the lobby row, and
//! queues the notices and rates the players where it must. Four variants of the same text
//! (with or without the turn clock, with or without the notices) and one that rates; which one
//! an append runs is `append.rs`'s choice.

/// The whole append in one statement (one round trip; in autocommit mode also one transaction):
/// the lobby row moves from the base version to the new one, and only when it did are the
/// command and its events written. A lost race leaves the lobby row untouched, so nothing is
/// written and the statement returns 0 rows: `Contention`.
///
/// The same statement prepares what tells those who follow the game (`live/`): what the live
/// notice says beyond the game and version (how many deliveries it queued, whether bots sit at
/// the game: the caller makes the `Notice`; announced by the caller after the commit:
/// `live/announce.rs`), and the webhook deliveries this append causes, queued in the outbox
/// (`game_started` at the set-up, `game_finished`, `your_turn` for each seat the game now waits
/// for and did not before), and the same notices by email and push to the accounts that chose
/// them (`notices/`), so a crash after the commit loses none. Those are queued by the function
/// `queue_notices` (`migrations/V20__lighter_command_path.sql`), called only once the guard let
/// the append through (as CTEs of this statement they cost every append their start-up), and
/// only for a game whose row says that some seat's account may listen (`listeners`,
/// `migrations/V21__append_without_checks_and_lookups.sql`: read from the row the UPDATE wrote,
/// so a registration committed before it is seen); the function itself looks again. The seats
/// the game waited for before are the caller's (`waited_for`, `append.rs`), as is the kind (a CTE reading
/// both from the row cost every append a scan and a join).
///
/// Most games have nobody listening, and PostgreSQL prepared the call of `queue_notices` at
/// every execution all the same, called or not: 17,000 of its 590,000 instructions per
/// Burgbaumeister append. So a game not known to have listeners is appended by a *quiet*
/// variant ([`APPEND_QUIET`], [`APPEND_UNCLOCKED_QUIET`]) without the call, whose guard also
/// asks that the row has none (`AND NOT listeners`, judged on the row it would write, as the
/// full statement reads the flag). Refused, the append is tried again with the full statement
/// (`Store::write`, `append.rs`): the game has listeners (the flag is set, never cleared, so this process
/// remembers it and uses the full statement from then on), or the race was lost, which the
/// full statement then finds as before. The parameters only the call needs come last, so the
/// quiet variant binds the first 20 of the same list.
///
/// The command's bot level is written here too, as the caller knows it (`NewCommand`),
/// where a PL/pgSQL trigger and then a subquery of this statement looked it up for every
/// command before.
///
/// The command's time (`$6`, milliseconds) becomes a timestamp by a division in `float8`, which
/// `to_timestamp` takes anyway: divided as `numeric` first, it cost 7,000 of PostgreSQL's
/// 609,000 instructions per Burgbaumeister append, more with more events. Both give the same
/// timestamp for every millisecond (an integer below 2^53 and 1000 are exact in `float8`, and
/// its division rounds to the nearest, as the cast of the exact quotient does): checked for six
/// million values from before 1970 to 2100.
///
/// A game without the turn clock (no `move_minutes`) has no turn deadlines and no seat handed
/// to the clock's bot. Once this process knows that of a game (its appends return it, and
/// options never change), its appends run [`APPEND_UNCLOCKED`], whose UPDATE sets neither:
/// PostgreSQL builds the target list again for every execution, and with `clock_bot_seats`
/// left out of it the trigger on that column (`UPDATE OF clock_bot_seats`) is not even looked
/// at. Otherwise the PL/pgSQL that computes the turn deadlines (three calls)
/// is entered only for a game with the clock, and a person's command takes their seat back
/// from the clock's bot by leaving `clock_bot_seats` (see
/// `migrations/V20__lighter_command_path.sql`; nothing to do while it is NULL).
/// `migrations/V22__unclocked_append.sql` has the numbers.
macro_rules! append_statement {
    ($clock:expr, $guard:literal, $notices:expr, $rating_cte:literal, $rating_from:literal) => {
        concat!(
            "WITH upd AS (
    UPDATE games SET version = $2, status = $3::text, to_act = $4::smallint[], progress = $5::jsonb,
           updated_at = to_timestamp($6::bigint / 1000.0::float8), rule_deadline_ms = $8::bigint,",
            $clock,
            "
    WHERE id = $1 AND version = $7",
            $guard,
            "
    RETURNING id, undo, listeners, bot_seats IS NOT NULL AS bots, options ->> 'move_minutes' IS NOT NULL AS clocked),
  cmd AS (
    INSERT INTO commands (game_id, account_id, seat, idempotency_key, body, seed, now_ms, response, position, reveals,
                          bot_level)
    SELECT upd.id, $9::bigint, $10::smallint, $11::text, $12::jsonb, $13::bigint, $6::bigint, $14::jsonb, $7::bigint, $19::boolean,
           $20::text
    FROM upd RETURNING id),
  ev AS (
    INSERT INTO events (game_id, version, type, payload, command_id, account_id, seat, recorded_at, hash)
    SELECT $1, e.v, e.t, e.p, cmd.id, $9::bigint, $10::smallint, to_timestamp($6::bigint / 1000.0::float8), e.h
    FROM cmd, unnest($15::bigint[], $16::text[], $17::jsonb[], $18::bytea[]) AS e(v, t, p, h))",
            $rating_cte,
            "
SELECT cmd.id,
       ",
            $notices,
            ",
       upd.bots, upd.undo, upd.clocked, upd.listeners
FROM cmd, upd",
            $rating_from
        )
    };
}

/// The UPDATE's turn clock, for a game that has one or may have one.
macro_rules! clock {
    () => {
        "
           clock_bot_seats = CASE WHEN clock_bot_seats IS NULL OR $9::bigint IS NULL THEN clock_bot_seats
                                  ELSE nullif(array_remove(clock_bot_seats, $10::smallint), '{}') END,
           turn_deadlines = CASE WHEN options ->> 'move_minutes' IS NOT NULL THEN
               next_turn_deadlines(id, seat_count, options, to_act, turn_deadlines, $4::smallint[], $10::smallint, $6::bigint) END,
           deadline_ms = CASE WHEN options ->> 'move_minutes' IS NULL THEN $8::bigint ELSE earliest_deadline($8::bigint,
               next_turn_deadlines(id, seat_count, options, to_act, turn_deadlines, $4::smallint[], $10::smallint, $6::bigint)) END"
    };
}

/// The deliveries and notices of an append to a game with listeners (see [`APPEND`]).
macro_rules! notices {
    () => {
        "CASE WHEN upd.listeners THEN queue_notices($1, $23::text, $2, $7, $4::smallint[], $24::smallint[],
                                                  $21::boolean, $22::text, $6::bigint)
            ELSE 0 END"
    };
}

/// The UPDATE's deadline for a game without the turn clock.
macro_rules! unclocked {
    () => {
        "
           deadline_ms = $8::bigint"
    };
}

pub(crate) const APPEND: &str = append_statement!(clock!(), "", notices!(), "", "");

/// [`APPEND`] for a game known to have no turn clock: what the clock's CASEs give such a game
/// (no turn deadlines, the rule's deadline alone, no seat with the clock's bot), without them.
pub(crate) const APPEND_UNCLOCKED: &str = append_statement!(unclocked!(), "", notices!(), "", "");

/// [`APPEND`] for a game without listeners: nothing to queue, and refused where the row has
/// listeners (see [`APPEND`]). It binds the first [`QUIET_PARAMETERS`].
pub(crate) const APPEND_QUIET: &str =
    append_statement!(clock!(), " AND NOT listeners", "0::bigint", "", "");

/// [`APPEND_UNCLOCKED`] for a game without listeners, as [`APPEND_QUIET`] is for [`APPEND`].
pub(crate) const APPEND_UNCLOCKED_QUIET: &str =
    append_statement!(unclocked!(), " AND NOT listeners", "0::bigint", "", "");

/// How many parameters the quiet variants bind: all but whether the game finished, the
/// command's time as text, the kind and the seats waited for before, which only
/// `queue_notices` and `rate_game` need.
pub(crate) const QUIET_PARAMETERS: usize = 20;

/// The append of a command that finishes a rated game: [`APPEND`] and, only when its guard let
/// it through, the players' new ratings (`rate_game`, `migrations/V15__ratings.sql`), in the
/// same statement and so the same transaction. Every other append runs [`APPEND`] exactly as
/// before: ratings cost nothing on the common path.
pub(crate) const APPEND_RATED: &str = append_statement!(
    clock!(),
    "",
    notices!(),
    ",\n  rated AS (SELECT rate_game($1, $23::text, $25::jsonb) AS n FROM upd)",
    ", rated"
);

#[cfg(test)]
mod tests {
    use super::{
        APPEND, APPEND_QUIET, APPEND_RATED, APPEND_UNCLOCKED, APPEND_UNCLOCKED_QUIET,
        QUIET_PARAMETERS,
    };

    /// The common path's statement knows nothing of ratings; only a finishing append of a rated
    /// game runs the longer one, which is the same statement plus the ratings.
    #[test]
    fn the_common_append_has_no_ratings_and_the_rated_one_only_adds_them() {
        assert!(!APPEND.contains("rate"));
        let (ctes, select) = APPEND.split_once("\nSELECT cmd.id").unwrap();
        assert!(APPEND_RATED.starts_with(ctes));
        assert!(APPEND_RATED.contains("rate_game($1, $23::text, $25::jsonb)"));
        assert!(APPEND_RATED.ends_with(&format!("{select}, rated")));
    }

    /// The unclocked append is the common one less the clock's columns (the rule's deadline is
    /// the game's only one, nothing else of its row moves); everything else is the same text.
    #[test]
    fn the_unclocked_append_is_the_common_one_without_the_clock() {
        for part in ["clock_bot_seats", "next_turn_deadlines"] {
            assert!(APPEND.contains(part), "{part}");
        }
        let (before, clock) = APPEND.split_once("\n           clock_bot_seats").unwrap();
        let (_, after) = clock.split_once("\n    WHERE id = $1").unwrap();
        let unclocked =
            format!("{before}\n           deadline_ms = $8::bigint\n    WHERE id = $1{after}");
        assert_eq!(APPEND_UNCLOCKED, unclocked);
    }

    /// How many parameters `sql` names, checking that it names each of `$1` to `$N` (one it
    /// skipped would have no type for PostgreSQL to infer).
    fn parameters(sql: &str) -> usize {
        let mut named: Vec<usize> = sql
            .split('$')
            .skip(1)
            .filter_map(|p| {
                let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            })
            .collect();
        named.sort_unstable();
        named.dedup();
        assert_eq!(named, (1..=named.len()).collect::<Vec<_>>(), "{sql}");
        named.len()
    }

    /// A quiet append is the full one without the call of `queue_notices` (it queues nothing:
    /// 0) and refused where the row has listeners, so that the full one is run for such a game;
    /// everything else is the same text. It names the first parameters only, so that it binds
    /// the first [`QUIET_PARAMETERS`] of the full one's list.
    #[test]
    fn the_quiet_append_is_the_full_one_without_notices_and_refused_with_listeners() {
        for (full, quiet) in [
            (APPEND, APPEND_QUIET),
            (APPEND_UNCLOCKED, APPEND_UNCLOCKED_QUIET),
        ] {
            assert!(full.contains("queue_notices("));
            assert!(!quiet.contains("queue_notices"));
            let (before, call) = full.split_once("CASE WHEN upd.listeners").unwrap();
            let (_, after) = call.split_once("ELSE 0 END").unwrap();
            let expected = format!("{before}0::bigint{after}").replacen(
                "WHERE id = $1 AND version = $7",
                "WHERE id = $1 AND version = $7 AND NOT listeners",
                1,
            );
            assert_eq!(quiet, expected);
            assert_eq!(parameters(quiet), QUIET_PARAMETERS);
            assert_eq!(parameters(full), QUIET_PARAMETERS + 4);
        }
        assert_eq!(parameters(APPEND_RATED), QUIET_PARAMETERS + 5);
    }
}
