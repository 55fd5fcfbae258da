//! Loading another server's export (auditors only). The export is verified first, exactly as
//! `baumeister verify` does, and nothing is written unless it passes; the game keeps its uid,
//! so every hash is the same here, and this server's audit of it passes. Its players have no
//! accounts here: the game has no seats, and their names stay in `game_fairness.imported`.

use std::sync::Arc;

use baumeister_domain::bots::Level;
use baumeister_domain::fairness::from_hex;
use baumeister_domain::registry;
use serde_json::{json, Value};

use crate::audit::export::Export;
use crate::audit::verify::verify_export;
use crate::command::append::{event_type, LobbyColumns};
use crate::error::{violated_constraint, Result, StoreError};
use crate::read::cache::Aggregate;
use crate::reader::Reader;
use crate::types::{GameSummary, Lifecycle};
use crate::Refusal;
use crate::Store;

impl Store {
    /// Verifies and loads a finished game exported by any Baumeister server.
    pub async fn import(&self, export: Export, reader: Reader) -> Result<GameSummary> {
        let auditor = self.admissible(&export, reader)?;
        let (export, state) = tokio::task::spawn_blocking(move || {
            verify_export(&export)
                .map_err(|d| StoreError::Refused(Refusal::ImportRefused(d.to_string())))?;
            let game = registry::find(&export.kind).expect("verified");
            let payloads: Vec<_> = export
                .commands
                .iter()
                .flat_map(|c| &c.events)
                .map(|e| e.payload.clone())
                .collect();
            let state = game.replay(&payloads)?;
            Ok::<_, StoreError>((export, state))
        })
        .await
        .map_err(|e| StoreError::Corrupt(format!("import: {e}")))??;
        let game = registry::find(&export.kind).expect("verified");

        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let game_id = match insert_game(&tx, &export, auditor).await {
            Err(e) if violated_constraint(&e) == Some("game_fairness_uid_key") => {
                drop(tx);
                let existing = self
                    .pool
                    .get()
                    .await?
                    .query_one(
                        "SELECT game_id FROM game_fairness WHERE uid = $1::text::uuid",
                        &[&export.game],
                    )
                    .await?;
                return Err(StoreError::Refused(Refusal::AlreadyImported(
                    existing.get(0),
                )));
            }
            other => other?,
        };
        let (version, last_hash) = insert_log(&tx, game_id, &export).await?;

        let status = game.status(&state);
        let aggregate = Aggregate {
            game,
            version,
            state,
            last_hash,
        };
        let lobby = LobbyColumns::of(&aggregate, &status);
        let progress: &Value = &lobby.progress;
        tx.execute(
            "UPDATE games SET version = $2, status = $3, to_act = $4, progress = $5, rule_deadline_ms = $6, deadline_ms = $6,
                    updated_at = now() WHERE id = $1",
            &[&game_id, &aggregate.version, &lobby.status, &lobby.to_act, progress, &lobby.rule_deadline_ms],
        )
        .await?;
        let summary = self.summary_in(&tx, game_id).await?;
        tx.commit().await?;
        self.cache.put(game_id, Arc::new(aggregate));
        tracing::info!(game = game_id, uid = %export.game, "imported");
        Ok(summary)
    }

    /// Who may import (an auditor) and what (a finished game with a uid, signed by a key this
    /// server trusts): the auditor's account, or why not.
    fn admissible(&self, export: &Export, reader: Reader) -> Result<i64> {
        let auditor = match reader {
            Reader::Account { id, auditor: true } => id,
            _ => return Err(StoreError::Refused(Refusal::NotAuditor)),
        };
        if from_hex(&export.game.replace('-', "")).map(|b| b.len()) != Some(16)
            || export.game.len() != 36
        {
            return Err(StoreError::Refused(Refusal::ImportRefused(
                "`game` is not a uid (8-4-4-4-12 hexadecimal digits)".into(),
            )));
        }
        // Whose history this is: a head signed by a key nobody here vouches for proves only
        // that somebody made a file (anybody can sign a made-up game with a key of their own).
        if !self.trust.trusts(&export.head.key) {
            return Err(StoreError::Refused(Refusal::UntrustedKey(
                export.head.key.clone(),
            )));
        }
        if export.status != Lifecycle::Finished {
            return Err(StoreError::Refused(Refusal::ImportRefused(
                "only finished games are imported (a running one would go on here without its players)".into(),
            )));
        }
        Ok(auditor)
    }
}

fn hex(s: &str) -> Vec<u8> {
    from_hex(s).unwrap_or_default()
}

/// The game's row and its fairness record (its uid, secret, commitment, seeds, and its players'
/// names and head as exported). Fails on the uid's unique key when the game is here already.
async fn insert_game(
    tx: &deadpool_postgres::Transaction<'_>,
    export: &Export,
    auditor: i64,
) -> std::result::Result<i64, tokio_postgres::Error> {
    let row = tx
        .query_one(
            // Imported games are never rated: their players have no accounts here.
            "INSERT INTO games (kind, options, seat_count, status, created_by, rated)
             VALUES ($1, $2, $3, 'open', $4, false) RETURNING id",
            &[
                &export.kind,
                &export.options,
                &i16::from(export.seat_count),
                &auditor,
            ],
        )
        .await?;
    let game_id: i64 = row.get(0);
    let players: Vec<Option<&str>> = export.seats.iter().map(|s| s.player.as_deref()).collect();
    let client_seeds: Vec<&str> = export
        .seats
        .iter()
        .map(|s| s.client_seed.as_str())
        .collect();
    let bot_levels: Vec<Option<Level>> = export.seats.iter().map(|s| s.bot_level).collect();
    let imported = json!({ "players": players, "bot_levels": bot_levels, "head": export.head });
    tx.execute(
        "INSERT INTO game_fairness (game_id, uid, secret, commitment, client_seeds, imported,
                                    chain_format, origin_key)
         VALUES ($1, $2::text::uuid, $3, $4, $5, $6, $7, $8)",
        &[
            &game_id,
            &export.game,
            &hex(&export.secret),
            &hex(&export.commitment),
            &client_seeds,
            &imported,
            &i16::from(export.chain),
            &hex(&export.head.key),
        ],
    )
    .await?;
    Ok(game_id)
}

/// Every command with its events, as exported (seeds, times, hashes): the game's version and
/// its last event's hash.
async fn insert_log(
    tx: &deadpool_postgres::Transaction<'_>,
    game_id: i64,
    export: &Export,
) -> Result<(i64, Vec<u8>)> {
    let mut versions = Vec::new();
    let mut types = Vec::new();
    let mut payloads = Vec::new();
    let mut hashes = Vec::new();
    let mut command_ids = Vec::new();
    let mut seats = Vec::new();
    let mut clocks = Vec::new();
    for command in &export.commands {
        let seed = hex(&command.seed);
        let stored_seed = seed
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .unwrap_or(0) as i64;
        let seat = command.seat.map(i16::from);
        // A command with a seat and no account (as every imported one is) takes its bot level
        // from its record's `clock_bot` (the trigger of V19), so the level is there too.
        let bot_level = command.bot_level.map(Level::name);
        let response = match bot_level {
            Some(level) => json!({ "imported": true, "clock_bot": level }),
            None => json!({ "imported": true }),
        };
        let row = tx
            .query_one(
                "INSERT INTO commands (game_id, seat, body, seed, now_ms, response, bot_level)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &game_id,
                    &seat,
                    &command.body,
                    &stored_seed,
                    &command.now_ms,
                    &response,
                    &bot_level,
                ],
            )
            .await?;
        let command_id: i64 = row.get(0);
        for event in &command.events {
            versions.push(event.version);
            types.push(event_type(&event.payload).to_string());
            payloads.push(event.payload.clone());
            hashes.push(hex(&event.hash));
            command_ids.push(command_id);
            seats.push(seat);
            clocks.push(command.now_ms);
        }
    }
    tx.execute(
        "INSERT INTO events (game_id, version, type, payload, command_id, seat, recorded_at, hash)
         SELECT $1, v, t, p, c, s, to_timestamp(n::bigint / 1000.0), h
         FROM unnest($2::bigint[], $3::text[], $4::jsonb[], $5::bigint[], $6::smallint[], $7::bigint[], $8::bytea[])
              AS e(v, t, p, c, s, n, h)",
        &[
            &game_id, &versions, &types, &payloads, &command_ids, &seats, &clocks, &hashes,
        ],
    )
    .await?;
    let last_hash = hashes
        .last()
        .cloned()
        .unwrap_or_else(|| crate::GENESIS.to_vec());
    Ok((versions.len() as i64, last_hash))
}
