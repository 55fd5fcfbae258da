//! Live aggregates kept in memory, so a command does not fold the whole log again. The database
//! stays the judge: a cached aggregate is only used up to the version the database reports, and
//! only events after it are read. Bounded: the least recently used game goes first, so a server
//! with more live games than the capacity keeps its busiest ones.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use baumeister_domain::{DynGame, GameState};
use lru::LruCache;

/// A game's state at a version, with the hash of its last event (the next event chains on it).
#[derive(Clone)]
pub struct Aggregate {
    pub game: &'static dyn DynGame,
    pub version: i64,
    pub state: GameState,
    pub last_hash: Vec<u8>,
}

pub struct Cache {
    games: Mutex<LruCache<i64, Arc<Aggregate>>>,
    /// Which seat an account holds at a game. A seat, once taken, is never given up or moved,
    /// so what was read once stays true; only seats are remembered, never their absence.
    seats: Mutex<LruCache<(i64, i64), u8>>,
}

/// Seats remembered per cached game (a game has at most five).
const SEATS_PER_GAME: usize = 5;

impl Cache {
    pub fn new(capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        let seats = capacity.saturating_mul(NonZeroUsize::new(SEATS_PER_GAME).unwrap());
        Cache {
            games: Mutex::new(LruCache::new(capacity)),
            seats: Mutex::new(LruCache::new(seats)),
        }
    }

    /// The seat `account_id` holds at `game_id`, if this process has read it.
    pub fn seat(&self, game_id: i64, account_id: i64) -> Option<u8> {
        self.seats
            .lock()
            .unwrap()
            .get(&(game_id, account_id))
            .copied()
    }

    pub fn remember_seat(&self, game_id: i64, account_id: i64, seat: u8) {
        self.seats.lock().unwrap().put((game_id, account_id), seat);
    }

    pub fn get(&self, game_id: i64) -> Option<Arc<Aggregate>> {
        self.games.lock().unwrap().get(&game_id).cloned()
    }

    /// Keeps the newer of what is cached and `aggregate`.
    pub fn put(&self, game_id: i64, aggregate: Arc<Aggregate>) {
        let mut games = self.games.lock().unwrap();
        match games.get(&game_id) {
            Some(current) if current.version >= aggregate.version => {}
            _ => {
                games.put(game_id, aggregate);
            }
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.games.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(version: i64) -> Arc<Aggregate> {
        let game = baumeister_domain::registry::find("burgbaumeister").unwrap();
        Arc::new(Aggregate {
            game,
            version,
            state: game.initial(),
            last_hash: Vec::new(),
        })
    }

    #[test]
    fn keeps_the_newer_version_and_evicts_the_least_recently_used() {
        let cache = Cache::new(2);
        cache.put(1, at(5));
        cache.put(1, at(3));
        assert_eq!(
            cache.get(1).unwrap().version,
            5,
            "an older aggregate never replaces"
        );
        cache.put(2, at(1));
        cache.get(1);
        cache.put(3, at(1));
        assert_eq!(cache.len(), 2, "bounded");
        assert!(cache.get(2).is_none(), "the least recently used went first");
        assert!(cache.get(1).is_some() && cache.get(3).is_some());
    }
}
