//! The lobby: creating games, taking seats (the last seat starts the game), listing games.

use baumeister_domain::fairness::{commitment, to_hex};
use baumeister_domain::{registry, Status};
use deadpool_postgres::GenericClient;
use serde_json::{json, Value};
use tokio_postgres::Row;

use crate::audit::chain::GENESIS;
use crate::audit::trust::{load_keys, random_bytes};
use crate::command::append::{fold, AppendAt, Batching, NewCommand};
use crate::command::lock::Seating;
use crate::error::{account_must_exist, violated_constraint, Result, StoreError};
use crate::live::hub::Notice;
use crate::read::cache::Aggregate;
use crate::reader::Reader;
use crate::types::{GameSummary, Lifecycle, SeatHolder, Visibility};
use crate::Refusal;
use crate::{rfc3339, Store};

/// The player's client seed, or one the server picks (shown to everybody like any other).
fn client_seed_or_random(client_seed: Option<&str>) -> String {
    match client_seed {
        Some(seed) => seed.to_string(),
        None => to_hex(&random_bytes()[..16]),
    }
}

/// The columns `summary_from_row` reads, for `SELECT … FROM games g`.
pub(crate) const SUMMARY_COLUMNS: &str = "g.id, g.kind, g.status, g.seat_count, g.version, g.to_act, g.progress, g.options,
    (extract(epoch FROM g.created_at) * 1000)::bigint, (extract(epoch FROM g.updated_at) * 1000)::bigint,
    coalesce((SELECT json_agg(json_build_object('seat', s.seat, 'player', a.name, 'bot_level', a.bot_level,
                  'clock_bot', s.clock_bot, 'turn_deadline_ms', g.turn_deadlines[s.seat + 1],
                  'vacation_until_ms', (SELECT max(v.ends_ms) FROM vacations v WHERE v.account_id = s.account_id))
                  ORDER BY s.seat)
              FROM seats s JOIN accounts a ON a.id = s.account_id WHERE s.game_id = g.id), '[]'::json),
    (SELECT json_build_object('uid', f.uid, 'commitment', encode(f.commitment, 'hex'),
                              'client_seeds', f.client_seeds, 'chain', f.chain_format,
                              'origin_key', encode(f.origin_key, 'hex'),
                              'secret', CASE WHEN g.status = 'finished' THEN encode(f.secret, 'hex') END)
     FROM game_fairness f WHERE f.game_id = g.id),
    g.visibility,
    json_build_object('rated', g.rated, 'undo', g.undo,
        'rematch_of', (SELECT r.game_id FROM rematches r WHERE r.new_game_id = g.id),
        'rematch', (SELECT r.new_game_id FROM rematches r WHERE r.game_id = g.id AND r.state = 'accepted'),
        'rematch_open', EXISTS (SELECT 1 FROM rematches r WHERE r.game_id = g.id AND r.state = 'open'))";

/// Where `SUMMARY_COLUMNS` has the game's visibility (read before the rest, to judge a
/// private game's reader).
pub(crate) const VISIBILITY_COLUMN: usize = 12;

/// How many columns `SUMMARY_COLUMNS` has: a statement's own columns follow from this index.
pub(crate) const SUMMARY_WIDTH: usize = 14;

/// Playing together, as `SUMMARY_COLUMNS` reads it (`migrations/V15__ratings.sql`).
#[derive(serde::Deserialize)]
struct Together {
    rated: bool,
    undo: bool,
    rematch_of: Option<i64>,
    rematch: Option<i64>,
    rematch_open: bool,
}

/// How a game's table is set beside its rules: whether it counts for the ratings (`rated`
/// false keeps it out) and who may watch it.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub rated: bool,
    pub visibility: Visibility,
    /// Whether players may take back their last command (docs/api.md, "Undo"; default on).
    pub undo: bool,
}

/// How a seat is being taken (see [`Store::join_in`]).
pub(crate) enum JoinBy<'a> {
    /// A request to join: judged by the game's visibility and invitations (`invitation` is a
    /// link's code).
    Request {
        reader: Reader,
        invitation: Option<&'a str>,
    },
    /// A player who accepted the rematch that made this game.
    Rematch,
}

/// A seat as `SUMMARY_COLUMNS` reads it.
#[derive(serde::Deserialize)]
struct SeatRow {
    seat: u8,
    player: String,
    bot_level: Option<String>,
    clock_bot: Option<String>,
    turn_deadline_ms: Option<i64>,
    vacation_until_ms: Option<i64>,
}

impl SeatRow {
    fn holder(self, now: i64) -> SeatHolder {
        SeatHolder {
            seat: self.seat,
            player: self.player,
            bot: self.bot_level.is_some(),
            bot_level: self.bot_level,
            clock_bot: self.clock_bot,
            turn_deadline: self.turn_deadline_ms.map(rfc3339),
            vacation_until: self.vacation_until_ms.filter(|u| *u > now).map(rfc3339),
        }
    }
}

/// Reads the `SUMMARY_COLUMNS` of a row; `now` (the store's clock) tells who is on vacation.
pub(crate) fn summary_from_row(row: &Row, now: i64) -> Result<GameSummary> {
    let status: String = row.get(2);
    let progress: Option<Value> = row.get(6);
    let progress: Status = match progress {
        Some(p) => serde_json::from_value(p).map_err(|e| StoreError::Corrupt(e.to_string()))?,
        None => Status::default(),
    };
    let seats: Vec<SeatRow> =
        serde_json::from_value(row.get(10)).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let seats = seats.into_iter().map(|s| s.holder(now)).collect();
    let to_act: Vec<i16> = row.get(5);
    let fairness: Option<Value> = row.get(11);
    let fairness = fairness
        .map(serde_json::from_value)
        .transpose()
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let visibility: String = row.get(VISIBILITY_COLUMN);
    let together: Together = serde_json::from_value(row.get(VISIBILITY_COLUMN + 1))
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(GameSummary {
        id: row.get(0),
        kind: row.get(1),
        status: Lifecycle::parse(&status).ok_or_else(|| StoreError::Corrupt(status.clone()))?,
        visibility: Visibility::parse(&visibility).ok_or(StoreError::Corrupt(visibility))?,
        seat_count: row.get::<_, i16>(3) as u8,
        seats,
        version: row.get(4),
        to_act: to_act.into_iter().map(|s| s as u8).collect(),
        scores: progress.scores,
        winners: progress.winners,
        options: row.get(7),
        created_at: rfc3339(row.get(8)),
        updated_at: rfc3339(row.get(9)),
        fairness,
        rated: together.rated,
        undo: together.undo,
        rematch_of: together.rematch_of,
        rematch_open: together.rematch_open,
        rematch: together.rematch,
    })
}

/// A game just set up by its last seat, to remember once the transaction is committed.
pub(crate) struct Started {
    aggregate: Aggregate,
    keys: std::sync::Arc<crate::audit::trust::GameKeys>,
    /// The set-up's live notice.
    notice: Notice,
}

/// Which games `GET /v1/games` lists.
#[derive(Clone, Debug, Default)]
pub struct LobbyFilter {
    pub kind: Option<String>,
    pub status: Option<Lifecycle>,
    /// Only games this account sits at.
    pub seated: Option<i64>,
    /// Only games waiting for this account's command.
    pub to_act: Option<i64>,
    /// Who asks: private games are listed only to those who may watch them.
    pub reader: Option<Reader>,
    /// Only games with at least this many free seats.
    pub free_seats_min: Option<i64>,
    /// Only games whose options hold these (a JSON object the game's options must contain).
    pub options: Option<Value>,
    /// Only games with a turn clock of at most this many minutes per move.
    pub move_minutes_max: Option<i64>,
    /// Only games with a turn clock of at least this many minutes per move, or none.
    pub move_minutes_min: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

impl Store {
    /// Creates a game; the creator takes seat 0. `table` says whether it is rated and who may
    /// watch it.
    pub async fn create_game(
        &self,
        kind: &str,
        seats: u8,
        options: &Value,
        table: Table,
        creator: i64,
        client_seed: Option<&str>,
    ) -> Result<GameSummary> {
        let (_, options) = registry::validate_new_game(kind, seats, options)?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let id = self
            .create_in(&tx, kind, seats, &options, table, creator, client_seed)
            .await?;
        let summary = self.summary_in(&tx, id).await?;
        tx.commit().await?;
        Ok(summary)
    }

    /// Creates a game with validated options inside the caller's transaction; the creator takes
    /// seat 0. Returns its id.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn create_in(
        &self,
        tx: &impl GenericClient,
        kind: &str,
        seats: u8,
        options: &Value,
        Table {
            rated,
            visibility,
            undo,
        }: Table,
        creator: i64,
        client_seed: Option<&str>,
    ) -> Result<i64> {
        let row = tx
            .query_one(
                "INSERT INTO games (kind, options, seat_count, status, created_by, visibility, rated, undo)
                 VALUES ($1, $2, $3, 'open', $4, $5, $6, $7) RETURNING id",
                &[
                    &kind,
                    &options,
                    &i16::from(seats),
                    &creator,
                    &visibility.as_str(),
                    &rated,
                    &undo,
                ],
            )
            .await
            .map_err(account_must_exist)?;
        let id: i64 = row.get(0);
        tx.execute(
            "INSERT INTO seats (game_id, seat, account_id) VALUES ($1, 0, $2)",
            &[&id, &creator],
        )
        .await?;
        // The secret is drawn now and only its commitment shown until the game ends.
        let secret = random_bytes();
        tx.execute(
            "INSERT INTO game_fairness (game_id, uid, secret, commitment, client_seeds)
             VALUES ($1, gen_random_uuid(), $2, $3, ARRAY[$4::text])",
            &[
                &id,
                &secret.as_slice(),
                &commitment(&secret).as_slice(),
                &client_seed_or_random(client_seed),
            ],
        )
        .await?;
        // The creator's own list of games changed (`GET /v1/me/stream`).
        crate::live::outbox::notify_changed(tx, id, 0).await?;
        Ok(id)
    }

    /// Takes the lowest free seat. Taking the last one sets the game up (shuffles, deals) in the
    /// same transaction, so nobody sees a full game that has not started.
    pub async fn join(
        &self,
        game_id: i64,
        account: i64,
        client_seed: Option<&str>,
    ) -> Result<GameSummary> {
        let reader = Reader::player(account);
        self.join_with(game_id, reader, client_seed, None).await
    }

    /// Takes a seat as [`Store::join`] does, judged by the game's visibility and invitations
    /// (see `invitations.rs`): `invitation` is a link's code.
    pub async fn join_with(
        &self,
        game_id: i64,
        reader: Reader,
        client_seed: Option<&str>,
        invitation: Option<&str>,
    ) -> Result<GameSummary> {
        let account = reader.account().ok_or(Refusal::UnknownAccount)?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let by = JoinBy::Request { reader, invitation };
        let started = self.join_in(&tx, game_id, account, client_seed, by).await?;
        let summary = self.summary_in(&tx, game_id).await?;
        tx.commit().await?;
        if let Some(started) = started {
            self.started(game_id, started);
        }
        Ok(summary)
    }

    /// Remembers a game set up by a committed [`Store::join_in`].
    pub(crate) fn started(&self, game_id: i64, started: Started) {
        self.cache
            .put(game_id, std::sync::Arc::new(started.aggregate));
        self.trust.remember(game_id, started.keys);
        self.announce(started.notice);
    }

    /// Takes the lowest free seat inside the caller's transaction; the last one sets the game
    /// up. What the set-up produced is for [`Store::started`] once the transaction is committed.
    pub(crate) async fn join_in(
        &self,
        tx: &impl GenericClient,
        game_id: i64,
        account: i64,
        client_seed: Option<&str>,
        by: JoinBy<'_>,
    ) -> Result<Option<Started>> {
        // Judged on the table as it stands once the game's row is locked (`lock.rs`): two
        // joins, or a join and a bot seated, never take one seat or miss that the table filled.
        let table = Seating::lock(tx, game_id).await?;
        let seated = table.seats(account);
        // First: whoever may not watch a private game learns nothing else about it. A rematch's
        // players all accepted it: its table is theirs, private or not.
        let (reader, private, invitation) = match by {
            JoinBy::Request { reader, invitation } => (reader, table.private, invitation),
            JoinBy::Rematch => (Reader::player(account), false, None),
        };
        let admission = self
            .admit(tx, game_id, reader, private, seated, invitation)
            .await?;
        if seated {
            return Err(StoreError::Refused(Refusal::AlreadySeated));
        }
        if table.status != "open" {
            return Err(StoreError::Refused(Refusal::NotOpen(table.status)));
        }
        let Some(seat) = table.lowest_free() else {
            // An open game whose seats are all taken does not exist (the last seat starts it);
            // refused rather than seated beyond the table.
            return Err(StoreError::Refused(Refusal::NotOpen(table.status)));
        };
        self.admitted(tx, game_id, account, admission).await?;
        tx.execute(
            "INSERT INTO seats (game_id, seat, account_id) VALUES ($1, $2, $3)",
            &[&game_id, &i16::from(seat), &account],
        )
        .await
        .map_err(|e| match violated_constraint(&e) {
            Some(_) => StoreError::Refused(Refusal::AlreadySeated),
            None => account_must_exist(e),
        })?;
        // Games older than provable fairness have no row to add the seed to.
        tx.execute(
            "UPDATE game_fairness SET client_seeds = client_seeds || $2::text WHERE game_id = $1",
            &[&game_id, &client_seed_or_random(client_seed)],
        )
        .await?;
        if table.one_seat_left() {
            let started = self
                .start_full_game(
                    tx,
                    game_id,
                    &table.kind,
                    table.seat_count,
                    &table.options,
                    account,
                )
                .await?;
            return Ok(Some(started));
        }
        tx.execute(
            "UPDATE games SET updated_at = now() WHERE id = $1",
            &[&game_id],
        )
        .await?;
        // Followers see the seat taken (the version stays 0 until the game starts).
        crate::live::outbox::notify_changed(tx, game_id, 0).await?;
        Ok(None)
    }

    /// Sets up a game whose last seat was just taken in `tx` (by `account`), commits, and
    /// returns the game as the lobby shows it.
    pub(crate) async fn start_full_game(
        &self,
        tx: &impl GenericClient,
        game_id: i64,
        kind: &str,
        seat_count: u8,
        options: &Value,
        account: i64,
    ) -> Result<Started> {
        let game = registry::find(kind)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown kind {kind}")))?;
        let keys = std::sync::Arc::new(load_keys(tx, game_id).await?);
        let now = self.now_ms();
        let (mut ctx, seed) = keys.ctx(0, now);
        let events = game.setup(options, seat_count, &mut ctx)?;
        let base = Aggregate {
            game,
            version: 0,
            state: game.initial(),
            last_hash: GENESIS.to_vec(),
        };
        let appended = fold(&base, &keys.chain, events, None, now)?;
        let body =
            json!({ "type": "Setup", "kind": kind, "seats": seat_count, "options": options });
        // The set-up is recorded as the command of the account that took the last seat.
        let command = NewCommand {
            account_id: Some(account),
            ..NewCommand::servers(None, &body, seed, now)
        };
        let response = json!({ "setup": true, "version": appended.aggregate.version });
        let written = self
            .write(
                tx,
                AppendAt {
                    game_id,
                    base: &base,
                    batch: Batching::No,
                },
                &appended,
                command,
                &response,
            )
            .await?;
        Ok(Started {
            aggregate: appended.aggregate,
            keys,
            notice: written.notice,
        })
    }

    pub async fn summary(&self, game_id: i64) -> Result<GameSummary> {
        let client = self.pool.get().await?;
        self.summary_in(&client, game_id).await
    }

    pub(crate) async fn summary_in(
        &self,
        client: &impl GenericClient,
        game_id: i64,
    ) -> Result<GameSummary> {
        let sql = format!("SELECT {SUMMARY_COLUMNS} FROM games g WHERE g.id = $1");
        let statement = client.prepare_cached(&sql).await?;
        let row = client
            .query_opt(&statement, &[&game_id])
            .await?
            .ok_or(Refusal::GameNotFound(game_id))?;
        summary_from_row(&row, self.now_ms())
    }

    /// The lobby, newest first.
    pub async fn lobby(&self, filter: &LobbyFilter) -> Result<Vec<GameSummary>> {
        let client = self.pool.get().await?;
        // Only the games the reader may watch (`watch.rs`): $8 its account, $7 whether it
        // audits, $9 now.
        let watchable = crate::people::watch::watchable("$8", "$7", "$9");
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games g
             WHERE ($1::text IS NULL OR g.kind = $1)
               AND ($2::text IS NULL OR g.status = $2)
               AND ($3::bigint IS NULL OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.account_id = $3))
               AND ($4::bigint IS NULL OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.account_id = $4 AND s.seat = ANY (g.to_act)))
               AND {watchable}
               AND ($10::bigint IS NULL
                    OR g.seat_count - (SELECT count(*) FROM seats s WHERE s.game_id = g.id) >= $10)
               AND ($11::jsonb IS NULL
                    OR NOT EXISTS (SELECT 1 FROM jsonb_array_elements($11) w(f) WHERE NOT g.options @> w.f))
               AND ($12::bigint IS NULL OR (g.options ->> 'move_minutes')::bigint <= $12)
               AND ($13::bigint IS NULL OR coalesce((g.options ->> 'move_minutes')::bigint >= $13, true))
             ORDER BY g.id DESC LIMIT $5 OFFSET $6"
        );
        let (auditor, account) = match filter.reader {
            Some(Reader::Account { id, auditor }) => (auditor, Some(id)),
            _ => (false, None),
        };
        let rows = client
            .query(
                &sql,
                &[
                    &filter.kind,
                    &filter.status.map(Lifecycle::as_str),
                    &filter.seated,
                    &filter.to_act,
                    &filter.limit,
                    &filter.offset,
                    &auditor,
                    &account,
                    &self.now_ms(),
                    &filter.free_seats_min,
                    &filter.options,
                    &filter.move_minutes_max,
                    &filter.move_minutes_min,
                ],
            )
            .await?;
        let now = self.now_ms();
        rows.iter().map(|row| summary_from_row(row, now)).collect()
    }
}
