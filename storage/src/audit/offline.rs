//! Whole games played without a server, as exports: random legal moves, seeds derived from a
//! secret exactly as the server derives them, hashes chained, head signed. For the tests of
//! `baumeister verify` (no database) and for the replay benchmark's long games.

use baumeister_domain::fairness::{commitment, derive_key, to_hex};
use baumeister_domain::rng::GameRng;
use baumeister_domain::{registry, Ctx, DynGame, GameState};
use serde_json::json;

use crate::audit::chain::{Chain, GENESIS};
use crate::audit::export::{Export, ExportCommand, ExportEvent, ExportSeat, EXPORT_FORMAT};
use crate::audit::trust::{uid_bytes, Signer};
use crate::command::append::event_type;
use crate::types::Lifecycle;

/// Plays a game of `kind` for `seats` by random legal moves (picked with `seed`) until it ends
/// or `max_commands` have been sent, and returns its export. `None` for an unknown kind.
pub fn random_export(
    kind: &str,
    seats: u8,
    seed: u64,
    max_commands: usize,
    signer: &Signer,
) -> Option<Export> {
    let game = registry::find(kind)?;
    let options = game
        .validate_options(&serde_json::Value::Null, seats)
        .ok()?;
    let mut pick = GameRng::from_seed(seed);
    let secret: [u8; 32] = std::array::from_fn(|_| pick.below(256) as u8);
    let client_seeds: Vec<String> = (0..seats).map(|s| format!("seat-{s}-{seed}")).collect();
    let uid = random_uid(&mut pick);
    let mut played = Played::new(game, Chain::salted(uid_bytes(&uid), secret.to_vec()));

    let key = derive_key(&secret, &client_seeds, 0);
    let events = game
        .setup(&options, seats, &mut Ctx::from_key(&key, NOW_MS))
        .ok()?;
    let body = json!({ "type": "Setup", "kind": kind, "seats": seats, "options": options });
    played.record(None, body, key, events);
    while played.commands.len() < max_commands {
        let status = game.status(&played.state);
        if status.finished || status.to_act.is_empty() {
            break;
        }
        let seat = status.to_act[pick.index(status.to_act.len())];
        let moves = game.legal_commands(&played.state, seat);
        if moves.is_empty() {
            break;
        }
        let command = moves[pick.index(moves.len())].clone();
        let position = played.version;
        let key = derive_key(&secret, &client_seeds, position);
        let mut ctx = Ctx::from_key(&key, NOW_MS + position);
        let Ok(events) = game.decide(&played.state, seat, &command, &mut ctx) else {
            break;
        };
        played.record(Some(seat), command, key, events);
    }
    let result = game.status(&played.state);
    Some(Export {
        format: EXPORT_FORMAT.into(),
        chain: 2,
        game: uid.clone(),
        kind: kind.into(),
        options,
        seat_count: seats,
        seats: client_seeds
            .iter()
            .enumerate()
            .map(|(seat, client_seed)| ExportSeat {
                seat: seat as u8,
                player: Some(format!("player-{seat}")),
                bot_level: None,
                client_seed: client_seed.clone(),
            })
            .collect(),
        status: if result.finished {
            Lifecycle::Finished
        } else {
            Lifecycle::Active
        },
        result,
        commitment: to_hex(&commitment(&secret)),
        secret: to_hex(&secret),
        head: signer.sign(&uid, played.version, &played.previous),
        commands: played.commands,
    })
}

/// The clock of the first command; each command's is this plus its position.
const NOW_MS: i64 = 1_700_000_000_000;

/// A game's global id drawn from `pick` (16 bytes, written as a UUID is).
fn random_uid(pick: &mut GameRng) -> String {
    let b: Vec<u8> = (0..16).map(|_| pick.below(256) as u8).collect();
    let h = to_hex(&b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// A game played so far: its state, its commands as exported, and the version and hash of its
/// last event.
struct Played {
    game: &'static dyn DynGame,
    chain: Chain,
    state: GameState,
    version: i64,
    previous: Vec<u8>,
    commands: Vec<ExportCommand>,
}

impl Played {
    fn new(game: &'static dyn DynGame, chain: Chain) -> Self {
        Played {
            game,
            chain,
            state: game.initial(),
            version: 0,
            previous: GENESIS.to_vec(),
            commands: Vec::new(),
        }
    }

    /// Records a command decided with `key` and its `events`: each applied and chained.
    fn record(
        &mut self,
        seat: Option<u8>,
        body: serde_json::Value,
        key: [u8; 32],
        events: Vec<serde_json::Value>,
    ) {
        let position = self.version;
        let mut logged = Vec::with_capacity(events.len());
        for payload in events {
            self.version += 1;
            self.game
                .evolve(&mut self.state, &payload)
                .expect("decided events apply");
            self.previous =
                self.chain
                    .event_hash(&self.previous, self.version, event_type(&payload), &payload);
            logged.push(ExportEvent {
                version: self.version,
                hash: to_hex(&self.previous),
                payload,
            });
        }
        self.commands.push(ExportCommand {
            position,
            seat,
            body,
            now_ms: NOW_MS + position,
            seed: to_hex(&key),
            bot_level: None,
            events: logged,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::verify::verify_export;

    #[test]
    fn replay_through_snapshots_equals_replay_from_event_1_for_every_kind() {
        // Snapshots every 7 events: each version is folded from the nearest one (saved as JSON
        // bytes and loaded back, as stored) and compared with the fold from event 1.
        let signer = Signer::from_seed(&[4; 32]);
        for game in registry::all() {
            let info = game.info();
            for seed in 1..4 {
                let export = random_export(info.kind, info.max_seats, seed, 400, &signer).unwrap();
                let payloads: Vec<serde_json::Value> = export
                    .commands
                    .iter()
                    .flat_map(|c| c.events.iter().map(|e| e.payload.clone()))
                    .collect();
                let mut from_start = game.initial();
                let mut snapshots = vec![game.save_state(&from_start)];
                for (i, event) in payloads.iter().enumerate() {
                    let version = i + 1;
                    game.evolve(&mut from_start, event).unwrap();
                    if version % 7 == 0 {
                        snapshots.push(game.save_state(&from_start));
                    }
                    let base = version - version % 7;
                    // Through the snapshot, folding the events as the store reads them (text).
                    let mut through = game.load_state(&snapshots[base / 7]).unwrap();
                    for event in &payloads[base..version] {
                        game.evolve_json(&mut through, &event.to_string()).unwrap();
                    }
                    assert!(
                        game.same_state(&through, &from_start),
                        "{} seed {seed}: version {version} through the snapshot at {base}",
                        info.kind
                    );
                }
            }
        }
    }

    #[test]
    fn an_offline_game_of_every_kind_verifies() {
        let signer = Signer::from_seed(&[3; 32]);
        for game in registry::all() {
            let info = game.info();
            let export = random_export(info.kind, info.min_seats, 1, 300, &signer).unwrap();
            assert!(export.commands.len() > 1, "{}", info.kind);
            verify_export(&export).unwrap_or_else(|d| panic!("{}: {d}", info.kind));
        }
    }
}
