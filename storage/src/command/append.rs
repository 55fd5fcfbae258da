//! Appending: one statement writes the command, its events (hash-chained) and the lobby row.
//! Shared by the set-up (last seat taken) and by players' commands. The boards are not written:
//! each viewer's board is the view of the aggregate at the version a read names (`reads.rs`).

use baumeister_domain::{Status, Viewer};
use deadpool_postgres::GenericClient;
use serde::Serialize;
use serde_json::Value;
use tokio_postgres::types::Json;

use crate::audit::chain::Chain;
use crate::command::batch::{self, Landed};
use crate::error::{is_retryable, violated_constraint, Result, StoreError};
use crate::live::hub::Notice;
use crate::read::cache::{Aggregate, FixedOptions};
use crate::types::{Lifecycle, LoggedEvent};
use crate::{rfc3339, Store};

/// What a committed append leaves to do: whether the game allows taking a command back (its
/// `undo` option, read by the append), and the live notice to announce once the transaction
/// has committed ([`Store::announce`]).
#[must_use = "a committed append's notice must be announced"]
pub(crate) struct Written {
    pub undo: bool,
    /// The live notice to announce once committed: made here from what the statement answers
    /// (built by the statement as text, its casts and concatenations cost PostgreSQL 8,000 of
    /// its 605,000 instructions per Burgbaumeister append).
    pub notice: Notice,
}

/// Where an append goes: the game and the aggregate the new events were folded onto (its
/// version is the append's guard).
pub(crate) struct AppendAt<'a> {
    pub game_id: i64,
    pub base: &'a Aggregate,
    /// Whether the append may go in a batch with other games' (`batch.rs`).
    pub batch: Batching,
}

/// Whether an append may go in a batch with other games' (`batch.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Batching {
    /// It may, where it is a common one ([`Store::batched`]): the caller holds no transaction
    /// that it must be part of.
    May,
    /// It may not, or it was tried in one that failed as a whole: alone.
    No,
    /// It was tried in a batch, and its game's row refused it: the full statement next.
    Refused,
}

/// The lobby row's columns derived from a game's state: written by every append and by a
/// rebuild of the projections.
pub(crate) struct LobbyColumns {
    pub status: &'static str,
    pub to_act: Vec<i16>,
    pub progress: Value,
    /// The game's own deadline (the turn clock's are computed in the database: they depend on
    /// when commands arrive and on vacations; see `migrations/V4__turn_clock.sql`).
    pub rule_deadline_ms: Option<i64>,
}

impl LobbyColumns {
    pub fn of(aggregate: &Aggregate, status: &Status) -> Self {
        let lifecycle = if status.finished {
            Lifecycle::Finished
        } else {
            Lifecycle::Active
        };
        LobbyColumns {
            status: lifecycle.as_str(),
            to_act: status.to_act.iter().map(|s| i16::from(*s)).collect(),
            progress: serde_json::to_value(status).expect("status serializes"),
            rule_deadline_ms: aggregate
                .game
                .deadline(&aggregate.state)
                .filter(|_| !status.finished),
        }
    }
}

/// A command as it is recorded for audit.
#[derive(Clone, Copy)]
pub(crate) struct NewCommand<'a> {
    pub account_id: Option<i64>,
    pub seat: Option<u8>,
    pub idempotency_key: Option<&'a str>,
    pub body: &'a Value,
    pub seed: u64,
    pub now_ms: i64,
    /// Whether a player's command revealed anything (see `baumeister_domain::take_back`);
    /// `None` for the server's own commands and take-backs, which are never taken back.
    pub reveals: Option<bool>,
    /// The bot that made it, by level (`commands.bot_level`): the account's for a seat's
    /// command by an account (`None` for a person), the clock's bot's where it named one, else
    /// `None`. The caller knows it: read from the account in the append, the lookup's start-up
    /// cost PostgreSQL 26,000 of its 604,000 instructions per append
    /// (`tests/tests/e2e/log_integrity.rs` holds every command's level to its account's).
    pub bot_level: Option<&'a str>,
}

impl Landed {
    /// What an append statement's row answers: `cmd.id`, the deliveries queued, then `bots`,
    /// `undo`, `clocked`, `listeners`.
    fn of(row: &tokio_postgres::Row) -> Landed {
        Landed {
            queued: row.get(1),
            bots: row.get(2),
            undo: row.get(3),
            clocked: row.get(4),
            listeners: row.get(5),
        }
    }
}

/// The result of folding new events onto an aggregate, before it is written.
pub(crate) struct Appended {
    pub aggregate: Aggregate,
    pub status: Status,
    /// The new events with their versions and hashes.
    pub events: Vec<(i64, Value, Vec<u8>)>,
    pub seat: Option<u8>,
    pub now_ms: i64,
}

/// The seats the game waited for before an append onto `base`, against which `queue_notices`
/// tells who waits now and did not: the lobby row's `to_act` at `base`'s version, known
/// without reading it: every writer of that column writes the status of the version it writes
/// (`LobbyColumns`), and the append's guard only lets it through while the row is at that
/// version. A game not started (version 0) still has the `'{}'` it was created with. Read from
/// the row by a subquery of the append instead, it cost every append the subquery's start-up
/// (17,000 of PostgreSQL's 620,000 instructions) though it ran only for games with listeners.
/// Computed only for the statement that calls `queue_notices` (its `status` is about 2,000
/// server instructions).
fn waited_for(base: &Aggregate) -> Vec<u8> {
    if base.version == 0 {
        Vec::new()
    } else {
        base.game.status(&base.state).to_act
    }
}

impl Appended {
    /// The new events as `viewer` may see them.
    pub fn logged_for(&self, viewer: Viewer) -> Vec<LoggedEvent> {
        let game = self.aggregate.game;
        let state = &self.aggregate.state;
        let viewer = game.effective_viewer(state, viewer);
        self.events
            .iter()
            .filter_map(|(version, event, _)| {
                game.redact(state, event, viewer).map(|event| LoggedEvent {
                    version: *version,
                    seat: self.seat,
                    recorded_at: rfc3339(self.now_ms),
                    event,
                    taken_back: false,
                })
            })
            .collect()
    }
}

/// Folds `events` onto `base` (never fails for events the game just decided).
pub(crate) fn fold(
    base: &Aggregate,
    chain: &Chain,
    events: Vec<Value>,
    seat: Option<u8>,
    now_ms: i64,
) -> Result<Appended> {
    let game = base.game;
    let mut state = base.state.clone();
    let mut hash = base.last_hash.clone();
    let mut versioned = Vec::with_capacity(events.len());
    for (i, event) in events.into_iter().enumerate() {
        let version = base.version + 1 + i as i64;
        game.evolve(&mut state, &event)?;
        hash = chain.event_hash(&hash, version, event_type(&event), &event);
        versioned.push((version, event, hash.clone()));
    }
    let status = game.status(&state);
    Ok(Appended {
        aggregate: Aggregate {
            game,
            version: base.version + versioned.len() as i64,
            state,
            last_hash: hash,
        },
        status,
        events: versioned,
        seat,
        now_ms,
    })
}

pub(crate) fn event_type(event: &Value) -> &str {
    event.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The whole append in one statement (one round trip; in autocommit mode also one transaction):
/// the lobby row moves from the base version to the new one, and only when it did are the
/// command and its events written. A lost race leaves the lobby row untouched, so nothing is
/// written and the statement returns 0 rows: `Contention`.
///
/// The same statement prepares what tells those who follow the game (`live/`): what the live
/// notice says beyond the game and version (how many deliveries it queued, whether bots sit at
/// the game: the caller makes the [`Notice`]; announced by the caller after the commit:
/// `live/announce.rs`), and the webhook deliveries this append causes, queued in the outbox
/// (`game_started` at the set-up, `game_finished`, `your_turn` for each seat the game now waits
/// for and did not before), and the same notices by email and push to the accounts that chose
/// them (`notices/`), so a crash after the commit loses none. Those are queued by the function
/// `queue_notices` (`migrations/V20__lighter_command_path.sql`), called only once the guard let
/// the append through (as CTEs of this statement they cost every append their start-up), and
/// only for a game whose row says that some seat's account may listen (`listeners`,
/// `migrations/V21__append_without_checks_and_lookups.sql`: read from the row the UPDATE wrote,
/// so a registration committed before it is seen); the function itself looks again. The seats
/// the game waited for before are the caller's ([`waited_for`]), as is the kind (a CTE reading
/// both from the row cost every append a scan and a join).
///
/// Most games have nobody listening, and PostgreSQL prepared the call of `queue_notices` at
/// every execution all the same, called or not: 17,000 of its 590,000 instructions per
/// Burgbaumeister append. So a game not known to have listeners is appended by a *quiet*
/// variant ([`APPEND_QUIET`], [`APPEND_UNCLOCKED_QUIET`]) without the call, whose guard also
/// asks that the row has none (`AND NOT listeners`, judged on the row it would write, as the
/// full statement reads the flag). Refused, the append is tried again with the full statement
/// (`Store::write`): the game has listeners (the flag is set, never cleared, so this process
/// remembers it and uses the full statement from then on), or the race was lost, which the
/// full statement then finds as before. The parameters only the call needs come last, so the
/// quiet variant binds the first 20 of the same list.
///
/// The command's bot level is written here too, as the caller knows it ([`NewCommand`]),
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

const APPEND: &str = append_statement!(clock!(), "", notices!(), "", "");

/// [`APPEND`] for a game known to have no turn clock: what the clock's CASEs give such a game
/// (no turn deadlines, the rule's deadline alone, no seat with the clock's bot), without them.
const APPEND_UNCLOCKED: &str = append_statement!(unclocked!(), "", notices!(), "", "");

/// [`APPEND`] for a game without listeners: nothing to queue, and refused where the row has
/// listeners (see [`APPEND`]). It binds the first [`QUIET_PARAMETERS`].
const APPEND_QUIET: &str = append_statement!(clock!(), " AND NOT listeners", "0::bigint", "", "");

/// [`APPEND_UNCLOCKED`] for a game without listeners, as [`APPEND_QUIET`] is for [`APPEND`].
const APPEND_UNCLOCKED_QUIET: &str =
    append_statement!(unclocked!(), " AND NOT listeners", "0::bigint", "", "");

/// How many parameters the quiet variants bind: all but whether the game finished, the
/// command's time as text, the kind and the seats waited for before, which only
/// `queue_notices` and `rate_game` need.
const QUIET_PARAMETERS: usize = 20;

/// The append of a command that finishes a rated game: [`APPEND`] and, only when its guard let
/// it through, the players' new ratings (`rate_game`, `migrations/V15__ratings.sql`), in the
/// same statement and so the same transaction. Every other append runs [`APPEND`] exactly as
/// before: ratings cost nothing on the common path.
const APPEND_RATED: &str = append_statement!(
    clock!(),
    "",
    notices!(),
    ",\n  rated AS (SELECT rate_game($1, $23::text, $25::jsonb) AS n FROM upd)",
    ", rated"
);

impl Store {
    /// Writes what `fold` produced, in one statement (see [`APPEND`]; two when a quiet one was
    /// refused), on a plain connection (each statement is its own transaction, and a refused
    /// one wrote nothing) or inside a transaction. A lost race (another
    /// append moved the game on, or the same Idempotency-Key committed first) is `Contention`:
    /// the caller decides again on fresh state. Answers whether the game allows taking a
    /// command back (its `undo` option), read by the same statement, and the game's live
    /// notice, which the caller announces once its transaction committed: the statement no
    /// longer sends it (see `live/announce.rs` for why).
    pub(crate) async fn write(
        &self,
        client: &impl GenericClient,
        at: AppendAt<'_>,
        appended: &Appended,
        command: NewCommand<'_>,
        response: &(impl Serialize + std::fmt::Debug + Sync),
    ) -> Result<Written> {
        let AppendAt {
            game_id,
            base,
            batch,
        } = at;
        let batch = match batch {
            Batching::May => match self.batched(game_id, base, appended, &command).await? {
                Ok(written) => return Ok(written),
                Err(alone) => alone,
            },
            alone => alone,
        };
        let refused = batch == Batching::Refused;
        let lost = |e: tokio_postgres::Error| match violated_constraint(&e) {
            Some("events_version") | Some("commands_idempotency") => StoreError::Contention,
            _ if is_retryable(&e) => StoreError::Contention,
            _ => e.into(),
        };
        let mut versions = Vec::with_capacity(appended.events.len());
        let mut types = Vec::with_capacity(appended.events.len());
        let mut payloads = Vec::with_capacity(appended.events.len());
        let mut hashes = Vec::with_capacity(appended.events.len());
        for (version, event, hash) in &appended.events {
            versions.push(*version);
            types.push(event_type(event));
            payloads.push(event);
            hashes.push(hash.as_slice());
        }
        let lobby = LobbyColumns::of(&appended.aggregate, &appended.status);
        // Only a finishing append reads the players' ratings (one more statement before it).
        let ratings = if appended.status.finished {
            crate::people::rating::changes(client, game_id, &appended.status).await?
        } else {
            None
        };
        let unclocked = self.cache.known_unclocked(game_id);
        let quiet = ratings.is_none() && !self.cache.listened(game_id);
        let full = match (&ratings, unclocked) {
            (Some(_), _) => APPEND_RATED,
            (None, true) => APPEND_UNCLOCKED,
            (None, false) => APPEND,
        };
        // The response is stored to be answered again to a repeated Idempotency-Key: a person's
        // command without one never is, so it is not sent (parsing and writing it was 17 % of
        // the append's work). The server's own commands keep theirs (the clock's bot's names
        // its level). See `migrations/V21__append_without_checks_and_lookups.sql`.
        let stored_response = (command.idempotency_key.is_some() || command.account_id.is_none())
            .then_some(Json(response));
        let seat = command.seat.map(i16::from);
        let seed = command.seed as i64;
        let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![
            &game_id,
            &appended.aggregate.version,
            &lobby.status,
            &lobby.to_act,
            &lobby.progress,
            &command.now_ms,
            &base.version,
            &lobby.rule_deadline_ms,
            &command.account_id,
            &seat,
            &command.idempotency_key,
            command.body,
            &seed,
            &stored_response,
            &versions,
            &types,
            &payloads,
            &hashes,
            &command.reveals,
            &command.bot_level,
        ];
        debug_assert_eq!(params.len(), QUIET_PARAMETERS);
        let mut written = None;
        // Refused in a batch, it is known to need the full statement (listeners, or a lost race).
        if quiet && !refused {
            let statement = client
                .prepare_cached(if unclocked {
                    APPEND_UNCLOCKED_QUIET
                } else {
                    APPEND_QUIET
                })
                .await?;
            self.pauses.reach(crate::pause::APPEND_SENDING).await;
            written = client
                .query_opt(&statement, &params)
                .await
                .map_err(lost)?
                .map(|row| Landed::of(&row));
        }
        if written.is_none() {
            // Not quiet, or refused quietly: the game has listeners, or the race was lost. What
            // only `queue_notices` and `rate_game` read is made for this statement alone.
            let created_at = rfc3339(command.now_ms);
            let kind = appended.aggregate.game.kind();
            let waited: Vec<i16> = waited_for(base).into_iter().map(i16::from).collect();
            params.extend([
                &appended.status.finished as &(dyn tokio_postgres::types::ToSql + Sync),
                &created_at,
                &kind,
                &waited,
            ]);
            if let Some(ratings) = &ratings {
                params.push(ratings);
            }
            let statement = client.prepare_cached(full).await?;
            self.pauses.reach(crate::pause::APPEND_SENDING).await;
            written = client
                .query_opt(&statement, &params)
                .await
                .map_err(lost)?
                .map(|row| Landed::of(&row));
        }
        match written {
            Some(landed) => Ok(self.landed(game_id, appended, landed)),
            None => Err(StoreError::Contention),
        }
    }

    /// What an append statement answered of the game whose append it wrote.
    fn landed(&self, game_id: i64, appended: &Appended, landed: Landed) -> Written {
        if landed.listeners {
            self.cache.remember_listened(game_id);
        }
        // Options never change: even an append rolled back after this read them right.
        let options = FixedOptions {
            undo: landed.undo,
            clocked: landed.clocked,
        };
        self.cache.remember_options(game_id, options);
        Written {
            undo: landed.undo,
            notice: Notice {
                game_id,
                version: appended.aggregate.version,
                queued: landed.queued,
                wakes_bots: landed.bots,
            },
        }
    }

    /// A common append in a batch with other games' (`batch.rs`), needing no connection of the
    /// caller's: a person's command without a key (nothing to store to answer again), to a
    /// game this process knows to have no turn clock and no listeners, that does not finish it
    /// (a finish may rate the players, which reads their ratings first). `Ok(Ok(_))` when it
    /// landed; `Ok(Err(how))` when it is to be appended alone ([`Batching::Refused`]: with the
    /// full statement), as any other append is and every one with `APPEND_BATCHES=off`; an
    /// error when the database could not be reached.
    pub(crate) async fn batched(
        &self,
        game_id: i64,
        base: &Aggregate,
        appended: &Appended,
        command: &NewCommand<'_>,
    ) -> Result<std::result::Result<Written, Batching>> {
        let common = self.batching
            && self.cache.known_unclocked(game_id)
            && !self.cache.listened(game_id)
            && !appended.status.finished
            && command.idempotency_key.is_none()
            && command.account_id.is_some();
        if !common {
            return Ok(Err(Batching::No));
        }
        let lobby = LobbyColumns::of(&appended.aggregate, &appended.status);
        let row = batch::Row {
            game_id,
            version: appended.aggregate.version,
            status: lobby.status,
            to_act: lobby.to_act,
            progress: lobby.progress,
            now_ms: command.now_ms,
            base: base.version,
            deadline_ms: lobby.rule_deadline_ms,
            account_id: command.account_id,
            seat: command.seat.map(i16::from),
            body: command.body.clone(),
            seed: command.seed as i64,
            reveals: command.reveals,
            bot_level: command.bot_level.map(str::to_owned),
            events: appended
                .events
                .iter()
                .map(|(v, e, h)| (*v, event_type(e).to_owned(), e.clone(), h.clone()))
                .collect(),
        };
        Ok(match self.append_in_batch(row).await {
            batch::Outcome::Landed(landed) => Ok(self.landed(game_id, appended, landed)),
            batch::Outcome::Refused => Err(Batching::Refused),
            batch::Outcome::Alone => Err(Batching::No),
            batch::Outcome::Unavailable(e) => return Err(StoreError::Unavailable(e)),
        })
    }
}

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
