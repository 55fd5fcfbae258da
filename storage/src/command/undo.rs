//! Taking back one's last command (`POST /v1/games/{id}/undo`): the rule is the domain's
//! (`baumeister_domain::take_back`), judged on the game's last command as stored; the
//! take-back is appended like any command (one transaction, the game's row locked), its one
//! event restoring the state before the command taken back.

use std::sync::{Arc, LazyLock};

use baumeister_domain::take_back::{self, CommandTakenBack};
use baumeister_domain::GameState;
use deadpool_postgres::GenericClient;
use serde_json::{json, Value};

use crate::audit::trust::GameKeys;
use crate::command::append::{AppendAt, Appended, Batching, NewCommand};
use crate::command::commands::{at_version, raw, Executed};
use crate::command::last_command::last_command;
use crate::command::lock::{read_locked, LockFor};
use crate::error::{Result, StoreError};
use crate::read::cache::Aggregate;
use crate::read::representation::Representation;
use crate::read::snapshot::GameHead;
use crate::reader::Reader;
use crate::types::{CommandAccepted, LoggedEvent};
use crate::Refusal;
use crate::{rfc3339, Store};

/// The head, the caller's seat, the game's `undo` option, its last command and whether the
/// caller ever made one of their own.
const LAST_COMMAND: &str =
    "SELECT g.kind, g.status, g.version, g.seat_count, s.seat, g.deadline_ms,
            g.visibility = 'private', g.undo, c.seat, c.account_id IS NOT NULL, c.body->>'type',
            c.reveals, c.position,
            EXISTS (SELECT 1 FROM commands p WHERE p.game_id = g.id AND p.account_id = $2
                    AND p.body->>'type' IS DISTINCT FROM 'TakeBack')
     FROM games g JOIN seats s ON s.game_id = g.id AND s.account_id = $2
     LEFT JOIN LATERAL (SELECT seat, account_id, body, reveals, position FROM commands
                        WHERE game_id = g.id ORDER BY id DESC LIMIT 1) c ON true
     WHERE g.id = $1";

/// [`LAST_COMMAND`] for the take-back, read once the game's row is locked (`lock.rs`), with
/// the caller's bot level (column 14, recorded with the take-back; `None` for a person) and the
/// body and response of the caller's earlier request with the same Idempotency-Key (`$3`;
/// columns 15 and 16, `None` without one).
static LAST_COMMAND_TO_TAKE_BACK: LazyLock<String> = LazyLock::new(|| {
    LAST_COMMAND.replacen(
        "\n     FROM games g JOIN seats s",
        concat!(
            ",\n            (SELECT a.bot_level FROM accounts a WHERE a.id = $2),",
            "\n            k.body, k.response",
            "\n     FROM games g JOIN seats s"
        ),
        1,
    ) .replacen(
        "\n     WHERE g.id = $1",
        "\n     LEFT JOIN commands k ON k.game_id = g.id AND k.account_id = $2 AND k.idempotency_key = $3\n     WHERE g.id = $1",
        1,
    )
});

/// [`LAST_COMMAND`] for any reader (`/moves`): a spectator's row has no seat, and is not judged.
/// One statement reads the head and what judges `can_undo`, at the same version.
pub(crate) static HEAD_AND_LAST_COMMAND: LazyLock<String> = LazyLock::new(|| {
    LAST_COMMAND.replacen(
        "FROM games g JOIN seats s",
        "FROM games g LEFT JOIN seats s",
        1,
    )
});

/// How often a take-back is judged again after losing a race.
const ATTEMPTS: usize = 4;

/// A player's take-back.
pub struct UndoRequest<'a> {
    pub game_id: i64,
    pub account_id: i64,
    /// A request repeating a key gets the first answer again and changes nothing.
    pub idempotency_key: Option<&'a str>,
    /// When set, refused with a conflict unless the game is at this version.
    pub expected_version: Option<i64>,
    /// Whether to answer with the caller's board and moves too.
    pub representation: bool,
}

/// The last command as read with [`LAST_COMMAND`], judged.
struct Judgement {
    head: GameHead,
    seat: u8,
    /// The version before the command to take back (its events follow it).
    position: i64,
    verdict: std::result::Result<(), take_back::Refusal>,
}

/// Whether the reader of a row of [`HEAD_AND_LAST_COMMAND`] may take back their last command
/// now (a spectator may not).
pub(crate) fn may_undo(row: &tokio_postgres::Row) -> Result<bool> {
    if row.get::<_, Option<i16>>(4).is_none() {
        return Ok(false);
    }
    Ok(judge(row)?.verdict.is_ok())
}

fn judge(row: &tokio_postgres::Row) -> Result<Judgement> {
    let head = GameHead::from_row(row)?;
    let seat = head.seat.ok_or(Refusal::NotSeated)?;
    let enabled: bool = row.get(7);
    let by_seat = row.get::<_, Option<i16>>(8).map(|s| s as u8);
    let by_person: Option<bool> = row.get(9);
    let kind: Option<String> = row.get(10);
    let reveals: Option<bool> = row.get(11);
    let position: Option<i64> = row.get(12);
    let caller_acted: bool = row.get(13);
    let last = last_command(kind.as_deref(), by_seat, by_person, reveals, position);
    Ok(Judgement {
        verdict: take_back::judge(enabled, seat, last, caller_acted),
        head,
        seat,
        position: position.unwrap_or(0),
    })
}

impl Store {
    /// Whether `account_id` may take back their last command in the game at `version` (`/moves`'
    /// `can_undo`): false when the game has moved on since.
    pub(crate) async fn can_undo(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account_id: i64,
        version: i64,
    ) -> Result<bool> {
        let statement = client.prepare_cached(LAST_COMMAND).await?;
        let Some(row) = client
            .query_opt(&statement, &[&game_id, &account_id])
            .await?
        else {
            return Ok(false);
        };
        let judged = judge(&row)?;
        Ok(judged.head.version == version && judged.verdict.is_ok())
    }

    /// Takes back the caller's last command, if the rule allows it. A take-back that lost a
    /// race (another writer moved the game on between its read and its append: only possible
    /// where that writer holds no lock, as a batched append) is judged again on the new state,
    /// where the rule then answers (`others_acted`, or 409 for a pinned version).
    pub async fn undo(&self, request: &UndoRequest<'_>) -> Result<Executed> {
        for _ in 0..ATTEMPTS {
            match self.try_undo(request).await {
                Err(StoreError::Contention) => continue,
                Ok(executed) => {
                    let (game, account) = (request.game_id, request.account_id);
                    return self
                        .with_board_now(executed, game, account, request.representation)
                        .await;
                }
                other => return other,
            }
        }
        Err(StoreError::Contention)
    }

    /// One attempt at a take-back, in one transaction holding the game's row locked: judged on
    /// the last command as stored, appended like any command (guarded by the version judged).
    async fn try_undo(&self, request: &UndoRequest<'_>) -> Result<Executed> {
        let game_id = request.game_id;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Judged on what the game holds once its row is locked: the last command read in the
        // locking statement itself was the one before any command that the lock waited for.
        let row = read_locked(
            &tx,
            game_id,
            LockFor::Seated(request.account_id),
            &LAST_COMMAND_TO_TAKE_BACK,
            &[&game_id, &request.account_id, &request.idempotency_key],
        )
        .await?;
        let Some(row) = row else {
            // Not seated: told so where the caller may watch the game, else as an id never
            // used (`watch.rs`).
            self.gate_in(&tx, game_id, Reader::player(request.account_id))
                .await?;
            return Err(StoreError::Refused(Refusal::NotSeated));
        };
        let body = json!({ "type": take_back::COMMAND });
        if let Some(replayed) = replayed(&row, &body)? {
            return Ok(replayed);
        }
        let Judgement {
            head,
            seat,
            position,
            verdict,
        } = judge(&row)?;
        at_version(head.version, request.expected_version)?;
        verdict.map_err(Refusal::Undo)?;
        let bot_level: Option<String> = row.get(14);
        let game = head.game;
        let now = self.aggregate(&tx, game_id, game, head.version).await?;
        // The state before the command: folded like any past version (from a snapshot).
        let before = self.aggregate(&tx, game_id, game, position).await?;
        let keys = self.trust.keys(&tx, game_id).await?;
        let at = self.now_ms();
        let event = CommandTakenBack {
            seat,
            from_version: position + 1,
            to_version: head.version,
        }
        .to_value();
        let appended = taken_back(&keys, &now, before.state.clone(), seat, event, at);
        let accepted = self.accepted(game_id, &keys, &appended);
        let response = raw(&accepted);
        let (_, seed) = keys.ctx(head.version, at);
        let command = NewCommand {
            account_id: Some(request.account_id),
            seat: Some(seat),
            idempotency_key: request.idempotency_key,
            body: &body,
            seed,
            now_ms: at,
            reveals: None,
            bot_level: bot_level.as_deref(),
        };
        // Guarded by the version judged, as every append is (`append.rs`).
        let base = AppendAt {
            game_id,
            base: &now,
            batch: Batching::No,
        };
        let written = self.write(&tx, base, &appended, command, &response).await?;
        tx.commit().await.map_err(crate::error::lost_race)?;
        let representation = request.representation.then(|| {
            // One step at a time: nothing is taken back right after a take-back.
            Representation::of(&appended.aggregate, seat, accepted.head.clone())
                .with_can_undo(false)
        });
        self.cache.put(game_id, Arc::new(appended.aggregate));
        self.announce(written.notice);
        Ok(Executed {
            response,
            replayed: false,
            representation,
        })
    }

    /// The answer to a take-back: its one event, the seats to act after it and the signed
    /// head at its version.
    fn accepted(&self, game_id: i64, keys: &GameKeys, appended: &Appended) -> CommandAccepted {
        let version = appended.aggregate.version;
        CommandAccepted {
            game_id,
            version,
            events: appended
                .events
                .iter()
                .map(|(version, event, _)| LoggedEvent {
                    version: *version,
                    seat: appended.seat,
                    recorded_at: rfc3339(appended.now_ms),
                    event: event.clone(),
                    taken_back: false,
                })
                .collect(),
            to_act: appended.status.to_act.clone(),
            finished: false,
            head: self
                .trust
                .head_of(keys, version, &appended.aggregate.last_hash),
        }
    }
}

/// The earlier answer to a take-back repeating an Idempotency-Key, as a command's is
/// answered again; refused where the key was used for another request.
fn replayed(row: &tokio_postgres::Row, body: &Value) -> Result<Option<Executed>> {
    let Some(earlier) = row.get::<_, Option<Value>>(15) else {
        return Ok(None);
    };
    if &earlier != body {
        return Err(StoreError::Refused(Refusal::IdempotencyKeyReused));
    }
    let response: Value = row.get(16);
    Ok(Some(Executed {
        response: raw(&response),
        replayed: true,
        representation: None,
    }))
}

/// The take-back's one `event` onto `now`: the game at the next version holds `before`, the
/// state before the command taken back, and the event's hash is chained onto `now`'s.
fn taken_back(
    keys: &GameKeys,
    now: &Aggregate,
    before: GameState,
    seat: u8,
    event: Value,
    at: i64,
) -> Appended {
    let version = now.version + 1;
    let hash = keys
        .chain
        .event_hash(&now.last_hash, version, take_back::EVENT, &event);
    let aggregate = Aggregate {
        game: now.game,
        version,
        state: before,
        last_hash: hash.clone(),
    };
    let status = now.game.status(&aggregate.state);
    Appended {
        aggregate,
        status,
        events: vec![(version, event, hash)],
        seat: Some(seat),
        now_ms: at,
    }
}

#[cfg(test)]
mod tests {
    use super::{HEAD_AND_LAST_COMMAND, LAST_COMMAND, LAST_COMMAND_TO_TAKE_BACK};

    /// `/moves` reads the same columns as the take-back for any reader: only the join of the
    /// reader's seat differs (a spectator gets a row, without a seat).
    #[test]
    fn the_moves_statement_is_the_last_command_for_any_reader() {
        assert_ne!(*HEAD_AND_LAST_COMMAND, LAST_COMMAND);
        assert_eq!(
            HEAD_AND_LAST_COMMAND.replacen("LEFT JOIN seats s", "JOIN seats s", 1),
            LAST_COMMAND
        );
    }

    /// The take-back reads the same columns and three more, last: the caller's bot level
    /// (column 14) and an earlier request's body and response with the same Idempotency-Key
    /// (15, 16). It takes no lock itself: `lock.rs` takes it in a statement before it.
    #[test]
    fn the_take_back_reads_the_last_command_the_bot_level_and_an_earlier_answer() {
        let (columns, from) = LAST_COMMAND_TO_TAKE_BACK
            .split_once("\n     FROM games g")
            .unwrap();
        let (before, extra) = columns
            .split_once(",\n            (SELECT a.bot_level")
            .unwrap();
        assert_eq!(
            extra,
            " FROM accounts a WHERE a.id = $2),\n            k.body, k.response"
        );
        let key = "\n     LEFT JOIN commands k ON k.game_id = g.id AND k.account_id = $2 AND k.idempotency_key = $3";
        assert_eq!(
            format!("{before}\n     FROM games g{}", from.replacen(key, "", 1)),
            LAST_COMMAND
        );
        assert!(!LAST_COMMAND_TO_TAKE_BACK.contains("FOR UPDATE"));
    }
}
