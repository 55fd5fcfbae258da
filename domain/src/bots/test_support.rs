//! What the bot tests of every kind share: a game played through the registry as JSON, a bot
//! playing one out, and the checks that a bot sees no more than its seat.

use serde_json::Value;

use super::{choose, BotInput, Budget, Level};
use crate::contract::{Ctx, Seat, Viewer};
use crate::dynamic::{DynGame, GameState};
use crate::registry;
use crate::rng::GameRng;

/// A small budget: the tests must be reproducible (no clock) and quick.
pub(crate) const TEST_BUDGET: Budget = Budget {
    iterations: 60,
    max_millis: None,
};

/// A game of some kind after its set-up and the commands played since (each with its own seed).
pub(crate) struct Played {
    pub(crate) game: &'static dyn DynGame,
    pub(crate) state: GameState,
    pub(crate) events: Vec<Value>,
}

impl Played {
    pub(crate) fn set_up(kind: &str, seats: u8, options: Value, seed: u64) -> Played {
        let game = registry::find(kind).unwrap();
        let options = game.validate_options(&options, seats).unwrap();
        let events = game.setup(&options, seats, &mut Ctx::new(seed, 0)).unwrap();
        let state = game.replay(&events).unwrap();
        Played {
            game,
            state,
            events,
        }
    }

    /// The same game laid out by other set-up `events` (the commands are played anew).
    pub(crate) fn replayed(&self, events: Vec<Value>) -> Played {
        Played {
            game: self.game,
            state: self.game.replay(&events).unwrap(),
            events,
        }
    }

    /// Plays `command` for `seat` with the randomness of `seed`, at time zero.
    pub(crate) fn play(&mut self, seat: Seat, command: &Value, seed: u64) {
        self.play_in(seat, command, &mut Ctx::new(seed, 0));
    }

    /// Plays `command` for `seat` at `now_ms` by the game's clock.
    pub(crate) fn play_at(&mut self, seat: Seat, command: &Value, now_ms: i64) {
        self.play_in(seat, command, &mut Ctx::new(7, now_ms));
    }

    fn play_in(&mut self, seat: Seat, command: &Value, ctx: &mut Ctx) {
        let events = self
            .game
            .decide(&self.state, seat, command, ctx)
            .unwrap_or_else(|e| panic!("{command} refused: {e}"));
        for event in events {
            self.game.evolve(&mut self.state, &event).unwrap();
            self.events.push(event);
        }
    }

    /// Plays up to `steps` legal commands picked by `pick` (the step's seed `first_seed + step`),
    /// stopping where nobody is to act. Returns the commands played, seat by seat.
    pub(crate) fn play_randomly(
        &mut self,
        pick: &mut GameRng,
        steps: u64,
        first_seed: u64,
    ) -> Vec<(Seat, Value)> {
        let mut played = Vec::new();
        for step in 0..steps {
            let Some(seat) = self.to_act() else { break };
            let moves = self.game.legal_commands(&self.state, seat);
            let command = moves[pick.index(moves.len())].clone();
            self.play(seat, &command, first_seed + step);
            played.push((seat, command));
        }
        played
    }

    pub(crate) fn to_act(&self) -> Option<Seat> {
        self.game.status(&self.state).to_act.first().copied()
    }

    pub(crate) fn input(&self, seat: Seat) -> BotInput {
        BotInput::observe(self.game, &self.state, &self.events, seat)
    }

    /// Five guesses of the game by `seat`'s input (the kind's `determinize`, randomness from
    /// `seed`), each checked to show the seat its view and its legal commands.
    pub(crate) fn guesses(&self, seat: Seat, seed: u64) -> Vec<GameState> {
        let rules = registry::bot_rules(self.game.kind()).unwrap();
        let input = self.input(seat);
        let mut rng = GameRng::from_seed(seed);
        let guesses: Vec<GameState> = (0..5)
            .map(|_| rules.determinize(&input, &mut rng).unwrap())
            .collect();
        for guess in &guesses {
            assert_eq!(self.game.view(guess, Viewer::Seat(seat)), input.view);
            assert_eq!(self.game.legal_commands(guess, seat), input.moves);
        }
        guesses
    }
}

/// No peeking, at one position: `a` and `b` differ only in what `seat` may not see. The seat's
/// inputs must be byte-identical, and so every level's choice (with the same `seed`) alike.
pub(crate) fn assert_blind(a: &Played, b: &Played, seat: Seat, seed: u64) {
    let (input_a, input_b) = (a.input(seat), b.input(seat));
    assert_eq!(
        serde_json::to_vec(&input_a).unwrap(),
        serde_json::to_vec(&input_b).unwrap(),
        "the seat's inputs are byte-identical"
    );
    for level in Level::ALL {
        let choice = |input: &BotInput| {
            choose(input, level, TEST_BUDGET, &mut GameRng::from_seed(seed)).unwrap()
        };
        assert_eq!(choice(&input_a), choice(&input_b), "{level:?}");
    }
}

/// Plays a game of `kind` to its end: the seats in `bots` by a bot of their level, the others
/// at random. Returns the number of commands played.
pub(crate) fn play_out(
    kind: &str,
    seats: u8,
    bots: &[(Seat, Level)],
    seed: u64,
    max_moves: usize,
) -> usize {
    play_out_with(kind, seats, Value::Null, bots, seed, max_moves)
}

/// [`play_out`] with the game's options.
pub(crate) fn play_out_with(
    kind: &str,
    seats: u8,
    options: Value,
    bots: &[(Seat, Level)],
    seed: u64,
    max_moves: usize,
) -> usize {
    let mut game = Played::set_up(kind, seats, options, seed);
    let mut rng = GameRng::from_seed(seed ^ 0xb07);
    for moves in 0..max_moves {
        let Some(seat) = game.to_act() else {
            assert!(game.game.status(&game.state).finished, "{kind}: stuck");
            return moves;
        };
        let level = bots
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(Level::Random, |(_, l)| *l);
        let input = game.input(seat);
        let command = choose(&input, level, TEST_BUDGET, &mut rng).unwrap();
        assert!(
            input.moves.contains(&command),
            "{kind}: {command} not legal"
        );
        game.play(seat, &command, seed.wrapping_add(moves as u64));
    }
    panic!("{kind}: no end after {max_moves} commands");
}

/// A greedy and a strong bot finish games of `kind` for three against a random player, one game
/// a seed.
pub(crate) fn greedy_and_strong_finish(kind: &str, seeds: &[u64], max_moves: usize) {
    for &seed in seeds {
        play_out(
            kind,
            3,
            &[(0, Level::Greedy), (1, Level::Strong)],
            seed,
            max_moves,
        );
    }
}
