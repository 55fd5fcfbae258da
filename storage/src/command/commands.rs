//! The command path. In the common case ONE round trip: this process has the game's aggregate
//! and the caller's seat in memory, decides on them, and appends in one statement (see
//! `append.rs`) guarded by the cached version, which is its own transaction, shared with the
//! commands of other games that arrive meanwhile (`batch.rs`). Otherwise (a cold
//! cache, another process moved the game on, a repeated Idempotency-Key, a refusal to judge
//! again) two: one statement reads the game's head, the caller's seat and an earlier response
//! to the same Idempotency-Key; the game decides on the state at that version; one statement
//! appends. A lost race is decided again on the head read again (409 when the client pinned an
//! `expected_version` the game moved past; the stored response when a request with the same
//! Idempotency-Key won).
//! After [`OPTIMISTIC`] lost races the command queues on the game's row lock instead, so that
//! a crowd on one game still gets through in order rather than retrying without end.

use std::sync::Arc;

use baumeister_domain::bots::Level;
use baumeister_domain::take_back::{self, Judgement, LastCommand, ViewTapes};
use baumeister_domain::{DomainError, Viewer};
use deadpool_postgres::GenericClient;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::audit::trust::{GameKeys, SignedHead};
use crate::command::append::{fold, AppendAt, Appended, Batching, NewCommand, Written};
use crate::command::last_command::last_command;
use crate::command::lock::{read_locked, LockFor};
use crate::error::{Result, StoreError};
use crate::live::hub::Notice;
use crate::read::cache::Aggregate;
use crate::read::representation::Representation;
use crate::read::snapshot::GameHead;
use crate::reader::Reader;
use crate::types::CommandAccepted;
use crate::Refusal;
use crate::Store;

/// How often a command without `expected_version` is decided again after losing a race.
const ATTEMPTS: usize = 8;

/// How many attempts go without the row lock: the lock costs two more round trips (BEGIN and
/// COMMIT), so it is only worth taking when the game is contended.
const OPTIMISTIC: usize = 2;

/// The head, the caller's seat and bot level, and an earlier response to the same key, in one
/// statement. A caller without a seat gets no row (and, when locking, takes no lock: nobody
/// outside the game can make its players wait).
const HEAD: &str = "SELECT g.kind, g.status, g.version, g.seat_count, s.seat, g.deadline_ms,
            g.visibility = 'private', c.body, c.response, a.bot_level
     FROM games g JOIN seats s ON s.game_id = g.id AND s.account_id = $2
     JOIN accounts a ON a.id = s.account_id
     LEFT JOIN commands c ON c.game_id = g.id AND c.account_id = $2 AND c.idempotency_key = $3
     WHERE g.id = $1";

/// A player's command.
pub struct CommandRequest<'a> {
    pub game_id: i64,
    pub account_id: i64,
    /// The game's command, a JSON object tagged by `type`.
    pub command: &'a Value,
    /// When set, the command is refused with a conflict unless the game is at this version.
    pub expected_version: Option<i64>,
    pub idempotency_key: Option<&'a str>,
    /// Whether to answer with the caller's board and legal moves too (`Prefer:
    /// return=representation`).
    pub representation: bool,
}

/// What a command came to.
#[derive(Debug)]
pub struct Executed {
    /// The response (stored with the command, so a repeated Idempotency-Key gets it again),
    /// written once as JSON: the HTTP answer sends these bytes.
    pub response: Box<RawValue>,
    /// Whether `response` is the stored response of an earlier request with the same key.
    pub replayed: bool,
    /// When asked for: the caller's board and moves at the version the command wrote, or, for
    /// a replayed response, at the game's version now (see [`Store::representation_now`]).
    pub representation: Option<Representation>,
}

/// A command decided and appended: its response, the new aggregate (to cache once the write is
/// committed) and the signed head at its version.
struct Decided {
    response: Box<RawValue>,
    aggregate: Aggregate,
    head: SignedHead,
    /// Whether the sender may take this command back now (`can_undo`).
    can_undo: bool,
    /// The views undo's judgement wrote after the command, for the next one's.
    views: ViewTapes,
    /// The command as the rule of taking back sees it (for `/moves`' `can_undo`).
    last: LastCommand,
    /// The live notice to announce once committed.
    notice: Notice,
}

/// A command decided and not yet written (see [`Store::decide`]).
struct Prepared<'r> {
    game_id: i64,
    appended: Appended,
    command: NewCommand<'r>,
    response: Box<RawValue>,
    /// Whether it revealed anything (undo's judgement).
    reveals: bool,
    views: ViewTapes,
    last: LastCommand,
    head: SignedHead,
}

impl Prepared<'_> {
    /// What it leaves once written.
    fn written(self, written: Written) -> Decided {
        Decided {
            response: self.response,
            // Right after a player's own command the rule's verdict needs nothing more: it is
            // the game's last command, by this seat; what remains is whether it revealed.
            can_undo: written.undo && !self.reveals && !self.appended.status.finished,
            views: self.views,
            last: self.last,
            notice: written.notice,
            aggregate: self.appended.aggregate,
            head: self.head,
        }
    }
}

/// What the path that reads the head first came to.
enum Outcome {
    /// The stored response of an earlier request with the same Idempotency-Key.
    Replayed(Value),
    /// Decided (for the caller's seat) and written.
    Decided(u8, Box<Decided>),
}

impl Store {
    /// Validates and appends a command.
    pub async fn execute(&self, request: &CommandRequest<'_>) -> Result<Executed> {
        if let Some(executed) = self.at_once(request).await? {
            return Ok(executed);
        }
        for attempt in 0..ATTEMPTS {
            match self.attempt(request, attempt >= OPTIMISTIC).await {
                Ok(executed) => {
                    let (game, account) = (request.game_id, request.account_id);
                    return self
                        .with_board_now(executed, game, account, request.representation)
                        .await;
                }
                // A lost race is decided again. The next attempt reads the head first, which
                // judges it on one snapshot: a twin of this request (the same Idempotency-Key)
                // that won gets its stored response, as a repeat after it would; a pinned
                // version the game has moved past gets 409; a game still at it lost a race
                // elsewhere (a rated game's finish whose players' ratings moved meanwhile)
                // and is decided again.
                Err(StoreError::Contention) => continue,
                other => return other,
            }
        }
        Err(StoreError::Contention)
    }

    /// A replayed answer (a repeated Idempotency-Key), given the caller's board and moves as
    /// the game is now where they were asked for; any other answer as it is.
    pub(crate) async fn with_board_now(
        &self,
        executed: Executed,
        game_id: i64,
        account_id: i64,
        wanted: bool,
    ) -> Result<Executed> {
        if !(executed.replayed && wanted) {
            return Ok(executed);
        }
        let now = self.representation_now(game_id, account_id).await?;
        Ok(Executed {
            representation: Some(now),
            ..executed
        })
    }

    /// The command in ONE round trip, when this process already knows the game and the
    /// caller's seat: it is decided on the cached aggregate and appended with that version as
    /// the guard. `None` whenever that is not certain to be the right answer, and then the
    /// caller takes the path that reads the head first: the cache may be behind (another
    /// process appended: the guard refuses and nothing is written), the key may repeat an
    /// earlier request (its unique index refuses), or the rules refused the command on a state
    /// that may be old (the refusal is judged again on the head's version).
    async fn at_once(&self, request: &CommandRequest<'_>) -> Result<Option<Executed>> {
        let game_id = request.game_id;
        let Some(aggregate) = self.cache.get(game_id) else {
            return Ok(None);
        };
        let Some(seat) = self.cache.seat(game_id, request.account_id) else {
            return Ok(None);
        };
        let Some(level) = self.cache.bot_level(request.account_id) else {
            return Ok(None);
        };
        if aggregate.version == 0
            || request
                .expected_version
                .is_some_and(|v| v != aggregate.version)
        {
            return Ok(None);
        }
        let decided = match self.trust.held_keys(game_id) {
            Some(keys) => {
                // The command takes its turn at the pool as every read does, the live streams'
                // among them, and gives the connection back at once: holding it while waiting
                // for its batch bounded a batch by the pool (eight per thread), and skipping
                // the turn let commands outrun the streams that follow them (1,000 streams'
                // delay p99 89–155 ms against 18 with the turn).
                drop(self.pool.get().await?);
                self.decide_and_append_held(&keys, request, seat, level, &aggregate)
                    .await
            }
            None => {
                let client = self.pool.get().await?;
                self.decide_and_append(&client, request, seat, level, aggregate, Batching::May)
                    .await
            }
        };
        match decided {
            Ok(decided) => Ok(Some(self.committed(request, seat, decided))),
            Err(StoreError::Contention | StoreError::Domain(DomainError::Rule(_))) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn attempt(&self, request: &CommandRequest<'_>, locked: bool) -> Result<Executed> {
        let mut client = self.pool.get().await?;
        let outcome = if locked {
            let tx = client.transaction().await?;
            let outcome = self.decide_and_write(&tx, request, true).await?;
            tx.commit().await.map_err(crate::error::lost_race)?;
            outcome
        } else {
            self.decide_and_write(&client, request, false).await?
        };
        Ok(match outcome {
            Outcome::Replayed(response) => Executed {
                response: raw(&response),
                replayed: true,
                representation: None,
            },
            // Only once committed: the cache never runs ahead of the database, and no board is
            // written for a write that did not happen.
            Outcome::Decided(seat, decided) => self.committed(request, seat, *decided),
        })
    }

    /// What a committed command leaves: its aggregate and the views judged after it cached
    /// for the game's next command, and the answer (with the board when asked for).
    fn committed(&self, request: &CommandRequest<'_>, seat: u8, decided: Decided) -> Executed {
        let representation = request.representation.then(|| {
            Representation::of(&decided.aggregate, seat, decided.head)
                .with_can_undo(decided.can_undo)
        });
        let game_id = request.game_id;
        let version = decided.aggregate.version;
        self.cache.keep_views(game_id, version, decided.views);
        self.cache
            .remember_last_command(game_id, version, decided.last);
        self.cache.put(game_id, Arc::new(decided.aggregate));
        // After the cache holds the new aggregate: the subscribers it wakes read from it.
        self.announce(decided.notice);
        Executed {
            response: decided.response,
            replayed: false,
            representation,
        }
    }

    /// The stored response of an earlier request with the same key, or what was decided and
    /// written (to cache once committed).
    async fn decide_and_write(
        &self,
        client: &impl GenericClient,
        request: &CommandRequest<'_>,
        lock: bool,
    ) -> Result<Outcome> {
        let game_id = request.game_id;
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] =
            [&game_id, &request.account_id, &request.idempotency_key];
        let row = if lock {
            // Locked first, so that a request repeating a key waits for the first to commit
            // and then finds its response: read once the lock is held (`lock.rs`).
            read_locked(
                client,
                game_id,
                LockFor::Seated(request.account_id),
                HEAD,
                &params,
            )
            .await?
        } else {
            let statement = client.prepare_cached(HEAD).await?;
            client.query_opt(&statement, &params).await?
        };
        let Some(row) = row else {
            // Not seated: told so where the caller may watch the game, else as an id never
            // used (`watch.rs`).
            self.gate_in(client, game_id, Reader::player(request.account_id))
                .await?;
            return Err(StoreError::Refused(Refusal::NotSeated));
        };
        if let Some(body) = row.get::<_, Option<Value>>(7) {
            if &body != request.command {
                return Err(StoreError::Refused(Refusal::IdempotencyKeyReused));
            }
            return Ok(Outcome::Replayed(row.get(8)));
        }
        let head = GameHead::from_row(&row)?;
        let seat = head.seat.ok_or(Refusal::NotSeated)?;
        at_version(head.version, request.expected_version)?;
        let aggregate = self
            .aggregate(client, game_id, head.game, head.version)
            .await?;
        self.cache.remember_seat(game_id, request.account_id, seat);
        let level = row.get::<_, Option<&str>>(9).and_then(Level::from_name);
        self.cache.remember_bot_level(request.account_id, level);
        let decided = self
            .decide_and_append(
                client,
                request,
                seat,
                level,
                aggregate,
                if lock { Batching::No } else { Batching::May },
            )
            .await?;
        Ok(Outcome::Decided(seat, Box::new(decided)))
    }

    /// Decides the command on `aggregate` and appends what it decided, guarded by the
    /// aggregate's version. `level` is the caller's bot level (`None`: a person). `batch`:
    /// whether the append may go in a batch (`client` holds no transaction).
    async fn decide_and_append(
        &self,
        client: &impl GenericClient,
        request: &CommandRequest<'_>,
        seat: u8,
        level: Option<Level>,
        aggregate: Arc<Aggregate>,
        batch: Batching,
    ) -> Result<Decided> {
        let keys = self.trust.keys(client, request.game_id).await?;
        let prepared = self.decide(&keys, request, seat, level, &aggregate)?;
        self.append_decided(client, &aggregate, prepared, batch)
            .await
    }

    /// [`Store::decide_and_append`] with the game's keys held, the common case: no pooled
    /// connection is taken before the append, and none at all when it goes in a batch (which
    /// has connections of its own), so a command waiting for its batch holds none that the
    /// commands deciding meanwhile need.
    async fn decide_and_append_held(
        &self,
        keys: &GameKeys,
        request: &CommandRequest<'_>,
        seat: u8,
        level: Option<Level>,
        aggregate: &Aggregate,
    ) -> Result<Decided> {
        let game_id = request.game_id;
        let prepared = self.decide(keys, request, seat, level, aggregate)?;
        let alone = match self
            .batched(game_id, aggregate, &prepared.appended, &prepared.command)
            .await?
        {
            Ok(written) => return Ok(prepared.written(written)),
            Err(alone) => alone,
        };
        let client = self.pool.get().await?;
        self.append_decided(&client, aggregate, prepared, alone)
            .await
    }

    /// Decides the command on `aggregate` with the game's `keys`: its events folded on, judged
    /// for taking back, and its response, all before anything is written.
    fn decide<'r>(
        &self,
        keys: &GameKeys,
        request: &CommandRequest<'r>,
        seat: u8,
        level: Option<Level>,
        aggregate: &Aggregate,
    ) -> Result<Prepared<'r>> {
        let game_id = request.game_id;
        let game = aggregate.game;
        // The randomness is derived from the committed secret, the client seeds and the
        // command's position (the version it is decided on): see docs/fairness.md.
        let now = self.now_ms();
        let (mut ctx, seed) = keys.ctx(aggregate.version, now);
        let events = game.decide(&aggregate.state, seat, request.command, &mut ctx)?;
        let draws = ctx.rng.draws();
        let appended = fold(aggregate, &keys.chain, events, Some(seat), now)?;
        // Judged now, while the draws are known: whether this command may be taken back. A
        // game older than commit-and-reveal has no seat list here and is never undone; a game
        // known to allow no take-back is not judged at all (its commands' `reveals` stay NULL,
        // "not judged", which the rule reads as never to be taken back).
        let undo_allowed = self.cache.fixed_options(game_id).map(|o| o.undo);
        let judged = undo_allowed != Some(false);
        let judgement = match &keys.fair {
            Some((_, seeds)) if judged => take_back::judge_keeping(
                game,
                &aggregate.state,
                &appended.aggregate.state,
                &appended
                    .events
                    .iter()
                    .map(|(_, e, _)| e.clone())
                    .collect::<Vec<_>>(),
                draws,
                seeds.len() as u8,
                self.cache.take_views(game_id, aggregate.version),
            ),
            _ => Judgement {
                reveals: true,
                after: ViewTapes::default(),
            },
        };
        let reveals = judgement.reveals;
        let accepted = CommandAccepted {
            game_id,
            version: appended.aggregate.version,
            events: appended.logged_for(Viewer::Seat(seat)),
            to_act: appended.status.to_act.clone(),
            finished: appended.status.finished,
            head: self.trust.head_of(
                keys,
                appended.aggregate.version,
                &appended.aggregate.last_hash,
            ),
        };
        let response = raw(&accepted);
        let command = NewCommand {
            account_id: Some(request.account_id),
            seat: Some(seat),
            idempotency_key: request.idempotency_key,
            body: request.command,
            seed,
            now_ms: now,
            reveals: judged.then_some(reveals),
            bot_level: level.map(Level::name),
        };
        // The row as `undo::judge` will read it: a person's, at the base version.
        let last = last_command(
            request.command.get("type").and_then(Value::as_str),
            Some(seat),
            Some(true),
            command.reveals,
            Some(aggregate.version),
        );
        Ok(Prepared {
            game_id,
            appended,
            command,
            response,
            reveals,
            views: judgement.after,
            last,
            head: accepted.head,
        })
    }

    /// Appends a decided command, guarded by the version it was decided on (`base`'s).
    async fn append_decided(
        &self,
        client: &impl GenericClient,
        base: &Aggregate,
        prepared: Prepared<'_>,
        batch: Batching,
    ) -> Result<Decided> {
        let at = AppendAt {
            game_id: prepared.game_id,
            base,
            batch,
        };
        let written = self
            .write(
                client,
                at,
                &prepared.appended,
                prepared.command,
                &prepared.response,
            )
            .await?;
        Ok(prepared.written(written))
    }
}

/// `value` written as JSON, once.
pub(crate) fn raw(value: &impl Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("responses serialize")
}

/// Whether a game at `version` may take a player's command (a command or a take-back): not
/// before its set-up, and only at the version the request names, if it names one.
pub(crate) fn at_version(version: i64, expected: Option<i64>) -> Result<()> {
    if version == 0 {
        return Err(StoreError::Refused(Refusal::NotStarted));
    }
    match expected {
        Some(expected) if expected != version => {
            Err(StoreError::Refused(Refusal::VersionConflict {
                expected,
                actual: version,
            }))
        }
        _ => Ok(()),
    }
}
