//! Live aggregates kept in memory, so a command does not fold the whole log again. The database
//! stays the judge: a cached aggregate is only used up to the version the database reports, and
//! only events after it are read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use baumeister_domain::{DynGame, GameState};

/// A game's state at a version, with the hash of its last event (the next event chains on it).
#[derive(Clone)]
pub struct Aggregate {
    pub game: &'static dyn DynGame,
    pub version: i64,
    pub state: GameState,
    pub last_hash: Vec<u8>,
}

pub struct Cache {
    games: Mutex<HashMap<i64, Arc<Aggregate>>>,
    capacity: usize,
}

impl Cache {
    pub fn new(capacity: usize) -> Self {
        Cache {
            games: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    pub fn get(&self, game_id: i64) -> Option<Arc<Aggregate>> {
        self.games.lock().unwrap().get(&game_id).cloned()
    }

    /// Keeps the newer of what is cached and `aggregate`.
    pub fn put(&self, game_id: i64, aggregate: Arc<Aggregate>) {
        let mut games = self.games.lock().unwrap();
        if games.len() >= self.capacity && !games.contains_key(&game_id) {
            // Crude but bounded: a cold start costs one fold per game, which is cheap.
            games.clear();
        }
        match games.get(&game_id) {
            Some(current) if current.version >= aggregate.version => {}
            _ => {
                games.insert(game_id, aggregate);
            }
        }
    }
}
