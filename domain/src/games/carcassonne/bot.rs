//! Carcassonne for bots. The game has no secret: the pile is a count of the tiles left, and a
//! tile is drawn at random only when a turn begins. So the one game a seat's log makes is the
//! game, and a guess is the log folded.

use crate::bots::error::BotError;
use crate::bots::input::BotInput;
use crate::bots::rules::{replay, BotRules, Guesses};
use crate::contract::{Game, Seat};
use crate::dynamic::{DynGame, GameState};
use crate::erased::Erased;
use crate::games::carcassonne::end::final_scoring;
use crate::games::carcassonne::{Carcassonne, State};
use crate::rng::GameRng;

/// A follower still in the supply is worth about this many points: it can still claim
/// something (and one on the board is already counted where it stands).
const FOLLOWER_AT_HOME: f64 = 1.5;

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        static GAME: Erased<Carcassonne> = Erased::new();
        &GAME
    }

    fn determinize(&self, input: &BotInput, _rng: &mut GameRng) -> Result<GameState, BotError> {
        replay(self.game(), &input.log)
    }

    /// The log folded once; every guess is that game.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        let game = replay(self.game(), &input.log)?;
        Ok(Box::new(move |_| Ok(game.clone())))
    }

    /// The points the seat would have if the game ended now (its unfinished roads, cities,
    /// cloisters and farms scored as at the end), plus its followers at home.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let mut ended = state.clone();
        for event in final_scoring(state) {
            Carcassonne::evolve(&mut ended, &event);
        }
        let points = ended.scores.get(seat as usize).copied().unwrap_or(0) as f64;
        let home = state.home.get(seat as usize).copied().unwrap_or(0) as f64;
        points + FOLLOWER_AT_HOME * home
    }

    /// None: the evaluation already scores every road, city, cloister and farm as at the end,
    /// and random placements after the tree's edge only add noise.
    fn playout_moves(&self) -> usize {
        0
    }

    fn seats(&self, state: &GameState) -> u8 {
        state.downcast::<State>().map_or(0, |s| s.players)
    }
}
