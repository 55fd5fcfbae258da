//! Space Builder for bots. The secrets are the others' boards while a round's building runs (a
//! seat sees only how many cards each placed) and, with `elapsed` timing, the blueprint until the
//! seat looks at it. A guess lays each other player's placed cards where the plan wants them
//! (the likeliest place for a player trying to win), and draws the plan a seat has not looked at
//! from the pile's remaining blueprints at a random quarter turn.
//!
//! The game is a race to build the plan exactly: every card on its place, then finish. So the
//! commands worth weighing are few: look at the plan, put a card where the plan wants it (or
//! clear that place first), finish once every card is right, and which card to release. The
//! other few hundred listed ways to lay a card wrong are never better than these.

use serde_json::Value;

use crate::bots::error::BotError;
use crate::bots::input::BotInput;
use crate::bots::rules::{replay, BotRules, Guesses};
use crate::contract::Seat;
use crate::dynamic::{DynGame, GameState};
use crate::erased::Erased;
use crate::games::space_builder::{
    check_city, revealed, target, Card, DeclareCityFinished, LookAtBlueprint, MoveBuildingCard,
    Phase, PlaceBuildingCard, Placement, ReleaseBuildingCard, SpaceBuilder, SpaceBuilderCommand,
    State, TakeBackBuildingCard, Timing, CARDS, ROTATIONS,
};
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

/// A round won is worth this much more than a fault less in the round being built.
const ROUND: f64 = 10.0;
/// A card more in hand brings the game's end nearer for its holder.
const CARD: f64 = 2.0;

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        static GAME: Erased<SpaceBuilder> = Erased::new();
        &GAME
    }

    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError> {
        let mut guess = replay(self.game(), &input.log)?;
        imagine(&mut guess, input, rng)?;
        Ok(guess)
    }

    /// The log folded once, and each guess a new draw of the hidden part.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        let base = replay(self.game(), &input.log)?;
        Ok(Box::new(move |rng| {
            let mut guess = base.clone();
            imagine(&mut guess, input, rng)?;
            Ok(guess)
        }))
    }

    /// Rounds won and cards held, and in a round being built the faults the seat's board has
    /// now (with a point for having finished: the earlier finisher wins a tie).
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let Some(player) = state.players.get(usize::from(seat)) else {
            return 0.0;
        };
        let mut value = ROUND * f64::from(player.rounds_won) + CARD * player.hand.len() as f64;
        if state.phase == Phase::Building {
            if let Some(blueprint) = &state.blueprint {
                let (_, faults) = check_city(&player.city, &player.hand, &target(blueprint));
                value -= f64::from(faults);
            }
            if player.finished() {
                value += 1.0;
            }
        }
        value
    }

    fn seats(&self, state: &GameState) -> u8 {
        state
            .downcast::<State>()
            .map_or(0, |s| s.players.len() as u8)
    }

    fn candidates(&self, state: &GameState, seat: Seat, legal: Vec<Value>) -> Vec<Value> {
        let Some(state) = state.downcast::<State>() else {
            return legal;
        };
        let kept: Vec<Value> = worth_weighing(state, seat)
            .into_iter()
            .map(|c| serde_json::to_value(c).expect("commands serialize"))
            .filter(|m| legal.contains(m))
            .collect();
        if kept.is_empty() {
            legal
        } else {
            kept
        }
    }

    fn moves(&self, state: &GameState, seat: Seat) -> Vec<TypedCommand> {
        let Some(state) = state.downcast::<State>() else {
            return Vec::new();
        };
        worth_weighing(state, seat)
            .into_iter()
            .map(TypedCommand::new)
            .collect()
    }

    fn scale(&self) -> f64 {
        4.0
    }
}

/// The commands worth weighing for `seat` now (see the module's comment).
fn worth_weighing(state: &State, seat: Seat) -> Vec<SpaceBuilderCommand> {
    let Some(player) = state.players.get(usize::from(seat)) else {
        return Vec::new();
    };
    match state.phase {
        Phase::Releasing if state.releasing == Some(seat) => (1..=CARDS)
            .filter(|c| !player.hand.contains(c))
            .map(|card| ReleaseBuildingCard { card }.into())
            .collect(),
        Phase::Building if !player.finished() && !player.stopped => {
            if state.timing == Timing::Elapsed && player.looked_at_ms.is_none() {
                return vec![LookAtBlueprint {}.into()];
            }
            let Some(blueprint) = &state.blueprint else {
                return Vec::new();
            };
            let plan = target(blueprint);
            let mut out: Vec<SpaceBuilderCommand> = Vec::new();
            for &card in &player.hand {
                let Some(want) = plan.iter().find(|p| p.card == card) else {
                    continue;
                };
                let now = player.placed(card);
                if now == Some(want) {
                    continue;
                }
                match player.on_slot(want.slot) {
                    Some(other) if other.card != card => out.push(
                        TakeBackBuildingCard {
                            card: other.card as Card,
                        }
                        .into(),
                    ),
                    _ => out.push(lay(now.is_some(), want)),
                }
            }
            if out.is_empty() && player.all_placed() {
                out.push(DeclareCityFinished {}.into());
            }
            out.dedup();
            out
        }
        _ => Vec::new(),
    }
}

/// Puts a card where the plan wants it: placed from the hand, or moved there from the board.
fn lay(on_board: bool, want: &Placement) -> SpaceBuilderCommand {
    if on_board {
        MoveBuildingCard {
            card: want.card,
            slot: want.slot,
            face: want.face,
            rotation: want.rotation,
        }
        .into()
    } else {
        PlaceBuildingCard {
            card: want.card,
            slot: want.slot,
            face: want.face,
            rotation: want.rotation,
        }
        .into()
    }
}

/// Fills in what `input`'s seat cannot see of `guess` (the seat's log folded), at random.
fn imagine(guess: &mut GameState, input: &BotInput, rng: &mut GameRng) -> Result<(), BotError> {
    let state = guess
        .downcast_mut::<State>()
        .ok_or_else(|| BotError::BadLog("not a Space Builder game".into()))?;
    if state.phase != Phase::Building {
        return Ok(());
    }
    if state.blueprint.is_none() && !state.pile.is_empty() {
        let number = state.pile[rng.index(state.pile.len())];
        let turn = rng.below(u64::from(ROTATIONS)) as u8;
        state.blueprint = Some(revealed(number, turn));
    }
    let plan = state.blueprint.as_ref().map(target).unwrap_or_default();
    for (seat, player) in state.players.iter_mut().enumerate() {
        if seat == usize::from(input.seat) {
            continue;
        }
        let placed = input.view["players"][seat]["placed"].as_u64().unwrap_or(0) as usize;
        let mut hand = player.hand.clone();
        rng.shuffle(&mut hand);
        player.city = hand
            .iter()
            .take(placed)
            .filter_map(|&card| plan.iter().find(|p| p.card == card).copied())
            .collect();
    }
    Ok(())
}
