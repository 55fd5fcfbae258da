//! What a searching bot must know of a kind beyond its rules: how to imagine the hidden part of
//! the game from what its seat sees, and how good a position is.

use serde_json::Value;

use crate::contract::Seat;
use crate::dynamic::{DynGame, GameState};
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

use super::budget::Budget;
use super::error::BotError;
use super::input::BotInput;

/// Guesses of one input's hidden part, one per call (see [`BotRules::guesser`]).
pub type Guesses<'a> = Box<dyn FnMut(&mut GameRng) -> Result<GameState, BotError> + 'a>;

/// A kind's bot rules.
pub trait BotRules: Send + Sync {
    fn game(&self) -> &'static dyn DynGame;

    /// A whole state that the seat's input could have come from: everything the seat sees is as
    /// it sees it; what it does not see (others' hands, face-down cards) is drawn at random from
    /// what could be there. Reads nothing but `input`.
    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError>;

    /// Guesses for `input`, one per call, each as [`Self::determinize`] makes them, only
    /// quicker: a kind may fold the seat's log once and deal just the hidden part anew for each
    /// guess (a search makes one guess per iteration, and folding the log was most of its
    /// time). By default each guess is a determinization from scratch.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        Ok(Box::new(move |rng| self.determinize(input, rng)))
    }

    /// How good `state` is for `seat`, higher better, on the scale of the game's points: the
    /// search compares these between seats and moves.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64;

    /// How many seats the game in `state` has.
    fn seats(&self, state: &GameState) -> u8;

    /// How many points make a clear lead (scales evaluations to rewards between 0 and 1).
    fn scale(&self) -> f64 {
        10.0
    }

    /// Random moves a search plays on from the edge of its tree before it evaluates: a kind
    /// whose evaluation already sees far (points as if the game ended now) gains nothing from
    /// a noisy random continuation; one whose position is best judged a little later gains from
    /// a few.
    fn playout_moves(&self) -> usize {
        4
    }

    /// The share of a playout's moves made at random (1: all, the default); the others are
    /// each the seat's best by the one-step judgement, as greedy would make it. A kind whose
    /// random moves say little of a position (bidding at random in an auction) plays its
    /// playouts mostly greedily: each such move costs a judgement of every command.
    fn playout_randomness(&self) -> f64 {
        1.0
    }

    /// How many search iterations pass between two looks at the clock (8 by default: reading
    /// it is not free). A kind whose iterations are long (long playouts judging every command)
    /// looks more often, so that a search does not run past its time by several iterations.
    fn clock_every(&self) -> u32 {
        8
    }

    /// How much the strong level trusts the one-step judgement of its own commands, in visits'
    /// worth: a command's score at the root is its mean reward plus `prior_weight() * judgement
    /// / (visits + 1)` (see [`super::ismcts`]).
    fn prior_weight(&self) -> f64 {
        2.0
    }

    /// Of the `legal` commands of `seat` in `state`, those worth weighing (all by default). A
    /// kind whose listed commands run into the hundreds (every bid, every way to lay a card)
    /// keeps a few representative ones, so that a search spends its time on real choices. It
    /// must depend only on what `seat` may see of `state`.
    fn candidates(&self, state: &GameState, seat: Seat, legal: Vec<Value>) -> Vec<Value> {
        let _ = (state, seat);
        legal
    }

    /// Of the commands the bot weighs for its real move (`moves`, from [`Self::candidates`]),
    /// those that keep the game moving. Some kinds' rules let a game go on for ever while every
    /// seat waits for the others (Burgbaumeister: each turns up a card and returns it), and bots
    /// that judge waiting best would wait for ever together; such a kind narrows the choice once
    /// the seat's log shows that nothing has happened for a while. `guess` is one of the bot's
    /// guesses of the game. Reads nothing but `input` and what the seat sees of `guess`; never
    /// returns an empty list for a non-empty one. All by default.
    fn keep_moving(&self, input: &BotInput, guess: &GameState, moves: Vec<Value>) -> Vec<Value> {
        let _ = (input, guess);
        moves
    }

    /// The strong level's own choice for `input`, for a kind (or a variant of one) that has a
    /// better way to choose than the generic search; `None` (the default) leaves it to
    /// [`super::ismcts`]. Like the search it reads nothing but `input`, keeps within `budget`,
    /// and chooses among the commands [`Self::keep_moving`] leaves.
    fn strong_choice(
        &self,
        input: &BotInput,
        budget: Budget,
        rng: &mut GameRng,
    ) -> Option<Result<Value, BotError>> {
        let _ = (input, budget, rng);
        None
    }

    /// The commands an imagined `seat` weighs in `state`, typed: its legal commands, thinned as
    /// [`Self::candidates`] thins them (a kind that thins overrides both alike).
    fn moves(&self, state: &GameState, seat: Seat) -> Vec<TypedCommand> {
        self.game().typed_commands(state, seat)
    }
}

/// Folds a seat's log (with its hidden parts filled in) into a state, from the initial one.
pub fn replay(game: &dyn DynGame, log: &[serde_json::Value]) -> Result<GameState, BotError> {
    game.replay(log)
        .map_err(|e| BotError::BadLog(e.to_string()))
}
