//! Snapshots of a game's state every K events (`SNAPSHOT_EVERY`, default 100), so that a replay
//! of any version, or a cold cache, folds at most K events after the nearest one instead of the
//! whole log. They are written lazily by the folds that pass them (replays, audits) and never
//! trusted blindly: one is used only when its hash is the stored event's at its version and the
//! server's own signature over the game, the version, that hash and the SHA-256 of the state's
//! bytes as stored verifies
//! (a changed or foreign snapshot is ignored, and rewritten by the next fold that passes it);
//! the audit folds from event 1 and compares every stored snapshot with its own state.

use baumeister_domain::fairness::to_hex;
use baumeister_domain::take_back::{CommandTakenBack, Fold};
use baumeister_domain::DynGame;
use deadpool_postgres::GenericClient;
use sha2::{Digest, Sha256};

use crate::audit::chain::GENESIS;
use crate::audit::trust::Trust;
use crate::error::Result;
use crate::read::cache::Aggregate;
use crate::read::snapshot::{read_log, StoredEvent};
use crate::Store;

/// A state folded at a snapshot version (as saved: JSON bytes), with the hash of its last event.
pub(crate) type Kept = (i64, Vec<u8>, Vec<u8>);

/// What a snapshot's signature covers: the game, the version, its event's hash and the SHA-256
/// of the state's bytes as stored.
pub(crate) fn message(game: &str, version: i64, hash: &[u8], state: &[u8]) -> Vec<u8> {
    let digest = Sha256::digest(state);
    format!(
        "baumeister-snapshot/2 {game} {version} {} {}",
        to_hex(hash),
        to_hex(&digest)
    )
    .into_bytes()
}

/// Folds `events` onto `base`, keeping the state (as JSON) at every multiple of `every`.
/// Take-backs restore the state before the command they take back (see
/// `baumeister_domain::take_back::Fold`); `Ok(Err(v))` when one reaches back before `base`:
/// fold again from a state at or before version `v`.
pub(crate) fn fold_keeping(
    game: &'static dyn DynGame,
    base: Aggregate,
    events: &[StoredEvent],
    every: i64,
) -> Result<std::result::Result<(Aggregate, Vec<Kept>), i64>> {
    let mut take_backs = Vec::new();
    for event in events {
        take_backs.extend(CommandTakenBack::of_json(&event.kind, &event.payload)?);
    }
    let Aggregate {
        version,
        state,
        mut last_hash,
        ..
    } = base;
    let mut fold = match Fold::new(game, state, version, take_backs) {
        Ok(fold) => fold,
        Err(back_to) => return Ok(Err(back_to)),
    };
    let mut kept = Vec::new();
    for event in events {
        fold.apply_json(event.version, &event.kind, &event.payload)?;
        last_hash.clone_from(&event.hash);
        if event.version % every == 0 {
            kept.push((
                event.version,
                game.save_state(&fold.state),
                event.hash.clone(),
            ));
        }
    }
    Ok(Ok((
        Aggregate {
            game,
            version: fold.version,
            state: fold.state,
            last_hash,
        },
        kept,
    )))
}

impl Store {
    /// The game at `version`, folded from `base` with the events after it; from an earlier
    /// snapshot when a take-back among them reaches back before `base` (rare: only a fold
    /// that starts inside a command later taken back).
    pub(crate) async fn fold_to(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        game: &'static dyn DynGame,
        mut base: Aggregate,
        version: i64,
    ) -> Result<(Aggregate, Vec<Kept>)> {
        loop {
            let events = read_log(client, game_id, base.version, version, None).await?;
            match fold_keeping(game, base, &events, self.snapshot_every())? {
                Ok(folded) => return Ok(folded),
                Err(back_to) => base = self.snapshot_base(client, game_id, game, back_to).await?,
            }
        }
    }
}

impl Store {
    pub(crate) fn snapshot_every(&self) -> i64 {
        self.trust.snapshot_every
    }

    /// The game at the nearest trustworthy snapshot at or before `version` (the initial state
    /// when there is none): one query, none below the first snapshot version.
    pub(crate) async fn snapshot_base(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        game: &'static dyn DynGame,
        version: i64,
    ) -> Result<Aggregate> {
        let initial = Aggregate {
            game,
            version: 0,
            state: game.initial(),
            last_hash: GENESIS.to_vec(),
        };
        if version < self.snapshot_every() {
            return Ok(initial);
        }
        let keys = self.trust.keys(client, game_id).await?;
        // The newest at or before `version` first; an older one only when that one is not to be
        // trusted (a state is tens of kilobytes: only what is used is read).
        let statement = client
            .prepare_cached(
                "SELECT s.version, s.state, s.hash, s.signature FROM snapshots s
                 JOIN events e ON e.game_id = s.game_id AND e.version = s.version AND e.hash = s.hash
                 WHERE s.game_id = $1 AND s.version <= $2 ORDER BY s.version DESC LIMIT 1",
            )
            .await?;
        let mut below = version;
        for _ in 0..3 {
            let Some(row) = client.query_opt(&statement, &[&game_id, &below]).await? else {
                break;
            };
            let (at, state, hash, signature): (i64, Vec<u8>, Vec<u8>, Vec<u8>) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            below = at - 1;
            if !self
                .trust
                .signer
                .signed(&message(&keys.name, at, &hash, &state), &signature)
            {
                tracing::warn!(
                    game = game_id,
                    version = at,
                    "a snapshot's signature does not verify; folding past it"
                );
                continue;
            }
            match game.load_state(&state) {
                Ok(state) => {
                    return Ok(Aggregate {
                        game,
                        version: at,
                        state,
                        last_hash: hash,
                    })
                }
                Err(e) => {
                    tracing::warn!(game = game_id, version = at, error = %e, "a snapshot does not load")
                }
            }
        }
        Ok(initial)
    }

    /// Stores (or replaces) the snapshots a fold kept.
    pub(crate) async fn save_snapshots(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        kept: &[Kept],
    ) -> Result<()> {
        if kept.is_empty() {
            return Ok(());
        }
        let keys = self.trust.keys(client, game_id).await?;
        let mut versions = Vec::new();
        let mut states = Vec::new();
        let mut hashes = Vec::new();
        let mut signatures = Vec::new();
        for (version, state, hash) in kept {
            versions.push(*version);
            signatures.push(
                self.trust
                    .signer
                    .sign_bytes(&message(&keys.name, *version, hash, state)),
            );
            states.push(state.as_slice());
            hashes.push(hash.as_slice());
        }
        client
            .execute(
                "INSERT INTO snapshots (game_id, version, state, hash, signature)
                 SELECT $1, v, s, h, g FROM unnest($2::bigint[], $3::bytea[], $4::bytea[], $5::bytea[]) AS x(v, s, h, g)
                 ON CONFLICT (game_id, version) DO UPDATE
                 SET state = excluded.state, hash = excluded.hash, signature = excluded.signature",
                &[&game_id, &versions, &states, &hashes, &signatures],
            )
            .await?;
        Ok(())
    }

    /// Every stored snapshot of a game, for the audit.
    pub(crate) async fn stored_snapshots(&self, game_id: i64) -> Result<Vec<StoredSnapshot>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT version, state, hash, signature FROM snapshots WHERE game_id = $1 ORDER BY version",
                &[&game_id],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| StoredSnapshot {
                version: row.get(0),
                state: row.get(1),
                hash: row.get(2),
                signature: row.get(3),
            })
            .collect())
    }
}

/// A snapshot as stored.
pub(crate) struct StoredSnapshot {
    pub version: i64,
    pub state: Vec<u8>,
    pub hash: Vec<u8>,
    pub signature: Vec<u8>,
}

/// Whether `snapshot` carries this server's signature for game `game` (its uid).
pub(crate) fn signed_by(trust: &Trust, game: &str, snapshot: &StoredSnapshot) -> bool {
    trust.signer.signed(
        &message(game, snapshot.version, &snapshot.hash, &snapshot.state),
        &snapshot.signature,
    )
}
