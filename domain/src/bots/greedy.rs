//! The greedy level: each legal command is tried in a few imagined games (the hidden cards
//! guessed anew in each), and the one whose positions evaluate best on average is sent.

use serde_json::Value;

use super::error::BotError;
use super::evaluate::rewards;
use super::input::BotInput;
use super::rules::BotRules;
use super::simulate::{apply, typed};
use crate::rng::GameRng;

/// Imagined games per choice: each command is tried in the same ones.
const GUESSES: usize = 6;

pub fn choose(
    rules: &dyn BotRules,
    input: &BotInput,
    rng: &mut GameRng,
) -> Result<Value, BotError> {
    let game = rules.game();
    let mut guess = rules.guesser(input)?;
    let guesses = (0..GUESSES)
        .map(|_| guess(rng))
        .collect::<Result<Vec<_>, _>>()?;
    let seat = input.seat as usize;
    let moves: Vec<Value> = rules
        .candidates(&guesses[0], input.seat, input.moves.clone())
        .into_iter()
        .filter(|m| input.moves.contains(m))
        .collect();
    let moves = if moves.is_empty() {
        input.moves.clone()
    } else {
        moves
    };
    let moves = typed(game, rules.keep_moving(input, &guesses[0], moves));
    let mut best: Option<(f64, &Value)> = None;
    for (json, command) in &moves {
        let (mut total, mut tried) = (0.0, 0);
        for guess in &guesses {
            let mut state = guess.clone();
            if apply(game, &mut state, input.seat, command, rng).is_ok() {
                total += rewards(rules, &state)[seat];
                tried += 1;
            }
        }
        if tried == 0 {
            continue;
        }
        let mean = total / tried as f64;
        if best.is_none_or(|(b, _)| mean > b) {
            best = Some((mean, json));
        }
    }
    // A command no imagined game accepted cannot be judged; any legal one will do then.
    Ok(best.map_or_else(|| input.moves[0].clone(), |(_, c)| c.clone()))
}
