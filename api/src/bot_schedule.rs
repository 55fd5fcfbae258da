//! Which waiting bot moves start now, shared fairly between the people whose games wait.
//!
//! A bot move is CPU work, so at most `thinkers` moves run at once server-wide. Oldest game
//! first let one account with many bot games hold every thinker while everybody else's bots
//! waited behind its backlog; instead the free thinkers go round the owners
//! ([`BotTurn::owner`]) that wait, the owner served least recently first, with two bounds:
//! - A strong bot searches up to its budget (a second); a random or greedy bot answers in
//!   milliseconds. Strong moves take at most `thinkers - 1` thinkers (all of one only when there
//!   is one), so a quick move never waits behind the searches, and each kind of move has its
//!   own round over the owners ("lane"): being served a quick move does not cost an owner its
//!   turn for a strong one.
//! - No owner has more than `per_account` moves of a lane running at once, so however many
//!   bot games one account runs, the other thinkers stay free for everybody else.
//!
//! A game has at most one move running at a time (its next one is read after the first lands),
//! and a move that could not be made rests until something changes (see [`Schedule::wake`]).

use std::collections::{HashMap, HashSet};

use baumeister_domain::bots::Level;
use baumeister_storage::BotTurn;

/// An owner's place in one lane: (owner, whether the lane is the strong bots').
type Key = (i64, bool);

fn key(turn: &BotTurn) -> Key {
    (turn.owner, searches(turn.level))
}

/// Whether the level searches up to its time budget (the strong bot) rather than answering at
/// once.
fn searches(level: Level) -> bool {
    level == Level::Strong
}

/// The policy's state: what runs, and when each waiting owner was last served in each lane.
#[derive(Debug)]
pub struct Schedule {
    thinkers: usize,
    /// Strong moves at once: `thinkers - 1`, at least 1.
    searchers: usize,
    per_account: usize,
    /// Moves running per owner and lane.
    running: HashMap<Key, usize>,
    /// Strong moves running.
    searching: usize,
    /// Games with a move running, each with the count of wakes when it started.
    busy: HashMap<i64, u64>,
    /// Wakes so far ([`Schedule::wake`]).
    wakes: u64,
    /// Games whose last move was not made: left until a game changes or the fallback sweep.
    resting: HashSet<i64>,
    /// The start counter's value at each owner's last start in a lane: the least recently
    /// served owner goes first. Owners neither running nor waiting in a lane are forgotten
    /// there, so an owner who comes back is served as one who has waited longest.
    served: HashMap<Key, u64>,
    starts: u64,
}

impl Schedule {
    /// `thinkers` moves at once in all, at most `per_account` of one owner's per lane (both at
    /// least 1).
    pub fn new(thinkers: usize, per_account: usize) -> Schedule {
        let thinkers = thinkers.max(1);
        Schedule {
            thinkers,
            searchers: (thinkers - 1).max(1),
            per_account: per_account.max(1),
            running: HashMap::new(),
            searching: 0,
            busy: HashMap::new(),
            wakes: 0,
            resting: HashSet::new(),
            served: HashMap::new(),
            starts: 0,
        }
    }

    /// Moves running now.
    pub fn running(&self) -> usize {
        self.busy.len()
    }

    /// Whether a thinker is free (else a sweep could start nothing).
    pub fn has_room(&self) -> bool {
        self.busy.len() < self.thinkers
    }

    /// Whether `turn` may start now, thinkers being free.
    fn may_start(&self, turn: &BotTurn) -> bool {
        let key = key(turn);
        (!key.1 || self.searching < self.searchers)
            && self.running.get(&key).copied().unwrap_or(0) < self.per_account
    }

    /// From the moves that wait now (the sweep's rows, each owner's oldest first), those to
    /// start, in order; they count as running until [`Schedule::finish`].
    pub fn start(&mut self, waiting: Vec<BotTurn>) -> Vec<BotTurn> {
        let keys: HashSet<Key> = waiting.iter().map(key).collect();
        self.served
            .retain(|k, _| keys.contains(k) || self.running.contains_key(k));
        // Each owner's queue per lane, in the sweep's order; queues in order of their first row.
        let mut queues: Vec<(Key, Vec<BotTurn>)> = Vec::new();
        let mut seen_games = HashSet::new();
        for turn in waiting {
            if self.busy.contains_key(&turn.game_id)
                || self.resting.contains(&turn.game_id)
                || !seen_games.insert(turn.game_id)
            {
                continue;
            }
            match queues.iter_mut().find(|(k, _)| *k == key(&turn)) {
                Some((_, queue)) => queue.push(turn),
                None => queues.push((key(&turn), vec![turn])),
            }
        }
        let mut started = Vec::new();
        while self.has_room() {
            let next = queues
                .iter()
                .enumerate()
                .filter(|(_, (_, queue))| queue.first().is_some_and(|t| self.may_start(t)))
                .min_by_key(|(place, (k, _))| (self.served.get(k).copied().unwrap_or(0), *place))
                .map(|(place, _)| place);
            let Some(place) = next else { break };
            let (k, queue) = &mut queues[place];
            let k = *k;
            let turn = queue.remove(0);
            self.starts += 1;
            self.served.insert(k, self.starts);
            *self.running.entry(k).or_insert(0) += 1;
            if k.1 {
                self.searching += 1;
            }
            self.busy.insert(turn.game_id, self.wakes);
            started.push(turn);
        }
        started
    }

    /// A started move ended; `moved`: its command landed. One that did not rests until the
    /// next [`Schedule::wake`], so a game whose bot cannot move is not tried again and again;
    /// unless a wake came while it ran (its board may have moved on: a conflict's cause).
    pub fn finish(&mut self, turn: &BotTurn, moved: bool) {
        let k = key(turn);
        if let Some(n) = self.running.get_mut(&k) {
            *n -= 1;
            if *n == 0 {
                self.running.remove(&k);
            }
            if k.1 {
                self.searching -= 1;
            }
        }
        let started_at = self.busy.remove(&turn.game_id);
        if !moved && started_at == Some(self.wakes) {
            self.resting.insert(turn.game_id);
        }
    }

    /// A game changed (or the fallback sweep is due): the resting games are tried again.
    pub fn wake(&mut self) {
        self.wakes += 1;
        self.resting.clear();
    }
}

#[cfg(test)]
mod tests {
    use baumeister_domain::bots::Level;

    use super::*;

    fn turn(game_id: i64, owner: i64) -> BotTurn {
        BotTurn {
            game_id,
            account_id: 1000 + game_id,
            level: Level::Strong,
            clock_seat: None,
            owner,
        }
    }

    /// A random bot's move: answered at once.
    fn quick(game_id: i64, owner: i64) -> BotTurn {
        BotTurn {
            level: Level::Random,
            ..turn(game_id, owner)
        }
    }

    /// `count` games of `owner`, ids from `first`.
    fn games(owner: i64, first: i64, count: i64) -> Vec<BotTurn> {
        (first..first + count).map(|g| turn(g, owner)).collect()
    }

    fn ids(turns: &[BotTurn]) -> Vec<i64> {
        turns.iter().map(|t| t.game_id).collect()
    }

    #[test]
    fn one_account_never_holds_more_than_its_share_of_thinkers() {
        let mut schedule = Schedule::new(4, 1);
        let started = schedule.start(games(7, 1, 30));
        assert_eq!(
            ids(&started),
            [1],
            "one of its thirty games, though three thinkers idle"
        );
        assert!(schedule.has_room());
        assert!(schedule.start(games(7, 2, 29)).is_empty());
    }

    #[test]
    fn another_account_is_served_at_once_beside_a_long_backlog() {
        let mut schedule = Schedule::new(3, 1);
        assert_eq!(ids(&schedule.start(games(7, 1, 30))), [1]);
        // The other account's game is the newest of all: it still starts in this round.
        let mut waiting = games(7, 2, 29);
        waiting.push(turn(99, 8));
        assert_eq!(ids(&schedule.start(waiting)), [99]);
    }

    #[test]
    fn quick_moves_never_wait_behind_strong_ones() {
        let mut schedule = Schedule::new(2, 1);
        assert_eq!(ids(&schedule.start(games(7, 1, 30))), [1]);
        // The strong bots' thinker is taken; the other is left to the quick moves.
        let mut waiting = games(7, 2, 29);
        waiting.push(turn(100, 8));
        waiting.push(quick(101, 8));
        assert_eq!(ids(&schedule.start(waiting)), [101]);
        assert!(!schedule.has_room());
    }

    #[test]
    fn an_accounts_quick_move_does_not_wait_behind_its_own_strong_one() {
        let mut schedule = Schedule::new(2, 1);
        assert_eq!(ids(&schedule.start(vec![turn(1, 8)])), [1]);
        assert_eq!(ids(&schedule.start(vec![quick(2, 8)])), [2]);
    }

    #[test]
    fn each_lane_has_its_own_round_over_the_owners() {
        let mut schedule = Schedule::new(2, 1);
        let first = schedule.start(vec![turn(1, 7)]);
        let second = schedule.start(vec![turn(2, 7), turn(20, 8), quick(21, 8)]);
        assert_eq!(ids(&second), [21]);
        schedule.finish(&first[0], true);
        // Owner 8 was served a quick move since 7's strong one, yet it is 8's turn to search.
        assert_eq!(ids(&schedule.start(vec![turn(2, 7), turn(20, 8)])), [20]);
    }

    #[test]
    fn owners_take_turns_when_thinkers_are_scarce() {
        let mut schedule = Schedule::new(1, 1);
        let mut order = Vec::new();
        // Owner 7 has five games waiting, owners 8 and 9 one each; 7's are the oldest.
        let mut waiting: Vec<BotTurn> = games(7, 1, 5);
        waiting.push(turn(20, 8));
        waiting.push(turn(30, 9));
        for _ in 0..7 {
            let started = schedule.start(waiting.clone());
            assert_eq!(started.len(), 1);
            order.push(started[0].game_id);
            schedule.finish(&started[0], true);
            waiting.retain(|t| t.game_id != started[0].game_id);
        }
        assert_eq!(order, [1, 20, 30, 2, 3, 4, 5]);
    }

    #[test]
    fn the_least_recently_served_owner_goes_first() {
        let mut schedule = Schedule::new(1, 1);
        let first = schedule.start(vec![turn(1, 7), turn(2, 8)]);
        assert_eq!(ids(&first), [1]);
        schedule.finish(&first[0], true);
        // 7 listed first again (its next game is older), but 8 has not been served yet.
        let second = schedule.start(vec![turn(3, 7), turn(2, 8)]);
        assert_eq!(ids(&second), [2]);
        schedule.finish(&second[0], true);
        assert_eq!(ids(&schedule.start(vec![turn(3, 7), turn(4, 8)])), [3]);
    }

    #[test]
    fn a_game_has_one_move_running_at_a_time() {
        let mut schedule = Schedule::new(4, 4);
        // Two bots of one game to act at once (a simultaneous phase): one move, then the other.
        let started = schedule.start(vec![turn(1, 7), turn(1, 7)]);
        assert_eq!(ids(&started), [1]);
        assert!(schedule.start(vec![turn(1, 7)]).is_empty());
        schedule.finish(&started[0], true);
        assert_eq!(ids(&schedule.start(vec![turn(1, 7)])), [1]);
    }

    #[test]
    fn a_move_not_made_rests_until_a_game_changes() {
        let mut schedule = Schedule::new(2, 2);
        let started = schedule.start(vec![turn(1, 7)]);
        schedule.finish(&started[0], false);
        assert!(schedule.start(vec![turn(1, 7)]).is_empty());
        schedule.wake();
        assert_eq!(ids(&schedule.start(vec![turn(1, 7)])), [1]);
    }

    #[test]
    fn a_move_not_made_does_not_rest_when_a_game_changed_while_it_ran() {
        let mut schedule = Schedule::new(2, 2);
        let started = schedule.start(vec![turn(1, 7)]);
        schedule.wake();
        schedule.finish(&started[0], false);
        assert_eq!(ids(&schedule.start(vec![turn(1, 7)])), [1]);
    }

    #[test]
    fn per_account_bound_admits_that_many_of_one_owner() {
        let mut schedule = Schedule::new(3, 2);
        let started = schedule.start(games(7, 1, 10));
        assert_eq!(ids(&started), [1, 2]);
        schedule.finish(&started[0], true);
        assert_eq!(ids(&schedule.start(games(7, 3, 8))), [3]);
    }

    #[test]
    fn a_finished_move_frees_its_thinker_and_its_owner_share() {
        let mut schedule = Schedule::new(1, 1);
        let started = schedule.start(vec![turn(1, 7)]);
        assert!(!schedule.has_room());
        schedule.finish(&started[0], true);
        assert!(schedule.has_room());
        assert_eq!(ids(&schedule.start(vec![turn(2, 7)])), [2]);
    }
}
