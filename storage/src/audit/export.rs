//! A game as one self-contained JSON document that anybody can check without the server
//! (`baumeister verify FILE`, see `verify.rs`): metadata, options, seats and client seeds, every
//! command with its position, clock and derived seed, every event with its hash, the revealed
//! secret and the signed head. The audit checks the same document, built from the database.

use baumeister_domain::bots::Level;
use baumeister_domain::fairness::to_hex;
use baumeister_domain::Status;
use deadpool_postgres::GenericClient;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::audit::chain::Chain;
use crate::audit::trust::{load_keys, GameKeys, SignedHead};
use crate::error::{Result, StoreError};
use crate::read::snapshot::{read_log, StoredEvent};
use crate::reader::Reader;
use crate::types::Lifecycle;
use crate::Refusal;
use crate::Store;

/// The `format` of every export this server writes.
pub const EXPORT_FORMAT: &str = "baumeister-export/2";
/// The format before chain formats: every chain plain (format 1). Still verified and imported.
pub const EXPORT_FORMAT_1: &str = "baumeister-export/1";

fn plain_chain() -> u8 {
    1
}

/// A whole game, checkable offline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Export {
    /// `baumeister-export/2` (`baumeister-export/1`, from servers before chain formats, has no
    /// `chain` and is read as chain format 1).
    pub format: String,
    /// How the event hashes are chained (`docs/fairness.md` §4): 2, each link salted with
    /// HMAC-SHA256 of the secret (a commitment: it shows nothing of hidden events while the
    /// game runs); 1, plain links (games whose chain began before format 2).
    #[serde(default = "plain_chain")]
    #[schema(minimum = 1, maximum = 2)]
    pub chain: u8,
    /// The game's global id (`fairness.uid`).
    pub game: String,
    pub kind: String,
    /// The options in full, as the set-up used them.
    pub options: Value,
    pub seat_count: u8,
    pub seats: Vec<ExportSeat>,
    pub status: Lifecycle,
    /// Who must act, scores and winners after the last event.
    pub result: Status,
    /// SHA-256 of the secret, hexadecimal, as shown from the start.
    pub commitment: String,
    /// The game's secret, hexadecimal (32 bytes).
    pub secret: String,
    /// Every command in the order it was appended, each with the events it produced.
    pub commands: Vec<ExportCommand>,
    /// The chain head after the last event, signed by the exporting server.
    pub head: SignedHead,
}

/// A seat and the entropy its player added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportSeat {
    pub seat: u8,
    /// The player's name on the exporting server.
    pub player: Option<String>,
    /// Present when a bot held this seat: its level (`random`, `greedy`, `strong`). Absent for
    /// a person, and in exports written before bots were named here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<Level>,
    pub client_seed: String,
}

/// A command and what it produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportCommand {
    /// How many events came before it: the position its seed is derived for.
    pub position: i64,
    /// The seat that sent it (absent for the set-up and deadlines).
    pub seat: Option<u8>,
    /// The command (`Setup` and `DeadlinePassed` are the server's own).
    pub body: Value,
    /// The clock the rules saw, ms since the Unix epoch.
    pub now_ms: i64,
    /// HMAC-SHA256(secret, client seeds + position), hexadecimal: the generator's state.
    pub seed: String,
    /// Present when a bot chose the command: its level (the seat's own bot, or the turn
    /// clock's bot standing in for a person, option `clock_bot`). Absent for a person's
    /// command and the server's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<Level>,
    pub events: Vec<ExportEvent>,
}

/// A stored event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportEvent {
    pub version: i64,
    /// SHA-256 over the previous hash, the game's uid, the version, (chain format 2) the
    /// event's salt, the type and the payload.
    pub hash: String,
    /// The event, tagged by `type`.
    pub payload: Value,
}

/// A game as read from the database for an export or an audit.
pub(crate) struct Loaded {
    pub export: Export,
    /// What the hash chain covers, and how (see `trust::GameKeys`).
    pub chain: Chain,
    /// Whether the game has commit-and-reveal randomness (older games do not).
    pub fair: bool,
    /// Events no stored command accounts for, in order (the export cannot show them).
    pub stray: Vec<String>,
}

impl Store {
    /// The export of a finished game, for anybody. A running game's export is refused to
    /// everybody, auditors included: it would carry the secret, from which every later draw
    /// and every salt of the chain follow (an auditor who took a free seat could predict every
    /// die). Auditors see a running game whole through its view, and `/audit` checks it.
    pub async fn export(&self, game_id: i64, reader: Reader) -> Result<Export> {
        let loaded = self.load_for_check(game_id, Some(reader)).await?;
        if !loaded.fair {
            return Err(StoreError::Refused(Refusal::NotExportable));
        }
        Ok(loaded.export)
    }

    /// Reads the whole game at its current version. A `reader` (an export) is refused while
    /// the game runs, before anything else is read; `None` is the audit, which shows none of it.
    pub(crate) async fn load_for_check(
        &self,
        game_id: i64,
        reader: Option<Reader>,
    ) -> Result<Loaded> {
        let client = self.pool.get().await?;
        let account = reader.and_then(|r| r.account());
        let head = self.head(&client, game_id, account).await?;
        if let Some(reader) = reader {
            self.must_watch(&client, game_id, head.watching(), reader)
                .await?;
        }
        if reader.is_some() && head.status != "finished" {
            return Err(StoreError::Refused(Refusal::ExportWhileRunning));
        }
        let stored = GameRow::read(&client, game_id).await?;
        // The stored keys, not the cached ones: an audit of a game not yet started reads the
        // client seeds as they are now.
        let keys = load_keys(&client, game_id).await?;
        let events = read_log(&client, game_id, 0, head.version, None).await?;
        let commands = client
            .query(
                "SELECT id, seat, body, seed, now_ms, bot_level FROM commands
                 WHERE game_id = $1 AND id <= coalesce(
                     (SELECT command_id FROM events WHERE game_id = $1 AND version = $2), -1)
                 ORDER BY id",
                &[&game_id, &head.version],
            )
            .await?;
        drop(client);

        let (exported, accounted) = export_commands(&commands, &events, &keys)?;
        let stray = stray_events(&events, accounted);
        let last_hash = events
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| crate::GENESIS.to_vec());
        let result: Status = stored
            .progress
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| StoreError::Corrupt(e.to_string()))?
            .unwrap_or_default();
        let export = Export {
            format: EXPORT_FORMAT.into(),
            chain: keys.chain.format(),
            game: keys.name.clone(),
            kind: head.game.kind().into(),
            options: stored.options,
            seat_count: head.seat_count,
            seats: stored.seats,
            status: Lifecycle::parse(&head.status)
                .ok_or_else(|| StoreError::Corrupt(head.status.clone()))?,
            result,
            commitment: stored.commitment.as_deref().map(to_hex).unwrap_or_default(),
            secret: stored.secret.as_deref().map(to_hex).unwrap_or_default(),
            commands: exported,
            head: self.trust.head_of(&keys, head.version, &last_hash),
        };
        Ok(Loaded {
            export,
            chain: keys.chain,
            fair: keys.fair.is_some(),
            stray,
        })
    }
}

/// What an export takes from the game's row and its fairness row: the options, the result, the
/// secret and its commitment, and the seats (names and bot levels as imported, else the
/// accounts' own).
struct GameRow {
    options: Value,
    progress: Option<Value>,
    secret: Option<Vec<u8>>,
    commitment: Option<Vec<u8>>,
    seats: Vec<ExportSeat>,
}

impl GameRow {
    async fn read(client: &impl GenericClient, game_id: i64) -> Result<GameRow> {
        let row = client
            .query_one(
                "SELECT g.options, g.progress, f.secret, f.commitment, f.client_seeds,
                        coalesce(f.imported -> 'players',
                                 (SELECT json_agg(a.name ORDER BY s.seat) FROM seats s
                                  JOIN accounts a ON a.id = s.account_id WHERE s.game_id = g.id)::jsonb),
                        coalesce(f.imported -> 'bot_levels',
                                 (SELECT json_agg(a.bot_level ORDER BY s.seat) FROM seats s
                                  JOIN accounts a ON a.id = s.account_id WHERE s.game_id = g.id)::jsonb)
                 FROM games g LEFT JOIN game_fairness f ON f.game_id = g.id WHERE g.id = $1",
                &[&game_id],
            )
            .await?;
        let client_seeds: Vec<String> = row.get::<_, Option<Vec<String>>>(4).unwrap_or_default();
        let players: Vec<Option<String>> = row
            .get::<_, Option<Value>>(5)
            .and_then(|p| serde_json::from_value(p).ok())
            .unwrap_or_default();
        let bot_levels: Vec<Option<Level>> = row
            .get::<_, Option<Value>>(6)
            .and_then(|p| serde_json::from_value(p).ok())
            .unwrap_or_default();
        let seats = client_seeds
            .iter()
            .enumerate()
            .map(|(seat, seed)| ExportSeat {
                seat: seat as u8,
                player: players.get(seat).cloned().flatten(),
                bot_level: bot_levels.get(seat).cloned().flatten(),
                client_seed: seed.clone(),
            })
            .collect();
        Ok(GameRow {
            options: row.get(0),
            progress: row.get(1),
            secret: row.get(2),
            commitment: row.get(3),
            seats,
        })
    }
}

/// The stored commands as exported, each with the events it produced (the events that follow
/// it in order and name it), and how many of `events` they account for.
fn export_commands(
    commands: &[tokio_postgres::Row],
    events: &[StoredEvent],
    keys: &GameKeys,
) -> Result<(Vec<ExportCommand>, usize)> {
    let mut cursor = 0;
    let mut exported = Vec::with_capacity(commands.len());
    for row in commands {
        let id: i64 = row.get(0);
        let position = cursor as i64;
        let mine: Vec<ExportEvent> = events[cursor..]
            .iter()
            .take_while(|e| e.command_id == id)
            .map(|e| {
                Ok(ExportEvent {
                    version: e.version,
                    hash: to_hex(&e.hash),
                    payload: e.value()?,
                })
            })
            .collect::<Result<_>>()?;
        cursor += mine.len();
        let seed = match keys.command_key(position) {
            Some(key) => to_hex(&key),
            // Older games: the seed the server drew, as 8 bytes big-endian.
            None => to_hex(&(row.get::<_, i64>(3) as u64).to_be_bytes()),
        };
        exported.push(ExportCommand {
            position,
            seat: row.get::<_, Option<i16>>(1).map(|s| s as u8),
            body: row.get(2),
            now_ms: row.get(4),
            seed,
            bot_level: row.get::<_, Option<&str>>(5).and_then(Level::from_name),
            events: mine,
        });
    }
    Ok((exported, cursor))
}

/// What the export cannot show of `events`: an event whose stored type is not its payload's
/// (the type column is what `/events` filters by), and those after the first `accounted` that
/// no stored command produced in order.
fn stray_events(events: &[StoredEvent], accounted: usize) -> Vec<String> {
    let mut stray: Vec<String> = events
        .iter()
        .filter(|e| {
            e.value().map_or(true, |payload| {
                e.kind != crate::command::append::event_type(&payload)
            })
        })
        .map(|e| format!("version {}: the stored type is not the event's", e.version))
        .collect();
    if accounted < events.len() {
        stray.push(format!(
            "versions {}..={} belong to no stored command in order",
            accounted + 1,
            events.len()
        ));
    }
    stray
}
