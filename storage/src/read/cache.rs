//! Live aggregates kept in memory, so a command does not fold the whole log again. The database
//! stays the judge: a cached aggregate is only used up to the version the database reports, and
//! only events after it are read. Bounded: the least recently used game goes first, so a server
//! with more live games than the capacity keeps its busiest ones.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use baumeister_domain::bots::Level;
use baumeister_domain::take_back::{LastCommand, ViewTapes};
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
    /// Each account's bot level (`None`: a person), as recorded with its commands. Set when the
    /// account is created and never changed, so what was read once stays true.
    bot_levels: Mutex<LruCache<i64, Option<Level>>>,
    /// The views undo's judgement wrote after each game's last command, for the next one's
    /// (see [`Views`]).
    views: Mutex<Views>,
    /// What a game's options say about its appends, as they read it. Options are chosen when
    /// the game is created and never change, so what was read once stays true.
    options: Mutex<LruCache<i64, FixedOptions>>,
    /// The games whose row was seen to say that some seat's account may listen (`listeners`):
    /// the flag is set and never cleared, so what was seen once stays true.
    listened: Mutex<LruCache<i64, ()>>,
    /// Each game's last command as this process appended it, with the version it brought the
    /// game to: still the last exactly while the game is at that version (every append moves
    /// the version on, and a version is written once).
    last_commands: Mutex<LruCache<i64, (i64, LastCommand)>>,
}

/// What of a game's options its appends need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedOptions {
    /// Whether it allows taking commands back (its `undo` option): a game that allows none
    /// needs no judgement of what its commands revealed.
    pub undo: bool,
    /// Whether it has the turn clock (`move_minutes`): a game without one has no turn
    /// deadlines and no seat handed to the clock's bot, so its appends leave those alone.
    pub clocked: bool,
}

/// Undo's judgement of a command compares every viewer's view before and after it; the views
/// after one command are those before the next, so keeping them halves the views written per
/// command. They are large (a Burgbaumeister game's about 30 KB, a Mauerbauer game's about
/// 240 KB), so only the most recently played games keep theirs, within a bound in bytes.
struct Views {
    games: LruCache<i64, (i64, ViewTapes)>,
    bytes: usize,
    budget: usize,
}

impl Views {
    fn take(&mut self, game_id: i64, version: i64) -> ViewTapes {
        match self.games.pop(&game_id) {
            Some((at, tapes)) => {
                self.bytes -= tapes.size();
                if at == version {
                    tapes
                } else {
                    ViewTapes::default()
                }
            }
            None => ViewTapes::default(),
        }
    }

    fn keep(&mut self, game_id: i64, version: i64, tapes: ViewTapes) {
        let size = tapes.size();
        if size == 0 || size > self.budget / 2 {
            return;
        }
        if let Some((_, old)) = self.games.put(game_id, (version, tapes)) {
            self.bytes -= old.size();
        }
        self.bytes += size;
        while self.bytes > self.budget {
            match self.games.pop_lru() {
                Some((_, (_, evicted))) => self.bytes -= evicted.size(),
                None => break,
            }
        }
    }
}

/// The bytes of views kept for the judgements of the games' next commands (about 2,000
/// Burgbaumeister games, 250 Mauerbauer games).
const VIEW_BYTES: usize = 64 << 20;

/// Seats remembered per cached game (a game has at most five).
const SEATS_PER_GAME: usize = 5;

impl Cache {
    pub fn new(capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        let seats = capacity.saturating_mul(NonZeroUsize::new(SEATS_PER_GAME).unwrap());
        Cache {
            games: Mutex::new(LruCache::new(capacity)),
            seats: Mutex::new(LruCache::new(seats)),
            bot_levels: Mutex::new(LruCache::new(seats)),
            views: Mutex::new(Views {
                games: LruCache::unbounded(),
                bytes: 0,
                budget: VIEW_BYTES,
            }),
            options: Mutex::new(LruCache::new(capacity)),
            listened: Mutex::new(LruCache::new(capacity)),
            last_commands: Mutex::new(LruCache::new(capacity)),
        }
    }

    /// What `game_id`'s options say about its appends, if this process has read it.
    pub fn fixed_options(&self, game_id: i64) -> Option<FixedOptions> {
        self.options.lock().unwrap().get(&game_id).copied()
    }

    /// Whether this process knows `game_id` to have no turn clock.
    pub fn known_unclocked(&self, game_id: i64) -> bool {
        self.fixed_options(game_id).is_some_and(|o| !o.clocked)
    }

    pub fn remember_options(&self, game_id: i64, options: FixedOptions) {
        self.options.lock().unwrap().put(game_id, options);
    }

    /// Whether this process has seen `game_id`'s row say that some seat's account may listen.
    pub fn listened(&self, game_id: i64) -> bool {
        self.listened.lock().unwrap().get(&game_id).is_some()
    }

    pub fn remember_listened(&self, game_id: i64) {
        self.listened.lock().unwrap().put(game_id, ());
    }

    /// `game_id`'s last command and the version it brought the game to, if this process
    /// appended it (it may have been followed since: compare the version).
    pub fn last_command(&self, game_id: i64) -> Option<(i64, LastCommand)> {
        self.last_commands.lock().unwrap().get(&game_id).copied()
    }

    pub fn forget_last_command(&self, game_id: i64) {
        self.last_commands.lock().unwrap().pop(&game_id);
    }

    /// Remembers a committed command that brought `game_id` to `version`.
    pub fn remember_last_command(&self, game_id: i64, version: i64, last: LastCommand) {
        self.last_commands
            .lock()
            .unwrap()
            .put(game_id, (version, last));
    }

    /// The views kept of `game_id` at `version` (none when the kept ones are of another
    /// version), taken out: a command decided on them keeps its own views after it.
    pub fn take_views(&self, game_id: i64, version: i64) -> ViewTapes {
        self.views.lock().unwrap().take(game_id, version)
    }

    /// Keeps the views of `game_id` at `version`, committed: only then are they the views of
    /// the game at that version (a rolled-back append's version is another command's next).
    pub fn keep_views(&self, game_id: i64, version: i64, tapes: ViewTapes) {
        self.views.lock().unwrap().keep(game_id, version, tapes);
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

    /// `account_id`'s bot level (`Some(None)`: a person), if this process has read it.
    pub fn bot_level(&self, account_id: i64) -> Option<Option<Level>> {
        self.bot_levels.lock().unwrap().get(&account_id).copied()
    }

    pub fn remember_bot_level(&self, account_id: i64, level: Option<Level>) {
        self.bot_levels.lock().unwrap().put(account_id, level);
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

    /// The views of a Burgbaumeister game's initial state, as a judgement leaves them.
    fn views() -> ViewTapes {
        use baumeister_domain::take_back::judge_keeping;
        let game = baumeister_domain::registry::find("burgbaumeister").unwrap();
        let state = game.initial();
        judge_keeping(game, &state, &state, &[], 0, 2, ViewTapes::default()).after
    }

    #[test]
    fn views_are_given_once_and_only_for_their_version() {
        let cache = Cache::new(2);
        let kept = views();
        assert!(kept.size() > 0);
        cache.keep_views(1, 7, kept.clone());
        assert_eq!(cache.take_views(1, 7), kept);
        assert_eq!(cache.take_views(1, 7), ViewTapes::default(), "taken out");
        cache.keep_views(1, 7, kept.clone());
        assert_eq!(
            cache.take_views(1, 8),
            ViewTapes::default(),
            "another version's"
        );
        assert_eq!(cache.take_views(1, 7), ViewTapes::default(), "and dropped");
        assert_eq!(cache.views.lock().unwrap().bytes, 0);
    }

    #[test]
    fn views_are_bounded_in_bytes_the_least_recently_played_going_first() {
        let cache = Cache::new(2);
        let kept = views();
        let size = kept.size();
        cache.views.lock().unwrap().budget = 3 * size;
        for game in 1..=5 {
            cache.keep_views(game, 1, kept.clone());
        }
        let held = cache.views.lock().unwrap();
        assert_eq!(held.bytes, 3 * size);
        assert_eq!(held.games.len(), 3);
        assert!(held.games.contains(&5) && !held.games.contains(&2));
    }
}
