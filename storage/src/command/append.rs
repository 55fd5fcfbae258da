//! Appending: one statement writes the command, its events (hash-chained) and the lobby row.
//! Shared by the set-up (last seat taken) and by players' commands. The boards are not written:
//! each viewer's board is the view of the aggregate at the version a read names (`reads.rs`).

use baumeister_domain::{Status, Viewer};
use deadpool_postgres::GenericClient;
use serde::Serialize;
use serde_json::Value;
use tokio_postgres::types::{Json, ToSql};

use crate::audit::chain::Chain;
use crate::command::append_statements::{
    APPEND, APPEND_QUIET, APPEND_RATED, APPEND_UNCLOCKED, APPEND_UNCLOCKED_QUIET, QUIET_PARAMETERS,
};
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

impl<'a> NewCommand<'a> {
    /// A command of the server's own (the set-up, a deadline's, the turn clock's): by no
    /// account, with no Idempotency-Key, never taken back, by no bot.
    pub fn servers(seat: Option<u8>, body: &'a Value, seed: u64, now_ms: i64) -> Self {
        NewCommand {
            account_id: None,
            seat,
            idempotency_key: None,
            body,
            seed,
            now_ms,
            reveals: None,
            bot_level: None,
        }
    }
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

/// The new events as the append statements bind them: one array a column.
struct EventColumns<'a> {
    versions: Vec<i64>,
    types: Vec<&'a str>,
    payloads: Vec<&'a Value>,
    hashes: Vec<&'a [u8]>,
}

impl<'a> EventColumns<'a> {
    fn of(appended: &'a Appended) -> Self {
        let count = appended.events.len();
        let mut columns = EventColumns {
            versions: Vec::with_capacity(count),
            types: Vec::with_capacity(count),
            payloads: Vec::with_capacity(count),
            hashes: Vec::with_capacity(count),
        };
        for (version, event, hash) in &appended.events {
            columns.versions.push(*version);
            columns.types.push(event_type(event));
            columns.payloads.push(event);
            columns.hashes.push(hash.as_slice());
        }
        columns
    }
}

/// The statement an append runs when it is not quiet (or its quiet one was refused): the rated
/// one for a finish that rates the players, else the full one, without the clock's columns
/// where the game is known to have no turn clock.
fn full_statement(rated: bool, unclocked: bool) -> &'static str {
    match (rated, unclocked) {
        (true, _) => APPEND_RATED,
        (false, true) => APPEND_UNCLOCKED,
        (false, false) => APPEND,
    }
}

/// An append's error: a lost race (the version's event or the Idempotency-Key already written,
/// or a serialization failure) is `Contention`, to be decided again on fresh state.
fn lost_append(e: tokio_postgres::Error) -> StoreError {
    match violated_constraint(&e) {
        Some("events_version") | Some("commands_idempotency") => StoreError::Contention,
        _ if is_retryable(&e) => StoreError::Contention,
        _ => e.into(),
    }
}

impl Store {
    /// Writes what `fold` produced, in one statement (see `append_statements.rs`; two when a quiet one was
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
        let events = EventColumns::of(appended);
        let lobby = LobbyColumns::of(&appended.aggregate, &appended.status);
        // Only a finishing append reads the players' ratings (one more statement before it).
        let ratings = if appended.status.finished {
            crate::people::rating::changes(client, game_id, &appended.status).await?
        } else {
            None
        };
        let unclocked = self.cache.known_unclocked(game_id);
        let quiet = ratings.is_none() && !self.cache.listened(game_id);
        // The response is stored to be answered again to a repeated Idempotency-Key: a person's
        // command without one never is, so it is not sent (parsing and writing it was 17 % of
        // the append's work). The server's own commands keep theirs (the clock's bot's names
        // its level). See `migrations/V21__append_without_checks_and_lookups.sql`.
        let stored_response = (command.idempotency_key.is_some() || command.account_id.is_none())
            .then_some(Json(response));
        let seat = command.seat.map(i16::from);
        let seed = command.seed as i64;
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![
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
            &events.versions,
            &events.types,
            &events.payloads,
            &events.hashes,
            &command.reveals,
            &command.bot_level,
        ];
        debug_assert_eq!(params.len(), QUIET_PARAMETERS);
        let mut written = None;
        // Refused in a batch, it is known to need the full statement (listeners, or a lost race).
        if quiet && !refused {
            let statement = if unclocked {
                APPEND_UNCLOCKED_QUIET
            } else {
                APPEND_QUIET
            };
            written = self.send_append(client, statement, &params).await?;
        }
        if written.is_none() {
            // Not quiet, or refused quietly: the game has listeners, or the race was lost. What
            // only `queue_notices` and `rate_game` read is made for this statement alone.
            let created_at = rfc3339(command.now_ms);
            let kind = appended.aggregate.game.kind();
            let waited: Vec<i16> = waited_for(base).into_iter().map(i16::from).collect();
            params.extend([
                &appended.status.finished as &(dyn ToSql + Sync),
                &created_at,
                &kind,
                &waited,
            ]);
            if let Some(ratings) = &ratings {
                params.push(ratings);
            }
            let statement = full_statement(ratings.is_some(), unclocked);
            written = self.send_append(client, statement, &params).await?;
        }
        match written {
            Some(landed) => Ok(self.landed(game_id, appended, landed)),
            None => Err(StoreError::Contention),
        }
    }

    /// Runs one of the append statements: what it answered, `None` where its guard refused it.
    async fn send_append(
        &self,
        client: &impl GenericClient,
        statement: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Landed>> {
        let statement = client.prepare_cached(statement).await?;
        self.pauses.reach(crate::pause::APPEND_SENDING).await;
        Ok(client
            .query_opt(&statement, params)
            .await
            .map_err(lost_append)?
            .map(|row| Landed::of(&row)))
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
